"""The archive database of issue 33 (a compact schema, loading in bulk, search from the index,
Parquet datasets) and issue 30's promises on it: everything the index and ``find`` answered
before they still answer; stats's tables and the index's are equal, column by column, whatever
the path or the number of workers; a file is known by its resolved path and its content; one
play notation, accepted in any order by ``find``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from conftest import CORPUS
from index_oracle import expected_positions
from test_archive import copy_samples, run

from bgrecord.core.position import Position
from bgrecord.formats.reader import match_files
from bgrecord.formats.source import Input
from bgrecord.replay.matchkeys import content_key
from bgrecord.show.steps import step_records
from bgrecord.tables import positions as codes
from bgrecord.tables import archive, file_order, read_back, search, staging, stats, summaries, writing_rows
from bgrecord.tables.database import RELEASED_TO, SCHEMA_VERSION, Database
from bgrecord.tables import index_keys, schema
from bgrecord.tables.index_keys import keys, write_keys
from bgrecord.tables.schema import INDEX_GAME_COLUMNS, TABLES

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
HAS_DUCKDB = importlib.util.find_spec("duckdb") is not None
ENGINES = ["sqlite", pytest.param("duckdb", marks=pytest.mark.skipif(not HAS_DUCKDB, reason="DuckDB needs bgrecord[db]"))]
SUMMED = ("games", "players", "matches", "dice")
KEYS = {"positions": ("file", "match", "game", "step"), "games": ("file", "match", "game"), "matches": ("file", "match"),
        "players": ("player",), "dice": ("player",), "files": ("file", "path"), "start_positions": ("game", "step")}  # fmt: skip


def ordered(rows: list[dict[str, Any]], table: str) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda row: tuple(str(row.get(k)) for k in KEYS[table]))


def plain(value: Any) -> Any:
    """A cell as Python has it (NaN and NA as None, numpy numbers as numbers)."""
    if value is None or value is pd.NA or isinstance(value, float) and value != value:
        return None
    return value.item() if hasattr(value, "item") else value


def rows_of(path: Path, table: str) -> list[dict[str, Any]]:
    """A table of the index (or the positions as the rows they stand for), sorted."""
    if table == "positions":
        return ordered(list(read_back.positions(path)), table)
    database = Database(path)
    try:
        columns = list(INDEX_GAME_COLUMNS if table == "games" else TABLES[table])
        return ordered([dict(zip(columns, row)) for row in database.query(f"SELECT * FROM {table}")], table)
    finally:
        database.close()


def counted_positions(path: Path) -> dict[str, int]:
    """How many rows each position (its Position ID) has in the index, the most common first
    (ties by the ID)."""
    counts = Counter(row["position_id"] for row in rows_of(path, "positions"))
    return {position_id: counts[position_id] for position_id in sorted(counts, key=lambda position_id: (-counts[position_id], position_id))}


def moves(play: str | None) -> Any:
    """A play as its moves, whatever the notation (``25/22 6/0`` or ``bar/22 6/off``) and order."""
    return None if play is None else sorted(move.replace("25/", "bar/").replace("/0", "/off") for move in play.split())


def same_table(ours: list[dict[str, Any]], theirs: list[dict[str, Any]], columns: list[str], what: str) -> None:
    assert len(ours) == len(theirs), f"{what}: {len(ours)} rows, not {len(theirs)}"
    for column in columns:
        mine = [plain(row[column]) for row in ours]
        expected = [plain(row[column]) for row in theirs]
        if column == "play":
            mine, expected = [moves(p) for p in mine], [moves(p) for p in expected]
        if column in ("crawford", "post_crawford", "valid"):
            mine, expected = [None if v is None else bool(v) for v in mine], [None if v is None else bool(v) for v in expected]
        differ = [i for i, (a, b) in enumerate(zip(mine, expected)) if a != b and not (isinstance(a, float) and abs(a - b) < 1e-9)]
        assert not differ, f"{what}.{column}: row {differ[0]}: {mine[differ[0]]!r}, expected {expected[differ[0]]!r}"


# --- everything the index answered before ---


@pytest.mark.parametrize("engine", ENGINES)
def test_the_index_holds_what_the_index_of_schema_2_held(tmp_path: Path, engine: str) -> None:
    """Every position row of the samples, read back, is the row the index of schema 2 held
    (``tests/index_oracle.py`` makes it as that index did, from the replay: every identifier,
    the play in bgrecord's notation), in both engines; the files table says what it said (the
    tables summed from the games: the stats tests below)."""
    files = [str(path) for path in match_files([copy_samples(tmp_path / "samples")])]
    db = tmp_path / f"archive.{engine}"
    assert run("index", *files, "-o", str(db), "-j", "1").exit_code == 0
    expected = ordered([row for name in files for row in expected_positions(name)], "positions")
    same_table(rows_of(db, "positions"), expected, list(read_back.POSITION_ROW_COLUMNS), "positions")
    games = stats.games(files)
    said = [{"file": name, "file_key": content_key(Input.named(name)), "games": int((games["file"] == name).sum()), "problem": None}
            for name in files]  # fmt: skip
    same_table(rows_of(db, "files"), ordered(said, "files"), ["file", "file_key", "games", "problem"], "files")


@pytest.mark.parametrize("engine", ENGINES)
def test_find_answers_every_occurrence_with_every_column(tmp_path: Path, engine: str) -> None:
    """find's rows are the positions rows of the position (the columns it writes), with its
    filters; its JSON is one document, whatever the number of occurrences."""
    samples = copy_samples(tmp_path / "samples")
    db = tmp_path / f"archive.{engine}"
    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    everything = rows_of(db, "positions")
    by_position: dict[str, list[dict[str, Any]]] = {}
    for row in everything:
        by_position.setdefault(row["position_id"], []).append(row)
    for position_id in sorted(by_position)[::7]:
        found = list(search.find(db, search.Wanted.of(position_id)))
        same_table(found, by_position[position_id], list(search.FOUND_COLUMNS), position_id)
        document = json.loads(run("find", str(db), position_id, "--format", "json").output)
        assert document["total"] == len(found) and [o["step"] for o in document["occurrences"]] == [o["step"] for o in found]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_index_kept_open_answers_each_search_as_one_opened_for_it(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A program serving searches opens the index once (``searched``) and searches it again and
    again (``find_in``, ``count_in``): each answer is the one ``find`` gives with the index
    opened for it, whatever came before it on the connection (a search cut short by its limit,
    a paged one), and the index is opened once."""
    samples = copy_samples(tmp_path / "samples")
    db = tmp_path / f"archive.{engine}"
    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    monkeypatch.setattr(search, "PAGE", 2)  # DuckDB: the common positions paged
    counts = counted_positions(db)
    asked = list(counts)[:4] + sorted(counts)[::11]
    searches = [(search.Wanted.of(position_id), limit) for position_id in asked for limit in (1, None, 3)]
    alone = [list(search.find(db, wanted, limit)) for wanted, limit in searches]
    opened = []
    real = Database.__init__
    monkeypatch.setattr(Database, "__init__", lambda self, *args, **kwargs: opened.append(args) or real(self, *args, **kwargs))
    with search.searched(db) as index:
        kept = [list(search.find_in(index, wanted, limit)) for wanted, limit in searches]
        totals = [search.count_in(index, search.Wanted.of(position_id)) for position_id in asked]
    assert len(opened) == 1
    assert kept == alone and sum(map(len, kept)) > len(searches)
    assert totals == [counts[position_id] for position_id in asked] and max(totals) > 2
    bare = [list(search.find(db, wanted, limit, identifiers=False)) for wanted, limit in searches]  # as find's text asks
    assert bare == [[{k: v for k, v in row.items() if k not in ("match_id", "xgid")} for row in rows] for rows in alone]
    assert all(row["match_id"] and row["xgid"] for rows in alone for row in rows)


def in_file_order(found: list[dict[str, Any]]) -> bool:
    keys = [file_order.file_order(row["file"], 0, row["match"], row["game"], row["step"]) for row in found]
    return keys == sorted(keys)


def forget_order(db: Path) -> None:
    """The index as one made by a bgrecord that recorded no runs in file order (its searches sort)."""
    database = Database(db)
    write_keys(database, {key: value for key, value in (keys(database) or {}).items() if key != file_order.GAME_ORDER})
    database.close()


def stored_positions(db: Path) -> list[tuple[int, ...]]:
    """The positions table's rows as it holds them (no ORDER BY: its own order)."""
    database = Database(db, read_only=True)
    try:
        return [tuple(row) for row in database.query("SELECT * FROM positions")]
    finally:
        database.close()


@pytest.mark.parametrize("part_rows, read_rows, row_group", [(8, 3, 5), (200, 7, 64), (1 << 30, 1 << 20, 122_880)],
                         ids=["parts smaller than the opening's bucket", "small parts", "one part"])  # fmt: skip
