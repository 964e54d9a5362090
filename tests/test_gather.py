"""How a command finds its files: folders walked as the work asks (flat memory whatever the
archive's size), in the order of their sorted paths, each file once whatever arguments
overlap, and the same files and problems whether found before the work or during it."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path
from typing import Callable, Iterable

import pytest

from bgrecord.cli import common
from bgrecord.cli.inputs import Found, gather
from bgrecord.formats.reader import is_match_file, walk_match_files

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def sorted_walk(folder: str) -> list[str]:
    """The match files below ``folder`` as every path found, sorted (what a walk must give)."""
    children = [Path(top, name) for top, _, names in os.walk(folder) for name in names]
    return [str(child) for child in sorted(children) if is_match_file(str(child)) and child.is_file()]


def everything_seen(paths: list[str]) -> list[str]:
    """The files of ``paths`` as a set of every name found decides them: each once, as first named."""
    seen: set[str] = set()
    found = []
    for name in paths:
        names = sorted_walk(name) if os.path.isdir(name) else [name] if os.path.exists(name) or name == "-" else []
        for file in names:
            if file not in seen:
                seen.add(file)
                found.append(file)
    return found


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Folders with names that sort tightly (``a``, ``a b``, ``a.mat``, ``a-b``), a folder and a
    file linked to, a hidden file and a file of another kind."""
    monkeypatch.chdir(tmp_path)
    text = (SAMPLES / "bbgt-two-matches.mat").read_bytes()
    for name in ("A/a/x.mat", "A/a.mat", "A/a b/y.mat", "A/a-b/z.MAT", "A/a/deeper/w.sgf", "A/b.txt", "A/.hidden.mat", "B/v.mat", "B/u.mat"):
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_bytes(text)
    os.symlink(tmp_path / "B", "A/linked")
    os.symlink(tmp_path / "B" / "v.mat", "A/v-link.mat")
    os.symlink(tmp_path / "gone.mat", "A/dangling.mat")
    return tmp_path


def test_a_walk_gives_the_sorted_paths_as_it_goes(tree: Path) -> None:
    for folder in ("A", "./A/", str(tree / "A"), ".", "A/a"):
        assert list(walk_match_files(folder)) == sorted_walk(folder), folder
    if (SAMPLES.parent.parent / "shared" / "corpus").is_dir():
        corpus = str(SAMPLES.parent.parent / "shared" / "corpus")
        assert list(walk_match_files(corpus)) == sorted_walk(corpus)


@pytest.mark.parametrize(
    "paths",
    [["A"], ["A", "A"], ["A", "A/a"], ["A/a", "A"], ["A/a.mat", "A"], ["A", "A/a.mat"], ["A", "./A/a.mat"], ["A", "A/linked"],
     ["A/linked", "A"], ["A", "A/linked/v.mat"], ["A", "B"], ["B", "A"], [".", "A"], ["A", "."], [".", "A/a/x.mat"], ["A/v-link.mat", "A"],
     ["A", "missing", "A/b.txt", "A/b.txt", "B/u.mat"]],  # fmt: skip
)
def test_each_file_once_as_first_named_whatever_the_arguments_overlap(tree: Path, paths: list[str]) -> None:
    assert list(Found(paths)) == everything_seen(paths)


def test_found_before_or_during_the_work_the_same_files_and_problems(tree: Path) -> None:
    os.mkdir("empty")
    paths = ["A", "nothing-here", "empty", "B/u.mat", "A/a"]
    eager, lazy = gather(paths), gather(paths, lazily=True)
    assert lazy.count == 0 and not lazy.missing  # nothing found before it is asked for
    assert list(lazy.files) == eager.files and lazy.count == eager.count == len(eager.files)
    assert lazy.problems == eager.problems == ["nothing-here: no such file or folder", "empty: no match file in this folder"]
    assert list(lazy.files) == eager.files and lazy.problems == eager.problems  # a second pass: the same, not twice over


def test_a_lazy_walk_holds_a_folder_not_the_archive(tmp_path: Path) -> None:
    """Memory while walking 20 folders of 200 files is about a folder's, not 4,000 names'."""
    for folder in range(20):
        (tmp_path / f"{folder:02}").mkdir()
        for file in range(200):
            (tmp_path / f"{folder:02}" / f"match-{file:04}-{'x' * 40}.mat").write_text("1 point match\n")

    def peak(files: Callable[[], Iterable[str]]) -> int:
        tracemalloc.start()
        try:
            for _ in files():
                pass
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    walked, listed = peak(lambda: Found([str(tmp_path)])), peak(lambda: gather([str(tmp_path)]).files)
    assert walked < listed / 4, (walked, listed)


def test_workers_are_started_from_the_first_files_found(monkeypatch: pytest.MonkeyPatch, tree: Path) -> None:
    """With files found as the work goes, the workers are sized from the first few, as from all."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(common, "_BYTES_PER_WORKER", 1)
    first = common._enough(iter(Found(["A", "B"])), lambda unit: unit, 0)
    assert len(first) == 2 and common.worker_count(0, first) == 2
    assert len(common._enough(iter(Found(["A", "B"])), lambda unit: unit, 5)) == 2  # jobs asked: only whether there are two


@pytest.mark.parametrize("command", [["validate"], ["stats", "-o", "games.csv"], ["index", "-o", "index.sqlite"]])
def test_an_archive_is_walked_once_when_the_outputs_are_new(tree: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    """An output that names no file is none of the inputs: nothing to look at before the work."""
    from click.testing import CliRunner

    from bgrecord.cli import main

    walks = []
    walk = Found.__iter__
    monkeypatch.setattr(Found, "__iter__", lambda self: walks.append(1) or walk(self))
    result = CliRunner().invoke(main, [command[0], "A", "-q", *command[1:]])
    assert result.exit_code == 0 and len(walks) == 1, (result.output, walks)
    if command[0] != "validate":
        walks.clear()
        again = CliRunner().invoke(main, [command[0], "A", "-q", *command[1:], *(["--overwrite"] if command[0] == "stats" else [])])
        assert again.exit_code == 0 and len(walks) == 2, (again.output, walks)  # the output exists: looked for among the inputs first
