"""Where the Lark grammars are: inside the installed package (``bgrecord/grammars``, put
there by the wheel), else in the source checkout's ``grammars/`` folder."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def grammar_text(name: str) -> str:
    packaged = resources.files("bgrecord").joinpath("grammars", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parent.parent / "grammars" / name).read_text(encoding="utf-8")
