"""An archive's database: the tables of ``bgrecord stats`` and every position, in one DuckDB
or SQLite file, kept up to date file by file (schema: docs/stats.md).

``index_rows(path)`` reads and replays a file once and gives its games rows (as
:func:`bgrecord.tables.stats.game_rows`) and its positions as the index keeps them
(:mod:`bgrecord.tables.positions`); :func:`index` brings a database up to date with a list of
files, through a working copy renamed into place (:mod:`bgrecord.tables.working`): a file is
known by its resolved path and its content; a new or changed one is read, an unchanged one
is not (its worker compares the content's hash and stops there), a file with the bytes of an
indexed one is a copy (listed, not counted again), and a file gone from a folder given
leaves the index. The players, matches and dice tables are summed as a new index's rows
are written, else again from the games table (:mod:`bgrecord.tables.summaries`). Finding
positions is :mod:`bgrecord.tables.search`.

What it does not do: judge the records (a game with errors is indexed as replayed, up to the
error, with ``valid`` false), or merge two databases.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from array import array
from collections import Counter, deque
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from bgrecord.core.position import Position
from bgrecord.formats.records import MatchRecord, SetPosition
from bgrecord.formats.source import Input, failed_name
from bgrecord.names import NO_ALIASES, People
from bgrecord.replay import GameReplay
from bgrecord.replay.matchkeys import content_key
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import internal_issue
from bgrecord.tables import copies, file_order
from bgrecord.tables.database import DUCKDB_SCANNING_MEMORY, DUCKDB_WRITING_MEMORY, DUCKDB_WRITING_THREADS, ROW_GROUP, Database
from bgrecord.tables.digests import Digests
from bgrecord.tables.positions import ACT_CODES, ANSWERS, OPENING_SIDES, PLAY_CODES, place_code, position_hash, position_key
from bgrecord.tables.schema import POSITION_COLUMNS
from bgrecord.tables.spool import Oversized, Spool
from bgrecord.tables.stats import file_rows
from bgrecord.tables.summaries import RunningSums, summed_again
from bgrecord.tables.working import Working, working
from bgrecord.tables.writing_rows import NO_PLAY, POSITIONS_A_CHUNK, POSITIONS_IN_MEMORY, IndexReport, IndexRows, RowsWriter
from bgrecord.writing.writers import mat_rows

# --- one file's rows ---


def game_positions(game: int, out: GameReplay, into: array[int]) -> tuple[int | None, list[tuple[int, int, bytes]]]:
    """A replayed game's positions as the index keeps them: a row each replayed action with a
    position before it, six integers ``hash, game, step, place, act, play`` (:data:`NO_PLAY`
    for none; :mod:`bgrecord.tables.positions`) added to ``into``; the line its rows count
    from; and the Position ID's 10 bytes of each row whose position does not follow from the
    plays before it (``(game, step, key)``: a set-up, the game's start unless it is the
    standard opening, which a reader assumes where none is kept). ``game``: its number in its
    file, from 0."""
    starts: list[tuple[int, int, bytes]] = []
    base: int | None = None
    follows: Any = OPENING_SIDES  # the sides the plays so far lead to
    hashed: tuple[Any, int, int] = ((), 0, 0)  # the sides, the side on roll and the hash of the last row: a cube's actions share the roll's
    extend, plays, acts = into.extend, PLAY_CODES, ACT_CODES
    steps = out.steps
    for step_number, (step, move) in enumerate(zip(steps, mat_rows(steps)), 1):
        kind = step.kind
        if kind == "move":
            position = step.before
            if position is None:
                continue
            mover = step.player or 0
            dice = step.dice or None
            legal = step.play
        else:
            position = step.after  # a set-up: the position it sets
            if position is None:
                continue
            setup = step.action if kind == "setup" and isinstance(step.action, SetPosition) else None
            actor = position.turn if setup else step.player or 0
            mover = 1 - actor if kind in ANSWERS else actor  # an answer: seen from the side of the offer it answers
            dice = (step.dice or None) if setup is not None and setup.on_roll is not None else None  # a position file's dice to play
            legal = None
        line, row = step.action.line, move or 0
        if base is None:
            base = line - row
        offset = line - base - row  # 0 in a .mat file, whose lines are its rows
        sides = position.sides
        if sides is not follows and sides != follows:
            starts.append((game, step_number, position_key(Position(sides, mover))))
        if legal is not None:
            after = step.after
            follows = after.sides if after is not None else sides
            play = plays[(legal.play.moves, legal.hits, dice)]
        else:
            follows, play = sides, NO_PLAY
        if hashed[0] is not sides or hashed[1] != mover:
            hashed = (sides, mover, position_hash(sides[mover], sides[1 - mover]))
        place = row if offset == 0 else place_code(move, offset)
        extend((hashed[2], game, step_number, place, acts[(kind, mover, dice, step.cube, step.cube_owner)], play))
    return base, starts


def index_rows(unit: str | Path | Input | tuple[Any, str | None], rules: str | None = None) -> IndexRows:
    """The rows of one file, read and replayed once (:func:`bgrecord.tables.stats.file_rows`,
    with the positions beside). ``unit``: the file, or the file and the content key the index
    has for it (a file with that content is not read: it comes back ``unchanged``). A
    failure is reported, never raised."""
    file, known = unit if isinstance(unit, tuple) else (unit, None)
    source = file if isinstance(file, Input) else Input.named(str(file))
    positions: Spool[array[int]] = Spool(POSITIONS_IN_MEMORY // POSITIONS_A_CHUNK)
    chunk = array("q")
    games: list[tuple[int | None, bool, int]] = []
    starts: list[tuple[int, int, bytes]] = []
    units: list[str] = []
    in_match: Counter[int] = Counter()
    count = 0  # positions

    def each(number: int, match: MatchRecord, out: GameReplay) -> None:
        nonlocal chunk, count
        in_match[number] += 1
        before = len(chunk)
        base, found = game_positions(len(games), out, chunk)
        count += (len(chunk) - before) // len(POSITION_COLUMNS)
        games.append((base, not match.length and rules_for(match, rules).jacoby, in_match[number]))  # Jacoby: money play's
        if len(chunk) >= POSITIONS_A_CHUNK * len(POSITION_COLUMNS):
            positions.extend([chunk])
            chunk = array("q")
        starts.extend(found)
        units[:] = [match.unit]

    key = ""
    if known:
        try:
            key = content_key(source)
        except OSError:
            key = ""
        if key == known:
            return IndexRows(source.name or str(file), Spool(), file_key=key, unchanged=True)
    found = file_rows(source, rules, each, key or None)  # a key made here is not made again
    if chunk:
        try:
            positions.extend([chunk])
        except Oversized:
            found.oversized = True
    if found.problem or found.oversized:  # what was replayed before a failure is not kept: neither are its positions
        positions, games, starts, count = Spool(), [], [], 0
    return IndexRows(found.path, found.rows, found.problem, found.internal, found.file_key, oversized=found.oversized, empty=found.empty,
                     positions=positions, games=games, starts=starts, unit=units[0] if units else None, position_count=count)  # fmt: skip


def failed_rows(file: Any, exc: BaseException) -> IndexRows:
    """What :func:`index_rows` gives for a file whose work failed outside it (a worker that died)."""
    file = file[0] if isinstance(file, tuple) else file
    name = failed_name(file)
    return IndexRows(name, Spool(), internal_issue(name, exc).message, internal=True)


# --- bringing an index up to date ---


def resolved(name: str, folders: dict[str, str] | None = None) -> bytes:
    """What the index knows a file by: the bytes of its resolved path. ``folders``: the
    folders resolved so far, by their absolute path (a run's files come a folder at a time:
    the links of a folder's path are followed once, not once a file)."""
    if folders is None or ".." in name.replace("\\", "/").split("/"):  # a link's parent is its target's: realpath alone knows it
        return os.fsencode(os.path.realpath(name))
    folder, base = os.path.split(os.path.abspath(name))
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder)
    path = os.path.join(real, base)
    return os.fsencode(os.path.realpath(path) if os.path.islink(path) else path)


