"""Writing outputs without losing anything: every output goes to a temporary file in its own
folder and is renamed into place only when complete, so an interrupted run leaves the old
file (or none), never half a file. An existing output is refused unless the caller says to
overwrite it, an input is never written over, and ``-`` is standard output.

A special file (a device such as ``/dev/null``, a FIFO) is written directly: it cannot be
replaced, and it holds nothing to lose.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import select
import signal
import stat
import sys
from pathlib import Path
from typing import IO, Any, Iterable, Iterator

STDOUT = "-"
PIPE_CLOSED = 141  # 128 + SIGPIPE: the status of a program whose reader has gone


class OutputError(OSError):
    """An output that may not or cannot be written; the message says which and why."""


class OutputGone(BaseException):
    """Standard output cannot be written (its reader has gone, the disk is full, it is
    closed): the run ends, whatever it was doing. Not an ``Exception``: no barrier around one
    file's work takes it for that file's problem."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error

    @property
    def status(self) -> int:
        """141 when the reader has gone (as a program stopped by SIGPIPE), else 2."""
        return PIPE_CLOSED if self.error.errno == errno.EPIPE else 2

    @property
    def message(self) -> str:
        return f"cannot write to standard output: {self.error.strerror or self.error}"


def check_stdout() -> None:
    """Raise :class:`OutputGone` if standard output is a pipe whose reader has gone: what was
    written there did not all arrive (a reader that stops after a few bytes, as ``head -c``,
    may leave before a write fails)."""
    try:
        descriptor = sys.stdout.fileno()
        if not stat.S_ISFIFO(os.fstat(descriptor).st_mode):
            return
        poller = select.poll()
        poller.register(descriptor, select.POLLOUT)
        events = poller.poll(0)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return
    if any(flags & select.POLLERR for _, flags in events):
        raise OutputGone(OSError(errno.EPIPE, os.strerror(errno.EPIPE)))


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two names are one file; ``-`` stands for the standard stream (input or
    output) when it is a regular file."""
    try:
        return os.path.samestat(_stat(first), _stat(second))
    except OSError:
        if STDOUT in (str(first), str(second)):
            return False
        return Path(first).resolve() == Path(second).resolve()


def _stat(name: str | Path) -> os.stat_result:
    return os.fstat(0) if str(name) == STDOUT else os.stat(name)


def _stdout_is(source: str | Path) -> bool:
    """Standard output is the regular file ``source`` (``> input`` or ``>> input``)."""
    try:
        out = os.fstat(1)
        return stat.S_ISREG(out.st_mode) and os.path.samestat(out, _stat(source))
    except OSError:
        return False


def check_target(target: str | Path, inputs: Iterable[str | Path] = (), overwrite: bool = False, folder: bool = False) -> None:
    """Raise :class:`OutputError` if ``target`` is one of ``inputs`` (``-`` among the inputs
    is standard input, which may be a file: ``< input``), or exists and may not be
    overwritten. Standard output may be written unless it is an input file; special files
    always may be. ``folder``: the output is a folder (a dataset), which must not hold an
    input."""
    if str(target) == STDOUT:
        for source in inputs:
            if _stdout_is(source):
                raise OutputError(f"standard output is an input ({'standard input' if str(source) == STDOUT else source}): "
                                  "bgrecord never writes over an input")  # fmt: skip
        return
    path = Path(target)
    for source in inputs:
        if same_file(source, path):
            what = "standard input" if str(source) == STDOUT else "an input"
            raise OutputError(f"{path}: this is {what}: bgrecord never writes over an input")
        if folder and str(source) != STDOUT and path.resolve() in Path(source).resolve().parents:
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
def atomic_output(target: str | Path, binary: bool = False, encoding: str = "utf-8", hold: bool = False) -> Iterator[IO[Any]]:
    """A file object to write ``target`` through: a temporary file beside it, renamed over it
    when the block ends without an exception, removed when it does not. ``-`` is standard
    output, written as it comes, or with ``hold`` only when the block ends without an
    exception (what was written waits in a temporary file). Text that no encoding writes (a
    lone surrogate) is written as an escape, never an error. Errors are
    :class:`OutputError` naming the target."""
    if str(target) == STDOUT:
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        if hold:
            import shutil
            import tempfile

            with tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+b" if binary else "w+", encoding=None if binary else encoding,
                                               errors=None if binary else "surrogatepass") as held:  # fmt: skip
                yield held
                held.seek(0)
                shutil.copyfileobj(held, stream)
        else:
            yield stream
        try:
            stream.flush()
        except OSError as exc:  # standard output unguarded (the library used alone)
            raise OutputGone(exc) from None
        check_stdout()
        return
    path = Path(target)
    try:
        special = path.exists() and not stat.S_ISREG(path.stat().st_mode)
    except OSError:
        special = False
    mode, text = ("wb", None) if binary else ("w", encoding)
    errors = None if binary else "backslashreplace"
    if special:  # a device or a FIFO: written in place
        try:
            with open(path, mode, encoding=text, errors=errors, newline=None if binary else "") as direct:
                yield direct
        except OSError as exc:
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        return
    folder = path.parent if str(path.parent) else Path(".")
    import tempfile  # imported where a file is written (start-up imports only what every command uses)

    with held_signals():  # a signal between making the file and the block that removes it would leave it
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
        except OSError as exc:
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        os.chmod(temporary, _mode_for(path))
        with os.fdopen(handle, mode, encoding=text, errors=errors, newline=None if binary else "") as out:
            yield out
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


_HELD = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """The stopping signals held back for the block (they are handled when it ends): for
    making a temporary file, where a stop between its making and the handler that removes it
    would leave it behind."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _mode_for(path: Path, folder: bool = False) -> int:
    """The permissions of a new output: those of the file (or folder) it replaces, else what
    the umask allows (a temporary file or folder is made private)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return (0o777 if folder else 0o666) & ~mask


def distinct(targets: Iterable[str | Path]) -> None:
    """Raise :class:`OutputError` when two of one run's outputs are one file (or both standard
    output): one would replace the other."""
    seen: dict[Any, str] = {}
    for target in targets:
        name = str(target)
        if name == STDOUT:
            key: Any = STDOUT
        else:
            try:
                found = os.stat(name)
                key = (found.st_dev, found.st_ino)
            except OSError:
                key = os.path.normcase(os.path.abspath(name))
        if key in seen:
            same = "standard output" if name == STDOUT else f"{seen[key]} and {name}" if seen[key] != name else name
            raise OutputError(f"two outputs would be one file ({same}): one would replace the other")
        seen[key] = name


def write_output(target: str | Path, content: str | bytes) -> None:
    """Write ``content`` to ``target`` through :func:`atomic_output`."""
    with atomic_output(target, binary=isinstance(content, bytes)) as out:
        out.write(content)


@contextlib.contextmanager
def atomic_folder(target: str | Path) -> Iterator[Path]:
    """A temporary folder beside ``target`` to write a folder of files in, put in the place of
    ``target`` (and of what was there) when the block ends without an exception, removed when
    it does not."""
    import shutil
    import tempfile

    path = Path(target)
    parent = path.parent if str(path.parent) else Path(".")
    with held_signals():
        try:
            temporary = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".part", dir=parent))
        except OSError as exc:
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        os.chmod(temporary, _mode_for(path, folder=True))  # a temporary folder is made private; the output is not
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
