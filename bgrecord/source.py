"""Bytes to text to lines: the first layer of the reader.

Decodes UTF-8 (with or without a byte-order mark), else cp1252, else latin-1, and says
which. Splits lines on CRLF, CR or LF alike, keeping each line's own ending so that the
text can be given back unchanged. Knows nothing of backgammon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Iterator, Union

Source = Union[str, bytes, "PathLike[str]"]

RAW_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")  # one line with its own ending


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # 1-based
    text: str  # without its ending
    ending: str  # "\n", "\r\n", "\r" or "" (last line)

    @property
    def raw(self) -> str:
        return self.text + self.ending


@dataclass(frozen=True, slots=True)
class Text:
    text: str
    encoding: str
    path: str | None


def decode(data: bytes) -> tuple[str, str]:
    """The text and the encoding that read it."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError:
            data = data[3:]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def load(source: Source, path: str | None = None) -> Text:
    """Text from a path (a ``PathLike``, or a ``str`` naming an existing file when it holds
    no newline), from bytes, or from text itself. Raises ``OSError`` for an unreadable path."""
    if isinstance(source, bytes):
        text, encoding = decode(source)
        return Text(text, encoding, path)
    if isinstance(source, str) and ("\n" in source or "\r" in source or not _is_file(source)):
        return Text(source.removeprefix("\ufeff"), "utf-8", path)
    file = Path(source)
    text, encoding = decode(file.read_bytes())
    return Text(text, encoding, path or str(source))


def _is_file(name: str) -> bool:
    try:
        return len(name) < 4096 and Path(name).is_file()
    except (OSError, ValueError):
        return False


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
