"""A run's working copy of an index: the database copied through its engine, changed, and
renamed into place only when the run ends well, so that a run that fails or is interrupted
leaves the index as it was (docs/cli.md). One writer at a time
(:func:`~bgrecord.tables.storage.writer_lock`).

The copy is made by the engine, never by copying bytes: a journal another program left
beside the index (SQLite's ``-wal``, DuckDB's ``.wal``) is first folded into the file by its
engine, so that the copy holds every committed row and no stale journal is ever applied to the
new file. SQLite copies with its backup API and the run changes the copy in place; DuckDB
builds a new file from the old one (a file it writes never shrinks: the old positions' room
would stay), the positions merged in order at the end.

An index of an older schema is made again from the files it lists (:attr:`Working.old_files`);
one of a newer schema, or of none known, is refused and left as it was.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import tempfile
from array import array
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from bgrecord.outputs import OutputError, held_signals
from bgrecord.tables.database import DUCKDB_SCANNING_MEMORY, POSITIONS_ROW_GROUP, SCHEMA_VERSION, Database, engine_of, sql_text
from bgrecord.tables.index_keys import keys, schema_of
from bgrecord.tables.schema import POSITION_COLUMNS, TABLES, VIEWS, create
from bgrecord.tables.staging import COLUMN_TYPES, SORTING_MEMORY, StagedPositions, sort_into
from bgrecord.tables.storage import DatabaseError, engine_failure, is_engine_error, writer_lock

_JOURNALS = (".wal", "-journal", "-wal", "-shm")  # the engines' own files beside a database
_LEGACY = ("games",)  # a table of older schemas (a view now)


class Working:
    """The working copy of an index during a run: its :class:`Database`, the positions the run
    adds (:meth:`stage`) and the games whose positions it takes out (:meth:`drop_games`),
    merged in when the run ends (:meth:`finish`)."""

    def __init__(self, database: Database, old: str | None, staging: Path | None = None) -> None:
        self.database = database
        self.old = old  # DuckDB: the index copied from, attached under this name
        self.remade_from: str | None = None  # the schema version of an older index being made again
        self.old_files: list[str] = []  # the files an older index listed, to read again
        self.carried = False  # DuckDB: the old positions are merged in at the end
        self._staged = self._dropped = False
        # DuckDB: the positions wait on disk (in ``staging``), sorted in a part at a time at the end
        self._on_disk = StagedPositions(staging or Path(f"{database.path}.staged"), grows=True) if database.engine == "duckdb" else None

    def stage(self, parts: Sequence[tuple[int, array[int]]]) -> None:
        """Positions rows to add, file by file: each ``(first, rows)``, the rows six integers
        each as :data:`~bgrecord.tables.schema.POSITION_COLUMNS` but for their game, counted from
        0 in the file (the index's number of the file's first game is ``first``), and a play of
        :data:`~bgrecord.tables.writing_rows.NO_PLAY` for none."""
        from bgrecord.tables.writing_rows import NO_PLAY

        if not any(rows for _, rows in parts):
            return
        if self._on_disk is not None:
            import numpy as np

            width = len(POSITION_COLUMNS)
            values = np.concatenate([np.frombuffer(rows, dtype=np.int64).reshape(-1, width) for _, rows in parts])
            values[:, 1] += np.repeat([first for first, _ in parts], [len(rows) // width for _, rows in parts])
            self._on_disk.add(values)
            self._staged = True
            return
        if not self._staged:
            self.database.execute(f"CREATE TEMPORARY TABLE staged ({COLUMN_TYPES})")
            self._staged = True
        for first, rows in parts:  # the integers as they came: SQLite numbers the games and reads the play
            six = iter(rows)
            self.database.connection.executemany(f"INSERT INTO staged VALUES (?, ? + {int(first)}, ?, ?, ?, NULLIF(?, {NO_PLAY}))",
                                                 zip(six, six, six, six, six, six))  # fmt: skip

    def mark(self) -> None:
        """The point :meth:`unstage` goes back to (DuckDB's positions on disk)."""
        if self._on_disk is not None:
            self._on_disk.mark()

    def unstage(self, first: int, last: int) -> None:
        """Staged rows of the games numbered ``first`` to ``last``, those staged since
        :meth:`mark`, taken out (rows that did not all go in)."""
        if self._on_disk is not None:
            self._on_disk.back()
        elif self._staged:
            self.database.execute("DELETE FROM staged WHERE game BETWEEN ? AND ?", [first, last])

    def drop_games(self, games: Sequence[int]) -> None:
        """The positions of these games (their files changed or gone) taken out at the end;
        their other rows are the caller's to delete."""
        if not games:
            return
        if not self._dropped:
            self.database.execute("CREATE TEMPORARY TABLE dropped (game BIGINT)")
            self._dropped = True
        self.database.append("dropped", [(game,) for game in games], {"game": "Int64"})
        self.database.execute("DELETE FROM start_positions WHERE game IN (SELECT game FROM dropped)")

    def finish(self) -> None:
        """The staged positions merged in order, the dropped ones out."""
        database = self.database
        kept = "game NOT IN (SELECT game FROM dropped)" if self._dropped else ""
        database.row_groups_of(POSITIONS_ROW_GROUP)  # DuckDB: the positions' row groups are a search's, not the other tables'
        if database.engine == "sqlite":
            if self._dropped:  # ordered by position: every row is looked at (once a run)
                database.execute("DELETE FROM positions WHERE game IN (SELECT game FROM dropped)")
            if self._staged:
                database.execute("INSERT INTO positions SELECT * FROM staged ORDER BY position, game, step")
        elif self._staged:
            assert self._on_disk is not None
            with database.bounded(SORTING_MEMORY):  # the positions are written, never read again
                sort_into(database, self._on_disk, f"{self.old}.positions" if self.carried else None, kept)
        elif self.carried:  # the old rows alone: in order
            database.execute(f"INSERT INTO positions SELECT * FROM {self.old}.positions" + (f" WHERE {kept}" if kept else ""))
        for table in ("staged", "dropped"):
            database.execute(f"DROP TABLE IF EXISTS {table}")
        self._staged = self._dropped = False


@contextlib.contextmanager
def working(target: str | Path, waiting: Callable[[], None] | None = None, remake: bool = True, memory: str | None = None,
            row_group: int | None = None) -> Iterator[Working]:  # fmt: skip
    """The index at ``target`` (made when missing) as a :class:`Working` copy, renamed into
    place when the block ends without an exception. ``remake``: an index of an older schema is
    made again (its index tables dropped, :attr:`Working.old_files` to read again); else it is
    kept as it is (a run that adds other tables). ``memory``: DuckDB's bound for the copy
    (None: :class:`~bgrecord.tables.database.Database`'s default); ``row_group``: DuckDB's rows
    a row group in the copy (None: its own default). Raises ``ValueError`` for a
    database that is not an index or is of a newer schema,
    :class:`~bgrecord.tables.storage.DatabaseError` for a file that is not a database or a disk
    that cannot take the write."""
    with writer_lock(target, waiting):
        try:
            with _copied(Path(target), remake, memory, row_group) as work:
                yield work
        except DatabaseError:
            raise
        except Exception as exc:
            if is_engine_error(exc) and not isinstance(exc, OutputError):
                raise engine_failure(target, exc) from None
            raise


def stale_copies(target: Path) -> list[Path]:
    """The working copies of ``target`` (``.NAME.XXXXXXXX.SUFFIX``, as :func:`working` names
    them, with the engines' journals beside them, and DuckDB's folder for its work on disk) in
    its folder. Only the holder of the lock makes one and removes it before letting go: to the
    next holder, any found is a killed run's."""
    folder = target.parent if str(target.parent) else Path(".")
    pattern = re.compile(re.escape(f".{target.name}.") + r"[a-z0-9_]{8}" + re.escape(target.suffix) + r"(?:\.wal|-journal|-wal|-shm|\.tmp|\.staged)?\Z")
    try:
        return sorted(entry for entry in folder.iterdir() if pattern.match(entry.name))
    except OSError:
        return []


@contextlib.contextmanager
def _copied(target: Path, remake: bool, memory: str | None, row_group: int | None) -> Iterator[Working]:
    engine_of(target)
    for stale in stale_copies(target):
        with contextlib.suppress(OSError):
            shutil.rmtree(stale) if stale.is_dir() and not stale.is_symlink() else stale.unlink()
    folder = target.parent if str(target.parent) else Path(".")
    with held_signals():  # until the block that removes it is entered
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=folder)
        except OSError as exc:
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
        os.close(handle)
        os.unlink(temporary)  # the engines create their own file
    try:
        existing = target.exists() and target.stat().st_size > 0  # an empty file holds nothing: a new database
        if existing:
            settle(target)
        if existing:
            database = _copy(target, Path(temporary), memory, row_group)
        else:
            database = Database(temporary, name=target, memory=memory, row_group=row_group)
        try:
            work = Working(database, "old" if existing and database.engine == "duckdb" else None, Path(temporary + ".staged"))
            _prepare(work, target, existing, remake)
            yield work
            work.finish()
            if work.old:
                database.detach(work.old)
            if database.engine == "duckdb":
                database.execute("CHECKPOINT")
        finally:
            database.close()
        os.replace(temporary, target)
    finally:
        for leftover in (temporary, *(temporary + ending for ending in _JOURNALS)):
            if os.path.exists(leftover):
                os.unlink(leftover)
        for beside in (".tmp", ".staged"):  # DuckDB's work on disk, the run's positions
            shutil.rmtree(temporary + beside, ignore_errors=True)