Unit = str | tuple[str, str | None]  # a file to read: its name, or its name and the content key the index has for it
Work = Callable[[Iterator[Unit]], Iterable[IndexRows]]
Before = tuple[int, str | None]  # what the index has of a file: its number and content key (None: it gave no games)
LOOKED_UP_AT_ONCE = 4096  # a run's files resolved and looked up in the index at a time: a run's memory is a chunk's (20,000: 4 MB more)
FIRST_LOOKED_UP = 256  # the first chunk's: the workers start once it is resolved, not the largest chunk (each next one 4x, to the above)


def index(target: str | Path, files: Iterable[str], work: Work, dedupe: bool = False, waiting: Callable[[], None] | None = None,
          folders: Sequence[str] = (), people: People = NO_ALIASES) -> IndexReport:  # fmt: skip
    """Bring the index ``target`` up to date with ``files`` (found in ``folders``, or named):
    ``work(units)`` gives the rows of each unit in order (a file's name, or its name and the
    content key the index has for it: see :func:`index_rows`); files of the index under
    ``folders`` that are gone from the disk are taken out; copies of an indexed file are
    listed, not counted again; the players and dice tables count ``people`` (an aliases
    table) as one person each. ``files`` are taken as the work asks for them and looked up
    :data:`LOOKED_UP_AT_ONCE` at a time: what is held is a chunk of names, not the archive's."""
    report = IndexReport()
    with working(target, waiting, memory=DUCKDB_WRITING_MEMORY, row_group=ROW_GROUP) as work_copy:
        database = work_copy.database
        # DuckDB's threads: one while the rows are written and summed (its workers have the cores, and each of DuckDB's
        # threads keeps memory of its own); its own number for the positions sorted into place after (work_copy.finish),
        # whose row groups it packs into fewer blocks so (1,102 against 1,417 bytes a game at 10,000 games)
        with database.threads(DUCKDB_WRITING_THREADS):
            report.remade_from = work_copy.remade_from
            looked_up = bool(database.query("SELECT 1 FROM files LIMIT 1"))  # a new index: nothing to look up
            gone = _gone(database, folders)
            numbers = database.query("SELECT COALESCE(MAX(file_id), 0) + 1, (SELECT COALESCE(MAX(game_id), 0) + 1 FROM game_rows) FROM files")[0]
            sums = RunningSums(database, people) if not looked_up and not dedupe else None  # else summed again at the end
            writer = RowsWriter(work_copy, report, int(numbers[0]), int(numbers[1]), sums)
            purged = [file_id for file_id, _ in gone]
            report.removed = [name for _, name in gone]
            _remove_files(database, purged)
            run = _Run(database, int(numbers[0]) if looked_up else 0)
            with database.checkpoints_chosen():  # the writer's, each where a row group of games rows ends
                with database.held("files", "matches"):  # a few thousand rows each a release: whole row groups at a time
                    _write(work, run.units(itertools.chain(files, _old_files(work_copy, report))), run, writer, purged, report)
                    writer.flush()
                _write(work, run.given(_orphaned_copies(database)), run, writer, purged, report)  # their original changed or is gone
                writer.flush()
            database.release()  # what is left written: DuckDB's memory free for what follows
            with database.bounded(DUCKDB_SCANNING_MEMORY):  # the last steps' scans of whole tables filled the run's bound
                _drop_games(work_copy, purged)
                copies.mark(database)
                file_order.record(database, int(numbers[1]), writer.runs)
                if sums is not None and not sums.spoiled:
                    sums.finish(copies_marked=False)
                else:  # a run that changes an index, or took rows out again: every game summed again
                    summed_again(database, dedupe, people)
    return report


