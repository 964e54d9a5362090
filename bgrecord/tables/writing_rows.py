"""Writing files' rows into an index's database (:func:`bgrecord.tables.archive.index`): a batch of
small files at once, a large file chunk by chunk from its spool, and each file's rows its
own, so that one file's rows that do not go in never cost the others theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from bgrecord.replay.validate import internal_issue
from bgrecord.tables.spool import IN_MEMORY, Spool
from bgrecord.tables.stats import FileRows
from bgrecord.tables.storage import is_storage_error

if TYPE_CHECKING:
    from bgrecord.tables.database import Database

POSITIONS_IN_MEMORY = 20_000  # a file's positions kept in memory (about 26 MB); the rest on disk

BATCH_POSITIONS = 10_000  # positions written at once (files gathered up to it): memory flat, few calls


@dataclass(slots=True)
class IndexRows(FileRows):
    """A file's games rows (``rows``) and positions rows (each in a
    :class:`~bgrecord.tables.spool.Spool`: read once), or why there are none. A position's ``file``
    and ``match_key`` are filled when it is written (:func:`index`)."""

    positions: Spool[dict[str, Any]] = field(default_factory=Spool)




@dataclass(slots=True)
class IndexReport:
    """What an index run did."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    problems: list[tuple[str, str, bool]] = field(default_factory=list)  # (file, why, bgrecord's own failure)
    empty: list[tuple[str, str]] = field(default_factory=list)  # (file, why): read, but no games
    retried: list[str] = field(default_factory=list)  # files that gave no games before, read again
    remade: bool = False  # the index was of another schema version: made again from every file
    games: int = 0
    positions: int = 0


class RowsWriter:
    """Writes files' rows into the database, a batch of small files at once and a large file
    chunk by chunk. Each file's rows are its own: rows that fail to go in (any exception)
    are taken out again, the file is reported (an ``internal`` problem), and the others go in."""

    def __init__(self, database: Database, report: IndexReport) -> None:
        self.database, self.report = database, report
        self.pending: list[IndexRows] = []
        self.positions = 0

    def add(self, rows: IndexRows) -> None:
        if rows.empty:
            self.report.empty.append((rows.path, rows.problem or ""))
        elif rows.problem:
            self.report.problems.append((rows.path, rows.problem, rows.internal))
        self.report.games += len(rows.rows)
        self.report.positions += len(rows.positions)
        if len(rows.positions) > POSITIONS_IN_MEMORY or len(rows.rows) > IN_MEMORY:  # partly on disk: read once, alone
            self.flush()
            self.one(rows)
            return
        self.pending.append(rows)
        self.positions += len(rows.positions)
        if self.positions >= BATCH_POSITIONS:
            self.flush()

    def flush(self) -> None:
        pending, self.pending, self.positions = self.pending, [], 0
        if not pending:
            return
        try:
            tables: dict[str, list[dict[str, Any]]] = {"games": [], "positions": [], "files": []}
            for rows in pending:
                for table, found in self.tables(rows):
                    tables[table] += found
            for table, found in tables.items():
                self.database.insert(table, found)
        except Exception as exc:  # noqa: BLE001 - one file's rows do not go in: find which, the others go in
            if is_storage_error(exc):
                raise
            self.remove(pending)
            for rows in pending:
                self.one(rows)

    def one(self, rows: IndexRows) -> None:
        try:
            for table, found in self.tables(rows):
                self.database.insert(table, found)
        except Exception as exc:  # noqa: BLE001 - as in flush
            if is_storage_error(exc):  # the disk, not the file's rows: the run fails, the database is left as it was
                raise
            self.remove([rows])
            problem = internal_issue(rows.path, exc).message
            self.report.problems.append((rows.path, problem, True))
            self.database.insert("files", [{"file": rows.path, "file_key": "", "games": 0, "problem": problem}])

    @staticmethod
    def tables(rows: IndexRows) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """A file's rows, table by table, chunk by chunk (positions with their file and match key)."""
        keys: dict[Any, Any] = {}
        games = 0
        for chunk in rows.rows.chunks():
            keys.update((row["match"], row["match_key"]) for row in chunk)
            games += len(chunk)
            yield "games", chunk
        for chunk in rows.positions.chunks():
            for row in chunk:
                row["file"], row["match_key"] = rows.path, keys.get(row["match"])
            yield "positions", chunk
        # a file that gave no games is not done: without its key, the next run reads it again
        yield "files", [{"file": rows.path, "file_key": rows.file_key if games else None, "games": games, "problem": rows.problem}]

    def remove(self, files: list[IndexRows]) -> None:
        for rows in files:
            for table in ("games", "positions", "files"):
                self.database.execute(f"DELETE FROM {table} WHERE file = ?", [rows.path])
