"""The index's database file: the two engines, DuckDB and SQLite, behind one small interface
(:class:`Database`), without pandas (``bgrecord find`` starts fast; DuckDB takes its rows as
NumPy columns). The tables and their columns are :mod:`bgrecord.tables.schema`
(docs/stats.md); what keeps the file safe (one writer at a time, the engines' errors told as
what they are) is :mod:`bgrecord.tables.storage`; how a run works on a copy of it,
:mod:`bgrecord.tables.working`; what is written into it, :mod:`bgrecord.tables.archive`.

The positions table is the archive's bulk (some 45 rows a game): small integers keyed by
the position's hash (:mod:`bgrecord.tables.positions`). In SQLite it is the index itself
(``WITHOUT ROWID``, ordered by position, game and step: one lookup finds every occurrence,
and no second copy of the rows is kept); DuckDB keeps it ordered by position, so that a
search reads only the row groups whose range holds the position.
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from bgrecord.tables.duckdb_engine import ATTACHED, attach_statement, duckdb_connection, duckdb_module
from bgrecord.tables.duckdb_engine import sql_text as sql_text  # both engines' quoting, said once where the ATTACH statement needs it
from bgrecord.tables.storage import engine_failure, is_engine_error

# 3: positions as small integers keyed by a hash, files known by their resolved path; 4: no start kept for a game
# that begins at the standard opening, the keys a view (1 to 3 are made again from the files they list; a newer one
# is refused)
SCHEMA_VERSION = 4
ENGINES = {".duckdb": "duckdb", ".sqlite": "sqlite", ".sqlite3": "sqlite"}
DATABASES = tuple(ENGINES)  # a database's name ends so (an analysis table's does not)
DUCKDB_MEMORY = "192MB"  # DuckDB's own memory; beyond it, it works on disk
DUCKDB_WRITING_MEMORY = "64MB"  # a run that writes an index: full from some 100,000 games on, its peak flat past them (docs/stats.md)
# a run's steps over whole tables, whose blocks are read once (an update's copy of the old index's tables; the last steps:
# the copies marked, the players, matches and dice written or summed again): DuckDB keeps the blocks it reads up to its
# bound, and a million games' columns scanned there filled it (43 MB over what a new index's run held once its rows were in)
DUCKDB_SCANNING_MEMORY = "24MB"
RELEASED_TO = "4MB"  # what DuckDB keeps at a release (Database.release: its cache of the blocks it wrote filled its bound)
# DuckDB's threads while an index run writes its rows (not its positions: bgrecord.tables.archive.index): its workers have
# the machine's cores, and each of DuckDB's threads keeps memory of its own, the C library's, by which a run's peak crept up
DUCKDB_WRITING_THREADS = 1
# Rows a row group of the tables an index run writes into DuckDB (its own default: 122,880; a multiple of
# its 2,048-row vectors). DuckDB builds a row group whole in memory before it writes it: some 5.5 MB of
# games rows (56 columns) at this size, 11 at 20,480 and 16 at 30,720 (traced at 300,000 games: 8 and
# 14 MB more all through the writing, for 4% fewer bytes), 60 at its own: a run's largest use of memory.
ROW_GROUP = 10_240
# The positions' (bgrecord.tables.staging), written once the other tables' rows are: what a search reads of them
# where it looks a position up, and what it knows of each (more of them: more to read as it opens the file)
POSITIONS_ROW_GROUP = 30_720
HELD = "held_"  # the start of the name of the temporary table a table's rows are held in (Database.held)
JOURNAL_BOUND = "1GB"  # DuckDB's journal, past which it checkpoints on its own even where told not to (Database.checkpoints_chosen)

_SQL_TYPES = {"string": "TEXT", "Int64": "BIGINT", "boolean": "BOOLEAN", "Float64": "DOUBLE", "bytes": "BLOB"}
_KEYS = {"game_rows": "game_id", "files": "file_id"}  # SQLite's rowid: the tables' own numbers
_ORDERED = {"positions": ("position", "game", "step"), "start_positions": ("game", "step")}  # SQLite: WITHOUT ROWID, by these


def engine_of(path: str | Path) -> str:
    """``duckdb`` or ``sqlite``, by the database file's extension."""
    engine = ENGINES.get(Path(path).suffix.lower())
    if engine is None:
        raise ValueError(f"{path}: a database ends in .duckdb (DuckDB) or .sqlite (SQLite)")
    return engine