def settle(target: Path) -> None:
    """Fold a journal another program left beside ``target`` (SQLite's ``-wal``, DuckDB's
    ``.wal``) into the file, through its engine, and turn SQLite's write-ahead log off: the
    copy then holds every committed row, and no stale journal is left to be applied to the
    file that replaces it."""
    engine = engine_of(target)
    if engine == "sqlite" and Path(f"{target}-wal").exists():
        connection = sqlite3.connect(target.resolve().as_uri(), uri=True)
        try:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            connection.execute("PRAGMA journal_mode=DELETE")
        finally:
            connection.close()
    elif engine == "duckdb" and Path(f"{target}.wal").exists():
        database = Database(target, name=target)
        try:
            database.execute("CHECKPOINT")
        finally:
            database.close()


def _copy(target: Path, temporary: Path, memory: str | None, row_group: int | None) -> Database:
    """A working copy of the index at ``target``, made by its engine."""
    if engine_of(target) == "sqlite":
        source = Database(target, read_only=True, name=target)
        try:
            copy = sqlite3.connect(temporary)
            try:
                source.connection.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
        database = Database(temporary, name=target)
        database.execute("PRAGMA journal_mode=DELETE")
        database.execute("PRAGMA cache_size=-65536")  # 64 MB: the positions merged in order at the end
        return database
    database = Database(temporary, name=target, memory=memory, row_group=row_group)
    database.execute(f"SET temp_directory = '{sql_text(str(temporary) + '.tmp')}'")
    database.attach_to_read("old", target)
    return database


