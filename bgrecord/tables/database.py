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
import importlib
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Iterator, Sequence

from bgrecord.extras import require
from bgrecord.tables.storage import engine_failure, is_engine_error

# 3: positions as small integers keyed by a hash, files known by their resolved path (1 and 2
# are made again from the files they list; a newer one is refused)
SCHEMA_VERSION = 3
ENGINES = {".duckdb": "duckdb", ".sqlite": "sqlite", ".sqlite3": "sqlite"}
DATABASES = tuple(ENGINES)  # a database's name ends so (an analysis table's does not)
DUCKDB_MEMORY = "192MB"  # DuckDB's own memory; beyond it, it works on disk
DUCKDB_WRITING_MEMORY = "64MB"  # a run that writes an index: full from some 100,000 games on, its peak flat past them (docs/stats.md)
# DuckDB's threads while an index run writes its rows (not its positions: bgrecord.tables.archive.index): its workers have
# the machine's cores, and each of DuckDB's threads keeps memory of its own, the C library's, by which a run's peak crept up
DUCKDB_WRITING_THREADS = 1
# Rows a row group of the tables an index run writes into DuckDB (its own default: 122,880; a multiple of
# its 2,048-row vectors). DuckDB builds a row group whole in memory before it writes it: some 16 MB of
# games rows (56 columns) at this size, some 60 MB at its own, a run's largest use of memory.
ROW_GROUP = 30_720
ATTACHED = "written"  # the name a file is attached by to write row groups of a size chosen (Database's row_group)
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


def sql_text(text: str) -> str:
    """``text`` made safe inside an SQL string literal (its quotes doubled)."""
    return text.replace("'", "''")


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
        engine = _duckdb(read_only) if self.engine == "duckdb" else None
        try:
            if engine is not None:  # DuckDB's memory bounded (it works on disk beyond): the promise of docs/cli.md
                self.connection: Any = _duckdb_connection(engine, self.path, read_only, memory or DUCKDB_MEMORY, row_group)
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
        database.row_group, database.settings = 0, {}
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

    def release(self, memory: str) -> None:
        """DuckDB: what it holds let go down to ``memory`` (its bound lowered a moment, the
        data written so far checkpointed first: what it lets go is then its cache of blocks
        written, already in the file). A file attached with a row group size
        (:attr:`attached`) is then attached again: DuckDB keeps in memory, outside its bound,
        what it knows of each row group it wrote while attached (each column's segments, their
        statistics and blocks), read again from the file only when asked for: traced, the end
        of a run of a million games peaked at 188 MB without it, at 140 MB with it."""
        with self.bounded(memory):
            pass
        if self.attached:
            self.execute("USE memory")  # the connection's own database (DuckDB detaches no database in use)
            self.execute(f"DETACH {ATTACHED}")
            self.execute(_attached(self.path, False, self.row_group))
            self.execute(f"USE {ATTACHED}")

    def names(self) -> set[str]:
        """The tables and views of the database."""
        if self.engine == "duckdb":
            return {row[0] for row in self.query("SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database()")}
        return {row[0] for row in self.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}

    def query(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.connection.execute(sql, list(parameters)).fetchall())

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> None:
        self.connection.execute(sql, list(parameters))

    def schema(self, attached: str = "") -> str | None:
        """The schema version of a bgrecord index, as written there ("" for none written);
        None for a database that is not one. ``attached``: the name of another database
        attached to this one (DuckDB), to read its version instead."""
        try:
            found = self.query(f"SELECT value FROM {attached + '.' if attached else ''}bgrecord WHERE key = 'schema'")
        except Exception:  # noqa: BLE001 - no such table (each engine has its own error): not ours
            return None
        return "" if not found or found[0][0] is None else str(found[0][0])

    def is_index(self) -> bool:
        return self.schema() == str(SCHEMA_VERSION)

    def create(self) -> None:
        """The index's tables, empty (an existing one is kept), and the schema's version."""
        from bgrecord.tables.schema import TABLES, views

        self.execute("CREATE TABLE IF NOT EXISTS bgrecord (key TEXT PRIMARY KEY, value TEXT)")
        if not self.query("SELECT value FROM bgrecord WHERE key = 'schema'"):
            self.execute("INSERT INTO bgrecord VALUES ('schema', ?)", [str(SCHEMA_VERSION)])
        for table, columns in TABLES.items():
            self.create_table(table, columns)
        if self.engine == "sqlite":  # a copy is found by its content (DuckDB scans the column: its index stays whole in memory)
            self.execute("CREATE INDEX IF NOT EXISTS files_by_key ON files (file_key)")
        for name, sql in views(self.engine).items():
            self.execute(f"CREATE VIEW IF NOT EXISTS {name} AS {sql}")

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


