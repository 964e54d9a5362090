"""What importing costs: ``import bgrecord`` and ``bgrecord --help`` load no more than they use
(every ``-j`` worker and Dask task starts the same way; benchmarks/startup.py times it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("lark", "pandas", "numpy", "rich", "bgrecord.core.position", "bgrecord.formats.reader", "bgrecord.replay")


def loaded_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nimport json; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_import_bgrecord_loads_its_names_when_first_used() -> None:
    modules = loaded_after("import bgrecord")
    assert not modules & set(HEAVY)
    modules = loaded_after("from bgrecord import Position; Position.start()")
    assert "bgrecord.core.position" in modules and "lark" not in modules


def test_help_loads_no_library_module_it_does_not_need() -> None:
    modules = loaded_after(
        "from bgrecord.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    assert not modules & set(HEAVY)


def test_every_public_name_resolves() -> None:
    import bgrecord

    for name in bgrecord.__all__:
        assert getattr(bgrecord, name) is not None
    assert "Position" in dir(bgrecord)


def test_find_loads_neither_pandas_nor_the_readers(tmp_path: Path) -> None:
    """``bgrecord find`` on a SQLite index: a lookup, not a library's start (issue 33: under 0.1 s over ``--help``)."""
    from bgrecord.cli import main as cli

    database = tmp_path / "archive.sqlite"
    try:
        cli(["index", str(ROOT / "samples" / "bbgt-two-matches.mat"), "-o", str(database), "-q"])
    except SystemExit:
        pass
    modules = loaded_after(
        "from bgrecord.cli import main\n"
        f"try:\n    main(['find', {str(database)!r}, '4HPwATDgc/ABMA', '--format', 'json'])\nexcept SystemExit:\n    pass"
    )
    assert "bgrecord.tables.search" in modules and not modules & {"lark", "pandas", "numpy", "bgrecord.formats.reader", "bgrecord.replay"}


def test_index_into_sqlite_loads_neither_pandas_nor_numpy(tmp_path: Path) -> None:
    """An index run's tables are rows, not frames: the main process starts its workers without
    pandas (a worker forked from it inherits what it loaded), and SQLite needs neither."""
    database = tmp_path / "archive.sqlite"
    modules = loaded_after(
        "from bgrecord.cli import main\n"
        f"try:\n    main(['index', {str(ROOT / 'samples')!r}, '-o', {str(database)!r}, '-q'])\nexcept SystemExit:\n    pass"
    )
    assert database.stat().st_size > 0
    assert "bgrecord.tables.archive" in modules and not modules & {"pandas", "numpy"}


def test_find_in_duckdb_loads_only_duckdbs_core(tmp_path: Path) -> None:
    """``bgrecord find`` on a DuckDB index opens it with DuckDB's compiled core: the package's
    Python layer (and pandas, numpy) is not loaded, and what is found is what SQLite's index finds."""
    import pytest

    pytest.importorskip("duckdb", reason="the db extra (DuckDB) is not installed")
    from bgrecord.cli import main as cli

    found = {}
    for engine in ("duckdb", "sqlite"):
        database = tmp_path / f"archive.{engine}"
        try:
            cli(["index", str(ROOT / "samples" / "bbgt-two-matches.mat"), "-o", str(database), "-q"])
        except SystemExit:
            pass
        script = (
            "from bgrecord.cli import main\n"
            f"try:\n    main(['find', {str(database)!r}, '4HPwATDgc/ABMA', '--format', 'json'])\nexcept SystemExit:\n    pass"
        )
        done = subprocess.run([sys.executable, "-c", script + "\nimport sys; print(sorted(sys.modules))"], capture_output=True, text=True,
                              check=True, cwd=ROOT)  # fmt: skip
        document, _, modules = done.stdout.rpartition("\n[")
        found[engine] = json.loads(document)
        if engine == "duckdb":
            assert "'_duckdb'" in modules and not {"'duckdb'", "'pandas'", "'numpy'"} & set(modules.rstrip("]\n").split(", "))
    assert found["duckdb"] == found["sqlite"] and found["duckdb"]["occurrences"]
