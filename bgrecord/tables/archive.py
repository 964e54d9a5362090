"""An archive's database: the tables of ``bgrecord stats`` and every position, in one DuckDB
or SQLite file, kept up to date file by file, and searched by position.

``index_rows(path)`` reads and replays a file once and gives its games rows (as
:func:`bgrecord.tables.stats.game_rows`) and its positions rows: one a replayed action, with the
position before it, written into the database file (:mod:`bgrecord.tables.database`) by
:mod:`bgrecord.tables.writing_rows`; :func:`index` brings a database up to date
with a list of files (new or changed files only, by the hash of their content) through a copy
renamed into place, so that a failed run leaves the old database as it was. :func:`find`
returns where a position occurred. Schema: docs/stats.md.

What it does not do: judge the records (a game with errors is indexed as replayed, up to the
error, with ``valid`` false), or merge two databases.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import pandas as pd

from bgrecord.core.ids import MatchState, identify
from bgrecord.escapes import encodable
from bgrecord.formats.records import MatchRecord
from bgrecord.formats.source import Input
from bgrecord.names import NO_ALIASES, People
from bgrecord.outputs import OutputError, held_signals
from bgrecord.replay import GameReplay
from bgrecord.replay.matchkeys import Duplicates, content_key
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import internal_issue
from bgrecord.tables.database import SCHEMA_VERSION, Database, engine_of
from bgrecord.tables.spool import Spool
from bgrecord.tables.stats import GAME_COLUMNS, Tables, file_rows
from bgrecord.tables.storage import DatabaseError, engine_failure, is_engine_error, writer_lock
from bgrecord.tables.writing_rows import POSITIONS_IN_MEMORY, IndexReport, IndexRows, RowsWriter
from bgrecord.writing.writers import ids_json, mat_rows, play_text, step_ogids, step_state

# --- one file's rows ---


def position_rows(number: int, match: MatchRecord, out: GameReplay, jacoby: bool) -> list[dict[str, Any]]:
    """One row a replayed action (a set-up too), with the position and IDs before it (its
    ``file`` and ``match_key`` are for the caller to fill)."""
    rows = []
    names = out.game.names
    for index, (step, ogid, row) in enumerate(zip(out.steps, step_ogids(out, match.length or 0), mat_rows(out.steps)), 1):
        position, state = step_state(step, out, match, jacoby)
        if position is None:
            continue
        dice = step.dice if step.dice and state.dice != (0, 0) else None
        pips = position.pips()
        rows.append({
            "file": None, "match_key": None, "match": number, "game": out.game.index, "move": row,
            "line": step.action.line, "unit": match.unit, "step": index, "action": step.kind, "player": position.turn, "player0": names[0], "player1": names[1],
            "dice": f"{max(dice)}{min(dice)}" if dice else None, "play": play_text(step.play) if step.play is not None else None,
            **ids_json(position, state, ogid), "pips0": pips[0], "pips1": pips[1], "cube": step.cube,
            "cube_owner": step.cube_owner, "score0": step.score[0], "score1": step.score[1], "match_length": match.length,
        })  # fmt: skip
    return rows


def index_rows(path: str | Path | Input, rules: str | None = None) -> IndexRows:
    """The rows of one file, read and replayed once (:func:`bgrecord.tables.stats.file_rows`, with
    the positions beside); a failure is reported, never raised."""
    positions: Spool[dict[str, Any]] = Spool(POSITIONS_IN_MEMORY)

    def each(number: int, match: MatchRecord, out: GameReplay) -> None:
        positions.extend(position_rows(number, match, out, rules_for(match, rules).jacoby))

    found = file_rows(path, rules, each)
    if found.problem or found.oversized:  # what was replayed before a failure is not kept: neither are its positions
        positions = Spool()
    return IndexRows(found.path, found.rows, found.problem, found.internal, found.file_key, oversized=found.oversized, empty=found.empty,
                     positions=positions)  # fmt: skip


def failed_rows(file: Any, exc: BaseException) -> IndexRows:
    """What :func:`index_rows` gives for a file whose work failed outside it (a worker that died)."""
    name = getattr(file, "name", None) or str(file)
    return IndexRows(name, Spool(), internal_issue(name, exc).message, internal=True)


def index(target: str | Path, files: list[str], work: Callable[[list[str]], Iterable[IndexRows]], dedupe: bool = False,
          waiting: Callable[[], None] | None = None, people: People = NO_ALIASES) -> IndexReport:  # fmt: skip
    """Bring the database ``target`` up to date with ``files``: ``work(names)`` gives the rows of
    the files that are new or changed (by content), in order, written through :func:`updated`;
    the players and dice tables count ``people`` (an aliases table) as one person each."""
    report = IndexReport()
    with updated(target, waiting) as database:
        report.remade = database.remade
        known = dict(database.query("SELECT file, file_key FROM files"))
        todo = []
        for name in files:
            key, stored = _file_key(name), encodable(name)  # as the rows name it
            if known.get(stored) == key:
                report.unchanged.append(name)
                continue
            before = known.get(stored, "")
            (report.added if stored not in known else report.retried if before is None else report.replaced).append(name)
            todo.append(name)
        for name in report.replaced + report.retried:
            for table in ("games", "positions", "files"):
                database.execute(f"DELETE FROM {table} WHERE file = ?", [encodable(name)])
        writer = RowsWriter(database, report)
        for rows in work(todo):
            writer.add(rows)
        writer.flush()
        _mark_duplicates(database)
        _summaries(database, dedupe, people)
        database.execute("DROP INDEX IF EXISTS positions_by_id")
        database.execute("CREATE INDEX positions_by_id ON positions (position_id)")
    return report


@contextlib.contextmanager
def updated(target: str | Path, waiting: Callable[[], None] | None = None) -> Iterator[Database]:
    """The index at ``target`` (made when missing), to change through a copy that is renamed
    into place when the block ends without an exception: a failed run leaves it as it was.
    One writer at a time: a second waits for the first (:func:`~bgrecord.tables.storage.writer_lock`,
    after ``waiting()``), then updates what the first wrote; the copies a killed writer left
    are removed (:func:`stale_copies`). Raises ``ValueError`` for a database that is not an
    index, :class:`~bgrecord.tables.storage.DatabaseError` for a file that is not a database or a disk
    that cannot take the write."""
    with writer_lock(target, waiting):
        try:
            with _copied(Path(target)) as database:
                yield database
        except DatabaseError:
            raise
        except Exception as exc:
            if is_engine_error(exc) and not isinstance(exc, OutputError):
                raise engine_failure(target, exc) from None
            raise


def stale_copies(target: Path) -> list[Path]:
    """The working copies of ``target`` (``.NAME.XXXXXXXX.SUFFIX``, as :func:`updated` names
    them, with the engines' journals beside them) in its folder. Only the holder of the lock
    makes one and removes it before letting go: to the next holder, any found is a killed
    run's."""
    folder = target.parent if str(target.parent) else Path(".")
    pattern = re.compile(re.escape(f".{target.name}.") + r"[a-z0-9_]{8}" + re.escape(target.suffix) + r"(?:\.wal|-journal|-wal|-shm)?\Z")
    try:
        return sorted(entry for entry in folder.iterdir() if pattern.match(entry.name) and entry.is_file())
    except OSError:
        return []


@contextlib.contextmanager
def _copied(target: Path) -> Iterator[Database]:
    engine_of(target)
    for stale in stale_copies(target):
        with contextlib.suppress(OSError):
            stale.unlink()
    folder = target.parent if str(target.parent) else Path(".")
    with held_signals():  # until the block that removes it is entered
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=folder)
        except OSError as exc:
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
        os.close(handle)
        os.unlink(temporary)  # the engines create their own file
    try:
        if target.exists() and target.stat().st_size:  # an empty file holds nothing: a new database
            shutil.copyfile(target, temporary)
        database = Database(temporary, name=target)
        try:
            schema = database.schema() if target.exists() else SCHEMA_VERSION
            if schema is None and not database.is_empty():
                raise ValueError(f"{target}: not a bgrecord index (its tables are not ours): not changed")
            if schema not in (None, SCHEMA_VERSION):  # made by another version of bgrecord: made again, every file read
                database.drop()
                database.remade = True
            database.create()
            yield database
        finally:
            database.close()
        os.replace(temporary, target)
    finally:
        for leftover in (temporary, *(temporary + ending for ending in (".wal", "-journal", "-wal", "-shm"))):  # the engines' own
            if os.path.exists(leftover):
                os.unlink(leftover)


