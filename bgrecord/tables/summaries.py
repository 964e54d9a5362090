"""An index's players, matches and dice tables (docs/stats.md): summed as a new index's games
rows are written (:class:`RunningSums`), or again from its games table (:func:`summed_again`)
by a run that changes an index, that counts each match once (``--dedupe``: which match is a
copy is known only when every row is in), or that took rows out again. Either way the tables
are those ``stats`` sums from the same games rows, in flat memory: the players are held, and
a match only until its file's rows are in (:data:`MATCHES_AT_ONCE` ended matches are written at
a time).

What it does not do: read or judge the games rows (:mod:`bgrecord.tables.summing` sums what it
is given).
"""

from __future__ import annotations

from typing import Any

from bgrecord.names import NO_ALIASES, People
from bgrecord.tables.database import Database
from bgrecord.tables.schema import SUMMARIES
from bgrecord.tables.summing import SUMMED_COLUMNS, Tables

MATCHES_AT_ONCE = 2_000  # summed matches written at a time: the matches table in flat memory (a few MB)


class RunningSums:
    """A new index's summaries, summed from its games rows as they are written (no reading
    back at the end, when no worker is left to share the machine with). ``add`` each row
    written, in its file's order; ``file_written`` when a file's rows are all in (its matches
    have ended); ``spoiled`` once rows written are taken out again: the tables are then
    summed again from the games table (:func:`summed_again`)."""

    def __init__(self, database: Database, people: People = NO_ALIASES) -> None:
        self.database = database
        self.tables = Tables(people)
        self.ended: dict[tuple[str, int], dict[str, Any]] = {}
        self.spoiled = False
        for table in SUMMARIES:
            database.execute(f"DELETE FROM {table}")

    def add(self, row: dict[str, Any]) -> None:
        self.tables.add_row(row)

    def file_written(self) -> None:
        self.ended.update(self.tables.match_rows)
        self.tables.match_rows.clear()
        if len(self.ended) >= MATCHES_AT_ONCE:
            self._write_matches()

    def finish(self) -> None:
        """The tables written, each match marked as a copy as its games are
        (:func:`bgrecord.tables.archive.index` marks them once every row is in)."""
        self.ended.update(self.tables.match_rows)
        _written(self.database, self.tables, self.ended)
        self.database.execute(
            "UPDATE matches SET duplicate_of = marked.duplicate_of FROM (SELECT DISTINCT file, match, duplicate_of FROM games "
            "WHERE duplicate_of IS NOT NULL) AS marked WHERE matches.file = marked.file AND matches.match = marked.match")  # fmt: skip

    def _write_matches(self) -> None:
        ended, self.ended = self.ended, {}
        _write_matches(self.database, self.tables.names, ended)


def summed_again(database: Database, dedupe: bool, people: People = NO_ALIASES) -> None:
    """The players, matches and dice tables, summed again from the games table in the order
    ``stats`` sums a folder's files (by file, then match and game); a match's row is written
    when its games end, so that memory holds the players, not the matches. ``dedupe``: the
    games of a match marked as a copy are left out."""
    for table in SUMMARIES:
        database.execute(f"DELETE FROM {table}")
    tables = Tables(people)
    ended: dict[tuple[str, int], dict[str, Any]] = {}
    current: tuple[str, int] | None = None
    order = ", ".join(f'"{c}"' for c in SUMMED_COLUMNS)
    writer = database.beside()  # the matches go in as the games stream out
    for row in database.rows(f"SELECT {order} FROM games ORDER BY file, file_id, match, game", SUMMED_COLUMNS):
        if dedupe and row["duplicate_of"]:
            continue
        key = (row["file"], row["match"])
        if key != current:
            if current is not None and current in tables.match_rows:
                ended[current] = tables.match_rows.pop(current)
            if len(ended) >= MATCHES_AT_ONCE:
                _write_matches(writer, people, ended)
                ended = {}
            current = key
        tables.add_row(row)
    ended.update(tables.match_rows)
    _written(writer, tables, ended)


def _write_matches(database: Database, people: People, ended: dict[tuple[str, int], dict[str, Any]]) -> None:
    database.insert("matches", Tables(people, match_rows=ended).match_table_rows())


def _written(database: Database, tables: Tables, ended: dict[tuple[str, int], dict[str, Any]]) -> None:
    """The last matches, the players and the dice into their tables."""
    _write_matches(database, tables.names, ended)
    database.insert("players", tables.player_rows())
    database.insert("dice", tables.dice_rows(tests=False))  # the tests are stats --dice's (scipy)
