"""Writing files' rows into an index's working copy (:func:`bgrecord.tables.archive.index`): a
batch of small files at once, a large file chunk by chunk from its spool, each file's rows its
own (rows that do not all go in are taken out again, and the others go in), and a file whose
bytes an indexed file already has kept as a copy of it, with no rows of its own.
"""

from __future__ import annotations

import functools
import sys
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bgrecord.replay.validate import internal_issue
from bgrecord.tables.database import ROW_GROUP
from bgrecord.tables.digests import Digests
from bgrecord.tables.file_order import Runs
from bgrecord.tables.schema import FILE_COLUMNS, GAME_ROW_COLUMNS, POSITION_COLUMNS
from bgrecord.tables.spool import IN_MEMORY, Spool
from bgrecord.tables.stats import FileRows
from bgrecord.tables.storage import is_storage_error

if TYPE_CHECKING:
    from bgrecord.tables.summaries import RunningSums
    from bgrecord.tables.working import Working

POSITIONS_IN_MEMORY = 100_000  # a file's positions kept in memory (some 5 MB: six integers a position); the rest on disk
POSITIONS_A_CHUNK = 4096  # positions in one array of a file's spool
NO_PLAY = -(1 << 63)  # the play of a position from which none was made, in a spool's arrays (NULL in the table)

BATCH_POSITIONS = 50_000  # positions written at once (files gathered up to it): memory flat, few calls
KEY_DIGEST = 8  # bytes of a content key's digest in RowsWriter.keys (a filter: a key found is asked of the index)
BATCH_FILES = 2_000  # files written at once, at most (files of no positions: their rows too)

_GAME_ORDER = list(GAME_ROW_COLUMNS)
SIX = len(POSITION_COLUMNS)


@dataclass(slots=True)
class IndexRows(FileRows):
    """A file's rows for the index, or why there are none: its games rows (``rows``, as
    :func:`bgrecord.tables.stats.file_rows`), and for each game, in the same order (counted
    from 0 in the file), what the index adds (``games``: its line, Jacoby, its number in its
    match), its positions (six integers each, ``hash, game, step, place, act, play``, in arrays
    of :data:`POSITIONS_A_CHUNK` positions, in a spool: a worker sends them as bytes) and the
    10 bytes of each position that does not follow from the game's plays (``starts``:
    ``(game, step, key)``). ``unchanged``: the file has the content the index knows (nothing
    read)."""

    positions: Spool[array[int]] = field(default_factory=Spool)
    position_count: int = 0
    games: list[tuple[int | None, bool, int]] = field(default_factory=list)
    starts: list[tuple[int, int, bytes]] = field(default_factory=list)
    unit: str | None = None
    unchanged: bool = False


@dataclass(slots=True)
class IndexReport:
    """What an index run did."""

    added: int = 0  # files (counts only: an archive's names are many)
    replaced: int = 0
    unchanged: int = 0
    problems: list[tuple[str, str, bool]] = field(default_factory=list)  # (file, why, bgrecord's own failure)
    empty: list[tuple[str, str]] = field(default_factory=list)  # (file, why): read, but no games
    retried: int = 0  # files that gave no games before, read again
    copies: list[tuple[str, str]] = field(default_factory=list)  # (file, the indexed file whose bytes it has)
    removed: list[str] = field(default_factory=list)  # files gone from an indexed folder: taken out
    remade_from: str | None = None  # the schema of an older index, made again from the files it listed
    not_found: list[str] = field(default_factory=list)  # files such an index listed that are no longer there
    games: int = 0
    positions: int = 0


