"""The match database: index (DuckDB and SQLite), find by every kind of ID, duplicates, updates
that never lose what was there, Dask clusters, and Parquet datasets."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import click
import pandas as pd
import pytest
from click.testing import CliRunner, Result

from bgrecord.cli import main
from bgrecord.core.ids import XGID, MatchState
from bgrecord.core.position import Position
from bgrecord.formats.reader import match_files
from bgrecord.show.steps import step_records
from bgrecord.tables import archive, copies, read_back, search, stats
from bgrecord.tables.database import Database
from bgrecord.tables.schema import INDEX_GAME_COLUMNS, TABLES

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def copy_samples(folder: Path) -> Path:
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns("*.py", "*.sh", "*.md"))
    return folder


def table(path: Path, name: str) -> pd.DataFrame:
    """A table of the index at ``path``: the positions as the rows they stand for, the others as stored."""
    if name == "positions":
        return pd.DataFrame(list(read_back.positions(path)), columns=list(read_back.POSITION_ROW_COLUMNS))
    database = Database(path)
    try:
        columns = list(INDEX_GAME_COLUMNS if name == "games" else TABLES[name])
        order = "file, match, game" if name == "games" else columns[0]
        return pd.DataFrame([tuple(r) for r in database.query(f"SELECT * FROM {name} ORDER BY {order}")], columns=columns)
    finally:
        database.close()


@pytest.fixture(params=["sqlite", "duckdb"])
def engine(request: pytest.FixtureRequest) -> str:
    if request.param == "duckdb":
        pytest.importorskip("duckdb")
    return str(request.param)


def test_an_index_holds_the_stats_tables_and_every_position(tmp_path: Path, engine: str) -> None:
    samples = copy_samples(tmp_path / "samples")
    db = tmp_path / f"archive.{engine}"
    result = run("index", str(samples), "-o", str(db))
    assert result.exit_code == 0, result.output
    games = table(db, "games")
    expected = stats.games([samples])
    assert list(games.columns)[-len(stats.GAME_COLUMNS) :] == list(stats.GAME_COLUMNS) and len(games) == len(expected) == 41
    ours = games.sort_values(["file", "match", "game"]).reset_index(drop=True)
    theirs = expected.sort_values(["file", "match", "game"]).reset_index(drop=True)
    for column in ("file", "match_key", "duplicate_of", "winner", "points", "dice0", "valid"):
        assert ours[column].astype(object).where(ours[column].notna(), None).tolist() == \
            theirs[column].astype(object).where(theirs[column].notna(), None).tolist(), column  # fmt: skip
    positions = table(db, "positions")
    steps = [r for path in match_files([samples]) for r in step_records(path) if r.position is not None]
    assert len(positions) == len(steps) and set(positions["position_id"]) == {r.position.id() for r in steps}  # type: ignore[union-attr]
    assert set(table(db, "players")["player"]) >= {"Alice", "Bob", "Jake Jacobs"}


def occurrences(samples: Path) -> dict[str, set[tuple[str, int, int]]]:
    """Where each position occurs, from the replays themselves: (file, game, line)."""
    found: dict[str, set[tuple[str, int, int]]] = {}
    for path in match_files([samples]):
        for record in step_records(path):
            if record.position is not None:
                found.setdefault(record.position.id(), set()).add((str(path), record.game_in_match, record.line))
    return found


def test_find_returns_every_occurrence_and_nothing_else_by_each_kind_of_id(tmp_path: Path, engine: str) -> None:
    samples = copy_samples(tmp_path / "samples")
    db = tmp_path / f"archive.{engine}"
    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    truth = occurrences(samples)
    records = [r for path in match_files([samples]) for r in step_records(path) if r.position is not None and r.ogid]
    for record in records[::31]:
        position_id = record.position.id()  # type: ignore[union-attr]
        state = record.match_state
        identifiers = [position_id, f"{position_id}:{state.id()}", str(XGID.from_gnubg(record.position, state)), record.ogid]  # type: ignore[arg-type]
        for identifier in identifiers:
            wanted = search.Wanted.of(str(identifier))
            assert wanted.position_id == position_id, identifier
            found = {(row["file"], row["game"], row["line"]) for row in search.find(db, wanted)}
            assert found == truth[position_id], identifier


def test_find_writes_its_lines_a_block_at_a_time_and_the_same_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """find writes its occurrences a block of lines at a time (a write a line cost a third of its
    time on 4,403), the same lines whatever the block, each once, the count after them."""
    from bgrecord.cli import database as commands

    db = tmp_path / "archive.sqlite"
    assert run("index", str(copy_samples(tmp_path / "samples")), "-o", str(db)).exit_code == 0
    whole = run("find", str(db), "4HPwATDgc/ABMA").output
    lines = whole.splitlines()
    assert len(lines) > 10 and lines[-1] == f"{len(lines) - 1} occurrences of 4HPwATDgc/ABMA"
    writes: list[str] = []
    echo = click.echo
    monkeypatch.setattr(commands, "LINES_AT_ONCE", 4)
    monkeypatch.setattr(click, "echo", lambda message=None, **kw: writes.append(str(message)) or echo(message, **kw))
    assert run("find", str(db), "4HPwATDgc/ABMA").output == whole
    blocks = [block.splitlines() for block in writes[:-1]]  # the last: the count, on standard error
    assert [len(block) for block in blocks] == [4] * ((len(lines) - 1) // 4) + ([(len(lines) - 1) % 4] if (len(lines) - 1) % 4 else [])
    assert sum(blocks, []) == lines[:-1]


def test_find_on_the_command_line_with_dice_cube_and_score(tmp_path: Path) -> None:
    db = tmp_path / "archive.sqlite"
    assert run("index", str(copy_samples(tmp_path / "samples")), "-o", str(db)).exit_code == 0
    start = Position.start().id()
    everywhere = run("find", str(db), start)
    assert everywhere.exit_code == 0 and "occurrences of 4HPwATDgc/ABMA" in everywhere.output
    rolled = MatchState(dice=(5, 2), length=3, score=(1, 0), player=1, turn=1)
    with_dice = run("find", str(db), f"{Position.start().id()}:{rolled.id()}", "--dice", "--score", "--format", "json")
    assert with_dice.exit_code == 0
    document = json.loads(with_dice.output[: with_dice.output.rindex("}") + 1])
    assert [(o["dice"], o["score0"], o["score1"], o["match_length"]) for o in document["occurrences"]] == [("52", 1, 0, 3)]
    assert run("find", str(db), "4HPwATDgc/ABMA", "--dice").exit_code == 2  # a bare Position ID has no dice
    assert run("find", str(db), "sGfwATDgc/ABMA:cAkAAAAAAAAE", "--dice").exit_code in (1, 2)
    nowhere = run("find", str(db), "AAAAAAAAAAAAAA")
    assert nowhere.exit_code == 2 or nowhere.exit_code == 1 and "0 occurrences" in nowhere.output


def test_duplicates_are_found_by_what_was_played_not_by_bytes_or_names(tmp_path: Path, engine: str) -> None:
    samples = copy_samples(tmp_path / "samples")
    shutil.copy(samples / "xg-tags-bom-crlf.mat", samples / "zz-copy-renamed.txt")
    games = stats.games([samples])
    twins = games[games["duplicate_of"].notna()].drop_duplicates(["file", "match"])
    assert sorted(Path(f).name for f in twins["file"]) == ["gnubg-5pt-crawford.sgf", "gnubg-money-jacoby.sgf", "zz-copy-renamed.txt"]
    assert set(twins["duplicate_of"].map(lambda d: Path(d).name)) == {"gnubg-5pt-crawford.mat#1", "gnubg-money-jacoby.mat#1", "xg-tags-bom-crlf.mat#1"}
    once = stats.games([samples], dedupe=True)
    assert len(once) == len(games) - len(games[games["duplicate_of"].notna()])
    db = tmp_path / f"dedupe.{engine}"
    assert run("index", str(samples), "-o", str(db), "--dedupe").exit_code == 0
    players = table(db, "players").set_index("player")
    assert players.loc["Jake Jacobs", "games"] == 2  # the renamed copy counted once
    indexed = table(db, "games")  # the byte-for-byte copy is listed in files as a copy, with no games of its own
    copies = games["file"].str.endswith("zz-copy-renamed.txt")
    assert indexed["duplicate_of"].notna().sum() == games[~copies]["duplicate_of"].notna().sum() and len(indexed) == len(games[~copies])
    files = table(db, "files").set_index("file")
    copy = files.loc[str(samples / "zz-copy-renamed.txt")]
    assert copy["games"] == 0 and files.loc[str(samples / "xg-tags-bom-crlf.mat"), "file_id"] == copy["copy_of"]


@pytest.mark.parametrize("at_once", [1, 2, 1000])
def test_the_index_marks_copies_the_keys_of_a_part_of_the_games_at_a_time_as_stats_marks_them(tmp_path: Path, engine: str, at_once: int,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Whatever the number of games marked at a time (a key's games all in one part, however
    many), the index's marks are stats's; a mark another program changed is made right again
    by the next run, none left on a game of its own."""
    monkeypatch.setattr(copies, "GAMES_MARKED_AT_ONCE", at_once)
    samples = copy_samples(tmp_path / "samples")
    expected = stats.games([samples])[["file", "match", "game", "duplicate_of"]]
    expected = sorted(expected.astype(object).where(expected.notna(), None).itertuples(index=False, name=None))
    assert sum(mark is not None for *_, mark in expected) >= 3  # three matches have a copy in another format
    db = tmp_path / f"archive.{engine}"

    def marks() -> list[tuple[Any, ...]]:
        database = Database(db)
        try:
            return sorted(tuple(row) for row in database.query("SELECT file, match, game, duplicate_of FROM games"))
        finally:
            database.close()

    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    assert marks() == expected
    database = Database(db)
    try:  # another program's marks: one taken off a copy, one put on a game of its own
        database.execute("UPDATE game_rows SET duplicate_of = NULL WHERE game_id = (SELECT MIN(game_id) FROM game_rows WHERE duplicate_of IS NOT NULL)")
        database.execute("UPDATE game_rows SET duplicate_of = 'stale#1' WHERE game_id = (SELECT MIN(game_id) FROM game_rows WHERE duplicate_of IS NULL)")
    finally:
        database.close()
    assert marks() != expected
    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    assert marks() == expected


