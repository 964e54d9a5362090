"""Writing outputs without losing anything: every output goes to a temporary file in its own
folder and is renamed into place only when complete, so an interrupted run leaves the old
file (or none), never half a file. An existing output is refused unless the caller says to
overwrite it, an input is never written over, and ``-`` is standard output.

A special file (a device such as ``/dev/null``, a FIFO) is written directly: it cannot be
replaced, and it holds nothing to lose.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

STDOUT = "-"


class OutputError(OSError):
    """An output that may not or cannot be written; the message says which and why."""


def same_file(first: str | Path, second: str | Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return Path(first).resolve() == Path(second).resolve()


def check_target(target: str | Path, inputs: Iterable[str | Path] = (), overwrite: bool = False, folder: bool = False) -> None:
    """Raise :class:`OutputError` if ``target`` is one of ``inputs``, or exists and may not be
    overwritten. Standard output and special files always may be written. ``folder``: the
    output is a folder (a dataset), which must not hold an input."""
    if str(target) == STDOUT:
        return
    path = Path(target)
    for source in inputs:
        if str(source) != "-" and same_file(source, path):
            raise OutputError(f"{path}: this is an input: bgrecord never writes over an input")
        if folder and str(source) != "-" and path.resolve() in Path(source).resolve().parents:
            raise OutputError(f"{path}: holds an input ({source}): bgrecord never writes over an input")
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode) != folder:
        raise OutputError(f"{path}: is a folder, not a file" if not folder else f"{path}: is a file, not a folder")
    if (stat.S_ISREG(mode) or folder) and not overwrite:
        raise OutputError(f"{path}: exists (--overwrite replaces it)")


@contextlib.contextmanager
def atomic_output(target: str | Path, binary: bool = False, encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """A file object to write ``target`` through: a temporary file beside it, renamed over it
    when the block ends without an exception, removed when it does not. ``-`` is standard
    output. Errors are :class:`OutputError` naming the target."""
    if str(target) == STDOUT:
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    path = Path(target)
    try:
        special = path.exists() and not stat.S_ISREG(path.stat().st_mode)
    except OSError:
        special = False
    mode, text = ("wb", None) if binary else ("w", encoding)
    if special:  # a device or a FIFO: written in place
        try:
            with open(path, mode, encoding=text, newline=None if binary else "") as direct:
                yield direct
        except OSError as exc:
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        return
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        os.chmod(temporary, _mode_for(path))
        with os.fdopen(handle, mode, encoding=text, newline=None if binary else "") as out:
            yield out
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


def _mode_for(path: Path) -> int:
    """The permissions of a new output: those of the file it replaces, else what the umask
    allows (a temporary file is made private)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_output(target: str | Path, content: str | bytes) -> None:
    """Write ``content`` to ``target`` through :func:`atomic_output`."""
    with atomic_output(target, binary=isinstance(content, bytes)) as out:
        out.write(content)


@contextlib.contextmanager
def atomic_folder(target: str | Path) -> Iterator[Path]:
    """A temporary folder beside ``target`` to write a folder of files in, put in the place of
    ``target`` (and of what was there) when the block ends without an exception, removed when
    it does not."""
    path = Path(target)
    parent = path.parent if str(path.parent) else Path(".")
    try:
        temporary = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".part", dir=parent))
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        yield temporary
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=parent))
            os.replace(path, old / path.name)
        os.replace(temporary, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException as exc:
        shutil.rmtree(temporary, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise
