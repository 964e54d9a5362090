"""Where a record comes from, and its bytes as text: the first layer of the reader.

An :class:`Input` is a path, standard input, bytes or text. Readers take its first bytes to
recognise the format (``head``), all of its bytes when the format is binary (``read_bytes``,
bounded), or its text block by block (``text_blocks``), so that a large file is never held
in memory whole. Text is decoded by its byte-order mark (UTF-8, UTF-16, UTF-32), else as
UTF-8, else cp1252, else latin-1, and the encoding used is said. Line endings (LF, CRLF, CR
alone) are kept as written beside a copy with LF alone.

What this layer does not know: backgammon, or which formats exist.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import re
import stat
import sys
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import IO, Any, BinaryIO, Iterator, Union

from bgrecord.escapes import file_text
from bgrecord.formats.limits import MAX_BINARY, MAX_INPUT, MAX_LINE, TooLarge

Source = Union[str, bytes, "PathLike[str]"]

RAW_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")  # one line with its own ending
LINE_END = re.compile(r"\r\n|\r|\n")

BLOCK = 4 << 20  # bytes read at a time: larger files are decoded and read block by block
HEAD = 8192  # the first bytes, from which the format is recognised
STDIN = "-"


# A pipe, a FIFO or a device named as an input (``<(zcat x.gz)``, ``/dev/stdin``) gives its bytes
# once: :func:`read_once` reads it into a file here, and every later reading of that name reads
# the file (a second read of the stream would find it empty).
_STREAMS: dict[str, Path] = {}
_STREAM_FOLDER: list[str] = []


def read_once(name: str) -> None:
    """Read the stream named ``name`` (not a regular file) now, once, into a temporary file
    that :meth:`Input.of` and :meth:`Input.named` read for that name from then on, in this
    process and in the worker processes it starts; no more than
    :data:`~bgrecord.formats.limits.MAX_INPUT` bytes and one (beyond: too large). Raises
    ``OSError`` when it cannot be read. :func:`forget_streams` removes the files."""
    key = str(Path(name))
    if key in _STREAMS:
        return
    import tempfile

    if not _STREAM_FOLDER:
        _STREAM_FOLDER.append(tempfile.mkdtemp(prefix="bgrecord-streams-"))
    handle, copy = tempfile.mkstemp(dir=_STREAM_FOLDER[0], suffix=".input")
    try:
        with open(name, "rb") as stream, os.fdopen(handle, "wb") as out:
            left = MAX_INPUT + 1
            while left and (block := stream.read(min(BLOCK, left))):
                out.write(block)
                left -= len(block)
    except OSError as exc:
        os.unlink(copy)
        if exc.errno == errno.ENOSPC:
            raise OSError(exc.errno, f"the temporary folder ({tempfile.gettempdir()}) cannot hold it: {exc.strerror or exc}") from None
        raise
    _STREAMS[key] = Path(copy)


def forget_streams() -> None:
    """Remove the files :func:`read_once` made."""
    import shutil

    _STREAMS.clear()
    while _STREAM_FOLDER:
        shutil.rmtree(_STREAM_FOLDER.pop(), ignore_errors=True)


def _read_before(name: "str | PathLike[str]") -> Path | None:
    """The file a stream named ``name`` was read into, if it was (:func:`read_once`)."""
    return _STREAMS.get(str(Path(name))) if _STREAMS else None


class InputTooLarge(OSError):
    """A binary input beyond :data:`~bgrecord.formats.limits.MAX_BINARY`."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a text, its ending apart."""

    number: int  # 1-based
    text: str  # without its ending
    ending: str  # "\n", "\r\n", "\r" or "" (last line)

    @property
    def raw(self) -> str:
        return self.text + self.ending


@dataclass(frozen=True, slots=True)
class Text:
    """A whole decoded text (for readers of small texts and for tests)."""

    text: str
    encoding: str
    path: str | None


