"""What keeps an index's database file safe, whatever the engine: one writer at a time
(:func:`writer_lock`), and the engines' own errors told as what they are, a file that is not
a database or a disk that cannot take the write (:class:`DatabaseError`), never as a bug.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
from typing import Callable, Iterator

from bgrecord.escapes import cut


class DatabaseError(ValueError):
    """A database file that cannot be opened or written; the message names it and says why."""


def is_engine_error(exc: BaseException) -> bool:
    """An error of SQLite, of DuckDB or of the file system under them."""
    return isinstance(exc, OSError) or _is_sqlite(exc, "Error") or type(exc).__module__.lstrip("_") == "duckdb"


def _is_sqlite(exc: BaseException, kind: str) -> bool:
    """An error of SQLite's of this kind (none when SQLite is not loaded: a DuckDB index's
    search has no need of it)."""
    sqlite3 = sys.modules.get("sqlite3")
    return sqlite3 is not None and isinstance(exc, getattr(sqlite3, kind))


def is_storage_error(exc: BaseException) -> bool:
    """An engine's error of the storage (a full disk, an unreadable or locked file), not of
    the rows written: no file's rows are to blame for it."""
    if isinstance(exc, OSError) or _is_sqlite(exc, "OperationalError"):
        return True
    return type(exc).__module__.lstrip("_") == "duckdb" and type(exc).__name__ in (
        "IOException", "OutOfMemoryException", "FatalException", "PermissionException", "InterruptException",
        "TransactionException")  # fmt: skip


def engine_failure(name: str | Path, exc: BaseException) -> DatabaseError:
    """An engine's error as one line naming the database file ``name``."""
    text = str(exc)
    lowered = text.lower()
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) or "full" in lowered or "space" in lowered:
        return DatabaseError(f"{name}: cannot write: the disk is full ({cut(text, 120)}); the database is left as it was")
    if "not a database" in lowered or "not a valid" in lowered or "file is encrypted" in lowered or "malformed" in lowered:
        return DatabaseError(f"{name}: not a database this engine reads ({cut(text, 120)})")
    return DatabaseError(f"{name}: the database cannot be used: {cut(text, 200)}")


@contextlib.contextmanager
def writer_lock(target: str | Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock of the database ``target`` (a file ``.NAME.lock`` beside it while a run
    writes): a second writer waits for the first, after ``waiting()`` says so, and then reads
    what the first wrote. The lock file is removed by its holder before it lets go; a writer
    that wakes on a lock file so removed takes the lock again. Where the system has no
    ``fcntl`` (Windows), no lock is taken."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = Path(target)
    lock = path.with_name(f".{path.name}.lock")
    said = False
    while True:
        try:
            handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise DatabaseError(f"{target}: cannot take its lock {lock.name}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None and not said:
                waiting()
                said = True
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            if os.path.samestat(os.fstat(handle), os.stat(lock)):
                break  # the lock file is still the one in the folder: the lock is ours
        except OSError:
            pass  # its holder removed it as we waited: take the lock again
        os.close(handle)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(handle)  # lets the next writer in
