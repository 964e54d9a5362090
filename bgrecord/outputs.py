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
    found = _stat_or_none(first), _stat_or_none(second)
    if found[0] is not None and found[1] is not None:
        return os.path.samestat(found[0], found[1])
    if found != (None, None) or STDOUT in (str(first), str(second)):
        return False  # a file and a name of none are two (and no name is resolved: an archive's inputs are many)
    return Path(first).resolve() == Path(second).resolve()


def _stat(name: str | Path) -> os.stat_result:
    return os.fstat(0) if str(name) == STDOUT else os.stat(name)


def _stat_or_none(name: str | Path) -> os.stat_result | None:
    try:
        return _stat(name)
    except OSError:
        return None


def _stdout_is_file() -> bool:
    """Standard output is a regular file (it may then be an input)."""
    try:
        return stat.S_ISREG(os.fstat(1).st_mode)
    except OSError:
        return False


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
    overwritten, or stands in a folder that does not exist (the message names the folder).
    Standard output may be written unless it is an input file; special files always may be.
    ``folder``: the output is a folder (a dataset), which must not hold an input, nor any file
    bgrecord did not write there (:func:`foreign_file`), nor the current folder."""
    _none_an_input([(target, folder)], inputs)
    _writable(target, overwrite, folder)


def _none_an_input(targets: list[tuple[str | Path, bool]], inputs: Iterable[str | Path]) -> None:
    """Raise :class:`OutputError` if one of ``targets`` (``(target, is a folder)``) is one of
    ``inputs`` or a folder holding one. The inputs are gone through once, and only when a
    target exists (a name of no file is no input, nor holds one): an archive's names are many."""
    watched: list[tuple[Path | None, str]] = []  # (target, the folder an input may not be in); None: standard output
    for target, folder in targets:
        if str(target) == STDOUT:
            if _stdout_is_file():
                watched.append((None, ""))
        elif _stat_or_none(target) is not None:
            watched.append((Path(target), os.path.join(os.path.realpath(target), "") if folder else ""))
    if not watched:
        return
    for source in inputs:
        for path, within in watched:
            if path is None:
                if _stdout_is(source):
                    raise OutputError(f"standard output is an input ({'standard input' if str(source) == STDOUT else source}): "
                                      "bgrecord never writes over an input")  # fmt: skip
            elif same_file(source, path):
                what = "standard input" if str(source) == STDOUT else "an input"
                raise OutputError(f"{path}: this is {what}: bgrecord never writes over an input")
            elif within and str(source) != STDOUT and os.path.realpath(source).startswith(within):
                raise OutputError(f"{path}: holds an input ({source}): bgrecord never writes over an input")


def _writable(target: str | Path, overwrite: bool, folder: bool) -> None:
    """Raise :class:`OutputError` if ``target`` exists and may not be overwritten, is of the
    other kind (a file, a folder), or stands in a folder that does not exist."""
    if str(target) == STDOUT:
        return
    path = Path(target)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        parent = Path(os.path.abspath(path)).parent
        if not parent.is_dir():
            raise OutputError(f"{path}: cannot write: the folder {parent} does not exist") from None
        return
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode) != folder:
        raise OutputError(f"{path}: is a folder, not a file" if not folder else f"{path}: is a file, not a folder")
    if (stat.S_ISREG(mode) or folder) and not overwrite:
        raise OutputError(f"{path}: exists (--overwrite replaces it)")
    if folder:
        here = Path.cwd().resolve()
        if path.resolve() in (here, *here.parents):
            raise OutputError(f"{path}: holds the current folder: a dataset is written into a folder of its own")
        foreign = foreign_file(path)
        if foreign is not None:
            raise OutputError(f"{path}: holds files bgrecord did not write there ({foreign}): not replaced (give an empty or new folder)")


def check_outputs(targets: Iterable[tuple[str | Path, str]], inputs: Iterable[str | Path] = (), overwrite: bool = False) -> None:
    """Every output of a run checked before any work, in one place for every command: none
    is an input (the inputs gone through once: they may be found as they are asked for),
    each ``(target, kind)`` by :func:`check_target` (``kind``: ``file``; ``folder``, a
    dataset; ``database``, updated where it stands), and no two of them one file
    (:func:`distinct`, standard output included). Raises :class:`OutputError`."""
    targets = list(targets)
    distinct(target for target, _ in targets)
    _none_an_input([(target, kind == "folder") for target, kind in targets], inputs)
    for target, kind in targets:
        _writable(target, overwrite or kind == "database", folder=kind == "folder")


