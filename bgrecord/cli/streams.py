"""The standard streams and the signals of a run, handled once for every command.

- A standard stream the run was started without (``>&-``, ``<&-``, ``2>&-``) gets
  ``/dev/null`` on its descriptor, so that no file the run opens takes its place; reading
  standard input then fails with "standard input is closed", writing standard output with
  "standard output is closed" (exit status 2), and what is said on a closed standard error
  is lost (the exit status still tells).
- Standard output and standard error are guarded: what is written is escaped for a terminal
  (:func:`bgrecord.escapes.shown`: no control sequence from a record reaches one, and text
  no encoder writes is escaped, never fatal), and a write that fails ends the run with
  :class:`OutputGone`: quietly with status 141 when the reader of a pipe has gone (as a
  program stopped by SIGPIPE), in one line with status 2 otherwise (a full disk). It is not
  an ``Exception``: no barrier around a file's work takes it for that file's problem, and no
  output is said "written" when it did not arrive (:func:`bgrecord.outputs.check_stdout`).
- What goes to standard output is UTF-8 whatever the locale (``PYTHONIOENCODING``, a legacy
  ``LANG``) unless a terminal reads it: a table, a JSON document or a conversion written to a
  pipe or a file is data, and its bytes do not depend on where the run stands. Standard error
  (messages for a person) and a terminal follow the locale.
- SIGTERM and SIGHUP stop a run as SIGINT (Ctrl-C) does: :class:`Stopped` is raised where
  the run stands, so every temporary file is removed on the way out; the exit status is
  128 + the signal's number (130, 143, 129).
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
from typing import IO, Any, Iterable

from bgrecord.escapes import shown
from bgrecord.outputs import PIPE_CLOSED, OutputGone, check_stdout

_STOPPING = {getattr(signal, name): name for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stop as for Ctrl-C (a ``KeyboardInterrupt``, so that what cleans up
    after Ctrl-C cleans up after these too)."""

    def __init__(self, number: int) -> None:
        super().__init__(_STOPPING.get(number, str(number)))
        self.number = number

    @property
    def status(self) -> int:
        return 128 + self.number


class _GuardedBinary(io.RawIOBase):
    """Standard output's bytes: a failed write is :class:`OutputGone`."""

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        try:
            return self._raw.write(data) or len(data)
        except OSError as exc:
            raise OutputGone(exc) from None

    def flush(self) -> None:
        try:
            self._raw.flush()
        except OSError as exc:
            raise OutputGone(exc) from None

    def fileno(self) -> int:
        return self._raw.fileno()

    def isatty(self) -> bool:
        return self._raw.isatty()


class _Guarded(io.TextIOBase):
    """A standard stream's text, escaped for a terminal; for standard output a failed write
    is :class:`OutputGone`, for standard error it is lost (there is nowhere left to say it)."""

    def __init__(self, stream: IO[str], output: bool) -> None:
        super().__init__()
        self.stream = stream  # the stream as it was, for what writes its own control sequences (a progress bar)
        self._output = output
        buffer = getattr(stream, "buffer", None)
        self._buffer = _GuardedBinary(buffer) if output and buffer is not None else buffer

    def _failed(self, exc: OSError) -> None:
        if self._output:
            raise OutputGone(exc) from None

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        try:
            self.stream.write(shown(text))
        except OSError as exc:
            self._failed(exc)
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:  # type: ignore[override]
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            self._failed(exc)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (OSError, ValueError):
            return False

    @property
    def buffer(self) -> Any:
        return self._buffer

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.stream, "errors", None)


class _ClosedInput(io.TextIOBase):
    """Standard input the run was started without: reading it is an ``OSError``."""

    def _closed(self) -> OSError:
        return OSError(errno.EBADF, "standard input is closed")

    def read(self, size: int | None = -1) -> str:
        raise self._closed()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise self._closed()

    @property
    def buffer(self) -> Any:
        raise self._closed()

    def fileno(self) -> int:
        raise self._closed()

    def isatty(self) -> bool:
        return False


class _ClosedOutput(io.TextIOBase):
    """Standard output the run was started without: writing it ends the run (status 2)."""

    def _closed(self) -> OutputGone:
        return OutputGone(OSError(errno.EBADF, "it is closed"))

    def write(self, text: str) -> int:
        raise self._closed()

    def flush(self) -> None:
        pass

    @property
    def buffer(self) -> Any:
        raise self._closed()

    def isatty(self) -> bool:
        return False


def guard_descriptors() -> None:
    """Put ``/dev/null`` on each standard descriptor the process was started without, and say
    so through the stream objects (see the module's docstring). For the console script: once,
    before anything is opened."""
    for descriptor, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(descriptor)
            continue
        except OSError:
            pass
        try:
            null = os.open(os.devnull, os.O_RDWR)
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
        except OSError:
            pass
        if name == "stdin":
            sys.stdin = _ClosedInput()
        elif name == "stdout":
            sys.stdout = _ClosedOutput()
        else:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives as long as the process


def install() -> None:
    """Guard standard output and standard error (once: a guarded stream is left as it is), and
    make SIGTERM and SIGHUP stop the run as Ctrl-C does."""
    if sys.stdout is not None and not isinstance(sys.stdout, (_Guarded, _ClosedOutput)):
        _reconfigure(sys.stdout, data=True)
        sys.stdout = _Guarded(sys.stdout, output=True)
    if sys.stderr is not None and not isinstance(sys.stderr, _Guarded):
        _reconfigure(sys.stderr)
        sys.stderr = _Guarded(sys.stderr, output=False)
    stop_on_signals()


def _reconfigure(stream: Any, data: bool = False) -> None:
    """Text no encoding writes (a lone surrogate that escaped the escapes) is written as an
    escape, never an error. ``data``: standard output, UTF-8 unless a terminal reads it."""
    try:
        if data and not _utf8(stream) and not stream.isatty():
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
        else:
            stream.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        pass


def _utf8(stream: Any) -> bool:
    import codecs

    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "utf-8"
    except LookupError:
        return False


def stop_on_signals(worker: bool = False) -> None:
    """SIGTERM and SIGHUP raise :class:`Stopped` (in the main thread of a process). A worker
    process calls it with ``worker``: there they raise ``SystemExit``, so that its temporary
    files go as well and it ends quietly (its pool ends it so when it is done with it)."""
    try:
        for number in _STOPPING:
            signal.signal(number, _exit if worker else _stop)
    except ValueError:  # not the main thread: the main thread's handlers stand
        pass


def _stop(number: int, frame: Any) -> None:
    raise Stopped(number)


def _exit(number: int, frame: Any) -> None:
    for stopping in _STOPPING:  # once: a second signal (the main process's, after the group's) would cut short the cleanup this one begins
        signal.signal(stopping, signal.SIG_IGN)
    raise SystemExit(128 + number)


def stdin_closed() -> bool:
    """The run was started without standard input (see :func:`guard_descriptors`)."""
    return isinstance(sys.stdin, _ClosedInput) or sys.stdin is None


def raw_stderr() -> IO[str]:
    """Standard error as it was, for what writes its own control sequences (a progress bar)."""
    return sys.stderr.stream if isinstance(sys.stderr, _Guarded) else sys.stderr


__all__ = ["PIPE_CLOSED", "OutputGone", "Stopped", "check_stdout", "guard_descriptors", "install", "raw_stderr", "stdin_closed",
           "stop_on_signals"]