def _file_key(name: str) -> str:
    try:
        return content_key(Input.of(Path(name)))
    except OSError:
        return ""


def _mark_duplicates(database: Database) -> None:
    """``duplicate_of`` for every match whose key an earlier match (by file, then index) has."""
    database.execute("UPDATE games SET duplicate_of = NULL")
    matches = [{"file": file, "match": match, "match_key": key, "duplicate_of": None}
               for file, match, key in database.query("SELECT DISTINCT file, match, match_key FROM games ORDER BY file, match")]  # fmt: skip
    copies = [(copy["file"], copy["match"], copy["duplicate_of"]) for copy in Duplicates().mark(matches) if copy["duplicate_of"]]
    if not copies:
        return
    # One statement for all the copies (a statement a copy scans the games table a copy: quadratic).
    database.execute("CREATE TEMPORARY TABLE copies (file TEXT, match BIGINT, original TEXT)")
    try:
        if database.engine == "duckdb":
            frame = pd.DataFrame(copies, columns=["file", "match", "original"])  # noqa: F841 - read by DuckDB by name
            database.connection.register("incoming_copies", frame)
            database.execute("INSERT INTO copies SELECT * FROM incoming_copies")
            database.connection.unregister("incoming_copies")
        else:
            database.connection.executemany("INSERT INTO copies VALUES (?, ?, ?)", copies)
        database.execute("CREATE INDEX copies_by_match ON copies (file, match)")
        database.execute("UPDATE games SET duplicate_of = (SELECT original FROM copies WHERE copies.file = games.file AND copies.match = games.match) "
                         "WHERE EXISTS (SELECT 1 FROM copies WHERE copies.file = games.file AND copies.match = games.match)")  # fmt: skip
    finally:
        database.execute("DROP TABLE copies")


