"""The index's tables and their columns (docs/stats.md, "The database of bgrecord index"): the
tables of ``bgrecord stats``, the positions as small integers (:mod:`bgrecord.tables.positions`),
the files, and two views that read them as the tables they stand for.
"""

from __future__ import annotations

from bgrecord.tables.database import SCHEMA_VERSION, Database, divided
from bgrecord.tables.index_keys import SCHEMA, keys, write_keys
from bgrecord.tables.stats import GAME_COLUMNS
from bgrecord.tables.summing import DICE_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS

# The games table is stats's, as a view of two tables: a game's own row (``game_rows``), with
# what the index adds (its number, its file's, the line its positions' lines count from, Jacoby
# as the rules read it, its number in its match), and its file's (name and content key, held
# once a file).
GAME_KEYS: dict[str, str] = {"game_id": "Int64", "file_id": "Int64", "line": "Int64", "jacoby": "boolean", "game_in_match": "Int64"}
FROM_FILES = ("file", "file_key")
GAME_ROW_COLUMNS = {**GAME_KEYS, **{name: kind for name, kind in GAME_COLUMNS.items() if name not in FROM_FILES}}
INDEX_GAME_COLUMNS = {**GAME_KEYS, **GAME_COLUMNS}  # the games view's
POSITION_COLUMNS: dict[str, str] = {"position": "Int64", "game": "Int64", "step": "Int64", "place": "Int64", "act": "Int64", "play": "Int64"}
START_COLUMNS: dict[str, str] = {"game": "Int64", "step": "Int64", "position": "bytes"}
FILE_COLUMNS: dict[str, str] = {
    "file_id": "Int64", "file": "string", "path": "bytes", "file_key": "string", "games": "Int64", "problem": "string",
    "copy_of": "Int64", "unit": "string",
}  # fmt: skip
TABLES = {"game_rows": GAME_ROW_COLUMNS, "positions": POSITION_COLUMNS, "start_positions": START_COLUMNS, "players": PLAYER_COLUMNS,
          "matches": MATCH_COLUMNS, "dice": DICE_COLUMNS, "files": FILE_COLUMNS}  # fmt: skip
VIEWS = ("games", "occurrences")
SUMMARIES = ("players", "matches", "dice")  # summed from the games rows by every run (bgrecord.tables.summaries)


def views(engine: str) -> dict[str, str]:
    """The views of an index: ``games`` (stats's columns, each game with its file's name and
    key) and ``occurrences`` (the positions table with its small integers read: docs/stats.md)."""
    from bgrecord.tables.positions import ACTS, DICE, KINDS, ROWS

    rest = ", ".join(f"g.{name}" for name in GAME_ROW_COLUMNS if name not in GAME_KEYS)
    games = f"SELECT g.game_id, g.file_id, g.line, g.jacoby, g.game_in_match, f.file, f.file_key, {rest} FROM game_rows g JOIN files f ON f.file_id = g.file_id"
    act, row, zigzag = f"(p.act % {ACTS})", f"(p.place % {ROWS})", divided(engine, "p.place", ROWS)
    rolled = f"({divided(engine, act, 2)} % {DICE})"
    kind = " ".join(f"WHEN {code} THEN '{name}'" for code, name in enumerate(KINDS))
    owner = f"({divided(engine, 'p.act', ACTS)} % 3)"
    occurrences = (
        f"SELECT p.position, p.game AS game_id, g.file, g.match, g.game, p.step, NULLIF({row}, 0) AS move, "
        f"g.line + {row} + CASE WHEN {zigzag} % 2 = 0 THEN {divided(engine, zigzag, 2)} ELSE -{divided(engine, zigzag + ' + 1', 2)} END AS line, "
        f"CASE {divided(engine, act, 2 * DICE)} {kind} END AS action, p.act % 2 AS player, "
        f"CASE WHEN {rolled} = 0 THEN NULL ELSE ({divided(engine, rolled + ' - 1', 6)} + 1) * 10 + ({rolled} - 1) % 6 + 1 END AS dice, "
        f"{divided(engine, divided(engine, 'p.act', ACTS), 3)} + 1 AS cube, CASE WHEN {owner} = 0 THEN NULL ELSE {owner} - 1 END AS cube_owner, "
        f"p.play FROM positions p JOIN games g ON g.game_id = p.game"
    )  # fmt: skip
    return {"games": games, "occurrences": occurrences}


def create(database: Database, kept: dict[str, str] | None = None) -> None:
    """The index's tables (an existing one kept), its views, and its keys with the schema's
    version: ``kept`` (an old index's, as DuckDB's copy of its tables leaves them behind; ``{}``
    for none), by default those the database holds."""
    held = kept if kept is not None else keys(database) or {}
    write_keys(database, {**held, SCHEMA: str(SCHEMA_VERSION)})
    for table, columns in TABLES.items():
        database.create_table(table, columns)
    if database.engine == "sqlite":  # a copy is found by its content (DuckDB scans the column: its index stays whole in memory)
        database.execute("CREATE INDEX IF NOT EXISTS files_by_key ON files (file_key)")
    for name, sql in views(database.engine).items():
        database.execute(f"CREATE VIEW IF NOT EXISTS {name} AS {sql}")
