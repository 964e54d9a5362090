"""The console script's launcher (:mod:`bgrecord.launch`): a search's DuckDB index is opened
while the commands load, and the search is the one the command makes by itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from test_archive import copy_samples, run

from bgrecord.cli.database import find
from bgrecord.launch import FIND_VALUED, begin_search
from bgrecord.tables import opening


def test_the_launcher_knows_finds_options_that_take_a_value() -> None:
    taking = {name for option in find.params if isinstance(option, click.Option) and not option.is_flag for name in option.opts}
    assert FIND_VALUED == taking


def test_a_duckdb_index_to_search_is_begun_and_taken_by_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("duckdb")
    monkeypatch.setattr(opening, "_BEGUN", {})
    index = tmp_path / "archive.duckdb"
    assert run("index", str(copy_samples(tmp_path / "samples")), "-o", str(index)).exit_code == 0
    (tmp_path / "archive.sqlite").write_bytes(b"")
    for arguments in (["validate", str(index)], ["find"], ["find", str(tmp_path / "archive.sqlite"), "4HPwATDgc/ABMA"],
                      ["find", str(tmp_path / "missing.duckdb"), "x"], ["find", "--limit", str(index)]):  # fmt: skip
        begin_search(arguments)
        assert opening._BEGUN == {}, arguments
    for arguments in (["find", str(index), "4HPwATDgc/ABMA"], ["find", "--dice", "--limit", "3", "--format=json", str(index), "x"],
                      ["find", "--", str(index), "x"]):  # fmt: skip
        begin_search(arguments)
        begun = opening._BEGUN[str(index)]
        assert opening.Opening.of(str(index)) is begun and opening._BEGUN == {}
        begun.close()
    direct = run("find", str(index), "4HPwATDgc/ABMA", "--limit", "5")
    assert direct.exit_code == 0 and direct.stdout.count("\n") == 5
    begin_search(["find", str(index), "4HPwATDgc/ABMA"])
    assert run("find", str(index), "4HPwATDgc/ABMA", "--limit", "5").stdout == direct.stdout and opening._BEGUN == {}  # taken
    python = [sys.executable, "-m", "bgrecord", "find", str(index), "4HPwATDgc/ABMA", "--limit", "5"]
    launched = subprocess.run(python, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert launched.returncode == 0 and launched.stdout == direct.stdout
    broken = tmp_path / "broken.duckdb"
    broken.write_bytes(b"not a database")
    failed = subprocess.run([sys.executable, "-m", "bgrecord", "find", str(broken), "4HPwATDgc/ABMA"], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert failed.returncode == 2 and "broken.duckdb: not a database" in failed.stderr and "Traceback" not in failed.stderr