def _summaries(database: Database, dedupe: bool, people: People = NO_ALIASES) -> None:
    """The players, matches and dice tables, summed again from the games table."""
    tables = Tables(people)
    order = ", ".join(f'"{c}"' for c in GAME_COLUMNS)
    for row in database.rows(f"SELECT {order} FROM games ORDER BY file, match, game", GAME_COLUMNS):
        if not (dedupe and row["duplicate_of"]):
            tables.add_row(row)
    database.replace_table("players", tables.players())
    database.replace_table("matches", tables.matches())
    database.replace_table("dice", tables.dice(tests=False))  # the tests are stats --dice's (scipy)


# --- finding a position ---


@dataclass(slots=True)
class Wanted:
    """What to look for: a position (its gnubg Position ID, from the side of the player to
    act), and optionally the dice, the cube and the score of the identifier it came from."""

    position_id: str
    state: MatchState | None
    dice: bool = False
    cube: bool = False
    score: bool = False

    @classmethod
    def of(cls, identifier: str, dice: bool = False, cube: bool = False, score: bool = False) -> Wanted:
        """From a Position ID, ``PositionID:MatchID``, an XGID or an OGID. Raises ``ValueError``."""
        position, state = identify(identifier)
        if state is None and (dice or cube or score):
            raise ValueError("a bare Position ID says nothing of the dice, cube or score: give a gnubg ID, an XGID or an OGID")
        if dice and state is not None and state.dice == (0, 0):
            raise ValueError("the identifier has no dice rolled")
        return cls(position.id(), state, dice, cube, score)

    def where(self) -> tuple[str, list[Any]]:
        clauses: list[str] = ["position_id = ?"]
        values: list[Any] = [self.position_id]
        state = self.state
        if state is not None and self.dice:
            clauses.append("dice = ?")
            values.append(f"{max(state.dice)}{min(state.dice)}")
        if state is not None and self.cube:
            clauses.append("cube = ? AND " + ("cube_owner IS NULL" if state.cube_owner is None else "cube_owner = ?"))
            values += [state.cube] + ([] if state.cube_owner is None else [state.cube_owner])
        if state is not None and self.score:
            clauses.append("score0 = ? AND score1 = ? AND match_length = ?")
            values += [state.score[0], state.score[1], state.length]
        return " AND ".join(clauses), values


FOUND_COLUMNS = ("file", "line", "unit", "match", "game", "move", "action", "player", "player0", "player1", "dice", "play",
                 "position_id", "match_id", "xgid", "cube", "cube_owner", "score0", "score1", "match_length", "step")  # fmt: skip


def find(path: str | Path, wanted: Wanted, limit: int | None = None) -> list[dict[str, Any]]:
    """Every occurrence of the position in the index at ``path``: where (file, line and what
    it counts, match, game, move) and what was done from it (action, play), in file order."""
    condition, values = wanted.where()
    columns = ", ".join(f'"{c}"' for c in FOUND_COLUMNS)
    bound = f" LIMIT {int(limit)}" if limit else ""
    with _searched(path) as database:
        return list(database.rows(f"SELECT {columns} FROM positions WHERE {condition} ORDER BY file, match, game, step{bound}", FOUND_COLUMNS, values))


def occurrences(path: str | Path, wanted: Wanted) -> int:
    """How many times the position occurs in the index at ``path``."""
    condition, values = wanted.where()
    with _searched(path) as database:
        return int(database.query(f"SELECT count(*) FROM positions WHERE {condition}", values)[0][0])


@contextlib.contextmanager
def _searched(path: str | Path) -> Iterator[Database]:
    """The index at ``path`` opened to be searched (:func:`_opened`); an engine's error while
    searching is a :class:`~bgrecord.tables.storage.DatabaseError` naming the file."""
    database = _opened(path)
    try:
        yield database
    except Exception as exc:
        if is_engine_error(exc):
            raise engine_failure(path, exc) from None
        raise
    finally:
        database.close()


def _opened(path: str | Path) -> Database:
    """The index at ``path``, read only; ``ValueError`` saying why it cannot be searched,
    :class:`~bgrecord.tables.storage.DatabaseError` for a file the engine cannot open."""
    if not Path(path).is_file():
        raise ValueError(f"{path}: no such index")
    database = Database(path, read_only=True)
    schema = database.schema()
    if schema != SCHEMA_VERSION:
        database.close()
        if schema is None:
            raise ValueError(f"{path}: not a bgrecord index")
        raise ValueError(f"{path}: an index of another version of bgrecord (schema {schema}): run bgrecord index on it again")
    return database
