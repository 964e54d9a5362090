"""Text from a record, made safe to show: a record is untrusted input, and a player's name, a
comment or a file name may hold what a terminal obeys (ESC sequences that clear the screen or
retitle the window, 8-bit CSI), what forges a line (a line break, a carriage return, a
bidirectional override), or what no encoding writes (a lone surrogate, as a JSON ``\\ud800``
escape decodes to).

:func:`shown` escapes all of those but the line feed and the tab, for a whole output (what
goes to standard output and standard error, a replay written to a file); :func:`one_line`
escapes those two as well, for one field that must stay on its line (a path, a name, a
message). The escapes are visible text: ``\\n``, ``\\t``, ``\\r`` and ``\\x1b`` for a C0 control
character (as Python's ``repr`` writes them), ``\\u009b`` for DEL, a C1 control, an invisible
format character (Unicode's category Cf: a zero-width space, a bidirectional control, a soft
hyphen, a byte-order mark, a tag character; but the zero-width joiner and non-joiner, which
scripts and emoji need), a line or paragraph separator and a lone surrogate (a character beyond
U+FFFF as its UTF-16 pair, ``\\udb40\\udc20``). Escaping is
idempotent, and JSON stays JSON with the same values: JSON writers escape C0 themselves, and
the others become JSON escapes.

:func:`quoted` shows a value in a message, cut to a length: a message quotes, it does not
copy a 400 KB value.
"""

from __future__ import annotations

import re

# Invisible format characters: Unicode's category Cf (bidirectional controls among them), as of
# Unicode 15 (tests/test_durable.py checks the list against the interpreter's unicodedata), but the
# zero-width joiner and non-joiner (U+200C, U+200D), which scripts and emoji need.
_FORMAT = ("\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064"
           "\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
           "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")
# Control characters (C0 but tab and line feed, DEL, C1), format characters, line and
# paragraph separators, and lone surrogates.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{_FORMAT}\ud800-\udfff]")
_UNSAFE_IN_FIELD = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_FORMAT}\ud800-\udfff]")
# the same two, for text all ASCII (most output: matched a third faster than the full classes)
_UNSAFE_ASCII = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_UNSAFE_ASCII_IN_FIELD = re.compile("[\x00-\x1f\x7f]")
_SURROGATE = re.compile("[\ud800-\udfff]")
QUOTED = 60  # the most characters of a value a message quotes


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    code = ord(char)
    if code > 0xFFFF:  # as its UTF-16 pair: a JSON escape of the same character
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}")


def shown(text: str) -> str:
    """``text`` with every character a terminal would obey, or an encoder refuse, escaped;
    line feeds and tabs kept."""
    unsafe = _UNSAFE_ASCII if text.isascii() else _UNSAFE
    return unsafe.sub(_escape, text) if unsafe.search(text) else text


def one_line(text: str) -> str:
    """``text`` as one line: as :func:`shown`, line feeds and tabs escaped too."""
    unsafe = _UNSAFE_ASCII_IN_FIELD if text.isascii() else _UNSAFE_IN_FIELD
    return unsafe.sub(_escape, text) if unsafe.search(text) else text


def encodable(text: str) -> str:
    """``text`` with each lone surrogate (which no encoder writes) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def file_text(name: str) -> str:
    """A file's name as the tables write it (their ``file`` column): each lone surrogate, which
    no encoder writes, as the byte it stands for (``\\xe9``: a byte of the name the file
    system's encoding could not read, which Python holds as U+DCE9), any other as its code
    (``\\ud800``). Unlike :func:`encodable`, two names stay two: a table that keys a match by
    its file keeps two files' matches apart."""
    return _SURROGATE.sub(_as_byte, name) if _SURROGATE.search(name) else name


def _as_byte(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def cut(text: str, limit: int = 200) -> str:
    """``text`` as it is, or its first ``limit`` characters and how many more."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def quoted(value: object, limit: int = QUOTED) -> str:
    """``repr(value)`` for a message, at most ``limit`` characters of it (and how many more)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value) - limit:,} more characters)"
    if isinstance(value, (bytes, bytearray)) and len(value) > limit:
        return f"{bytes(value[:limit])!r}... ({len(value) - limit:,} more bytes)"
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr would refuse past 4,300 digits
        return f"an integer of about {int(value.bit_length() * 0.30103):,} digits"
    text = repr(value)
    return text if len(text) <= limit + 2 else f"{text[:limit]}... ({len(text) - limit:,} more characters)"