class Opening:
    """A DuckDB file being opened to be read (:class:`Database`, read only) in a thread of its
    own while the caller goes on: a search's start, DuckDB's some 30 ms beside the modules
    that load meanwhile (DuckDB lets go of Python's lock while it opens a file, not while its
    module loads: that is loaded first, here).
    :meth:`database` waits for it and raises what opening it raised; :meth:`close` waits and
    closes what was not taken. A SQLite file is not opened so: its connection belongs to the
    thread that made it, and it opens in a fraction of a millisecond."""

    def __init__(self, path: str | Path) -> None:
        import threading

        _duckdb(read_only=True)
        self._path = path
        self._database: Database | None = None
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._open, name="bgrecord-opening")  # not a daemon: never left inside DuckDB at exit
        self._thread.start()

    @classmethod
    def of(cls, path: str | Path) -> Opening | None:
        """The opening of ``path`` when it is a DuckDB file (the one :meth:`begin` began, if
        any), else None."""
        begun = _BEGUN.pop(str(path), None)
        if begun is not None:
            return begun
        return cls(path) if ENGINES.get(Path(path).suffix.lower()) == "duckdb" and Path(path).is_file() else None

    @classmethod
    def begin(cls, path: str) -> None:
        """Begin opening ``path`` (a DuckDB file) for the search to come to take (:meth:`of`):
        the console script does so before the commands load. Never raises: what fails here
        fails again where the command opens it, and is said there."""
        try:
            opening = cls.of(path)
        except Exception:  # noqa: BLE001 - said by the command
            return
        if opening is not None:
            _BEGUN[str(path)] = opening

    def _open(self) -> None:
        try:
            self._database = Database(self._path, read_only=True)
        except BaseException as exc:  # noqa: BLE001 - raised again where the database is asked for
            self._failure = exc

    def database(self) -> Database:
        self._thread.join()
        if self._failure is not None:
            raise self._failure
        found, self._database = self._database, None
        assert found is not None
        return found

    def close(self) -> None:
        self._thread.join()
        if self._database is not None:
            self._database.close()
            self._database = None


_BEGUN: dict[str, Opening] = {}  # the openings begun before the command, by the path as given


def _duckdb_connection(engine: ModuleType, path: Path, read_only: bool, memory: str, row_group: int | None) -> Any:
    """A DuckDB connection to ``path`` within ``memory``; with ``row_group``, the file attached
    (the row group size is an option of ``ATTACH`` alone, for the rows written while attached)
    and used as the connection's own."""
    config = {"memory_limit": memory}
    if not row_group:
        return engine.connect(str(path), read_only=read_only, config=config)
    connection = engine.connect(":memory:", config={**config, "temp_directory": f"{path}.tmp"})  # as the file's own (else .tmp, here)
    try:
        connection.execute(_attached(path, read_only, row_group))
        connection.execute(f"USE {ATTACHED}")
    except BaseException:
        connection.close()
        raise
    return connection


def _attached(path: Path, read_only: bool, row_group: int) -> str:
    """DuckDB's statement that attaches ``path`` as :data:`ATTACHED`, its row groups of ``row_group`` rows."""
    return f"ATTACH '{sql_text(str(path))}' AS {ATTACHED} ({'READ_ONLY, ' if read_only else ''}ROW_GROUP_SIZE {int(row_group)})"


def _duckdb(read_only: bool) -> ModuleType:
    """DuckDB's module. To read (a search, whose start-up counts), its compiled core alone
    where it stands: the package's Python layer (some 80 ms to import) adds nothing to opening
    a file and running SQL. Else, or without that core, the package (or the line saying how to
    install it)."""
    if read_only and "duckdb" not in sys.modules:
        with contextlib.suppress(ImportError):
            core = importlib.import_module("_duckdb")
            if callable(getattr(core, "connect", None)):
                return core
    return require("duckdb")


def divided(engine: str, number: str, by: int) -> str:
    """SQL for ``number`` divided by ``by``, rounded down (DuckDB's ``/`` divides exactly)."""
    return f"(({number}) {'//' if engine == 'duckdb' else '/'} {by})"

