"""The index's database file: its tables and their columns (schema: docs/stats.md), and the
two engines, DuckDB and SQLite, behind one small interface (:class:`Database`). What keeps the
file safe (one writer at a time, the engines' errors told as what they are) is
:mod:`bgrecord.tables.storage`; what is written into it, :mod:`bgrecord.tables.archive`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import pandas as pd

from bgrecord.extras import require
from bgrecord.tables.stats import DICE_COLUMNS, GAME_COLUMNS, MATCH_COLUMNS, PLAYER_COLUMNS
from bgrecord.tables.storage import engine_failure, is_engine_error

SCHEMA_VERSION = "2"  # 2: positions.unit, and match keys that leave notation out (an index of 1 is made again)
ENGINES = {".duckdb": "duckdb", ".sqlite": "sqlite", ".sqlite3": "sqlite"}

POSITION_COLUMNS: dict[str, str] = {
    "file": "string", "match_key": "string", "match": "Int64", "game": "Int64", "move": "Int64", "line": "Int64",
    "unit": "string", "step": "Int64", "action": "string", "player": "Int64", "player0": "string", "player1": "string", "dice": "string",
    "play": "string", "position_id": "string", "match_id": "string", "xgid": "string", "ogid": "string",
    "pips0": "Int64", "pips1": "Int64", "cube": "Int64", "cube_owner": "Int64", "score0": "Int64", "score1": "Int64",
    "match_length": "Int64",
}  # fmt: skip
FILE_COLUMNS: dict[str, str] = {"file": "string", "file_key": "string", "games": "Int64", "problem": "string"}
TABLES = {"games": GAME_COLUMNS, "positions": POSITION_COLUMNS, "players": PLAYER_COLUMNS, "matches": MATCH_COLUMNS,
          "dice": DICE_COLUMNS, "files": FILE_COLUMNS}  # fmt: skip
_SQL_TYPES = {"string": "TEXT", "Int64": "BIGINT", "boolean": "BOOLEAN", "Float64": "DOUBLE"}


def engine_of(path: str | Path) -> str:
    """``duckdb`` or ``sqlite``, by the database file's extension."""
    engine = ENGINES.get(Path(path).suffix.lower())
    if engine is None:
        raise ValueError(f"{path}: a database ends in .duckdb (DuckDB) or .sqlite (SQLite)")
    return engine


class Database:
    """A DuckDB or SQLite file holding :data:`TABLES`: one small interface for both."""

    def __init__(self, path: str | Path, read_only: bool = False, name: str | Path | None = None) -> None:
        """Open the database file ``path`` (``name``: what to call it in a message, when
        ``path`` is a temporary copy). :class:`~bgrecord.tables.storage.DatabaseError` when the
        engine cannot open it."""
        self.path = Path(path)
        self.engine = engine_of(path)
        self.remade = False  # an index of another schema version, dropped to be made again
        engine = require("duckdb") if self.engine == "duckdb" else None
        try:
            if engine is not None:
                self.connection: Any = engine.connect(str(self.path), read_only=read_only)
            else:
                self.connection = sqlite3.connect(self.path.resolve().as_uri() + ("?mode=ro" if read_only else ""), uri=True)
        except Exception as exc:
            if is_engine_error(exc):
                raise engine_failure(name or path, exc) from None
            raise

    def names(self) -> set[str]:
        if self.engine == "duckdb":
            return {row[0] for row in self.query("SELECT table_name FROM information_schema.tables")}
        return {row[0] for row in self.query("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def query(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.connection.execute(sql, list(parameters)).fetchall())

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        self.connection.execute(sql, list(parameters))

    def schema(self) -> str | None:
        """The schema version of a bgrecord index; None for a database that is not one."""
        try:
            found = self.query("SELECT value FROM bgrecord WHERE key = 'schema'")
        except Exception:  # noqa: BLE001 - no such table (each engine has its own error): not ours
            return None
        return str(found[0][0]) if found else None

    def is_index(self) -> bool:
        return self.schema() == SCHEMA_VERSION

    def drop(self) -> None:
        """The tables of an index of another schema version: dropped, to be made again."""
        for table in [*TABLES, "bgrecord"]:
            self.execute(f"DROP TABLE IF EXISTS {table}")

    def is_empty(self) -> bool:
        try:
            return not self.names()
        except Exception as exc:  # noqa: BLE001 - each engine has its own error for a file that is not its database
            if is_engine_error(exc):
                return False
            raise

    def create(self) -> None:
        """The tables, empty (an existing one is kept)."""
        self.execute("CREATE TABLE IF NOT EXISTS bgrecord (key TEXT PRIMARY KEY, value TEXT)")
        if not self.query("SELECT value FROM bgrecord WHERE key = 'schema'"):
            self.execute("INSERT INTO bgrecord VALUES ('schema', ?)", [SCHEMA_VERSION])
        for table, columns in TABLES.items():
            self.create_table(table, columns)

    def create_table(self, table: str, columns: dict[str, str]) -> None:
        """A table of ``columns`` (name: pandas type), unless it exists."""
        body = ", ".join(f'"{name}" {_SQL_TYPES[kind]}' for name, kind in columns.items())
        self.execute(f"CREATE TABLE IF NOT EXISTS {table} ({body})")

    def insert(self, table: str, rows: list[dict[str, Any]], types: dict[str, str] | None = None) -> None:
        """``rows`` into ``table``, whose columns are ``types`` (by default the index's own)."""
        if not rows:
            return
        types = types if types is not None else TABLES[table]
        columns = list(types)
        if self.engine == "duckdb":
            frame = pd.DataFrame(rows, columns=columns).astype(types)  # noqa: F841 - read by DuckDB by name
            self.connection.register("incoming", frame)
            self.execute(f"INSERT INTO {table} SELECT * FROM incoming")
            self.connection.unregister("incoming")
        else:
            marks = ", ".join("?" * len(columns))
            self.connection.executemany(f"INSERT INTO {table} VALUES ({marks})", [tuple(row.get(c) for c in columns) for row in rows])

    def replace_table(self, table: str, frame: pd.DataFrame) -> None:
        self.execute(f"DELETE FROM {table}")
        records = frame.astype(object).to_dict("records")
        self.insert(table, [{str(k): (None if pd.isna(v) else v) for k, v in row.items()} for row in records])

    def rows(self, sql: str, columns: Iterable[str], parameters: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        names = list(columns)
        cursor = self.connection.execute(sql, list(parameters))
        while batch := cursor.fetchmany(5000):
            for values in batch:
                yield dict(zip(names, values))

    def close(self) -> None:
        if self.engine == "sqlite":
            self.connection.commit()
        self.connection.close()
