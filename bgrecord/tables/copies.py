"""The copies of matches in an index: each game whose match key an earlier match holds (by
file, then match index) is given ``duplicate_of``, ``file#match`` of the first copy, as
:class:`bgrecord.replay.matchkeys.Duplicates` marks the rows of ``stats`` (docs/stats.md).
Marked once every row of a run is in, the keys of a bounded number of games at a time.

What it does not do: find the keys (:func:`bgrecord.replay.matchkeys.content_key` and the
replay make them), or count a copy once (the summaries do, with ``--dedupe``).
"""

from __future__ import annotations

from bgrecord.tables.database import Database

# the games of keys held by several matches, marked a part at a time, each part written to the file before the next: DuckDB
# holds what an update changed in memory until then, and within a run's last bound (24 MB) some 25,000 games' failed
GAMES_MARKED_AT_ONCE = 8192


def mark(database: Database) -> None:
    """``duplicate_of`` for every match whose key an earlier match (by file, then index) has:
    ``file#match`` of the first, as :class:`bgrecord.replay.matchkeys.Duplicates` marks them.
    Only the games of a key that several matches hold can be marked: those keys are found
    first (one pass, grouped by key), and their games marked some :data:`GAMES_MARKED_AT_ONCE`
    at a time (a key's all at once), so that what a join or an update holds does not grow
    with the archive."""
    database.execute(
        "CREATE TEMPORARY TABLE copied_keys AS SELECT match_key, sum(games) OVER (ORDER BY match_key) AS n FROM ("
        " SELECT match_key, sum(games) AS games FROM (SELECT match_key, count(*) AS games FROM game_rows WHERE match_key IS NOT NULL"
        " GROUP BY match_key, file_id, match) GROUP BY match_key HAVING count(*) > 1)")  # fmt: skip
    try:
        database.execute("UPDATE game_rows SET duplicate_of = NULL WHERE duplicate_of IS NOT NULL "
                         "AND (match_key IS NULL OR match_key NOT IN (SELECT match_key FROM copied_keys))")  # fmt: skip
        games = int(database.query("SELECT COALESCE(max(n), 0) FROM copied_keys")[0][0])
        for first in range(0, games, GAMES_MARKED_AT_ONCE):
            _mark_copies(database, first, first + GAMES_MARKED_AT_ONCE)
            database.release()
    finally:
        database.execute("DROP TABLE copied_keys")


def _mark_copies(database: Database, after: int, last: int) -> None:
    """The marks of the games of the copied keys whose games and those of the keys before
    them number ``after + 1`` to ``last``."""
    database.execute(
        "CREATE TEMPORARY TABLE firsts AS SELECT match_key, file || '#' || CAST(match AS TEXT) AS original FROM ("
        " SELECT match_key, file, match, row_number() OVER (PARTITION BY match_key ORDER BY file, file_id, match) AS n"
        " FROM (SELECT DISTINCT match_key, file, file_id, match FROM games"
        " WHERE match_key IN (SELECT match_key FROM copied_keys WHERE n > ? AND n <= ?))) WHERE n = 1", [after, last])  # fmt: skip
    try:
        # the marks found first (a query, on disk past DuckDB's bound), then written: an update that joined every file's
        # name held it all in memory, past a run's last bound (bgrecord.tables.database.DUCKDB_SCANNING_MEMORY)
        here = "files.file || '#' || CAST(game_rows.match AS TEXT)"
        marked = f"CASE WHEN firsts.original = {here} THEN NULL ELSE firsts.original END"
        database.execute(f"CREATE TEMPORARY TABLE marks AS SELECT game_rows.game_id, {marked} AS mark FROM game_rows "
                         "JOIN firsts ON firsts.match_key = game_rows.match_key JOIN files ON files.file_id = game_rows.file_id "
                         f"WHERE NOT COALESCE(game_rows.duplicate_of = {marked}, game_rows.duplicate_of IS NULL AND {marked} IS NULL)")  # fmt: skip
        database.execute("UPDATE game_rows SET duplicate_of = marks.mark FROM marks WHERE game_rows.game_id = marks.game_id")
    finally:
        database.execute("DROP TABLE IF EXISTS marks")
        database.execute("DROP TABLE firsts")