def test_duckdb_sorts_its_positions_in_a_part_at_a_time_into_sqlites_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                          part_rows: int, read_rows: int, row_group: int) -> None:  # fmt: skip
    """DuckDB's run keeps its new positions on disk by bucket and sorts them into the table a
    part at a time (a bucket larger than a part: split, down to one position's rows, which go
    in as they came), merged with the old index's that it keeps, appended whole row groups at
    a time: whatever the sizes, after a new index, files added, one changed and one gone, the
    table holds SQLite's rows in the order (position, game, step), and no folder of them is
    left."""
    pytest.importorskip("duckdb")
    monkeypatch.setattr(staging, "PART_ROWS", part_rows)
    monkeypatch.setattr(staging, "READ_ROWS", read_rows)
    monkeypatch.setattr(staging, "ROW_GROUP", row_group)
    seen: Counter[str] = Counter()
    for name in ("_sorted_by_duckdb", "_one_position", "_copied_old"):
        monkeypatch.setattr(staging, name, lambda *args, name=name, was=getattr(staging, name): seen.update([name]) or was(*args))
    split = staging.StagedPositions.split
    monkeypatch.setattr(staging.StagedPositions, "split", lambda *args: seen.update(["split"]) or split(*args))
    samples = copy_samples(tmp_path / "samples")
    extra = tmp_path / "extra"
    extra.mkdir()
    sqlite, duckdb = tmp_path / "archive.sqlite", tmp_path / "archive.duckdb"
    changed = samples / "bbgt-two-matches.mat"
    steps = [lambda: None, lambda: shutil.copy(SAMPLES / "gnubg-5pt-crawford.mat", extra / "crawford.mat"),
             lambda: changed.write_text(changed.read_text() + "\n"), lambda: (samples / "gnubg-5pt-crawford.mat").unlink()]  # fmt: skip
    for step in steps:
        step()
        for db in (sqlite, duckdb):
            assert run("index", str(samples), str(extra), "-o", str(db), "-q").exit_code in (0, 1)
        expected = sorted(stored_positions(sqlite), key=lambda row: (row[0], row[1], row[2]))
        assert stored_positions(duckdb) == expected and len(expected) > 800
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["samples", "extra", sqlite.name, duckdb.name])
    if part_rows == 8:  # the opening's rows (and others in a great many games) as they came; nothing sorted by DuckDB
        assert seen["split"] and seen["_one_position"] and seen["_copied_old"] and not seen["_sorted_by_duckdb"]
    else:
        assert not seen


def test_duckdb_keeps_an_old_row_another_program_left_null_as_it_is_when_a_run_adds_to_the_index(tmp_path: Path,
                                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A NULL another program wrote in an old positions row is no value the index sorts itself:
    that row's part is sorted by DuckDB, the row kept as it is, the table still in order."""
    pytest.importorskip("duckdb")
    samples = copy_samples(tmp_path / "samples")
    db = tmp_path / "archive.duckdb"
    assert run("index", str(samples), "-o", str(db), "-q").exit_code in (0, 1)
    database = Database(db)
    position = database.query("SELECT position FROM positions ORDER BY position LIMIT 1 OFFSET 100")[0][0]
    database.execute("UPDATE positions SET place = NULL WHERE position = ?", [position])
    database.close()
    before = stored_positions(db)
    by_duckdb, sorted_by_duckdb = [], staging._sorted_by_duckdb
    monkeypatch.setattr(staging, "_sorted_by_duckdb", lambda *args: by_duckdb.append(1) or sorted_by_duckdb(*args))
    changed = samples / "bbgt-two-matches.mat"
    changed.write_text(changed.read_text() + "\n")  # its games read again: new rows among the old
    assert run("index", str(samples), "-o", str(db), "-q").exit_code in (0, 1)
    after = stored_positions(db)
    assert by_duckdb and len(after) == len(before)
    assert [row[:3] for row in after] == sorted(row[:3] for row in after)
    assert [row for row in after if row[3] is None] == [row for row in before if row[3] is None] != []


@pytest.mark.parametrize("old_in_order", [True, False], ids=["as the index keeps them", "another program's order"])
def test_old_rows_alone_in_a_part_go_in_as_the_old_table_keeps_them_or_sorted_when_out_of_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                                                  old_in_order: bool) -> None:  # fmt: skip
    """A part of the hash range that holds old rows alone (most of a run that adds a file to a
    large index) goes in as the old table keeps them, not sorted again; old rows another
    program wrote out of order are sorted. The table is in order either way."""
    pytest.importorskip("duckdb")
    import numpy as np

    monkeypatch.setattr(staging, "PART_ROWS", 50)
    monkeypatch.setattr(staging, "ROW_GROUP", 8)
    generator = np.random.default_rng(5)
    old = np.zeros((400, staging.WIDTH), dtype=np.int64)
    old[:, 0], old[:, 1], old[:, 2] = generator.integers(-(1 << 62), 1 << 62, 400), generator.integers(0, 100, 400), 1
    old = old[np.lexsort((old[:, 2], old[:, 1], old[:, 0]))]
    new = np.zeros((5, staging.WIDTH), dtype=np.int64)
    new[:, 0], new[:, 1], new[:, 2] = old[7, 0] + 1, 100, np.arange(5)  # in the first part alone
    database = Database(tmp_path / "positions.duckdb")
    schema.create(database)
    database.execute("CREATE TABLE old_positions AS SELECT * FROM positions LIMIT 0")
    database.append("old_positions", [tuple(row) for row in (old if old_in_order else old[::-1]).tolist()], TABLES["positions"])
    staged = staging.StagedPositions(tmp_path / "staged")
    staged.add(new)
    alone: list[bool] = []
    monkeypatch.setattr(staging, "_in_order", lambda rows, was=staging._in_order: alone.append(was(rows)) or alone[-1])
    staging.sort_into(database, staged, "old_positions")
    expected = sorted(map(tuple, np.concatenate([old, new]).tolist()))
    assert database.query("SELECT * FROM positions") == expected
    assert len(alone) >= 5 and all(alone) == old_in_order and (old_in_order or not any(alone))


@pytest.mark.parametrize("in_order", [True, False], ids=["as a run stages them", "out of order"])
def test_a_position_in_a_great_many_games_goes_in_as_it_came_or_is_sorted_when_it_did_not_come_in_order(tmp_path: Path,
                                                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                                                         in_order: bool) -> None:  # fmt: skip
    """A bucket larger than a part is split down to one position's rows (here past the last
    level: its neighbours differ in the lowest bits); those go in with no sort when they came
    in the order of their games and steps, as a run stages them, and are sorted by DuckDB
    when not; the bucket's other positions are sorted as any part's. The table is in order,
    and the folders of the split are gone."""
    pytest.importorskip("duckdb")
    import numpy as np

    monkeypatch.setattr(staging, "PART_ROWS", 50)
    monkeypatch.setattr(staging, "READ_ROWS", 16)
    monkeypatch.setattr(staging, "ROW_GROUP", 8)
    by_duckdb: list[int] = []
    monkeypatch.setattr(staging, "_sorted_by_duckdb", lambda *args, was=staging._sorted_by_duckdb: by_duckdb.append(1) or was(*args))
    common = 12345 << 20
    rows = np.zeros((340, staging.WIDTH), dtype=np.int64)
    rows[:300, 0], rows[:300, 1], rows[:300, 2] = common, np.arange(300), 1
    generator = np.random.default_rng(3)
    rows[300:, 0] = common + generator.integers(-40, 40, 40)  # neighbours: in every bucket of the common one down to the last level
    rows[300:, 1], rows[300:, 2] = generator.integers(0, 300, 40), 2
    rows = rows[np.argsort(rows[:, 1], kind="stable")]
    if not in_order:
        first = np.flatnonzero(rows[:, 0] == common)[:2]
        rows[first] = rows[first[::-1]]
    database = Database(tmp_path / "positions.duckdb")
    schema.create(database)
    staged = staging.StagedPositions(tmp_path / "staged")
    staged.add(rows)
    staging.sort_into(database, staged)
    assert database.query("SELECT position, game, step FROM positions") == sorted(map(tuple, rows[:, :3].tolist()))
    assert bool(by_duckdb) == (not in_order)
    assert [path.name for path in (tmp_path / "staged").iterdir()] == [f"{int(staged.bucket_of(common)):04d}"]


def test_positions_go_in_whole_row_groups_and_the_rows_left_are_kept_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sorted positions go into the table a whole row group at a time; the rows left wait for
    the next part alone (a view of them kept the whole part's array until then)."""
    pytest.importorskip("duckdb")
    import numpy as np

    monkeypatch.setattr(staging, "ROW_GROUP", 4)
    database = Database(tmp_path / "positions.duckdb")
    schema.create(database)
    rows = np.arange(60, dtype=np.int64).reshape(10, 6)
    left = staging._Appended(database).append(rows)
    assert left.tolist() == rows[8:].tolist() and not np.shares_memory(left, rows)
    assert database.query("SELECT count(*), max(position) FROM positions") == [(8, 42)]


@pytest.mark.parametrize("grown_past", [None, 1000, 2200], ids=["1,024 buckets", "64 grown to 1,024 before a mark", "64 grown to 1,024 after it"])
def test_positions_kept_on_disk_come_back_by_bucket_in_the_order_they_came_in_bounded_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                                           grown_past: int | None) -> None:  # fmt: skip
    """The buckets cover every 64-bit hash, each after the one before; a bucket's rows come back
    as they came; the parts cover the whole range with no gap and hold at most PART_ROWS rows
    (a bucket larger, alone); rows added since a mark are taken out. A run's 64 buckets at
    first (64 files at most) grow to 1,024 once it has staged enough, the rows and the mark
    kept."""
    import numpy as np

    monkeypatch.setattr(staging, "PART_ROWS", 100)
    monkeypatch.setattr(staging, "READ_ROWS", 16)
    for grows in (False, True):
        first = staging.StagedPositions(tmp_path / "none", grows=grows)
        edges = [first.bucket_range(bucket, bucket) for bucket in range(len(first.counts))]
        assert len(edges) == 1 << (staging.FIRST_BUCKET_BITS if grows else staging.BUCKET_BITS)
        assert edges[0][0] == -(1 << 63) and edges[-1][1] == (1 << 63) - 1
        assert all(high + 1 == low for (_, high), (low, _) in zip(edges, edges[1:]))
    generator = np.random.default_rng(7)
    if grown_past is not None:
        monkeypatch.setattr(staging, "GROWN_PAST", grown_past)
        monkeypatch.setattr(staging, "GROWN_READ_ROWS", 7)  # a bucket spread a few rows at a time: the mark counted across them
    kept = staging.StagedPositions(tmp_path / "staged", grows=grown_past is not None)
    rows = generator.integers(-(1 << 63), (1 << 63) - 1, size=(3000, staging.WIDTH), dtype=np.int64, endpoint=True)
    rows[:300, 0] = rows[0, 0]  # a position in many games: a bucket larger than a part
    rows[300, 0], rows[301, 0] = -(1 << 63), (1 << 63) - 1
    for start in range(0, 2000, 250):
        kept.add(rows[start : start + 250])
        if grown_past is not None and start + 250 <= grown_past:
            assert len(list((tmp_path / "staged").iterdir())) <= 1 << staging.FIRST_BUCKET_BITS
    kept.mark()
    kept.add(rows[2000:2500])
    kept.back()  # rows that did not go in
    kept.add(rows[2500:])
    assert len(kept.counts) == 1 << staging.BUCKET_BITS and sum(kept.counts) == 2500
    files = {path.name: path.stat().st_size for path in (tmp_path / "staged").iterdir()}  # a bucket taken back to nothing: its file empty
    assert {name for name, size in files.items() if size} == {f"{bucket:04d}" for bucket, count in enumerate(kept.counts) if count}
    expected = np.concatenate([rows[:2000], rows[2500:]])
    low_seen, back = -(1 << 63), []
    for low, high, size, chunks in kept.parts():
        assert low == low_seen
        part = [chunk for chunk in chunks]
        assert all(len(chunk) <= 16 for chunk in part) and size == sum(len(chunk) for chunk in part)
        assert size <= 100 or len({int(kept.bucket_of(chunk[0, 0])) for chunk in part}) == 1
        back.extend(tuple(row) for chunk in part for row in chunk.tolist())
        assert all(low <= row[0] <= high for chunk in part for row in chunk.tolist())
        low_seen = high + 1
    assert low_seen == 1 << 63
    by_bucket = sorted(map(tuple, expected.tolist()), key=lambda row: kept.bucket_of(row[0]))  # stable: as they came within a bucket
    assert back == by_bucket


