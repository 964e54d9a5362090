"""The house's layout: folders that show the layers, no import circle, each module importable
alone, and docs/guide.md describing the folders that exist.

The layers, bottom up (``LAYERS``): a module imports from its own layer and the layers below,
never above; the package root's utilities (``ROOT_UTILITIES``) import nothing of bgrecord. An
import made inside a function counts too, but for the exceptions in ``UPWARD_HOOKS`` (a
position draws itself through the board and SVG modules, as python-chess's board does).
Imports under ``if TYPE_CHECKING`` count as imports.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bgrecord"
LAYERS = ["core", "formats", "replay", "writing", "tables", "analysis", "show", "report", "cli"]
ROOT_UTILITIES = {"bgrecord.extras", "bgrecord.outputs", "bgrecord.escapes", "bgrecord.names", "bgrecord.processes"}
UPWARD_HOOKS = {("bgrecord.core.position", "bgrecord.show.board"), ("bgrecord.core.position", "bgrecord.show.svg")}
ENTRY_POINTS = {"bgrecord.__main__", "bgrecord.launch"}  # the console script's: above every layer, as the package is
NOT_IMPORTABLE = {"bgrecord.analysis.gnubg_script"}  # runs inside GNU Backgammon, which gives it the gnubg module


def module_names() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = module_names()


def imports_of(name: str) -> list[tuple[str, bool]]:
    """The bgrecord modules ``name`` imports, each with whether at module level (True) or
    inside a function (False)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def target(module: str, names: list[str]) -> list[str]:
        out = []
        for imported in names:
            full = f"{module}.{imported}"
            out.append(full if full in MODULES else module)
        return out

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((alias.name, top) for alias in child.names if alias.name.startswith("bgrecord"))
            elif isinstance(child, ast.ImportFrom):
                module = child.module or ""
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    module = ".".join(base + ([module] if module else []))
                names = [alias.name for alias in child.names if alias.name != "__version__"]  # the package's version: no module
                if module.startswith("bgrecord") and names:
                    found.extend((each, top) for each in target(module, names))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), True)
    return [(module, top) for module, top in found if module != name]


def layer(name: str) -> int | None:
    """The index of the module's layer in LAYERS; -1 for a root utility; None for the package
    itself and its entry points."""
    parts = name.split(".")
    if len(parts) == 1 or name in ENTRY_POINTS:
        return None
    if len(parts) == 2 and parts[1] not in LAYERS:
        return -1
    return LAYERS.index(parts[1])


def test_every_module_has_a_layer() -> None:
    loose = [name for name in MODULES if layer(name) == -1 and name not in ROOT_UTILITIES]
    assert not loose, f"modules at the package root that belong in a layer's folder: {loose}"


def test_no_import_circle() -> None:
    graph = {name: {module for module, top in imports_of(name) if top and module in MODULES} for name in MODULES}
    done: set[str] = set()
    path: list[str] = []

    def walk(name: str) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(name) :] + [name]))
        if name in done:
            return
        path.append(name)
        for module in sorted(graph[name]):
            walk(module)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        walk(name)


def test_each_layer_imports_only_what_is_below_it() -> None:
    wrong = []
    for name in MODULES:
        own = layer(name)
        if own is None:
            continue
        for module, top in imports_of(name):
            if module == "bgrecord":  # the package's lazy names are for users: inside, import from the module
                wrong.append(f"{name} imports from the package bgrecord")
                continue
            theirs = layer(module)
            if theirs is None:
                continue
            if own == -1:
                if theirs != -1:
                    wrong.append(f"{name} (a root utility) imports {module}")
            elif theirs > own and (top or (name, module) not in UPWARD_HOOKS):
                wrong.append(f"{name} ({LAYERS[own]}) imports {module} ({LAYERS[theirs]}){'' if top else ' in a function'}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_the_layout_test_sees_what_it_checks() -> None:
    """The walk finds imports of every kind (a check that found nothing would pass)."""
    kinds = {(module, top) for module, top in imports_of("bgrecord.core.position")}
    assert ("bgrecord.core.movegen", True) in kinds and ("bgrecord.show.board", False) in kinds
    assert ("bgrecord.core.position", True) in set(imports_of("bgrecord.show.board"))  # under TYPE_CHECKING


@pytest.mark.parametrize("name", sorted(set(MODULES) - NOT_IMPORTABLE))
def test_each_module_imports_alone_in_a_fresh_interpreter(name: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_guide_describes_the_folders_that_exist() -> None:
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    section = guide.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    described = set(re.findall(r"`bgrecord/(\w+)/`", section))
    folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert described == folders
    assert set(LAYERS) == folders
