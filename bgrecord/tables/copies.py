"""The copies of matches in an index: each game whose match key an earlier match holds (by
file, then match index) is given ``duplicate_of``, ``file#match`` of the first copy, as
:class:`bgrecord.replay.matchkeys.Duplicates` marks the rows of ``stats`` (docs/stats.md).
Marked once every row of a run is in, a bounded part of the keys at a time.

What it does not do: find the keys (:func:`bgrecord.replay.matchkeys.content_key` and the
replay make them), or count a copy once (the summaries do, with ``--dedupe``).
"""

from __future__ import annotations

from bgrecord.tables.database import Database

KEYS_MARKED_AT_ONCE = 50_000  # keys held by several matches, marked a part at a time: DuckDB's joins stay within its bound


def mark(database: Database) -> None:
    """``duplicate_of`` for every match whose key an earlier match (by file, then index) has:
    ``file#match`` of the first, as :class:`bgrecord.replay.matchkeys.Duplicates` marks them.
    Only the games of a key that several matches hold can be marked: those keys are found
    first (one pass, grouped by key), and their games marked :data:`KEYS_MARKED_AT_ONCE` keys at
    a time, so that what a join holds does not grow with the archive."""
    database.execute(
        "CREATE TEMPORARY TABLE copied_keys AS SELECT match_key, row_number() OVER (ORDER BY match_key) AS n FROM ("
        " SELECT match_key FROM (SELECT DISTINCT match_key, file_id, match FROM game_rows WHERE match_key IS NOT NULL)"
        " GROUP BY match_key HAVING count(*) > 1)")  # fmt: skip
    try:
        database.execute("UPDATE game_rows SET duplicate_of = NULL WHERE duplicate_of IS NOT NULL "
                         "AND (match_key IS NULL OR match_key NOT IN (SELECT match_key FROM copied_keys))")  # fmt: skip
        keys = int(database.query("SELECT count(*) FROM copied_keys")[0][0])
        for first in range(0, keys, KEYS_MARKED_AT_ONCE):
            _mark_copies(database, first, first + KEYS_MARKED_AT_ONCE)
    finally:
        database.execute("DROP TABLE copied_keys")


def _mark_copies(database: Database, after: int, last: int) -> None:
    """The marks of the games of the copied keys numbered ``after + 1`` to ``last``."""
    database.execute(
        "CREATE TEMPORARY TABLE firsts AS SELECT match_key, file || '#' || CAST(match AS TEXT) AS original FROM ("
        " SELECT match_key, file, match, row_number() OVER (PARTITION BY match_key ORDER BY file, file_id, match) AS n"
        " FROM (SELECT DISTINCT match_key, file, file_id, match FROM games"
        " WHERE match_key IN (SELECT match_key FROM copied_keys WHERE n > ? AND n <= ?))) WHERE n = 1", [after, last])  # fmt: skip
    try:
        here = "files.file || '#' || CAST(game_rows.match AS TEXT)"
        marked = f"CASE WHEN firsts.original = {here} THEN NULL ELSE firsts.original END"
        database.execute(f"UPDATE game_rows SET duplicate_of = {marked} FROM firsts, files WHERE files.file_id = game_rows.file_id "
                         f"AND firsts.match_key = game_rows.match_key "
                         f"AND NOT COALESCE(game_rows.duplicate_of = {marked}, game_rows.duplicate_of IS NULL AND {marked} IS NULL)")  # fmt: skip
    finally:
        database.execute("DROP TABLE firsts")