def foreign_file(folder: Path) -> str | None:
    """The first file of ``folder`` that is not part of a dataset bgrecord writes (``stats``'s:
    ``name=value`` partition folders of ``.parquet`` files; ``index``'s: its ``bgrecord.json``,
    a ``.parquet`` file a table and a ``positions`` folder of partitions), or None: a dataset
    is replaced whole, and nothing else may go with it."""
    for top, folders, files in os.walk(folder, onerror=_raise):
        depth = Path(top).relative_to(folder).parts
        if not depth:
            stray = [name for name in files if not name.endswith(".parquet") and name != "bgrecord.json"]
            stray += [name for name in folders if "=" not in name and name != "positions"]
        else:
            stray = [name for name in files if not name.endswith(".parquet")]
        if stray:
            return str(Path(top, sorted(stray)[0]).relative_to(folder))
    return None


def _raise(error: OSError) -> None:
    raise OutputError(f"{error.filename}: cannot read: {error.strerror or error}")


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


HELD = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}  # the signals that stop a run


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """The stopping signals held back for the block (they are handled when it ends): for
    making a temporary file, where a stop between its making and the handler that removes it
    would leave it behind."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
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
    """Raise :class:`OutputError` when two of one run's outputs are one file: the same name,
    the same file by device and inode (standard output's own for ``-``: ``-o - > t.csv`` and
    ``t.csv`` are one file), or the same place for a file yet to be made. A device
    (``/dev/null``) may take several outputs; standard output may take one."""
    seen: dict[Any, str] = {}
    for target in targets:
        name = str(target)
        keys = _identities(name)
        for key in keys:
            if key in seen:
                first, second = (_said(seen[key]), _said(name))
                same = first if first == second else f"{first} and {second}"
                raise OutputError(f"two outputs would be one file ({same}): one would replace the other")
        seen.update(dict.fromkeys(keys, name))


def _said(name: str) -> str:
    return "standard output" if name == STDOUT else name


def _identities(name: str) -> list[Any]:
    """What makes an output the same file as another: its device and inode when it exists
    (none for a device, which holds nothing to lose), and its place."""
    if name == STDOUT:
        keys: list[Any] = [STDOUT]
        found = _fstat(1)
    else:
        keys = [os.path.normcase(os.path.realpath(name.rstrip("/\\") or name))]
        found = _fstat(None, name)
    if found is not None:
        if stat.S_ISCHR(found.st_mode):
            return [] if name != STDOUT else keys
        keys.append((found.st_dev, found.st_ino))
    return keys


def _fstat(descriptor: int | None, name: str = "") -> os.stat_result | None:
    try:
        return os.fstat(descriptor) if descriptor is not None else os.stat(name)
    except (OSError, ValueError):
        return None


def write_output(target: str | Path, content: str | bytes) -> None:
    """Write ``content`` to ``target`` through :func:`atomic_output`."""
    with atomic_output(target, binary=isinstance(content, bytes)) as out:
        out.write(content)


@contextlib.contextmanager
def atomic_folder(target: str | Path) -> Iterator[Path]:
    """A temporary folder beside ``target`` to write a folder of files in, put in the place of
    ``target`` (and of what was there: :func:`check_target` has made sure it is a dataset
    bgrecord wrote) when the block ends without an exception, removed when it does not."""
    import shutil
    import tempfile

    path = Path(os.path.abspath(target))  # "./" or "out/.." has a name and a parent once absolute
    parent = path.parent
    with held_signals():
        try:
            temporary = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".part", dir=parent))
        except OSError as exc:
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        os.chmod(temporary, _mode_for(path, folder=True))  # a temporary folder is made private; the output is not
        yield temporary
        _swap(temporary, path)
    except BaseException as exc:
        shutil.rmtree(temporary, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
        raise


def _swap(temporary: Path, path: Path) -> None:
    """``temporary`` renamed to ``path``; what was at ``path`` moved aside first, and put back
    if the rename fails, removed when it succeeds."""
    import shutil
    import tempfile

    if not path.exists():
        os.replace(temporary, path)
        return
    old = None
    try:
        with held_signals():  # between the two renames, a stop would leave neither in place
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.replace(path, old / path.name)
            try:
                os.replace(temporary, path)
            except OSError:
                os.replace(old / path.name, path)
                raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