@pytest.mark.parametrize("runs", [True, False], ids=["runs recorded", "none recorded"])
def test_duckdb_reads_a_common_position_a_page_at_a_time_and_finds_what_sqlite_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                                    runs: bool) -> None:  # fmt: skip
    """DuckDB holds a sorted result whole in its bounded memory: a position found more than a
    page's worth is read a page at a time (the opening's, a million times in a million
    games): a run's rows by game and step, or, in an index that recorded no runs in file
    order, its rows sorted in file order. Whatever the page and the limit, the occurrences
    are SQLite's, in the same order, file order."""
    pytest.importorskip("duckdb")
    samples = copy_samples(tmp_path / "samples")
    sqlite, duckdb = tmp_path / "archive.sqlite", tmp_path / "archive.duckdb"
    for db in (sqlite, duckdb):
        assert run("index", str(samples), "-o", str(db)).exit_code == 0
        if not runs:
            forget_order(db)
    counts = counted_positions(sqlite)
    common = list(counts)[:3]
    assert counts[common[0]] > 8
    paged, queries = [], []
    real, tuples, query = search._more_than, Database.tuples, Database.query
    monkeypatch.setattr(search, "_more_than", lambda *args: paged.append(real(*args)) or paged[-1])
    monkeypatch.setattr(Database, "tuples", lambda self, sql, *args: queries.append(sql) or tuples(self, sql, *args))
    monkeypatch.setattr(Database, "query", lambda self, sql, *args: queries.append(sql) or query(self, sql, *args))
    for page in (1, 2, 3, 1000):
        monkeypatch.setattr(search, "PAGE", page)
        for position_id in common:
            for limit in (None, 1, 2, 3, 5, 8):
                wanted = search.Wanted.of(position_id)
                found = list(search.find(duckdb, wanted, limit))
                assert found == list(search.find(sqlite, wanted, limit)), (position_id, page, limit)
                assert in_file_order(found) and len(found) == min(limit or counts[position_id], counts[position_id])
    if runs:
        assert not paged and sum("(p.game, p.step) >" in sql for sql in queries) > 10  # the pages of a run: none sorted whole
        # a page one query: its positions found on their keys alone (no game joined), then a page's games joined
        assert sum("FROM (SELECT * FROM positions p WHERE" in sql and "LIMIT" in sql for sql in queries) > 10
    else:
        assert True in paged and False in paged
    player = next(search.find(sqlite, search.Wanted.of(common[0])))["player1"]
    wanted = search.Wanted.of(common[0], player=player)  # what else is asked filters a page's rows
    monkeypatch.setattr(search, "PAGE", 2)
    queries.clear()
    assert list(search.find(duckdb, wanted)) == list(search.find(sqlite, wanted)) != []
    if runs:  # a condition on the games: each page bounded by its last key, found first, then its games joined
        assert any("(p.game, p.step) <=" in sql for sql in queries)
    for db in (sqlite, duckdb):  # NULLs another program wrote in the keys a page is bounded by: read as both engines read them
        database = Database(db)
        found_games = database.query("SELECT DISTINCT g.game_id, g.file_id FROM positions p JOIN game_rows g ON g.game_id = p.game "
                                     "WHERE p.position = ? ORDER BY g.game_id", [search.Wanted.of(common[0]).key])  # fmt: skip
        database.execute("UPDATE files SET file = NULL WHERE file_id = ?", [found_games[-1][1]])
        database.execute("UPDATE game_rows SET match = NULL, game = NULL WHERE game_id = ?", [found_games[len(found_games) // 2][0]])
        database.close()
    for limit in (None, 3):
        assert list(search.find(duckdb, search.Wanted.of(common[0]), limit)) == list(search.find(sqlite, search.Wanted.of(common[0]), limit))
    assert len(list(search.find(duckdb, search.Wanted.of(common[0])))) == counts[common[0]]
    orphaned = found_games[1][0]  # a game another program took out, its positions left: each page still reads every other occurrence
    for db in (sqlite, duckdb):
        database = Database(db)
        database.execute("DELETE FROM game_rows WHERE game_id = ?", [orphaned])
        database.close()
    for page in (1, 2, 3):
        monkeypatch.setattr(search, "PAGE", page)
        for limit in (None, 1, 2, 5):
            found = list(search.find(duckdb, search.Wanted.of(common[0]), limit))
            assert found == list(search.find(sqlite, search.Wanted.of(common[0]), limit)) != []
    assert 0 < len(list(search.find(duckdb, search.Wanted.of(common[0])))) < counts[common[0]]


@pytest.mark.parametrize("engine", ENGINES)
def test_find_streams_in_file_order_from_runs_of_games_however_the_files_came(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games are numbered as their files come: files named out of order, and a later run's
    files whose names sort before those indexed, make runs of games in file order, recorded
    by the index; find merges them, and answers what an index that recorded none answers (its
    occurrences sorted), in file order. Past :data:`RUNS_AT_MOST` runs, none are recorded."""
    samples = copy_samples(tmp_path / "samples")
    files = [str(path) for path in match_files([samples])]
    db, sorted_db = tmp_path / f"archive.{engine}", tmp_path / f"sorted.{engine}"
    late = [name for name in files if Path(name).name.startswith("bbgt")]
    given = [name for name in files if name not in late][::-1]  # reversed: each file a run of its own, but those of one game
    assert run("index", *given[:9], "-o", str(db)).exit_code == 0
    assert run("index", *given[:9], *late, "-o", str(db)).exit_code == 0  # a file whose name sorts first comes last
    database = Database(db)
    starts = file_order.runs_in_file_order(database)
    runs = file_order.recorded(database)
    database.close()
    assert starts is not None and 3 < len(starts) + 1 <= 10 and runs == list(zip([None, *starts], [*starts, None]))  # the second run's added
    shutil.copy(db, sorted_db)
    forget_order(sorted_db)
    counts = counted_positions(db)
    asked = list(counts)[:5] + sorted(counts)[::13]
    for position_id in asked:
        for limit in (None, 1, 4):
            found = list(search.find(db, search.Wanted.of(position_id), limit))
            assert found == list(search.find(sorted_db, search.Wanted.of(position_id), limit)) and in_file_order(found)
            assert len(found) == min(limit or counts[position_id], counts[position_id])
    monkeypatch.setattr(file_order, "RUNS_AT_MOST", 3)
    assert run("index", *given, *late, "-o", str(db)).exit_code == 0
    database = Database(db)
    assert file_order.recorded(database) is None and file_order.runs_in_file_order(database) is None
    database.close()
    monkeypatch.setattr(file_order, "runs_in_file_order", None)  # past the bound, a run does not look for runs again
    assert run("index", *given, *late, str(SAMPLES / "gnubg-5pt-crawford.mat"), "-o", str(db)).exit_code == 0
    shutil.copy(db, sorted_db)
    forget_order(sorted_db)
    found = list(search.find(db, search.Wanted.of(asked[0])))
    assert found == list(search.find(sorted_db, search.Wanted.of(asked[0]))) and in_file_order(found) and len(found) > counts[asked[0]]


def test_sqlite_reads_a_run_of_a_position_in_its_index_order_without_sorting(tmp_path: Path) -> None:
    """The opening's occurrences in a million games come from SQLite's index as it holds them:
    the query of a run has no sort of its own, whatever else is asked."""
    db = tmp_path / "archive.sqlite"
    assert run("index", str(copy_samples(tmp_path / "samples")), "-o", str(db)).exit_code == 0
    database = Database(db)
    plans = []
    real = Database.tuples
    for wanted in (search.Wanted.of(Position.start().id()), search.Wanted.of(Position.start().id(), play="8/5 6/5", player="someone")):
        condition, values = wanted.where("sqlite")
        for run_of_games in ((None, None), (3, 10)):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(Database, "tuples", lambda self, sql, parameters=(): real(self, f"EXPLAIN QUERY PLAN {sql}", parameters))
                plans.append(" ".join(str(row[-1]) for row in search._run_rows(database, condition, values, run_of_games, None)))
    database.close()
    assert all(plan.startswith("SEARCH p USING PRIMARY KEY (position=?") and "TEMP B-TREE" not in plan for plan in plans), plans


def test_find_by_play_in_either_order_by_player_and_by_dice(tmp_path: Path) -> None:
    db = tmp_path / "archive.sqlite"
    assert run("index", str(copy_samples(tmp_path / "samples")), "-o", str(db)).exit_code == 0
    start = Position.start().id()
    replies = [row for row in search.find(db, search.Wanted.of(start)) if row["play"] == "8/5 6/5"]
    assert replies, "the samples open with 31: 8/5 6/5"
    for written in ("8/5 6/5", "6/5 8/5", " 6/5  8/5 ", "8/5(1) 6/5", "8/5 6/5"):
        found = list(search.find(db, search.Wanted.of(start, play=written)))
        assert [(r["file"], r["step"]) for r in found] == [(r["file"], r["step"]) for r in replies], written
    alice = run("find", str(db), start, "--play", "6/5 8/5", "--player", "Alice")
    assert alice.exit_code == 0 and all("(Alice - Bob): Alice to play 31: 8/5 6/5" in line for line in alice.output.splitlines()[:-1])
    assert run("find", str(db), start, "--play", "6/off 6/off").exit_code == 2  # no roll allows it: said
    assert run("find", str(db), start, "--play", "a/b").exit_code == 2
    assert run("find", str(db), start, "--player", "Nobody").exit_code == 1
    hit = next(row for row in rows_of(db, "positions") if row["play"] and "*" in row["play"])
    for written in (hit["play"], hit["play"].replace("*", ""), " ".join(reversed(hit["play"].split()))):
        found = [r["step"] for r in search.find(db, search.Wanted.of(hit["position_id"], play=written)) if r["file"] == hit["file"]]
        assert hit["step"] in found, written


def test_duckdb_is_bounded_wherever_it_is_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB's memory is bounded wherever bgrecord opens it (beyond it, it works on disk): a
    run that writes (with no index DuckDB would hold whole in memory; a bound of its own, smaller),
    a search of a file, a search of a Parquet dataset (its views over the files: it was unbounded)."""
    duckdb = pytest.importorskip("duckdb")
    from bgrecord.tables import working
    from bgrecord.tables import copies
    from bgrecord.tables.database import DUCKDB_MEMORY, DUCKDB_SCANNING_MEMORY, DUCKDB_WRITING_MEMORY, DUCKDB_WRITING_THREADS

    def bound(connection: Any) -> str:
        return str(connection.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])

    def threads_of(database: Database) -> int:
        return int(database.query("SELECT current_setting('threads')")[0][0])

    expected = bound(duckdb.connect(":memory:", config={"memory_limit": DUCKDB_MEMORY}))
    writing = bound(duckdb.connect(":memory:", config={"memory_limit": DUCKDB_WRITING_MEMORY}))
    sorting = bound(duckdb.connect(":memory:", config={"memory_limit": staging.SORTING_MEMORY}))
    scanning = bound(duckdb.connect(":memory:", config={"memory_limit": DUCKDB_SCANNING_MEMORY}))
    assert len({expected, writing, sorting, bound(duckdb.connect(":memory:"))}) == 4 and scanning not in (expected, writing)
    samples = copy_samples(tmp_path / "samples")
    index = tmp_path / "archive.duckdb"
    finish, seen = working.Working.finish, []
    sort_into, sorted_within, threads = working.sort_into, [], []
    release, released = Database.release, []
    execute, mark, summed_again, scanned = Database.execute, copies.mark, archive.summed_again, []
    with monkeypatch.context() as patched:
        # the steps over whole tables: the old index's tables copied, the copies marked, the games summed again
        patched.setattr(Database, "execute", lambda self, sql, *args: (sql.startswith('CREATE TABLE "') and scanned.append(("copied", bound(self.connection))))
                        or execute(self, sql, *args))  # fmt: skip
        patched.setattr(copies, "mark", lambda database: scanned.append(("marked", bound(database.connection))) or mark(database))
        patched.setattr(archive, "summed_again", lambda database, *args: scanned.append(("summed", bound(database.connection)))
                        or summed_again(database, *args))  # fmt: skip
        patched.setattr(working.Working, "finish", lambda self: seen.append(bound(self.database.connection)) or finish(self) or seen.append(
            bound(self.database.connection)))  # fmt: skip
        patched.setattr(working, "sort_into", lambda database, *args: sorted_within.append(bound(database.connection)) or threads.append(
            ("sorting", threads_of(database))) or sort_into(database, *args))  # fmt: skip
        patched.setattr(writing_rows, "ROW_GROUP", 1)  # DuckDB's cache let go after each game: its bound set back each time
        patched.setattr(Database, "release", lambda self, memory=RELEASED_TO: released.append(memory) or threads.append(("writing", threads_of(self)))
                        or release(self, memory))  # fmt: skip
        patched.setattr(archive, "FIRST_LOOKED_UP", 3)  # the files in chunks: the paths taken known by their digests
        patched.setattr(archive, "LOOKED_UP_AT_ONCE", 5)
        for _ in range(2):  # a new index, then a run on it
            assert run("index", str(samples), "-o", str(index)).exit_code == 0
    # the run's bound; the positions sorted into place within a smaller one, then set back
    assert seen == [writing] * 4 and sorted_within == [sorting]  # the second run found nothing new to sort
    assert [step for step, _ in scanned if step != "copied"] == ["marked", "marked", "summed"] and {within for _, within in scanned} == {scanning}
    assert ("copied", scanning) in scanned
    # one thread while the rows are written (the workers have the cores; each of DuckDB's threads keeps memory of its own), and
    # DuckDB's own number for the positions (it packs their row groups into fewer blocks so)
    probe = Database(tmp_path / "threads.duckdb")
    machines = threads_of(probe)
    probe.close()
    assert DUCKDB_WRITING_THREADS == 1 and {("writing", 1), ("sorting", machines)} == set(threads[: threads.index(("sorting", machines)) + 1])
    assert released and set(released) == {RELEASED_TO}
    # no index DuckDB holds whole in memory grows with the files (the files' keys, the run's paths)
    assert duckdb.connect(str(index), read_only=True).execute("SELECT count(*) FROM duckdb_indexes()").fetchall() == [(0,)]
    for opened_here in (Database(tmp_path / "new.duckdb"), Database(index, read_only=True)):
        assert bound(opened_here.connection) == expected
        opened_here.close()
    if importlib.util.find_spec("pyarrow") is not None:
        from bgrecord.tables.dataset import opened

        folder = tmp_path / "archive"
        assert run("index", str(samples), "-o", str(folder), "--format", "dataset").exit_code == 0
        dataset = opened(folder)
        assert bound(dataset.connection) == expected
        dataset.close()


def test_a_database_opened_to_write_row_groups_of_a_size_chosen_writes_them(tmp_path: Path) -> None:
    """DuckDB writes the row groups of the size a run asks for (an option of ATTACH alone), from
    the connection and from another cursor on it (which starts in DuckDB's default database),
    and its work on disk goes beside the file, not into the working directory."""
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "numbers.duckdb"
    database = Database(path, row_group=2048)
    database.execute("CREATE TABLE numbers (n BIGINT)")
    database.execute("INSERT INTO numbers SELECT range FROM range(5000)")
    bound = database.query("SELECT current_setting('memory_limit')")
    database.release("4MB")  # checkpointed and attached again (what DuckDB knew of the row groups let go): the same size after
    assert database.query("SELECT current_database()") == [("written",)] and database.query("SELECT current_setting('memory_limit')") == bound
    database.beside().execute("INSERT INTO numbers SELECT range FROM range(5000, 6000)")
    assert database.names() == {"numbers"} and database.query("SELECT current_setting('temp_directory')") == [(f"{path}.tmp",)]
    database.execute("CHECKPOINT")
    database.close()
    read = duckdb.connect(str(path), read_only=True)
    groups = read.execute("SELECT row_group_id, max(count) FROM pragma_storage_info('numbers') GROUP BY 1 ORDER BY 1").fetchall()
    assert [count for _, count in groups] == [2048, 2048, 1904]
    assert read.execute("SELECT count(*), sum(n) FROM numbers").fetchall() == [(6000, sum(range(6000)))]


def test_a_search_opens_duckdb_without_its_row_group_pruner_and_finds_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DuckDB's row group pruner (1.5 on) loads a statistic of every row group of a table for a
    query ordered and limited: an index opened read only (to be searched) is opened without it
    where DuckDB has it, and a search finds the same occurrences as with it; a run that writes
    keeps it; a DuckDB that does not know it (or says no version) is not told of it, as it
    would refuse the name. The names of an index are its tables and views, not a temporary table."""
    duckdb = pytest.importorskip("duckdb")
    from types import SimpleNamespace

    from bgrecord.tables import duckdb_engine

    index, samples = tmp_path / "archive.duckdb", copy_samples(tmp_path / "samples")
    assert run("index", str(samples), "-o", str(index)).exit_code == 0

    def disabled(database: Database) -> str:
        found = str(database.query("SELECT current_setting('disabled_optimizers')")[0][0])
        database.close()
        return found

    knows = "row_group_pruner" in {name for (name,) in duckdb.connect(":memory:").execute("SELECT name FROM duckdb_optimizers()").fetchall()}
    assert disabled(Database(index, read_only=True)) == ("row_group_pruner" if knows else "")
    assert disabled(Database(tmp_path / "new.duckdb")) == ""
    seen = sorted({record.position.id() for path in sorted(samples.rglob("*.mat")) for record in step_records(path) if record.position is not None})
    wanted = [search.Wanted.of(position) for position in ["4HPwATDgc/ABMA", *seen[:: max(1, len(seen) // 11)]]]  # the opening among them
    without = [list(search.find(index, each, limit)) for each in wanted for limit in (1, 3, None)]
    with monkeypatch.context() as patched:
        patched.setattr(duckdb_engine, "PRUNER_SINCE", (10**6,))
        assert disabled(Database(index, read_only=True)) == ""
        assert [list(search.find(index, each, limit)) for each in wanted for limit in (1, 3, None)] == without
    assert sum(map(len, without)) > len(wanted) * 3
    for version, told in (("1.4.4", False), ("v1.5.0", True), ("2.0.1", True), (None, False)):
        fake = SimpleNamespace(connect=lambda path, read_only, config: config, **({"__version__": version} if version else {}))
        config = duckdb_engine.duckdb_connection(fake, index, True, "64MB", None)  # type: ignore[arg-type]
        assert ("disabled_optimizers" in config) is told and config["memory_limit"] == "64MB"
    database = Database(index, read_only=True)
    database.execute("CREATE TEMPORARY TABLE scratch (n BIGINT)")
    assert database.names() == {"bgrecord", "dice", "files", "game_rows", "games", "matches", "occurrences", "players", "positions", "start_positions"}
    database.close()


def test_rows_held_go_in_whole_row_groups_at_each_release_and_are_read_and_deleted_meanwhile(tmp_path: Path) -> None:
    """DuckDB appends the rows that follow a release in a row group of their own and merges a
    table's part-full ones at its checkpoint (reading back whole ones): rows held go in whole
    row groups at a time, in the order they came, the rest when the block ends; a held row is
    read through rows_of and deleted through delete like the others, and nothing is held in
    SQLite or a file attached without a row group size."""
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "numbers.duckdb"
    database = Database(path, row_group=2048)
    database.execute("CREATE TABLE numbers (n BIGINT, word TEXT)")
    counts = []
    with database.held("numbers"):
        for start in range(0, 6000, 700):  # 700 rows between two releases: a row group fills at the third
            database.append("numbers", [(n, f"n{n}") for n in range(start, min(start + 700, 6000))], {"n": "Int64", "word": "string"})
            database.release("4MB")
            counts.append(database.query("SELECT count(*) FROM numbers")[0][0])
        assert database.query(f"SELECT count(*), sum(n) FROM {database.rows_of('numbers')} AS numbers") == [(6000, sum(range(6000)))]
        database.delete("numbers", "n >= ? OR n = 5", [5990])  # 10 of them held, one written
    assert counts == [0, 0, 2048, 2048, 2048, 4096, 4096, 4096, 4096] and database.query("SELECT count(*) FROM numbers") == [(5989,)]
    assert database.names() == {"numbers"} and database.rows_of("numbers") == "numbers"
    database.close()
    read = duckdb.connect(str(path), read_only=True)
    groups = read.execute("SELECT row_group_id, max(count) FROM pragma_storage_info('numbers') GROUP BY 1 ORDER BY 1").fetchall()
    assert [count for _, count in groups][:2] == [2048, 2048]  # whole, never merged again
    assert read.execute("SELECT n FROM numbers").fetchall() == [(n,) for n in range(5990) if n != 5]
    sqlite = Database(tmp_path / "numbers.sqlite")
    sqlite.execute("CREATE TABLE numbers (n BIGINT)")
    with sqlite.held("numbers"):
        sqlite.append("numbers", [(1,)], {"n": "Int64"})
        assert sqlite.query("SELECT n FROM numbers") == [(1,)] and sqlite.rows_of("numbers") == "numbers"


def test_row_groups_of_another_size_are_written_from_then_on_and_those_before_kept_as_they_are(tmp_path: Path) -> None:
    """A run writes its positions in row groups of their own size (a search's), after the other
    tables' rows: the file attached again, and the row groups written before not merged as part
    full at the checkpoints that follow (DuckDB would read them back whole)."""
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "numbers.duckdb"
    database = Database(path, row_group=2048)
    database.execute("CREATE TABLE small (n BIGINT)")
    database.execute("CREATE TABLE large (n BIGINT)")
    for start in range(0, 6144, 2048):
        database.execute(f"INSERT INTO small SELECT range FROM range({start}, {start + 2048})")
        database.release("4MB")
    database.row_groups_of(6144)
    assert database.row_group == 6144 and database.query("SELECT current_setting('max_vacuum_tasks')") == [(0,)]
    database.execute("INSERT INTO large SELECT range FROM range(7000)")
    database.execute("INSERT INTO small SELECT range FROM range(100)")  # a change: DuckDB would merge the three
    database.release("4MB")
    database.close()
    read = duckdb.connect(str(path), read_only=True)
    for table, counts in (("small", [2048, 2048, 2048, 100]), ("large", [6144, 856])):
        groups = read.execute(f"SELECT row_group_id, max(count) FROM pragma_storage_info('{table}') GROUP BY 1 ORDER BY 1").fetchall()
        assert [count for _, count in groups] == counts, table


def test_an_index_checkpointed_at_each_row_group_of_games_is_the_same_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's DuckDB checkpoints where a row group of games rows ends, and nowhere else (its
    cache let go there): a batch's games rows split at each such end, and the tables the same,
    row for row, as a run's that never ends one."""
    duckdb = pytest.importorskip("duckdb")
    samples = copy_samples(tmp_path / "samples")
    plain, released = tmp_path / "plain.duckdb", tmp_path / "released.duckdb"
    assert run("index", str(samples), "-o", str(plain)).exit_code == 0
    checkpoints: list[tuple[int, str]] = []
    execute = Database.execute

    def counted(self: Database, sql: str, *args: Any) -> None:
        if sql == "CHECKPOINT":
            checkpoints.append((int(self.query("SELECT count(*) FROM game_rows")[0][0]), self.query("SELECT current_setting('checkpoint_threshold')")[0][0]))
        execute(self, sql, *args)

    monkeypatch.setattr(Database, "execute", counted)
    monkeypatch.setattr(writing_rows, "BATCH_FILES", 2)
    monkeypatch.setattr(writing_rows, "ROW_GROUP", 3)  # a row group's end within most batches
    monkeypatch.setattr(staging, "ROW_GROUP", 64)  # the positions: let go of after each 64 rows (a row group here)
    monkeypatch.setattr(staging, "RELEASED_EVERY", 1)
    assert run("index", str(samples), "-o", str(released)).exit_code == 0
    games, positions = len(rows_of(plain, "games")), len(rows_of(plain, "positions"))
    written = [count for count, _ in checkpoints[: games // 3]]  # then the rest written, the positions sorted into place, the file's last
    assert written == [3 * (number + 1) for number in range(games // 3)]
    assert len(checkpoints) >= games // 3 + positions // 64  # and one each 64 positions
    # DuckDB's own checkpoints held off while the rows were written, and let be again after
    default = duckdb.connect(":memory:").execute("SELECT current_setting('checkpoint_threshold')").fetchall()[0][0]
    assert all(threshold != default for _, threshold in checkpoints[: games // 3]) and checkpoints[-1][1] == default
    for table in ("games", "positions", "start_positions", "files", "players", "matches", "dice"):
        assert rows_of(released, table) == rows_of(plain, table), table
    assert rows_of(plain, "positions")


def test_every_block_of_a_duckdb_index_holds_a_tables_rows_and_its_keys_none(tmp_path: Path) -> None:
    """A DuckDB index holds no block but its tables' and DuckDB's own metadata (no index of a key);
    its keys, written by a run's first and last steps, are a view that holds none; the
    start_positions table holds no game's start that is the standard opening; after a new
    index's run and after one that adds to it."""
    duckdb = pytest.importorskip("duckdb")
    samples = copy_samples(tmp_path / "samples")
    added = tmp_path / "later"
    added.mkdir()
    shutil.move(str(next(samples.glob("*.mat"))), added / "first.mat")
    target = tmp_path / "index.duckdb"
    for given in ([samples], [samples, added]):
        assert run("index", *map(str, given), "-o", str(target)).exit_code == 0
        read = duckdb.connect(str(target), read_only=True)
        try:
            tables = [name for (name,) in read.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
            used = {block for table in tables
                    for (block,) in read.execute(f"SELECT DISTINCT block_id FROM pragma_storage_info('{table}') WHERE block_id >= 0").fetchall()}  # fmt: skip
            metadata = {block for (block,) in read.execute("SELECT block_id FROM pragma_metadata_info()").fetchall()}
            total, free = read.execute("SELECT total_blocks, free_blocks FROM pragma_database_size()").fetchall()[0]
            assert total - free == len(used | metadata)
            assert "bgrecord" not in tables and "start_positions" in tables
            firsts = read.execute("SELECT s.position FROM start_positions s WHERE s.step = (SELECT min(step) FROM positions p WHERE p.game = s.game)").fetchall()
            assert len(firsts) == 2 and codes.key_of_id(Position.start().id()) not in {bytes(key) for (key,) in firsts}  # nackgammon, a position file
            assert sorted(read.execute("SELECT key FROM bgrecord").fetchall()) == [("game_order",), ("schema",)]
            assert read.execute("SELECT value FROM bgrecord WHERE key = 'schema'").fetchall() == [(str(SCHEMA_VERSION),)]
        finally:
            read.close()


def test_a_database_without_positions_says_so(tmp_path: Path) -> None:
    db = tmp_path / "empty.sqlite"
    (tmp_path / "notes.mat").write_text("no match here\n")
    run("index", str(tmp_path / "notes.mat"), "-o", str(db))
    found = run("find", str(db), Position.start().id())
    assert found.exit_code == 2 and "holds no positions" in found.output


# --- stats and the index: one answer, whatever the path ---


def index_and_stats(tmp_path: Path, files: list[str], engine: str, *options: str) -> tuple[Path, dict[str, pd.DataFrame]]:
    db = tmp_path / f"index.{engine}"
    assert run("index", *files, "-o", str(db), "-q", *options).exit_code in (0, 1)
    copies = {row["file"] for row in rows_of(db, "files") if row["copy_of"] is not None}
    kept = [name for name in files if name not in copies]
    games = stats.games(kept)
    return db, {"games": games, "players": stats.players(games), "matches": stats.matches(games), "dice": stats.dice(games, tests=False)}


def same_summaries(db: Path, expected: dict[str, pd.DataFrame]) -> None:
    for table in SUMMED:
        frame = expected[table]
        columns = list(frame.columns)
        theirs = [{str(c): plain(v) for c, v in row.items()} for row in frame.astype(object).to_dict("records")]
        same_table(rows_of(db, table), ordered(theirs, table), columns, table)


@pytest.mark.parametrize("engine", ENGINES)
def test_stats_and_the_index_tables_are_equal_on_the_samples(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new index's players, matches and dice tables, summed as its rows are written, are
    stats's; so are those summed again from the games table, by a run that changes the index
    or one that took a file's rows out again (a file whose rows failed to go in)."""
    monkeypatch.setattr(summaries, "MATCHES_AT_ONCE", 2)  # the matches written as the games stream out, again and again
    monkeypatch.setattr(summaries, "GAMES_SORTED_AT_ONCE", 3)  # DuckDB sorts the games summed again a file or two at a time
    summed_again = []
    monkeypatch.setattr(archive, "summed_again", lambda *args: summed_again.append(args) or summaries.summed_again(*args))
    files = [str(path) for path in match_files([copy_samples(tmp_path / "samples")])]
    db, expected = index_and_stats(tmp_path, files, engine)
    same_summaries(db, expected)
    assert not summed_again
    assert run("index", *files, "-o", str(db)).exit_code == 0  # nothing changed: summed again from the games table
    same_summaries(db, expected)
    assert len(summed_again) == 1
    # the parts are cut by the files table's count of games: counts another program changed cut them elsewhere, no game lost
    changed = Database(db)
    changed.execute("UPDATE files SET games = CASE WHEN file_id % 2 = 0 THEN 0 ELSE 7 END")
    changed.close()
    assert run("index", *files, "-o", str(db)).exit_code == 0
    same_summaries(db, expected)
    assert len(summed_again) == 2

    failing = next(name for name in files if name.endswith("bbgt-two-matches.mat"))
    (tmp_path / "failing").mkdir()
    db, expected = index_and_stats(tmp_path / "failing", [name for name in files if name != failing], engine)
    write = writing_rows.RowsWriter.write

    def failing_write(self: writing_rows.RowsWriter, rows: writing_rows.IndexRows, path: bytes) -> None:
        write(self, rows, path)
        if rows.path == failing:
            raise ValueError("a row that does not go in")

    monkeypatch.setattr(writing_rows.RowsWriter, "write", failing_write)
    done = run("index", *files, "-o", str(tmp_path / f"again.{engine}"), "-q")
    assert done.exit_code == 2 and "bbgt-two-matches.mat: bgrecord failed on this file (ValueError" in done.output, done.output
    same_summaries(tmp_path / f"again.{engine}", expected)
    assert len(summed_again) == 3  # the new index's summing spoiled: summed again


@pytest.mark.parametrize("engine", ENGINES)
def test_files_whose_names_differ_only_in_bytes_no_encoding_reads_keep_their_own_matches(tmp_path: Path, engine: str) -> None:
    """Two files whose names differ only in a byte the file system's encoding cannot read are
    two files in every table: each its own name, which says the byte (once both were
    ``match-\ufffd.mat``, and their first matches made one row of the matches table)."""
    folder = tmp_path / "archive"
    folder.mkdir()
    for raw, sample in ((b"match-\xe9.mat", "gnubg-5pt-crawford.mat"), (b"match-\xe8.mat", "bbgt-two-matches.mat")):
        shutil.copy(SAMPLES / sample, folder / os.fsdecode(raw))
    files = sorted(str(path) for path in folder.iterdir())
    db, expected = index_and_stats(tmp_path, files, engine)
    same_summaries(db, expected)
    names = [row["file"] for row in rows_of(db, "matches")]
    assert names == [str(folder / "match-\\xe8.mat")] * 2 + [str(folder / "match-\\xe9.mat")], names
    assert sorted(set(expected["games"]["file"])) == sorted(set(names))
    found = run("find", str(db), Position.start().id())
    assert "match-\\xe8.mat:" in found.output and "match-\\xe9.mat:" in found.output and "\ufffd" not in found.output


def dying_rows(unit: Any, rules: Any = None) -> Any:
    """index_rows, but a worker reading a file named ``dies-...`` ends as the out-of-memory killer would end it."""
    name = unit[0] if isinstance(unit, tuple) else unit
    if os.path.basename(str(getattr(name, "name", name))).startswith("dies-"):
        os._exit(9)
    return archive.index_rows(unit, rules)


def test_a_worker_that_dies_on_a_file_of_any_name_costs_the_index_only_that_file(tmp_path: Path) -> None:
    from bgrecord.cli.common import each_file

    folder = tmp_path / "archive"
    folder.mkdir()
    for number in range(12):  # each with a line of its own: read, not a copy of another
        (folder / f"{number:02}.mat").write_text((SAMPLES / "gnubg-5pt-crawford.mat").read_text() + f"\n; {number}\n")
    shutil.copy(SAMPLES / "bbgt-two-matches.mat", folder / os.fsdecode(b"dies-\xe9.mat"))
    files = sorted(str(path) for path in folder.iterdir())
    db = tmp_path / "index.sqlite"
    report = archive.index(db, files, lambda units: each_file(dying_rows, units, (None,), 2, True, sized=lambda unit: str(unit), failed=archive.failed_rows))
    dead = str(folder / "dies-\\xe9.mat")
    assert [(name, internal) for name, _, internal in report.problems] == [(dead, True)], report.problems
    rows = {row["file"]: row for row in rows_of(db, "files")}
    assert len(rows) == 13 and rows[dead]["games"] == 0 and "bgrecord failed on this file" in rows[dead]["problem"]
    assert report.games == 12 * len(stats.games([folder / "00.mat"]))


@pytest.mark.parametrize("engine", ENGINES)
def test_positions_staged_before_their_files_rows_failed_are_taken_out(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose files table does not take its rows, once its positions are staged, is
    taken out whole and written again file by file: the file whose row fails is reported, and
    the index is the one of the others."""
    files = [str(path) for path in match_files([copy_samples(tmp_path / "samples")])]
    failing = next(name for name in files if name.endswith("bbgt-two-matches.mat"))
    others = tmp_path / f"others.{engine}"
    assert run("index", *[name for name in files if name != failing], "-o", str(others), "-q").exit_code in (0, 1)
    append, problem = Database.append, list(TABLES["files"]).index("problem")

    def failing_append(self: Database, table: str, rows: list[Any], types: Any = None) -> None:
        if table == "files" and any(failing in row and row[problem] is None for row in rows):  # its rows, not its problem's
            raise ValueError("a row that does not go in")
        append(self, table, rows, types)

    monkeypatch.setattr(Database, "append", failing_append)
    db = tmp_path / f"index.{engine}"
    done = run("index", *files, "-o", str(db), "-q")
    assert done.exit_code == 2 and "bbgt-two-matches.mat: bgrecord failed on this file (ValueError" in done.output, done.output
    for table in ("positions", "games", "players"):
        rows = rows_of(others, table)
        same_table(rows_of(db, table), rows, [c for c in rows[0] if c not in ("game_id", "file_id")], table)
    # the runs of games in file order, found as the rows were written (those taken out forgotten), are a pass's over the table
    monkeypatch.setattr(file_order, "RUNS_AT_MOST", 100)
    reversed_db = tmp_path / f"reversed.{engine}"
    assert run("index", *files[::-1], "-o", str(reversed_db), "-q").exit_code == 2
    database = Database(reversed_db)
    starts = file_order.runs_in_file_order(database)
    assert starts and file_order.recorded(database) == list(zip([None, *starts], [*starts, None]))
    database.close()


@pytest.mark.parametrize("engine", ENGINES)
def test_an_index_in_a_folder_of_any_name_is_the_same(tmp_path: Path, engine: str) -> None:
    """The run's working files stand beside the index (DuckDB's folder for its work on disk is
    named to it in SQL): a folder whose name holds a quote or what a pattern reads makes the
    same index, made and updated."""
    samples = copy_samples(tmp_path / "samples")
    plain, odd = tmp_path / f"plain.{engine}", tmp_path / "it's [1] *{a,b}" / f"odd.{engine}"
    odd.parent.mkdir()
    for db in (plain, odd):
        assert run("index", str(samples), "-o", str(db)).exit_code == 0
    for table in ("positions", "games", "players"):
        rows = rows_of(plain, table)
        same_table(rows_of(odd, table), rows, list(rows[0]), table)
    again = run("index", str(samples), "-o", str(odd))  # updated in place: the old positions carried, none staged
    assert again.exit_code == 0 and "0 files added, 0 changed, 19 unchanged" in again.output, again.output


@pytest.fixture(scope="module")
def corpus_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], dict[str, pd.DataFrame]]:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus absent: {CORPUS}")
    files = [str(path) for path in match_files([CORPUS]) if "other-formats" not in path.parts or path.suffix in (".mat", ".sgf", ".txt")]
    db, expected = index_and_stats(tmp_path_factory.mktemp("corpus"), files, "sqlite")
    return db, files, expected


def test_stats_and_the_index_tables_are_equal_on_the_shared_corpus(corpus_index: tuple[Path, list[str], dict[str, pd.DataFrame]]) -> None:
    db, _, expected = corpus_index
    same_summaries(db, expected)


def test_the_positions_read_back_are_the_replays_on_the_shared_corpus(corpus_index: tuple[Path, list[str], dict[str, pd.DataFrame]]) -> None:
    """Every row of the positions table, read back (its position made again from the game's
    plays and checked by its hash), is the row made from the replay: every identifier."""
    db, files, _ = corpus_index
    copies = {row["file"] for row in rows_of(db, "files") if row["copy_of"] is not None}
    expected = [row for name in files if name not in copies for row in expected_positions(name)]
    same_table(rows_of(db, "positions"), ordered(expected, "positions"), list(read_back.POSITION_ROW_COLUMNS), "positions")


def test_one_worker_two_workers_and_a_dask_cluster_make_the_same_index(tmp_path: Path) -> None:
    samples = copy_samples(tmp_path / "samples")
    runs = [["-j", "1"], ["-j", "2"]]
    if importlib.util.find_spec("distributed") is not None:
        runs.append(["--scheduler", "local", "-j", "2"])
    tables = []
    for number, options in enumerate(runs):
        db = tmp_path / f"{number}.sqlite"
        assert run("index", str(samples), "-o", str(db), *options).exit_code == 0
        tables.append({table: rows_of(db, table) for table in (*SUMMED, "files", "positions")})
    for other in tables[1:]:
        for table, rows in tables[0].items():
            same_table(other[table], rows, list(rows[0]), table)


# --- a file is known by its resolved path and its content ---


@pytest.mark.parametrize("engine", ENGINES)
def test_relative_absolute_copied_and_deleted_files(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    copy_samples(tmp_path / "real")
    db = f"archive.{engine}"
    first = run("index", "real", "-o", db)
    games = len(rows_of(Path(db), "games"))
    again = run("index", str(tmp_path / "real"), "-o", db)  # the same folder, by its absolute path
    assert "0 files added, 0 changed, 19 unchanged" in again.output and len(rows_of(Path(db), "games")) == games, first.output + again.output
    shutil.copy(tmp_path / "real" / "bbgt-two-matches.mat", tmp_path / "real" / "zz-copy.mat")
    copied = run("index", "real", "-o", db)
    assert "real/zz-copy.mat: the same bytes as real/bbgt-two-matches.mat: a copy, not counted again" in copied.output
    assert "1 file added, 0 changed, 19 unchanged, 1 copy:" in copied.output and len(rows_of(Path(db), "games")) == games
    alice = next(row for row in rows_of(Path(db), "players") if row["player"] == "Alice")
    (tmp_path / "real" / "gnubg-5pt-crawford.mat").unlink()
    (tmp_path / "real" / "zz-copy.mat").unlink()
    gone = run("index", "real", "-o", db)
    assert "0 files added, 0 changed, 18 unchanged, 2 gone from the disk (taken out)" in gone.output, gone.output
    names = {row["file"] for row in rows_of(Path(db), "files")}
    assert names == {str(Path("real") / p.name) for p in match_files([tmp_path / "real"])} and "real/zz-copy.mat" not in names
    assert next(row for row in rows_of(Path(db), "players") if row["player"] == "Alice")["games"] == alice["games"]
    assert not [r for r in rows_of(Path(db), "positions") if r["file"] == "real/gnubg-5pt-crawford.mat"]
    assert run("index", "real/xg-tags-bom-crlf.mat", "-o", db).output.startswith("0 files added, 0 changed, 1 unchanged")  # a file alone: nothing else goes


def test_digests_know_the_strings_added(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's paths and keys met so far are held as their digests, sorted in parts split as
    they grow: each string added is found (added again, empty, with zero bytes), and no other."""
    from bgrecord.tables import digests

    monkeypatch.setattr(digests, "PART", 2)  # a part split at its fourth digest
    seen = digests.Digests()
    assert len(seen) == 0 and seen.found([b"a"]) == [False] and seen.found([]) == []
    seen.add(iter([b"b", b"a", b"b", b"", b"\x00"]))
    seen.add([b"a", b"c"])
    seen.add([])
    held = [bytes(part[at : at + 16]) for part in seen.parts for at in range(0, len(part), 16)]
    assert len(seen) == 5 and len(held) == 5 and held == sorted(held) and len(seen.parts) == 2 and seen.firsts[1] == held[2]
    assert seen.found([b"a", b"b", b"c", b"", b"\x00", b"d", b"\x00\x00", b"A"]) == [True] * 5 + [False] * 3
    many = digests.Digests(8)
    many.add(str(number).encode() for number in range(0, 20_000, 2))
    assert len(many) == 10_000 and many.found([str(number).encode() for number in range(10)]) == [True, False] * 5
    assert all(len(part) < 2 * 2 * 8 for part in many.parts) and len(many.parts) > 2_500


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("first, most", [(3, 3), (1, 5)])
def test_files_looked_up_a_few_at_a_time_make_the_index_made_at_once(tmp_path: Path, engine: str, first: int, most: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A run takes its files a chunk at a time (flat memory; the first chunks smaller, growing
    to the largest): the same file named again in a later chunk (by its absolute path, through
    a link) is still read once, and a run over an index finds every file it has, whatever
    chunk it comes in."""
    from bgrecord.tables import archive

    monkeypatch.chdir(tmp_path)
    copy_samples(tmp_path / "real")
    os.symlink(tmp_path / "real", tmp_path / "linked")
    names = ["real", str(tmp_path / "real" / "bbgt-two-matches.mat"), "linked", "real/xg-tags-bom-crlf.mat"]
    whole = run("index", *names, "-o", f"whole.{engine}")
    monkeypatch.setattr(archive, "FIRST_LOOKED_UP", first)
    monkeypatch.setattr(archive, "LOOKED_UP_AT_ONCE", most)
    chunked = run("index", *names, "-o", f"chunked.{engine}")
    assert whole.output.replace("whole", "chunked") == chunked.output and "19 files added, 0 changed, 0 unchanged" in chunked.output
    for table in (*SUMMED, "files", "positions"):
        rows = rows_of(Path(f"whole.{engine}"), table)
        same_table(rows_of(Path(f"chunked.{engine}"), table), rows, list(rows[0]), table)
    (tmp_path / "real" / "gnubg-5pt-crawford.mat").write_text("5 point match\n")  # changed: read again, wherever its chunk
    again = run("index", "real", "linked", "-o", f"chunked.{engine}")
    assert "0 files added, 1 changed, 18 unchanged" in again.output, again.output


def test_a_path_resolved_with_its_folder_known_is_its_real_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run resolves a folder's path once for its files: each file's path is still what
    ``os.path.realpath`` makes of it, through links to folders and to files, relative and
    absolute, with ``.``, ``..`` and doubled slashes, and for names that do not exist."""
    from bgrecord.tables.archive import resolved

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.mat").write_text("")
    os.symlink(tmp_path / "a" / "b", tmp_path / "to-b")
    os.symlink(tmp_path / "a" / "b" / "f.mat", tmp_path / "a" / "absolute.mat")
    os.symlink("b/f.mat", tmp_path / "a" / "relative.mat")
    os.symlink("to-b", tmp_path / "to-to-b")
    monkeypatch.chdir(tmp_path / "a")
    names = ["b/f.mat", "absolute.mat", "relative.mat", "./b//f.mat", "../to-b/f.mat", "../to-b/../b/f.mat", "../to-to-b/f.mat",
             f"{tmp_path}/to-to-b/./f.mat", "missing/f.mat", "b/missing.mat", "b/", ".", "..", "/", "../to-b", "b/f.mat/"]  # fmt: skip
    folders: dict[str, str] = {}
    for name in names + names[::-1]:  # each folder met again once known
        assert resolved(name, folders) == resolved(name) == os.fsencode(os.path.realpath(name)), name
    assert resolved("../to-b/../b/f.mat") == os.fsencode(str(tmp_path / "a" / "b" / "f.mat"))  # a link's parent is its target's


@pytest.mark.parametrize("engine", ENGINES)
def test_copies_are_found_across_batches_as_within_one(tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The content keys are asked of the index a batch at a time (memory holds a batch's):
    written a file at a time, the copies, in the run and of files indexed before it, are the
    ones found in one batch."""
    samples = copy_samples(tmp_path / "samples")
    for name in ("a-copy.mat", "zz-copy.mat"):
        shutil.copy(samples / "bbgt-two-matches.mat", samples / name)
    (tmp_path / "later").mkdir()
    shutil.copy(samples / "gnubg-5pt-crawford.mat", tmp_path / "later" / "copy.mat")
    said, tables, asked = [], [], []  # asked: for each batch size, the keys asked of the index
    query = Database.query
    monkeypatch.setattr(Database, "query", lambda self, sql, *args: (asked[-1].extend(*args) if "file_key IN" in sql else None) or query(self, sql, *args))
    for batch in (None, 1):
        asked.append([])
        if batch:
            monkeypatch.setattr(writing_rows, "BATCH_FILES", batch)
        db = tmp_path / f"{batch}.{engine}"
        said.append(run("index", str(samples), "-o", str(db)).output + run("index", str(tmp_path / "later"), "-o", str(db)).output)
        tables.append({table: rows_of(db, table) for table in ("files", "games")})
    assert said[0].count("a copy, not counted again") == 3 and said[0] == said[1].replace(str(tmp_path / "1."), str(tmp_path / "None."))
    # the index asked only for the keys an indexed file has (their digests): in one batch, the copy of the file indexed before;
    # a file at a time, each copy
    assert [len(keys) for keys in asked] == [1, 3], asked
    for table, rows in tables[0].items():
        same_table(tables[1][table], rows, [c for c in rows[0] if c not in ("file_id", "game_id")], table)


def test_a_copy_whose_original_changes_or_goes_is_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "a"
    folder.mkdir()
    for name in ("one.mat", "two.mat"):
        shutil.copy(SAMPLES / "bbgt-two-matches.mat", folder / name)
    db = tmp_path / "archive.sqlite"
    assert "1 copy" in run("index", str(folder), "-o", str(db)).output
    (folder / "one.mat").unlink()
    again = run("index", str(folder), "-o", str(db))
    assert "1 gone from the disk" in again.output and "1 read again" in again.output
    files = rows_of(db, "files")
    assert [(Path(row["file"]).name, row["games"], row["copy_of"]) for row in files] == [("two.mat", 2, None)]


# --- the schema: versions, and the codes ---


def old_index(path: Path, schema: str | None, files: list[str]) -> None:
    """An index as an older (or newer) bgrecord left it: its files table lists ``files``."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE bgrecord (key TEXT PRIMARY KEY, value TEXT)")
        connection.execute("INSERT INTO bgrecord VALUES ('schema', ?)", [schema])
        connection.execute("CREATE TABLE files (file TEXT, file_key TEXT, games BIGINT, problem TEXT)")
        connection.executemany("INSERT INTO files VALUES (?, 'x', 1, NULL)", [(name,) for name in files])
        connection.execute("CREATE TABLE games (file TEXT)")
        connection.execute("CREATE TABLE positions (position_id TEXT)")
        connection.execute("CREATE TABLE notes (text TEXT)")  # another program's: kept


@pytest.mark.parametrize("older", ["2", "3"])
def test_an_older_index_is_made_again_from_the_files_it_lists(tmp_path: Path, older: str) -> None:
    samples = copy_samples(tmp_path / "samples")
    listed = [str(samples / "bbgt-two-matches.mat"), str(samples / "xg-tags-bom-crlf.mat"), str(tmp_path / "gone.mat")]
    db = tmp_path / "old.sqlite"
    old_index(db, older, listed)
    found = run("find", str(db), Position.start().id())
    assert found.exit_code == 2 and f"an index of an older bgrecord (schema {older}" in found.output and "run bgrecord index" in found.output
    made = run("index", str(samples / "gnubg-5pt-crawford.mat"), "-o", str(db))
    assert made.exit_code == 0 and f"schema {older}): made again from the files it listed (1 file of it no longer found)" in made.output
    assert index_keys.schema_of(Database(db, read_only=True)) == str(SCHEMA_VERSION)
    assert sorted(Path(row["file"]).name for row in rows_of(db, "files")) == ["bbgt-two-matches.mat", "gnubg-5pt-crawford.mat", "xg-tags-bom-crlf.mat"]
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT type FROM sqlite_master WHERE name = 'bgrecord'").fetchall() == [("view",)]  # no longer a table
        assert connection.execute("SELECT count(*) FROM notes").fetchone() == (0,)
    # a newer schema, or none known: tests/test_hostile_database.py


@pytest.mark.parametrize("engine", ENGINES)
def test_the_keys_are_read_from_a_view_or_an_older_table_and_a_key_written_twice_is_not_trusted(tmp_path: Path, engine: str) -> None:
    database = Database(tmp_path / f"keys.{engine}")
    try:
        assert keys(database) is None and index_keys.schema_of(database) is None  # no keys: not an index
        database.execute("CREATE TABLE bgrecord (key TEXT, value TEXT)")  # as schema 3 and before kept them
        database.append("bgrecord", [("schema", "3"), ("game_order", "5"), ("game_order", "9"), ("note", None)], {"key": "string", "value": "string"})
        assert keys(database) == {"schema": "3"} and index_keys.schema_of(database) == "3" and not index_keys.is_index(database)
        write_keys(database, {"schema": str(SCHEMA_VERSION), "game_order": "it's"})  # the table replaced by a view, quotes kept
        assert keys(database) == {"schema": str(SCHEMA_VERSION), "game_order": "it's"} and index_keys.is_index(database)
        assert "bgrecord" in database.names() and database.query("SELECT count(*) FROM bgrecord") == [(2,)]
        write_keys(database, {"schema": "2"})  # and written again whole
        assert keys(database) == {"schema": "2"}
    finally:
        database.close()


def test_the_codes_give_back_every_play_action_place_and_cube() -> None:
    rng = random.Random(7)
    positions = [r.position for path in match_files([SAMPLES]) for r in step_records(path) if r.position is not None]
    for position in rng.sample(positions, 150):
        for dice in [(a, b) for a in range(1, 7) for b in range(1, 7)]:
            for legal in position.legal_plays(dice):
                code = codes.play_code(legal, dice)
                made = sorted((m.source, m.target, hit) for m, hit in zip(legal.play.moves, legal.hits))
                assert sorted(codes.from_play(code, dice)) == made
                assert codes.notation(codes.from_play(code, dice)) == str(legal)  # one notation: the board's, the index's
                assert sorted(codes.from_play(codes.play_code(legal, None), None)) == made  # without dice: the moves themselves
    for kind in codes.KINDS:
        for player in (0, 1):
            for dice in (None, (5, 2), (2, 5), (6, 6)):
                for cube, owner in ((1, None), (2, 0), (64, 1), (3, None)):
                    assert codes.from_act(codes.act_code(kind, player, dice, cube, owner)) == (kind, player, dice, cube, owner)
    for move in (None, 1, 57, codes.ROWS - 1):
        for offset in (0, -1, 1, -40, 12345):
            assert codes.from_place(codes.place_code(move, offset)) == (move, offset)
    with pytest.raises(ValueError):
        codes.place_code(codes.ROWS, 0)
    start = Position.start()
    assert codes.hash_of(start) == 917744917930115820  # the key of every index: it never changes without a new schema
    assert codes.position_key(start) == codes.key_of_id(start.id()) and codes.id_of_key(codes.position_key(start)) == start.id()


# --- a Parquet dataset ---


def test_codes_are_made_once_each_and_held_no_more_than_their_bound() -> None:
    """The codes of plays and actions are made once for each key asked (an archive's recur) and
    the dictionary holding them never grows past its bound."""
    made: list[tuple[int, int]] = []

    def make(a: int, b: int) -> int:
        made.append((a, b))
        return a * 10 + b

    found = codes.Codes(make, 3)
    assert [found[key] for key in [(1, 2), (3, 4), (1, 2), (5, 6), (3, 4)]] == [12, 34, 12, 56, 34] and made == [(1, 2), (3, 4), (5, 6)]
    assert found[(7, 8)] == 78 and len(found) <= 3 and found[(1, 2)] == 12 and len(found) <= 3
    assert codes.ACT_CODES[("take", 1, None, 2, 0)] == codes.act_code("take", 1, None, 2, 0)


def test_a_dataset_holds_the_tables_and_find_searches_it(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    pytest.importorskip("duckdb")
    samples = copy_samples(tmp_path / "samples")
    db, folder = tmp_path / "archive.sqlite", tmp_path / "archive"
    assert run("index", str(samples), "-o", str(db)).exit_code == 0
    assert run("index", str(samples), "-o", str(folder), "--format", "dataset").exit_code == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(["bgrecord.json", "dice.parquet", "files.parquet", "games.parquet",
                                                                "matches.parquet", "players.parquet", "positions", "start_positions.parquet"])  # fmt: skip
    assert len(list((folder / "positions").glob("bucket=*/part-0.parquet"))) > 1
    games = pd.read_parquet(folder / "games.parquet")
    assert len(games) == len(rows_of(db, "games")) and list(games.columns) == list(INDEX_GAME_COLUMNS)
    for position_id in ("4HPwATDgc/ABMA", "sGfwATDgc/ABMA", "4DnyADLgc/ABMA"):
        assert run("find", str(folder), position_id, "--format", "json").output == run("find", str(db), position_id, "--format", "json").output
    same_table(ordered(list(read_back.positions(folder)), "positions"), rows_of(db, "positions"), list(read_back.POSITION_ROW_COLUMNS), "positions")
    duckdb = pytest.importorskip("duckdb")
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{folder}/positions/*/*.parquet', hive_partitioning = true)").fetchall() == \
        [(len(rows_of(db, "positions")),)]  # fmt: skip
    assert run("index", str(samples), "-o", str(folder), "--format", "dataset").exit_code == 0  # replaced whole
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    refused = run("index", str(samples), "-o", str(tmp_path / "mine"), "--format", "dataset")
    assert refused.exit_code == 2 and "not a bgrecord dataset" in refused.output and (tmp_path / "mine" / "notes.txt").read_text() == "mine"
    marker = json.loads((folder / "bgrecord.json").read_text(encoding="utf-8"))
    with search.searched(folder) as dataset, search.searched(db) as index:  # the index's runs in file order, carried
        assert marker[file_order.GAME_ORDER] == "" and file_order.recorded(dataset) == file_order.recorded(index) == [(None, None)]
    expected = run("find", str(db), "4HPwATDgc/ABMA", "--format", "json").output
    for damaged in ("3,x'); DROP TABLE files; --", "9,2", 7):  # another program's: not what index writes, so the occurrences are sorted
        (folder / "bgrecord.json").write_text(json.dumps({**marker, file_order.GAME_ORDER: damaged}), encoding="utf-8")
        with search.searched(folder) as dataset:
            assert file_order.recorded(dataset) is None
        assert run("find", str(folder), "4HPwATDgc/ABMA", "--format", "json").output == expected
    os.remove(folder / "bgrecord.json")
    assert run("find", str(folder), "4HPwATDgc/ABMA").exit_code == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_the_occurrences_view_reads_the_small_integers_as_the_positions_rows_say(tmp_path: Path, engine: str) -> None:
    db = tmp_path / f"archive.{engine}"
    assert run("index", str(copy_samples(tmp_path / "samples")), "-o", str(db)).exit_code == 0
    database = Database(db)
    try:
        columns = ["file", "match", "game", "step", "move", "line", "action", "player", "dice", "cube", "cube_owner"]
        view = ordered([dict(zip(columns, row)) for row in database.query(f"SELECT {', '.join(columns)} FROM occurrences")], "positions")
    finally:
        database.close()
    expected = rows_of(db, "positions")
    for row in view:  # as recorded (52 or 25); the positions rows write the higher die first
        row["dice"] = None if row["dice"] is None else f"{max(divmod(row['dice'], 10))}{min(divmod(row['dice'], 10))}"
    same_table(view, expected, columns, "occurrences")


@pytest.mark.parametrize("size", [10, 8192, 8193, 200_000])
def test_a_files_content_key_is_its_bytes_hash_whether_read_already_or_streamed(tmp_path: Path, size: int) -> None:
    """A small file is hashed from the bytes read with its head, a larger one as a stream: the
    key is the same function of the bytes either way (an index built before knows the file)."""
    import hashlib

    data = bytes(random.Random(size).randrange(256) for _ in range(size))
    path = tmp_path / "file.mat"
    path.write_bytes(data)
    source = Input.named(str(path))
    assert (source.read_already() is not None) == (size <= 8192)
    assert content_key(source) == content_key(Input.of(data)) == hashlib.sha256(data).hexdigest()[:16]
