"""``bgrecord analyze`` as a command: the conventions of ``stats`` (formats, atomic outputs,
the same bytes for any number of workers or a Dask cluster), a database that keeps analyses,
``find`` and ``replay`` with an analysis, the docs. Tests that run gnubg skip where it is not
installed (CI installs it)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import DATA
from test_analysis import needs_gnubg, run

from bgrecord.analysis.tables import DECISION_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS

FIXTURES = DATA / "analysis"  # made by tests/data/analysis/generate.sh


# --- the command's conventions ---


@needs_gnubg
def test_tables_in_every_format_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="Parquet needs bgrecord[parquet]")
    files = [str(path) for path in sorted(FIXTURES.glob("noisy-*.mat"))]
    outputs = {}
    for jobs in ("1", "3"):
        folder = tmp_path / f"j{jobs}"
        folder.mkdir()
        code, _, err = run("analyze", *files, "-o", str(folder / "d.csv"), "--players", str(folder / "p.jsonl"),
                           "--matches", str(folder / "m.parquet"), "-j", jobs)  # fmt: skip
        assert code == 0, err
        outputs[jobs] = {name: (folder / name).read_bytes() for name in ("d.csv", "p.jsonl", "m.parquet")}
    assert outputs["1"] == outputs["3"]
    decisions = pd.read_csv(tmp_path / "j1" / "d.csv")
    assert list(decisions.columns) == list(DECISION_COLUMNS)
    players = pd.read_json(tmp_path / "j1" / "p.jsonl", lines=True)
    assert list(players.columns) == list(PLAYER_COLUMNS) and len(players) == 10
    assert list(pd.read_parquet(tmp_path / "j1" / "m.parquet").columns) == list(MATCH_COLUMNS)
    # an output that exists is kept unless --overwrite; --players is needed
    code, _, err = run("analyze", files[0], "-o", str(tmp_path / "j1" / "d.csv"), "--players", str(tmp_path / "p.csv"))
    assert code == 2 and "exists (--overwrite replaces it)" in err
    code, _, err = run("analyze", files[0], "-o", str(tmp_path / "x.csv"))
    assert code == 2 and "--players" in err


@needs_gnubg
def test_the_decisions_table_to_standard_output_and_as_a_dataset(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="Parquet needs bgrecord[parquet]")
    file = str(FIXTURES / "noisy-3pt.mat")
    code, out, _ = run("analyze", file, "-o", "-", "--players", str(tmp_path / "p.csv"), "-q")
    assert code == 0 and out.splitlines()[0] == ",".join(DECISION_COLUMNS)
    code, _, err = run("analyze", file, "-o", str(tmp_path / "set") + "/", "--players", str(tmp_path / "p2.csv"))
    assert code == 0, err
    assert len(pd.read_parquet(tmp_path / "set")) == len(out.splitlines()) - 1


@needs_gnubg
def test_a_dask_cluster_gives_the_same_tables(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    files = [str(FIXTURES / "noisy-3pt.mat"), str(FIXTURES / "noisy-5pt.mat")]
    for name, extra in (("local", ["-j", "1"]), ("dask", ["--scheduler", "local", "-j", "2"])):
        code, _, err = run("analyze", *files, "-o", str(tmp_path / f"{name}.csv"), "--players", str(tmp_path / f"{name}-p.csv"), *extra)
        assert code == 0, err
    assert (tmp_path / "local.csv").read_bytes() == (tmp_path / "dask.csv").read_bytes()
    assert (tmp_path / "local-p.csv").read_bytes() == (tmp_path / "dask-p.csv").read_bytes()


@needs_gnubg
def test_a_database_keeps_analyses_and_find_shows_the_errors(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    database = str(tmp_path / "archive.duckdb")
    files = [str(FIXTURES / "noisy-3pt.mat"), str(FIXTURES / "noisy-7pt.mat")]
    code, _, err = run("analyze", *files, "-o", database)
    assert code == 0 and "2 matches analysed" in err
    code, _, err = run("analyze", *files, "-o", database)  # the second run costs nothing: gnubg is not needed
    assert code == 0 and "0 matches analysed, 2 matches analysed before: 0 decisions" in err
    code, _, err = run("index", *files, "-o", database)
    assert code == 0, err
    import duckdb

    connection = duckdb.connect(database, read_only=True)
    errors = connection.execute("SELECT position_id, error, mark, kind FROM decisions WHERE error > 0.12 AND kind = 'checker' "
                                "ORDER BY error DESC LIMIT 1").fetchall()  # fmt: skip
    stored = connection.execute("SELECT count(*) FROM analysis_players").fetchone()
    connection.close()
    assert stored == (4,)
    position, error, mark, _ = errors[0]
    code, out, _ = run("find", database, position, "--format", "json")
    found = json.loads(out)["occurrences"]
    assert code == 0 and any(d["error"] == pytest.approx(error) and d["mark"] == mark for o in found for d in o["analysis"])
    code, out, _ = run("find", database, position)
    assert f"error {error:.3f} (very bad" in out


@needs_gnubg
def test_index_keeps_tables_analyze_wrote(tmp_path: Path) -> None:
    file = str(FIXTURES / "noisy-5pt.mat")
    run("analyze", file, "-o", str(tmp_path / "d.jsonl"), "--players", str(tmp_path / "p.csv"), "--matches", str(tmp_path / "m.csv"))
    database = tmp_path / "a.sqlite"
    code, _, err = run("index", file, "-o", str(database), "--analysis", str(tmp_path / "d.jsonl"), "--analysis",
                       str(tmp_path / "p.csv"), "--analysis", str(tmp_path / "m.csv"))  # fmt: skip
    assert code == 0, err
    import sqlite3

    connection = sqlite3.connect(database)
    assert connection.execute("SELECT count(*) FROM decisions").fetchone()[0] == len(pd.read_json(tmp_path / "d.jsonl", lines=True))
    assert connection.execute("SELECT count(*) FROM analysis_players").fetchone()[0] == 2
    connection.close()
    code, _, err = run("index", file, "-o", str(database), "--analysis", file)
    assert code == 2 and "not a table written by bgrecord analyze" in err


@needs_gnubg
def test_replay_shows_each_steps_error_and_luck(tmp_path: Path) -> None:
    file = str(FIXTURES / "noisy-5pt.mat")
    code, text, _ = run("replay", file, "--analyze", "--no-board")
    assert code == 0
    said = [line for line in text.splitlines() if line.startswith(" Analysis at 0 ply:")]
    assert len(said) > 20 and any("error" in line and "best" in line for line in said) and any("luck +" in line for line in said)
    assert any(re.search(r"(double|take|no double) (right|error)", line) for line in said)
    run("analyze", file, "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"))
    code, again, _ = run("replay", file, "--analysis", str(tmp_path / "d.csv"), "--no-board")
    assert code == 0 and again == text
    code, lines, _ = run("replay", file, "--analysis", str(tmp_path / "d.csv"), "--format", "jsonl")
    steps = [json.loads(line) for line in lines.splitlines()]
    checker = [a for step in steps for a in step["analysis"] if a["kind"] == "checker"]
    decisions = pd.read_csv(tmp_path / "d.csv")
    assert len(checker) == (decisions["kind"] == "checker").sum()
    code, page, _ = run("replay", file, "--analysis", str(tmp_path / "d.csv"), "--format", "html")
    assert code == 0 and "Analysis at 0 ply" in page
    code, _, err = run("replay", file, "--analysis", str(tmp_path / "p.csv"))
    assert code == 2 and "players table" in err


def test_replay_without_an_analysis_is_unchanged() -> None:
    code, out, _ = run("replay", str(FIXTURES / "noisy-5pt.mat"), "--format", "jsonl")
    assert code == 0 and all("analysis" not in json.loads(line) for line in out.splitlines())


# --- docs, start-up ---


def test_docs_say_every_column_and_the_help() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs"
    analysis = (docs / "analysis.md").read_text(encoding="utf-8")
    for column in (*DECISION_COLUMNS, *PLAYER_COLUMNS, *MATCH_COLUMNS):
        assert f"`{column}`" in analysis, column
    code, out, _ = run("analyze", "--help")
    assert code == 0 and out in (docs / "cli.md").read_text(encoding="utf-8")


def test_other_commands_do_not_load_the_analysis_code() -> None:
    program = ("import sys; from click.testing import CliRunner; from bgrecord.cli import main; "
               f"CliRunner().invoke(main, ['--help']); CliRunner().invoke(main, ['replay', {str(FIXTURES / 'noisy-5pt.mat')!r}]); "
               "CliRunner().invoke(main, ['analyze', '--help']); "
               "print(sorted(m for m in sys.modules if m.startswith('bgrecord.analysis')))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env={**os.environ}, check=True)
    assert done.stdout.strip() == "[]"
