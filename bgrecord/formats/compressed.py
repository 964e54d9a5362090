"""Compressed inputs: the content of a gzip or zstd file, read as far as it is valid and no
further than :data:`~bgrecord.formats.limits.MAX_INPUT`, for :mod:`bgrecord.formats.detect` to
recognise and read as any other input."""

from __future__ import annotations

import io
from typing import Any, BinaryIO, Callable

from bgrecord.escapes import cut
from bgrecord.extras import require
from bgrecord.formats.limits import MAX_INPUT, TooLarge
from bgrecord.formats.source import Input


def unpacked(source: Input) -> tuple[Input, str] | None:
    """The content of a gzip or zstd compressed input (no more of it than
    :data:`~bgrecord.formats.limits.MAX_INPUT`), with a warning ("" when none: what follows the valid
    data is left with one); None when ``source`` is not compressed."""
    head = source.head(4)
    if head.startswith(b"\x1f\x8b"):
        return _inflate(source, _Gunzip, "gzip")  # type: ignore[arg-type]
    if head.startswith(b"\x28\xb5\x2f\xfd"):
        zstandard = require("zstandard")
        return _inflate(source, lambda stream: zstandard.ZstdDecompressor().stream_reader(stream), "zstd")
    return None


def _inflate(source: Input, opener: Callable[[BinaryIO], BinaryIO], kind: str) -> tuple[Input, str]:
    import zlib

    name = source.name or f"<{kind}>"
    with source.open() as raw:
        try:
            with opener(raw) as stream:
                inner = Input.spooled(name, stream, MAX_INPUT)
                warning = getattr(stream, "warning", "")
        except Exception as exc:  # noqa: BLE001 - each codec has its own errors (zstandard.ZstdError is none of the usual ones)
            if isinstance(exc, OSError) and not isinstance(exc, (EOFError, zlib.error)) and exc.errno is not None:
                raise  # the file itself does not read
            raise CorruptInput(f"the {kind} data is corrupt or cut short ({cut(str(exc), 120)})") from None
    if inner.too_large:
        raise TooLarge(f"it inflates to more than {MAX_INPUT >> 20} MB: not read")
    return inner, warning


class _Gunzip(io.RawIOBase):
    """A gzip stream's content, member after member, read as far as it is valid: what follows
    (trailing garbage, a member cut short or corrupt) ends it with a :attr:`warning`, where
    the ``gzip`` module refuses the whole file; a first member that does not inflate at all
    is an error."""

    def __init__(self, raw: BinaryIO) -> None:
        import zlib

        super().__init__()
        self._raw = raw
        self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._pending = b""  # compressed bytes not yet fed
        self._produced = 0
        self._consumed = 0
        self._done = False
        self.warning = ""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read(self, size: int | None = -1) -> bytes:
        import zlib

        wanted = size if size is not None and size > 0 else 1 << 20
        while not self._done:
            if self._inflater.eof:  # a member ended: another member, or what follows the data
                rest = self._inflater.unused_data + self._pending
                self._pending = b""
                rest = rest or self._raw.read(1 << 16)
                if rest.startswith(b"\x1f\x8b"):
                    self._inflater, self._pending = zlib.decompressobj(16 + zlib.MAX_WBITS), rest
                    continue
                self._trailing(rest)
                break
            if not self._pending:
                self._pending = self._raw.read(1 << 16)
                if not self._pending:
                    if not self._produced:
                        raise CorruptInput("the gzip data is empty or cut short")
                    self.warning = f"the gzip data is cut short after {self._consumed:,} bytes: what came before is read"
                    self._done = True
                    break
            feed, self._pending = self._pending, b""
            try:
                out = self._inflater.decompress(feed, wanted)
            except zlib.error as exc:
                if not self._produced:
                    raise CorruptInput(f"the gzip data is corrupt ({exc})") from None
                self.warning = f"the gzip data is corrupt after {self._consumed:,} bytes ({exc}): what came before is read"
                self._done = True
                break
            self._pending = self._inflater.unconsumed_tail
            self._consumed += len(feed) - len(self._pending)
            if out:
                self._produced += len(out)
                return out
        return b""

    def _trailing(self, rest: bytes) -> None:
        """What follows the last member: nothing, zeros (padding), or data said in the warning."""
        count, garbage = 0, False
        while rest:
            count += len(rest)
            garbage = garbage or bool(rest.strip(b"\0"))
            rest = self._raw.read(1 << 16)
        if garbage:
            self.warning = f"{count:,} bytes after the end of the gzip data: ignored"
        self._done = True


class CorruptInput(ValueError):
    """A compressed input that does not inflate."""
