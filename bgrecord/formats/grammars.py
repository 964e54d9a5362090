"""Where the Lark grammars are: inside the installed package (``bgrecord/grammars``, put
there by the wheel), else in the source checkout's ``grammars/`` folder."""

from __future__ import annotations

from pathlib import Path


def grammar_text(name: str) -> str:
    here = Path(__file__).resolve().parents[1]  # the package's folder
    for folder in (here / "grammars", here.parent / "grammars"):  # the installed package, the source checkout
        if (folder / name).is_file():
            return (folder / name).read_text(encoding="utf-8")
    from importlib import resources  # a package that is not files on disk (a zip archive)

    return resources.files("bgrecord").joinpath("grammars", name).read_text(encoding="utf-8")