class Input:
    """One source of bytes, readable from the start as often as a reader needs.

    Standard input, a pipe, a FIFO or a device is read once into a spooled temporary file
    (memory up to 8 MB, then disk), so it can be read again like a file; no more than
    :data:`~bgrecord.formats.limits.MAX_INPUT` bytes of it (:attr:`too_large` says when there was
    more): an endless stream costs what a file at the limit costs. Standard input is read
    when a reader first asks for it, so that a failure to read it is that input's."""

    def __init__(self, name: str | None, *, path: Path | None = None, data: bytes | None = None,
                 text: str | None = None) -> None:
        self.name = name
        self._path = path
        self._data = data
        self._text = text
        self._spool: BinaryIO | None = None
        self._pending: IO[Any] | None = None  # standard input, spooled when first read
        self._unopened: str | None = None  # a named file, looked at when first read
        self._cut = False  # the stream went on past MAX_INPUT
        self._head: bytes | None = None
        self._size: int | None = None  # a file's size, as it was when first looked at

    @classmethod
    def of(cls, source: Source | Input, path: str | None = None) -> Input:
        """An Input from a path (``PathLike``, or a ``str``), bytes (a file's content), or
        ``"-"`` for standard input. A ``str`` holding a line break is no file's name: it is
        taken as a record's text (as :meth:`text` takes it). Raises ``OSError`` for a path that
        cannot be read (``FileNotFoundError`` when there is none)."""
        if isinstance(source, Input):
            return source
        if isinstance(source, bytes):
            return cls(path, data=source)
        if isinstance(source, str):
            if source == STDIN:
                return cls.stdin(path)
            if "\n" in source or "\r" in source:
                return cls.text(source, path)
        file = _read_before(source) or (source if isinstance(source, Path) else Path(source))
        found = os.stat(file)  # raises OSError when missing or unreadable
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError(21, "is a folder", str(file))
        if not stat.S_ISREG(found.st_mode):  # a pipe, a FIFO, /dev/stdin: read it once
            with file.open("rb") as stream:
                return cls.spooled(path or str(source), stream)
        made = cls(path or str(source), path=file)
        with file.open("rb") as stream:  # fail now, with the OS's reason, if it cannot be opened
            made._head = stream.read(HEAD)  # and keep the first bytes: the format is told from them
        made._size = found.st_size
        return made

    @classmethod
    def text(cls, text: str, name: str | None = None) -> Input:
        """A record's text, read as if it were a file's (``name``: its name in the issues)."""
        return cls(name, text=text)

    @classmethod
    def named(cls, name: str) -> Input:
        """The file ``name`` (never text, whatever the name holds), looked at when a reader
        first asks for it: a failure to read it (missing, a folder, unreadable) is then
        that input's ``OSError``. A pipe, a FIFO or a device is read once, as for :meth:`of`."""
        made = cls(name)
        made._unopened = str(_read_before(name) or name)  # a stream read before: its copy, wherever this Input goes
        return made

    def _ready(self) -> None:
        """Standard input spooled, or a named file looked at, now that a reader asks."""
        if self._pending is not None:
            self._spooled()
        elif self._unopened is not None:
            file, self._unopened = self._unopened, None
            found = Input.of(Path(file), self.name)
            self._path, self._spool, self._cut = found._path, found._spool, found._cut
            self._head, self._size = found._head, found._size

    @classmethod
    def stdin(cls, name: str | None = None) -> Input:
        """Standard input, read when first needed (see the class's docstring)."""
        made = cls(name or "<stdin>")
        made._pending = sys.stdin
        return made

    @classmethod
    def spooled(cls, name: str, stream: BinaryIO, limit: int = MAX_INPUT) -> Input:
        """What ``stream`` gives, read once into a spooled temporary file (memory up to 8 MB,
        then disk), up to ``limit`` bytes (:attr:`too_large` when there was more)."""
        made = cls(name)
        made._spool, made._cut = _spool(stream, limit)
        return made

    def _spooled(self) -> None:
        """Standard input, read now that a reader asks for it."""
        pending, self._pending = self._pending, None
        stream = getattr(pending, "buffer", None) if pending is not None else None
        if stream is None:
            raise OSError(9, "standard input is closed")
        self._spool, self._cut = _spool(stream, MAX_INPUT)

    @property
    def too_large(self) -> bool:
        """More than :data:`~bgrecord.formats.limits.MAX_INPUT` bytes (a stream is read up to it, no further)."""
        self._ready()
        if self._path is not None:
            return self.size > MAX_INPUT
        return self._cut

    def open(self) -> BinaryIO:
        """A binary stream from the first byte."""
        self._ready()
        if self._path is not None:
            return _Bounded(self._path.open("rb"), self.name)  # type: ignore[return-value]
        if self._spool is not None:
            self._spool.seek(0)
            return _Unclosed(self._spool)  # type: ignore[return-value]
        if self._text is not None:
            return io.BytesIO(self._text.encode("utf-8"))
        return io.BytesIO(self._data or b"")

    @property
    def size(self) -> int:
        self._ready()
        if self._path is not None:
            if self._size is None:
                self._size = self._path.stat().st_size
            return self._size
        if self._spool is not None:
            self._spool.seek(0, os.SEEK_END)
            return self._spool.tell()
        if self._text is not None:
            return len(self._text)
        return len(self._data or b"")

    def head(self, size: int = HEAD) -> bytes:
        """The first bytes (for recognising the format)."""
        self._ready()
        if self._head is None or (len(self._head) < size and self._whole_head() is None):
            if self._text is not None:
                self._head = self._text[:size].encode("utf-8")[:size]
            else:
                with self.open() as stream:
                    self._head = stream.read(size)
        return self._head[:size]

    def read_already(self) -> bytes | None:
        """Every byte, where the input is small enough that they were read with its first
        bytes (no other read); else None."""
        self._ready()
        return self._whole_head()

    def _whole_head(self) -> bytes | None:
        """The first bytes read, where they are all the bytes there are (a small input): read
        once, for recognising the format and for the text."""
        if self._head is None or self._text is not None:
            return None
        return self._head if len(self._head) == self.size else None

    def read_bytes(self, limit: int = MAX_BINARY) -> bytes:
        """Every byte, for a binary format; ``InputTooLarge`` beyond ``limit``."""
        if self._data is not None and self._text is None:
            data = self._data
        else:
            with self.open() as stream:
                data = stream.read(limit + 1)
        if len(data) > limit:
            raise InputTooLarge(27, f"larger than {limit >> 20} MB", self.name)
        return data

    def decoded(self) -> Text:
        """The whole text at once (small texts only: readers use ``text_blocks``)."""
        encoding, blocks = self.text_blocks()
        return Text("".join(raw for _, raw in blocks), encoding, self.name)

    def text_blocks(self, block: int | None = None) -> tuple[str, Iterator[tuple[str, str]]]:
        """The encoding, and the text as (text with LF line ends, text as written) blocks of
        about ``block`` bytes (default ``BLOCK``), each ending at a line end except the last."""
        block = block or BLOCK
        if self._text is not None:
            text = self._text.removeprefix("\ufeff")
            return "utf-8", iter([(_lf(text), text)])
        self._ready()
        if self.size <= block:
            data = self._whole_head()
            if data is None:
                with self.open() as stream:
                    data = stream.read()
            text, encoding = decode(data)
            return encoding, iter([(_lf(text), text)])
        encoding = self._encoding()
        return encoding, self._blocks(encoding, block)

    def _encoding(self) -> str:
        """One pass over the bytes: the encoding of a text too large to decode at once."""
        with self.open() as stream:
            start = stream.read(4)
            bom = _bom(start)
            if bom:
                return bom[0]
            stream.seek(0)
            utf8 = codecs.getincrementaldecoder("utf-8")()
            strict: list[str] = ["utf-8", "cp1252"]
            while block_bytes := stream.read(BLOCK):
                for name in list(strict):
                    try:
                        if name == "utf-8":
                            utf8.decode(block_bytes)
                        else:
                            block_bytes.decode(name)  # single-byte: blocks decode alone
                    except UnicodeDecodeError:
                        strict.remove(name)
                if not strict:
                    return "latin-1"
            try:
                utf8.decode(b"", final=True)
            except UnicodeDecodeError:
                strict = [name for name in strict if name != "utf-8"]
            return strict[0] if strict else "latin-1"

    def _blocks(self, encoding: str, block: int) -> Iterator[tuple[str, str]]:
        """The text block by block; :class:`~bgrecord.formats.limits.TooLarge` for a line longer than
        :data:`~bgrecord.formats.limits.MAX_LINE` (held whole, it would cost memory without bound)."""
        codec = {"utf-8-sig": "utf-8-sig", "utf-16-le": "utf-16", "utf-16-be": "utf-16",
                 "utf-32-le": "utf-32", "utf-32-be": "utf-32"}.get(encoding, encoding)
        decoder = codecs.getincrementaldecoder(codec)(errors="replace")
        carry = ""
        lines = 0
        with self.open() as stream:
            while True:
                data = stream.read(block)
                text = carry + decoder.decode(data, final=not data)
                if not data:
                    if text:
                        yield _lf(text), text
                    return
                cut = max(text.rfind("\n"), text.rfind("\r")) + 1
                if cut and text[cut - 1] == "\r" and cut == len(text):
                    cut -= 1  # a CR at the very end may be the first half of a CRLF
                if cut <= 0:
                    if len(text) > MAX_LINE:
                        raise TooLarge(f"a line of more than {MAX_LINE:,} characters: not a match record", lines + 1)
                    carry = text
                    continue
                carry = text[cut:]
                piece = _lf(text[:cut])
                lines += piece.count("\n")
                yield piece, text[:cut]