class Database:
    """A DuckDB or SQLite file holding :data:`TABLES`: one small interface for both."""

    def __init__(self, path: str | Path, read_only: bool = False, name: str | Path | None = None, memory: str | None = None,
                 row_group: int | None = None) -> None:  # fmt: skip
        """Open the database file ``path`` (``name``: what to call it in a message, when
        ``path`` is a temporary copy; ``memory``: DuckDB's bound, :data:`DUCKDB_MEMORY` by
        default; ``row_group``: DuckDB writes row groups of so many rows, not its default).
        :class:`~bgrecord.tables.storage.DatabaseError` when the engine cannot open it."""
        self.path = Path(path)
        self.engine = engine_of(path)
        self.buckets: int | None = None  # a Parquet dataset's: positions split by their hash (bgrecord.tables.dataset)
        self.attached = False  # DuckDB: the file attached as ATTACHED (row_group)
        self.row_group = 0
        self.settings: dict[str, str] = {}  # DuckDB's settings as bgrecord gave them
        self.holding: tuple[str, ...] = ()  # the tables whose rows are held (held)
        self.reading: dict[str, Path] = {}  # DuckDB: the files attached to read (attach_to_read), by name
        engine = duckdb_module() if self.engine == "duckdb" else None
        try:
            if engine is not None:  # DuckDB's memory bounded (it works on disk beyond): the promise of docs/cli.md
                self.connection: Any = duckdb_connection(engine, self.path, read_only, memory or DUCKDB_MEMORY, row_group)
                self.attached, self.row_group = bool(row_group), row_group or 0
                self.settings["memory_limit"] = memory or DUCKDB_MEMORY
            else:
                import sqlite3  # here: a DuckDB index's search has no need of it

                self.connection = sqlite3.connect(self.path.resolve().as_uri() + ("?mode=ro" if read_only else ""), uri=True)
        except Exception as exc:
            if is_engine_error(exc):
                raise engine_failure(name or path, exc) from None
            raise

    @classmethod
    def over(cls, connection: Any, engine: str, path: Path) -> Database:
        """A database already open (DuckDB's views over a dataset's files)."""
        database = cls.__new__(cls)
        database.connection, database.engine, database.path, database.buckets, database.attached = connection, engine, path, None, False
        database.row_group, database.settings, database.holding, database.reading = 0, {}, (), {}
        return database

    def beside(self) -> Database:
        """The database through another cursor, for statements while this one streams rows
        (DuckDB runs one at a time on a cursor; SQLite's connection runs both). Its own
        temporary tables are not seen there."""
        if self.engine != "duckdb":
            return self
        cursor = self.connection.cursor()
        if self.attached:  # a cursor starts in DuckDB's default database
            cursor.execute(f"USE {ATTACHED}")
        database = Database.over(cursor, self.engine, self.path)
        database.attached, database.row_group = self.attached, self.row_group
        return database

    @contextlib.contextmanager
    def bounded(self, memory: str) -> Iterator[None]:
        """DuckDB's bound lowered to ``memory`` for the block, the data written so far
        checkpointed first, then set back: DuckDB keeps the blocks it wrote cached up to its
        bound, and a block that writes data it never reads again needs no cache."""
        if self.engine != "duckdb":
            yield
            return
        self.execute("CHECKPOINT")
        with self._setting("memory_limit", memory):  # DuckDB lets go of what it holds beyond (to disk, if it must)
            yield

    @contextlib.contextmanager
    def checkpoints_chosen(self) -> Iterator[None]:
        """DuckDB checkpoints in the block where the caller does (:meth:`release`), not on its
        own (unless its journal passes :data:`JOURNAL_BOUND`); as before after. A checkpoint
        writes a table's last row group as it is, part full, and the next one builds it again
        whole in memory with the rows that followed."""
        if self.engine != "duckdb":
            yield
            return
        with self._setting("checkpoint_threshold", JOURNAL_BOUND):
            yield

    @contextlib.contextmanager
    def threads(self, count: int) -> Iterator[None]:
        """DuckDB runs on ``count`` threads in the block, then on as many as before."""
        if self.engine != "duckdb":
            yield
            return
        with self._setting("threads", str(count)):
            yield

    @contextlib.contextmanager
    def _setting(self, name: str, value: str) -> Iterator[None]:
        """DuckDB's setting ``name`` at ``value`` for the block, then as it was (not when the
        block raises: the run has failed, and its engine may be past answering). The memory
        bound is set back to the value it was given (:attr:`settings`): DuckDB says it in MiB to
        one decimal, and that value read back and set again lowered it a little each time."""
        before = self.settings.get(name) or self.query(f"SELECT current_setting('{name}')")[0][0]
        self.execute(f"SET {name} = '{sql_text(value)}'")
        self.settings[name] = value
        yield
        self.execute(f"SET {name} = '{sql_text(str(before))}'")
        self.settings[name] = str(before)

    @contextlib.contextmanager
    def held(self, *tables: str) -> Iterator[None]:
        """Rows appended to ``tables`` in the block go into them whole row groups at a time:
        held until then in temporary tables (within DuckDB's bound), moved at each
        :meth:`release`, the rest when the block ends (not when it raises: the run has
        failed). Only where the file is attached with a row group size (:attr:`attached`),
        else nothing is held. Why: DuckDB appends the rows that follow a release in a row
        group of their own, and its checkpoint merges a table's part-full row groups, reading
        back up to three whole ones; at a million games, the files' and matches' merges (a few
        thousand rows each a release) peaked 17 MB over the other releases every fifth release.
        What reads or deletes a held table's rows in the block goes through :meth:`rows_of`
        and :meth:`delete`."""
        if not self.attached:
            yield
            return
        for table in tables:
            self.execute(f"CREATE TEMPORARY TABLE {HELD}{table} AS SELECT * FROM {table} LIMIT 0")
        self.holding = tables
        try:
            yield
        except BaseException:
            self.holding = ()
            raise
        for table in tables:
            self._moved(table, every=True)
            self.execute(f"DROP TABLE {HELD}{table}")
        self.holding = ()

    def rows_of(self, table: str) -> str:
        """SQL naming ``table``'s rows, with those :meth:`held` (a subquery, to be named)."""
        return f"(SELECT * FROM {table} UNION ALL SELECT * FROM {HELD}{table})" if table in self.holding else table

    def delete(self, table: str, condition: str, parameters: Sequence[Any] = ()) -> None:
        """``table``'s rows where ``condition`` holds (SQL) deleted, with those :meth:`held`."""
        for name in (table, HELD + table) if table in self.holding else (table,):
            self.execute(f"DELETE FROM {name} WHERE {condition}", parameters)

    def _moved(self, table: str, every: bool = False) -> bool:
        """The rows held for ``table`` into it, in the order they came: whole row groups of
        them (``every``: all); whether any went in."""
        held = HELD + table
        count = int(self.query(f"SELECT count(*) FROM {held}")[0][0])
        moving = count if every else count - count % self.row_group
        if moving:
            self.execute(f"INSERT INTO {table} SELECT * FROM {held} ORDER BY rowid LIMIT {moving}")
            self.execute(f"CREATE OR REPLACE TEMPORARY TABLE {held} AS SELECT * FROM {held} ORDER BY rowid OFFSET {moving}")
        return bool(moving)

    def release(self, memory: str = RELEASED_TO) -> None:
        """DuckDB: what it holds let go down to ``memory`` (its bound lowered a moment, the
        data written so far checkpointed first: what it lets go is then its cache of blocks
        written, already in the file). A file attached with a row group size
        (:attr:`attached`) is then attached again: DuckDB keeps in memory, outside its bound,
        what it knows of each row group it wrote while attached (each column's segments, their
        statistics and blocks), read again from the file only when asked for: traced, the end
        of a run of a million games peaked at 188 MB without it, at 140 MB with it. The whole
        row groups :meth:`held` go in after, let go of again: a row group of a table of
        names (the files') took some 20 MB more to write, on top of the others' it was."""
        self._let_go(memory)
        if any([self._moved(table) for table in self.holding]):
            self._let_go(memory)

    def row_groups_of(self, rows: int) -> None:
        """DuckDB, a file attached with a row group size: the rows written from here on in row
        groups of ``rows`` (the file attached again), and from here on no row groups merged at
        a checkpoint (DuckDB would merge those written before, of another size, as part full:
        read back whole and written again)."""
        if not self.attached or rows == self.row_group:
            return
        self.execute("SET max_vacuum_tasks = 0")
        self.row_group = rows
        self._attached_again()

    def _let_go(self, memory: str) -> None:
        with self.bounded(memory):
            pass
        if self.attached:
            self._attached_again()

    def _attached_again(self) -> None:
        self.execute("USE memory")  # the connection's own database (DuckDB detaches no database in use)
        self.execute(f"DETACH {ATTACHED}")
        self.execute(attach_statement(self.path, False, self.row_group))
        self.execute(f"USE {ATTACHED}")
        for name, path in self.reading.items():  # what DuckDB knows of a file it reads grows as well (an update's old index)
            self.execute(f"DETACH {name}")
            self.execute(f"ATTACH '{sql_text(str(path))}' AS {name} (READ_ONLY)")

    def attach_to_read(self, name: str, path: Path) -> None:
        """DuckDB: the database file ``path`` attached as ``name``, read only (attached again at
        each :meth:`release`), until :meth:`detach`."""
        self.execute(f"ATTACH '{sql_text(str(path))}' AS {name} (READ_ONLY)")
        self.reading[name] = path

    def detach(self, name: str) -> None:
        """DuckDB: the file attached as ``name`` let go of."""
        self.execute(f"DETACH {name}")
        self.reading.pop(name, None)

    def names(self) -> set[str]:
        """The tables and views of the database."""
        if self.engine == "duckdb":
            return {row[0] for row in self.query("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() UNION ALL "
                                                 "SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal")}  # fmt: skip
        return {row[0] for row in self.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}

    def query(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.connection.execute(sql, list(parameters)).fetchall())

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        self.connection.execute(sql, list(parameters))

    def create_table(self, table: str, columns: dict[str, str]) -> None:
        """A table of ``columns`` (name: pandas type), unless it exists."""
        if self.engine == "sqlite" and table in _ORDERED:
            body = ", ".join(f'"{name}" {_SQL_TYPES[kind]}' + (" NOT NULL" if name in _ORDERED[table] else "") for name, kind in columns.items())
            self.execute(f"CREATE TABLE IF NOT EXISTS {table} ({body}, PRIMARY KEY ({', '.join(_ORDERED[table])})) WITHOUT ROWID")
            return
        key = _KEYS.get(table) if self.engine == "sqlite" else None
        body = ", ".join(f'"{name}" ' + ("INTEGER PRIMARY KEY" if name == key else _SQL_TYPES[kind]) for name, kind in columns.items())
        self.execute(f"CREATE TABLE IF NOT EXISTS {table} ({body})")

    def append(self, table: str, rows: Sequence[Sequence[Any]], types: dict[str, str] | None = None) -> None:
        """``rows`` (tuples in the columns' order) into ``table``, whose columns are ``types``
        (by default the index's own)."""
        if not rows:
            return
        if types is None:
            from bgrecord.tables.schema import TABLES

            types = TABLES[table]
        if table in self.holding:
            table = HELD + table
        if self.engine == "duckdb":  # read where they are, a column at a time (an executemany is a statement a row)
            import numpy as np

            columns = {}
            for name, values in zip(types, zip(*rows)):
                column = columns[name] = np.empty(len(rows), dtype=object)
                column[:] = values  # each value as it is: DuckDB reads Python's objects, None as NULL
            self.insert_columns(table, columns)
        else:
            marks = ", ".join("?" * len(types))
            self.connection.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)

    def insert_columns(self, table: str, columns: dict[str, Any], select: str = "*") -> None:
        """Columns (NumPy arrays, by name, in the table's order) into ``table`` (DuckDB, which
        reads them where they are); ``select``: what to insert of them (SQL over their names)."""
        self.connection.register("incoming", columns)
        try:
            self.execute(f"INSERT INTO {table} SELECT {select} FROM incoming")
        finally:
            self.connection.unregister("incoming")

    def insert(self, table: str, rows: Iterable[dict[str, Any]], types: dict[str, str] | None = None) -> None:
        """Rows given as dicts into ``table`` (a missing column is NULL), a few thousand at a
        time (rows made as they are read stay so)."""
        if types is None:
            from bgrecord.tables.schema import TABLES

            types = TABLES[table]
        found = iter(rows)
        while batch := [tuple(row.get(c) for c in types) for row in itertools.islice(found, 5000)]:
            self.append(table, batch, types)

    def rows(self, sql: str, columns: Iterable[str], parameters: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        names = list(columns)
        for values in self.tuples(sql, parameters):
            yield dict(zip(names, values))

    def tuples(self, sql: str, parameters: Sequence[Any] = ()) -> Iterator[tuple[Any, ...]]:
        """The rows of a query, fetched a few thousand at a time (the first few: they come at once)."""
        cursor = self.connection.execute(sql, list(parameters))
        size = 100
        while batch := cursor.fetchmany(size):
            yield from batch
            size = 5000

    def commit(self) -> None:
        if self.engine == "sqlite":
            self.connection.commit()

    def close(self) -> None:
        self.commit()
        self.connection.close()


def divided(engine: str, number: str, by: int) -> str:
    """SQL for ``number`` divided by ``by``, rounded down (DuckDB's ``/`` divides exactly)."""
    return f"(({number}) {'//' if engine == 'duckdb' else '/'} {by})"