def handed_back() -> None:
    """The memory freed given back to the system, where the C library can (glibc)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``: the memory a batch freed given back to the system (some 0.1 ms).
    Without it, a run's peak crept up by a few MB over a million games (the freed room of
    each batch's rows, scattered, not handed back): 63 MB at a million games, 59 MB with it.
    None elsewhere (another C library)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def _large(rows: IndexRows) -> bool:
    """Rows of a file too many to hold with others: written alone, chunk by chunk."""
    return rows.position_count > POSITIONS_IN_MEMORY or len(rows.rows) > IN_MEMORY


class RowsWriter:
    """Writes files' rows into the working copy, a batch of small files at once and a large
    file chunk by chunk. Each file's rows are its own: rows that fail to go in (any
    exception) are taken out again, the file is reported (an ``internal`` problem), and the
    others go in. Files and games are numbered from ``next_file`` and ``next_game``. ``sums``:
    the summaries summed from the games rows as they are written (spoiled when rows are taken
    out again).

    In DuckDB, the games rows go in up to the end of a row group (:data:`ROW_GROUP` rows in
    the table), where the data is checkpointed and DuckDB's cache let go (:meth:`written`),
    and nowhere else (:meth:`~bgrecord.tables.database.Database.checkpoints_chosen`): no row
    group of them is written part full, to be built again whole in memory at the next."""

    def __init__(self, work: Working, report: IndexReport, next_file: int, next_game: int, sums: RunningSums | None = None) -> None:
        self.work, self.database, self.report, self.sums = work, work.database, report, sums
        self.next_file, self.next_game = next_file, next_game
        # the games rows the table's row groups hold (rows taken out again keep their room until a checkpoint)
        self.held = int(self.database.query("SELECT count(*) FROM game_rows")[0][0])
        self.runs = Runs()  # the runs of the games written in file order (bgrecord.tables.file_order)
        self.pending: list[tuple[IndexRows, bytes]] = []
        self.positions = 0
        self.tables: dict[str, list[Any]] = {}
        self.originals: dict[str, tuple[int, str]] = {}  # content key -> the indexed file that has it (the batch's keys)
        # the keys of the indexed files that have games (8 bytes each): only a key found there is looked up in the index
        self.keys = Digests(KEY_DIGEST)
        self.new_keys: list[bytes] = []  # the keys of the files written since the last lookup, added to keys before the next
        self.keys.add(key.encode() for (key,) in self.database.tuples("SELECT file_key FROM files WHERE copy_of IS NULL AND games > 0")
                      if isinstance(key, str))  # fmt: skip

    def add(self, rows: IndexRows, path: bytes) -> None:
        """The rows of a file read (new, changed or read again), known by its resolved ``path``."""
        if rows.empty:
            self.report.empty.append((rows.path, rows.problem or ""))
        elif rows.problem:
            self.report.problems.append((rows.path, rows.problem, rows.internal))
        if _large(rows):  # partly on disk: read once, alone
            self.flush()
            self.one(rows, path)
            return
        self.pending.append((rows, path))
        self.positions += rows.position_count
        if self.positions >= BATCH_POSITIONS or len(self.pending) >= BATCH_FILES:
            self.flush()

    def flush(self) -> None:
        pending, self.pending, self.positions = self.pending, [], 0
        if not pending:
            return
        mark = self.mark()
        try:
            self.look_up([rows for rows, _ in pending])
            for rows, path in pending:
                self.write(rows, path)
            self.written()
        except Exception as exc:  # noqa: BLE001 - one file's rows do not go in: find which, the others go in
            if is_storage_error(exc):
                raise
            self.remove(mark)
            for rows, path in pending:
                self.one(rows, path)
        del pending
        handed_back()

    def one(self, rows: IndexRows, path: bytes) -> None:
        mark = self.mark()
        try:
            self.look_up([rows])
            self.write(rows, path)
            self.written()
        except Exception as exc:  # noqa: BLE001 - as in flush
            if is_storage_error(exc):  # the disk, not the file's rows: the run fails, the index is left as it was
                raise
            self.remove(mark)
            problem = internal_issue(rows.path, exc).message
            self.report.problems.append((rows.path, problem, True))
            self.database.insert("files", [{"file_id": self.file_number(), "file": rows.path, "path": path, "games": 0, "problem": problem}])

    def file_number(self) -> int:
        self.next_file += 1
        return self.next_file - 1

    def look_up(self, files: list[IndexRows]) -> None:
        """The indexed files that have the content of these (by key), for :meth:`write`: asked
        of the index a batch at a time (the files written before are there; a copy within the
        batch is found as it is written), so that memory holds a batch's keys, not the run's
        (but their digests, :attr:`keys`: a key that is not there is not asked for; the files'
        keys were read whole again for each batch)."""
        self.originals = {}
        self.keys.add(self.new_keys)
        self.new_keys = []
        keys = sorted({rows.file_key for rows in files if rows.file_key})
        keys = [key for key, found in zip(keys, self.keys.found([key.encode() for key in keys])) if found]
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            found = self.database.query(f"SELECT file_key, file_id, file FROM {self.database.rows_of('files')} AS files "
                                        f"WHERE file_key IN ({', '.join('?' * len(part))}) "
                                        "AND copy_of IS NULL AND games > 0 ORDER BY file_id", part)  # fmt: skip
            for key, file_id, name in reversed(found):  # the first of each key stays
                self.originals[key] = (int(file_id), str(name))

    def write(self, rows: IndexRows, path: bytes) -> None:
        """A file's rows into the tables' buffers (a chunk of a large file goes in at once); a
        copy of an indexed file, its files row alone."""
        file_id = self.file_number()
        original = self.originals.get(rows.file_key) if rows.file_key and len(rows.rows) else None
        if original is not None:
            self.report.copies.append((rows.path, original[1]))
            self.keep("files", {"file_id": file_id, "file": rows.path, "path": path, "file_key": rows.file_key, "games": 0,
                                "copy_of": original[0], "unit": rows.unit})  # fmt: skip
            return
        first = self.next_game
        large = _large(rows)
        sums = self.sums
        for chunk in rows.rows.chunks():
            found = self.tables.setdefault("game_rows", [])
            for row in chunk:
                local = self.next_game - first
                line, jacoby, in_match = rows.games[local] if local < len(rows.games) else (None, False, None)
                row.update(game_id=self.next_game, file_id=file_id, line=line, jacoby=jacoby, game_in_match=in_match)
                self.runs.add(self.next_game, rows.path, file_id, row["match"], row["game"])
                found.append(tuple(map(row.__getitem__, _GAME_ORDER)))
                if sums is not None:
                    sums.add(row)
                self.next_game += 1
            if large:
                self.written()
        games = self.next_game - first
        self.report.games += games
        for part in rows.positions.chunks():
            self.tables.setdefault("staged", []).extend((first, chunk) for chunk in part)
            self.report.positions += sum(len(chunk) for chunk in part) // SIX
            if large:
                self.written()
        self.tables.setdefault("start_positions", []).extend((first + local, step, key) for local, step, key in rows.starts if local < games)
        if games and rows.file_key:
            self.originals.setdefault(rows.file_key, (file_id, rows.path))
            self.new_keys.append(rows.file_key.encode())
        # a file that gave no games is not done: without its key, the next run reads it again
        self.keep("files", {"file_id": file_id, "file": rows.path, "path": path, "file_key": rows.file_key if games else None,
                            "games": games, "problem": rows.problem, "unit": rows.unit})  # fmt: skip

    def keep(self, table: str, row: dict[str, Any]) -> None:
        self.tables.setdefault(table, []).append(tuple(row.get(column) for column in FILE_COLUMNS))

    def written(self) -> None:
        """The buffers into the tables, the games rows last: up to the end of a row group, where
        DuckDB checkpoints and lets go of its cache, then the rest."""
        tables, self.tables = self.tables, {}
        games = tables.pop("game_rows", [])
        for table, rows in tables.items():
            if table == "staged":
                self.work.stage(rows)
            else:
                self.database.append(table, rows)
        while games:
            room = ROW_GROUP - self.held % ROW_GROUP
            part, games = games[:room], games[room:]
            self.database.append("game_rows", part)
            self.held += len(part)
            if self.held % ROW_GROUP == 0:
                self.database.release()

    def mark(self) -> tuple[int, int, int, int, int]:
        """Where the writing stands (the next file and game numbers, the report's counts), for
        :meth:`remove` to go back to."""
        self.work.mark()
        self.runs.mark()
        return self.next_file, self.next_game, len(self.report.copies), self.report.games, self.report.positions

    def remove(self, mark: tuple[int, int, int, int, int]) -> None:
        """What was written since :meth:`mark` gave ``mark``, taken out (and out of the report)."""
        files, games, copies, report_games, report_positions = mark
        self.tables = {}
        if self.sums is not None:  # the rows summed are no longer those written: the tables are summed again at the end
            self.sums.spoiled = True
            self.sums = None
        self.originals = {key: found for key, found in self.originals.items() if found[0] < files}
        self.database.execute("DELETE FROM game_rows WHERE game_id >= ?", [games])
        self.database.execute("DELETE FROM start_positions WHERE game >= ?", [games])
        self.database.delete("files", "file_id >= ?", [files])
        self.work.unstage(games, self.next_game)
        self.runs.back()
        self.next_file, self.next_game = files, games
        del self.report.copies[copies:]
        self.report.games, self.report.positions = report_games, report_positions