class _Wrapped(io.BufferedIOBase):
    """A binary stream read through another (``raw``), which it leaves open when closed."""

    def __init__(self, raw: BinaryIO) -> None:
        super().__init__()
        self._raw = raw

    def read(self, size: int | None = -1) -> bytes:
        return self._raw.read(-1 if size is None else size)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()


class _Unclosed(_Wrapped):
    """The spool, lent to a reader that closes what it opens: closing it keeps the spool."""


class _Bounded(_Wrapped):
    """A file read no further than :data:`~bgrecord.formats.limits.MAX_INPUT` (one that grows as it is
    read, as a log another program appends to, would be read without end): past it,
    :class:`InputTooLarge`."""

    def __init__(self, raw: BinaryIO, name: str | None) -> None:
        super().__init__(raw)
        self._name = name

    def read(self, size: int | None = -1) -> bytes:
        if size is not None and size >= 0:
            return self._read(size)
        parts = []  # to the end, a block at a time (one read of the limit would hold that much memory at once)
        while part := self._read(1 << 16):
            parts.append(part)
        return b"".join(parts)

    def _read(self, size: int) -> bytes:
        left = MAX_INPUT + 1 - self._raw.tell()
        data = self._raw.read(min(size, left)) if left > 0 else b""
        if left <= 0 or self._raw.tell() > MAX_INPUT:
            raise InputTooLarge(27, f"more than {MAX_INPUT >> 20} MB (it grew as it was read)", self._name)
        return data

    def close(self) -> None:
        self._raw.close()
        super().close()


