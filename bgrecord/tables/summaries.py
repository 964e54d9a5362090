"""An index's players, matches and dice tables (docs/stats.md): summed as a new index's games
rows are written (:class:`RunningSums`), or again from its games table (:func:`summed_again`)
by a run that changes an index, that counts each match once (``--dedupe``: which match is a
copy is known only when every row is in), or that took rows out again. Either way the tables
are those ``stats`` sums from the same games rows, in flat memory: the players are held, and
a match only until its games end (:data:`MATCHES_AT_ONCE` ended matches are written at a time).

What it does not do: read or judge the games rows (:mod:`bgrecord.tables.summing` sums what it
is given).
"""

from __future__ import annotations

from typing import Any, Iterator

from bgrecord.names import NO_ALIASES, People
from bgrecord.tables.database import Database
from bgrecord.tables.schema import FROM_FILES, SUMMARIES
from bgrecord.tables.summing import SUMMED_COLUMNS, Tables

MATCHES_AT_ONCE = 2_000  # summed matches written at a time: the matches table in flat memory (a few MB)
GAMES_SORTED_AT_ONCE = 10_000  # games DuckDB sorts at a time when they are summed again (within its bound beside the run)
PARTS_WRITTEN_AT_ONCE = 4096  # files whose part is written at a time
_PART_TYPES = {"file_id": "Int64", "part": "Int64"}  # the file_parts table's columns


class RunningSums:
    """The summaries of games rows given one at a time, each file's in order (a match's games
    together): a match's row is held until its games end, then written with others
    :data:`MATCHES_AT_ONCE` at a time, so that memory holds the players, not the matches.
    A new index feeds it the rows it writes (no reading back at the end, when no worker is
    left to share the machine with); ``spoiled`` once rows written are taken out again: the
    tables are then summed again from the games table (:func:`summed_again`)."""

    def __init__(self, database: Database, people: People = NO_ALIASES) -> None:
        self.database = database
        self.tables = Tables(people)
        self.ended: dict[tuple[str, int], dict[str, Any]] = {}
        self.current: tuple[str, int] | None = None  # the match of the last row
        self.spoiled = False
        for table in SUMMARIES:
            database.execute(f"DELETE FROM {table}")

    def add(self, row: dict[str, Any]) -> None:
        key = (row["file"], row["match"])
        if key != self.current:
            current, match_rows = self.current, self.tables.match_rows
            if current is not None and current in match_rows:
                self.ended[current] = match_rows.pop(current)
            if len(self.ended) >= MATCHES_AT_ONCE:
                self._write_matches()
            self.current = key
        self.tables.add_row(row)

    def finish(self, copies_marked: bool = True) -> None:
        """The last matches, the players and the dice written. ``copies_marked=False``: the
        rows were summed before their copies were marked (a new index marks them once every
        row is in), and the matches take ``duplicate_of`` from their games now."""
        self.ended.update(self.tables.match_rows)
        self._write_matches()
        self.database.insert("players", self.tables.player_rows())
        self.database.insert("dice", self.tables.dice_rows(tests=False))  # the tests are stats --dice's (scipy)
        if not copies_marked and self.database.query("SELECT 1 FROM game_rows WHERE duplicate_of IS NOT NULL LIMIT 1"):
            # the marked matches found first, in a table of their own, then their files' names: a join of every game
            # to its file (the games view) held every file's name in memory, DuckDB's largest use of it at the end of
            # a run of a million games (its guess of the marked games is a fifth of them, and it held the files)
            self.database.execute("CREATE TEMPORARY TABLE marked_matches AS SELECT DISTINCT file_id, match, duplicate_of FROM game_rows "
                                  "WHERE duplicate_of IS NOT NULL")  # fmt: skip
            try:
                self.database.execute(
                    "UPDATE matches SET duplicate_of = marked.duplicate_of FROM (SELECT f.file, m.match, m.duplicate_of FROM marked_matches m "
                    "JOIN files f ON f.file_id = m.file_id) AS marked WHERE matches.file = marked.file AND matches.match = marked.match")  # fmt: skip
            finally:
                self.database.execute("DROP TABLE marked_matches")

    def _write_matches(self) -> None:
        ended, self.ended = self.ended, {}
        self.database.insert("matches", Tables(self.tables.names, match_rows=ended).match_table_rows())


def summed_again(database: Database, dedupe: bool, people: People = NO_ALIASES) -> None:
    """The players, matches and dice tables, summed again from the games table in the order
    ``stats`` sums a folder's files (by file, then match and game). ``dedupe``: the games of a
    match marked as a copy are left out."""
    sums = RunningSums(database.beside(), people)  # the matches go in as the games stream out
    for row in _games_in_file_order(database):
        if not (dedupe and row["duplicate_of"]):
            sums.add(row)
    sums.finish()


def _games_in_file_order(database: Database) -> Iterator[dict[str, Any]]:
    """The games rows to sum, by file, file number, match and game. DuckDB sorts them a part of
    the files at a time (parts of some :data:`GAMES_SORTED_AT_ONCE` games, in file order): a
    sort of every game's wide row at once outgrows a run's bound at a million games (alone, it
    failed with 96 MB; beside the run, parts of 50,000 failed with 64 MB), a small part's does
    not. SQLite sorts on disk: at once."""
    columns = ", ".join(f"f.{c}" if c in FROM_FILES else f'g."{c}"' for c in SUMMED_COLUMNS)
    order = " ORDER BY f.file, g.file_id, g.match, g.game"
    if database.engine != "duckdb":
        yield from database.rows(f"SELECT {columns} FROM game_rows g JOIN files f ON f.file_id = g.file_id{order}", SUMMED_COLUMNS)
        return
    parts = _file_parts(database)
    part_files = f"SELECT file_id, {', '.join(FROM_FILES)} FROM files JOIN file_parts USING (file_id) WHERE part = ?"
    try:
        for part in range(parts):  # the games joined to their part's files alone: joined to every file, its names were held
            yield from database.rows(f"SELECT {columns} FROM game_rows g JOIN ({part_files}) f ON f.file_id = g.file_id{order}", SUMMED_COLUMNS, [part])
    finally:
        database.execute("DROP TABLE file_parts")


def _file_parts(database: Database) -> int:
    """A table ``file_parts`` of each file's part (``file_id``, ``part``): the files in file
    order, cut every :data:`GAMES_SORTED_AT_ONCE` games as the files table counts them (a file
    counted wrong makes a part larger or smaller, never leaves its games out); how many parts
    (at most one more than the games divided by it). The cuts are made here, as the files come
    in order: DuckDB's window over them, with the games counted, held every file's name at once
    (more than a run's last steps' bound at a million games); its sort works on disk past it."""
    database.execute("CREATE TEMPORARY TABLE file_parts (file_id BIGINT, part BIGINT)")
    found = database.beside().tuples("SELECT file_id, COALESCE(games, 0) FROM files ORDER BY file, file_id")
    games, parts, batch = 0, 0, []
    for file_id, count in found:
        part = games // GAMES_SORTED_AT_ONCE
        batch.append((file_id, part))
        games, parts = games + count, part + 1
        if len(batch) == PARTS_WRITTEN_AT_ONCE:
            database.append("file_parts", batch, _PART_TYPES)
            batch = []
    database.append("file_parts", batch, _PART_TYPES)
    return parts