def _prepare(work: Working, target: Path, existing: bool, remake: bool) -> None:
    """The copy's tables: the old index's (DuckDB: copied from it, but for its positions, which
    come at the end), made again from the files it lists when of an older schema."""
    database = work.database
    schema = schema_of(work.database, work.old or "") if existing else str(SCHEMA_VERSION)
    if schema is None and existing and _tables_of(work):
        raise ValueError(f"{target}: not a bgrecord index (its tables are not ours): not changed")
    version = int(schema) if schema and schema.isdigit() else None
    if schema is not None and (version is None or version > SCHEMA_VERSION):
        said = f"schema {schema}" if schema else "no schema version"
        raise ValueError(f"{target}: an index of another bgrecord ({said}; this one writes {SCHEMA_VERSION}): not changed")
    older = version is not None and version < SCHEMA_VERSION
    ours = set(TABLES) | {"bgrecord", *_LEGACY}
    if older and remake:
        work.remade_from = schema
        work.old_files = [str(name) for (name,) in _query(work, "SELECT DISTINCT file FROM {}files ORDER BY file") if name]
    if work.old:
        with database.bounded(DUCKDB_SCANNING_MEMORY):  # each table's blocks read once (a million games' filled a larger bound)
            for table in sorted(_tables_of(work)):
                if older and remake and table in ours:
                    continue
                if table == "positions" and not older:
                    work.carried = True  # merged in order at the end
                    continue
                database.execute(f'CREATE TABLE "{table}" AS SELECT * FROM {work.old}."{table}"')
        database.release()  # what DuckDB knows of the row groups it wrote and read let go (an update's run: 50 MB at a million games)
    elif older and remake:
        kinds = dict(database.query("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')"))
        for name in sorted(ours | set(VIEWS)):
            if name in kinds:  # a table then, a view now (games), or the other way: each dropped as what it is
                database.execute(f"DROP {kinds[name].upper()} {name}")
    if older and not remake:
        return  # kept as it is: another run's tables beside it
    create(database, {} if older else keys(database, work.old) if work.old else None)  # DuckDB copies tables, not views
    if "decisions" in database.names():  # DuckDB copies tables, not their indexes
        database.execute("CREATE INDEX IF NOT EXISTS decisions_by_match ON decisions (match_key, game_in_match, step)")


def _tables_of(work: Working) -> set[str]:
    if work.old:
        return {name for (name,) in work.database.query("SELECT table_name FROM duckdb_tables() WHERE database_name = ?", [work.old])}
    return work.database.names()


def _query(work: Working, sql: str) -> list[tuple[Any, ...]]:
    """``sql`` with ``{}`` before a table name, on the old index (DuckDB's attached file)."""
    return work.database.query(sql.format(f"{work.old}." if work.old else ""))