def _spool(stream: IO[bytes], limit: int) -> tuple[BinaryIO, bool]:
    """``stream`` read into a spooled temporary file, up to ``limit`` bytes; and whether there
    was more. A temporary folder that cannot take it is said as such (not as the stream's
    fault)."""
    import tempfile  # standard input, devices and compressed inputs only

    spool = tempfile.SpooledTemporaryFile(max_size=8 << 20)
    total = 0
    while block := stream.read(min(BLOCK, limit + 1 - total)):
        total += len(block)
        try:
            spool.write(block[: max(0, limit - (total - len(block)))])
        except OSError as exc:
            spool.close()
            raise OSError(exc.errno, f"the temporary folder ({tempfile.gettempdir()}) cannot hold it: {exc.strerror or exc}") from None
        if total > limit:
            break
    spool.seek(0)
    return spool, total > limit  # type: ignore[return-value]


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
)  # fmt: skip


def _bom(data: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark names, and the mark's length."""
    for mark, name in _BOMS:
        if data.startswith(mark):
            return name, len(mark)
    return None


def has_bom(data: bytes) -> str | None:
    """The encoding named by ``data``'s byte-order mark, if it starts with one."""
    found = _bom(data)
    return found[0] if found else None


def decode(data: bytes) -> tuple[str, str]:
    """The text and the encoding that read it: by the byte-order mark, else UTF-8, else
    cp1252, else latin-1 (which reads any bytes)."""
    bom = _bom(data)
    if bom is not None:
        name, length = bom
        codec = name.removesuffix("-sig")
        try:
            return data[length:].decode(codec), name
        except UnicodeDecodeError:
            if not name.startswith("utf-8"):
                return data[length:].decode(codec, errors="replace"), name
            data = data[length:]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def load(source: Source, path: str | None = None) -> Text:
    """The whole text of a path, bytes or text (see :meth:`Input.of`)."""
    return Input.of(source, path).decoded()


def lines(text: str) -> Iterator[Line]:
    """The lines of ``text``, lazily; a final empty line is not yielded."""
    number = 0
    for match in RAW_LINE.finditer(text):
        raw = match.group()
        if not raw:
            break
        number += 1
        body = raw.rstrip("\r\n")
        yield Line(number, body, raw[len(body) :])


def table_name(source: str | PathLike[str] | Input) -> str:
    """What the tables call a file (their ``file`` column): an input's name, else the path as
    given, ``<stdin>`` for standard input, written by :func:`~bgrecord.escapes.file_text` (a
    byte no encoding reads as ``\\xNN``: two names stay two)."""
    return file_text((source.name if isinstance(source, Input) else str(source)) or "<stdin>")


def failed_name(unit: Any) -> str:
    """:func:`table_name` of a unit of work whose worker failed: an input, or its name as given."""
    return file_text(getattr(unit, "name", None) or str(unit))
