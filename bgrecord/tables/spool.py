"""Rows of one file in bounded memory: :class:`Spool` keeps the first rows in memory and
writes the rest to an anonymous temporary file, a chunk at a time, so that a file of a
hundred thousand games costs what a file of a few thousand does.

A worker process cannot hand such a file to the process it reports to (the file has no name,
and a cluster's worker may stand on another machine): there a spool that outgrows its memory
raises :class:`Oversized`, and the caller reads that file again itself
(:func:`bgrecord.tables.cluster.run_batch` marks a worker with :func:`in_worker`).
"""

from __future__ import annotations

import pickle
import tempfile
from typing import IO, Generic, Iterator, TypeVar

T = TypeVar("T")

IN_MEMORY = 5_000  # rows kept in memory before the rest goes to disk (about 25 MB of game rows)
CHUNK = 5_000  # rows a chunk, written and read back at once
_in_worker = False


class Oversized(Exception):
    """A spool outgrew its memory in a worker process: the file is for the caller to read."""


def in_worker() -> None:
    """Mark this process as a worker: a spool that outgrows its memory raises :class:`Oversized`."""
    global _in_worker
    _in_worker = True


class Spool(Generic[T]):
    """Items in the order added; iterated by :meth:`chunks` (each chunk a list, read once)."""

    def __init__(self, memory: int = IN_MEMORY) -> None:
        self._memory = memory
        self._head: list[T] = []
        self._pending: list[T] = []
        self._file: IO[bytes] | None = None
        self._chunks = 0
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def extend(self, items: list[T]) -> None:
        self._count += len(items)
        room = self._memory - len(self._head)
        if room > 0:
            self._head.extend(items[:room])
            items = items[room:]
        if not items:
            return
        if _in_worker:
            raise Oversized(f"more than {self._memory:,} rows")
        self._pending.extend(items)
        if len(self._pending) >= CHUNK:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="bgrecord-spool-")  # noqa: SIM115 - closed when read or dropped
        pickle.dump(self._pending, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._chunks += 1
        self._pending = []

    def chunks(self) -> Iterator[list[T]]:
        """The items, chunk by chunk, each chunk a fresh list: once (the disk's part is
        released as it is read)."""
        if self._head:
            yield self._head
        if self._file is None:
            if self._pending:
                yield self._pending
            return
        self._flush()
        handle, self._file = self._file, None
        try:
            handle.seek(0)
            for _ in range(self._chunks):
                yield pickle.load(handle)  # noqa: S301 - our own file, written above
        finally:
            handle.close()

    def __iter__(self) -> Iterator[T]:
        for chunk in self.chunks():
            yield from chunk

    def __getstate__(self) -> dict[str, object]:
        if self._file is not None:
            raise pickle.PicklingError("a spool on disk stays in its process")
        return {"_memory": self._memory, "_head": self._head, "_pending": self._pending, "_file": None, "_chunks": 0,
                "_count": self._count}  # fmt: skip

    def __setstate__(self, state: dict[str, object]) -> None:
        for key, value in state.items():
            setattr(self, key, value)