def test_copies_are_marked_without_holding_the_archives_matches() -> None:
    """The first copy of each of 30,000 matches is kept outside Python's memory (a temporary
    database), and each later copy names it, whatever came between."""
    import tracemalloc

    from bgrecord.replay.matchkeys import Duplicates

    duplicates = Duplicates()
    rows = [{"match_key": f"{n:016x}", "file": f"archive/{n:06}.mat", "match": 1} for n in range(30_000)]
    tracemalloc.start()
    try:
        duplicates.mark(rows)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 100_000 and all(row["duplicate_of"] is None for row in rows)
    again = duplicates.mark([{"match_key": f"{n:016x}", "file": "copies.mat", "match": n} for n in (29_999, 0, 0, 17)])
    assert [row["duplicate_of"] for row in again] == ["archive/029999.mat#1", "archive/000000.mat#1", "archive/000000.mat#1", "archive/000017.mat#1"]
    assert duplicates.copies == 4


def test_a_grown_archive_adds_only_new_or_changed_files_and_never_loses_what_was_there(tmp_path: Path, engine: str,
                                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    samples = copy_samples(tmp_path / "samples")
    extra = tmp_path / "extra"
    extra.mkdir()
    db = tmp_path / f"archive.{engine}"
    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    before = table(db, "games")
    shutil.copy(SAMPLES / "bbgt-two-matches.mat", extra / "new.mat")
    again = run("index", str(samples), str(extra), "-o", str(db))
    assert "1 file added, 0 changed, 19 unchanged, 1 copy:" in again.output and len(table(db, "games")) == len(before)  # new.mat: a copy
    changed = samples / "bbgt-two-matches.mat"
    changed.write_text(changed.read_text().replace("Wins 1 point", "Wins 1 point", 1) + "\n")
    # its original changed: the copy is read again, and holds the games the original held
    assert "0 files added, 1 changed, 19 unchanged, 1 read again:" in run("index", str(samples), str(extra), "-o", str(db)).output
    assert len(table(db, "games")) == len(before) + 2
    kept = db.read_bytes()

    def interrupted(path: Any, rules: Any = None) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(archive, "index_rows", interrupted)
    (extra / "other.mat").write_text((SAMPLES / "gnubg-5pt-crawford.mat").read_text())
    CliRunner().invoke(main, ["index", str(extra), "-o", str(db), "-j", "1"])
    assert db.read_bytes() == kept and sorted(p.name for p in tmp_path.iterdir()) == sorted(["samples", "extra", db.name])


def test_what_is_not_an_index_is_never_changed(tmp_path: Path) -> None:
    other = tmp_path / "mine.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    kept = other.read_bytes()
    result = run("index", str(SAMPLES / "bbgt-two-matches.mat"), "-o", str(other))
    assert result.exit_code == 2 and "not a bgrecord index" in result.output and other.read_bytes() == kept
    assert run("index", str(SAMPLES), "-o", str(tmp_path / "archive.csv")).exit_code == 2


def test_a_dask_cluster_gives_the_same_tables_as_one_process(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    outputs = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        for name, options in (("one", ["-j", "1"]), ("cluster", ["--scheduler", cluster.scheduler_address])):
            out = tmp_path / name
            out.mkdir()
            result = run("stats", str(SAMPLES), "-o", str(out / "games.csv"), "--players", str(out / "players.csv"), *options)
            assert result.exit_code == 0, result.output
            outputs.append([(out / table).read_text() for table in ("games.csv", "players.csv")])
        validated = run("validate", str(SAMPLES), "--scheduler", cluster.scheduler_address)
    assert outputs[0] == outputs[1]
    assert validated.exit_code == 0 and validated.output == run("validate", str(SAMPLES), "-j", "1").output
    local = run("validate", str(SAMPLES / "bbgt-two-matches.mat"), str(SAMPLES / "gnubg-5pt-crawford.mat"), "--scheduler", "local", "-j", "2")
    assert local.exit_code == 0 and "2 files, 5 games" in local.output
    unreachable = run("validate", str(SAMPLES), "--scheduler", "tcp://127.0.0.1:9")
    assert unreachable.exit_code == 2 and "cannot reach the Dask scheduler" in unreachable.output


def test_a_parquet_dataset_partitioned_by_source_folder(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    archive_folder = tmp_path / "archive"
    for folder, name in (("2019/a", "bbgt-two-matches.mat"), ("2020", "xg-tags-bom-crlf.mat"), (".", "gnubg-5pt-crawford.mat")):
        (archive_folder / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLES / name, archive_folder / folder / name)
    out = tmp_path / "games"
    assert run("stats", str(archive_folder), "-o", f"{out}/").exit_code == 0
    data = pd.read_parquet(out)
    assert len(data) == 7 and sorted(data["source"].astype(str).unique()) == [".", "2019/a", "2020"]
    duckdb = pytest.importorskip("duckdb")
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}/**/*.parquet', hive_partitioning = true)").fetchall() == [(7,)]
    assert run("stats", str(archive_folder), "-o", f"{out}/").exit_code == 2  # exists: --overwrite replaces it
    assert run("stats", str(archive_folder), "-o", f"{out}/", "--overwrite", "--dedupe").exit_code == 0
    assert run("stats", str(archive_folder), "-o", f"{archive_folder}/").exit_code == 2  # never over the inputs