def _write(work: Work, units: Iterator[Unit], run: _Run, writer: RowsWriter, purged: list[int], report: IndexReport) -> None:
    for rows in work(units):
        path, before = run.pending.popleft()
        if rows.unchanged:
            report.unchanged += 1
            continue
        if before is None:
            report.added += 1
        elif before[1] is None:
            report.retried += 1
        else:
            report.replaced += 1
        if before is not None:
            purged.append(before[0])
            _remove_files(writer.database, [before[0]])
        writer.add(rows, path)


class _Run:
    """A run's files as the work asks for them: each once, whatever the path that names it
    (the first name given), with what the index has of it. Names are taken
    :data:`LOOKED_UP_AT_ONCE` at a time (the first chunks smaller: the work starts at once):
    resolved, the paths of earlier chunks passed over (known by their digests,
    :class:`~bgrecord.tables.digests.Digests`: 16 bytes a file, where a table of them in the
    database was read whole again for each chunk) and the rest looked up in the index.
    ``pending``: each unit given to the work and not yet written, as ``(resolved path, what
    the index has of it)``."""

    def __init__(self, database: Database, first_new: int) -> None:
        self.database = database
        self.first_new = first_new  # the number of the run's first new file; 0: a new index, nothing to look up
        self.pending: deque[tuple[bytes, Before | None]] = deque()
        self.earlier = Digests()  # the paths of the chunks given so far

    def units(self, names: Iterable[str]) -> Iterator[Unit]:
        names = iter(names)
        size = min(FIRST_LOOKED_UP, LOOKED_UP_AT_ONCE)
        while chunk := list(itertools.islice(names, size)):
            size = min(4 * size, LOOKED_UP_AT_ONCE)
            firsts: dict[bytes, str] = {}
            folders: dict[str, str] = {}
            for name in chunk:
                firsts.setdefault(resolved(name, folders), name)
            paths = [path for path, earlier in zip(firsts, self.earlier.found(list(firsts))) if not earlier]
            self.earlier.add(paths)
            known = self._looked_up(paths) if self.first_new and paths else {}
            yield from self.given((firsts[path], path, known.get(path)) for path in paths)

    def given(self, files: Iterable[tuple[str, bytes, Before | None]]) -> Iterator[Unit]:
        """Files already resolved and looked up, as units of work."""
        for name, path, before in files:
            self.pending.append((path, before))
            yield name if before is None else (name, before[1])

    def _looked_up(self, paths: list[bytes]) -> dict[bytes, Before]:
        """What the index had of each of ``paths`` before the run."""
        database = self.database
        database.execute("CREATE TEMPORARY TABLE run_chunk (path BLOB)")
        try:
            database.append("run_chunk", [(path,) for path in paths], {"path": "bytes"})
            return {bytes(path): (int(file_id), key) for path, file_id, key in database.tuples(
                "SELECT run_chunk.path, files.file_id, files.file_key FROM run_chunk JOIN files ON files.path = run_chunk.path "
                "WHERE files.file_id < ?", [self.first_new])}  # fmt: skip
        finally:
            database.execute("DROP TABLE run_chunk")


def _old_files(work_copy: Working, report: IndexReport) -> Iterator[str]:
    """The files an older index listed that are still on disk (one among the run's files is
    read once: :class:`_Run`)."""
    for name in work_copy.old_files:
        if os.path.isfile(name):
            yield name
        else:
            report.not_found.append(name)


def _gone(database: Database, folders: Sequence[str]) -> list[tuple[int, str]]:
    """The indexed files under ``folders`` that are no longer on the disk (a file there but not
    read this run, in a folder that could not be read, stays)."""
    gone = []
    for folder in folders:
        prefix = resolved(folder).rstrip(b"/")
        for file_id, name, path in database.tuples("SELECT file_id, file, path FROM files WHERE path > ? AND path < ?", [prefix + b"/", prefix + b"0"]):
            if not os.path.lexists(os.fsdecode(path)):
                gone.append((int(file_id), str(name)))
    return sorted(set(gone))


def _remove_files(database: Database, file_ids: Sequence[int]) -> None:
    """The files rows (their games go at the end of the run, :func:`_drop_games`)."""
    for file_id in file_ids:
        database.execute("DELETE FROM files WHERE file_id = ?", [file_id])


def _orphaned_copies(database: Database) -> list[tuple[str, bytes, Before]]:
    """Copies whose original changed or left the index: to read again (named by their
    resolved path), each ``(name, resolved path, what the index has of it)``."""
    found = database.query("SELECT file_id, path FROM files WHERE copy_of IS NOT NULL AND copy_of NOT IN (SELECT file_id FROM files)")
    return [(os.fsdecode(bytes(path)), bytes(path), (int(file_id), None)) for file_id, path in found]


def _drop_games(work_copy: Working, file_ids: list[int]) -> None:
    """The games and positions of files taken out or read again."""
    if not file_ids:
        return
    database = work_copy.database
    database.execute("CREATE TEMPORARY TABLE purged (file_id BIGINT)")
    try:
        database.append("purged", [(file_id,) for file_id in file_ids], {"file_id": "Int64"})
        games = [int(game) for (game,) in database.tuples("SELECT game_id FROM game_rows WHERE file_id IN (SELECT file_id FROM purged)")]
        work_copy.drop_games(games)
        database.execute("DELETE FROM game_rows WHERE file_id IN (SELECT file_id FROM purged)")
    finally:
        database.execute("DROP TABLE purged")


@contextlib.contextmanager
def updated(target: str | Path, waiting: Callable[[], None] | None = None) -> Iterator[Database]:
    """The index at ``target`` (made when missing) to add other tables to (an analysis), through a
    working copy renamed into place when the block ends well (:func:`bgrecord.tables.working.working`);
    an index of an older schema is kept as it is."""
    with working(target, waiting, remake=False) as work_copy:
        yield work_copy.database
