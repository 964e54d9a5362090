"""Text from a record, made safe to show: a record is untrusted input, and a player's name, a
comment or a file name may hold what a terminal obeys (ESC sequences that clear the screen or
retitle the window, 8-bit CSI), what forges a line (a line break, a carriage return, a
bidirectional override), or what no encoding writes (a lone surrogate, as a JSON ``\\ud800``
escape decodes to).

:func:`shown` escapes all of those but the line feed and the tab, for a whole output (what
goes to standard output and standard error, a replay written to a file); :func:`one_line`
escapes those two as well, for one field that must stay on its line (a path, a name, a
message). The escapes are visible text: ``\\n``, ``\\t``, ``\\r`` and ``\\x1b`` for a C0 control
character (as Python's ``repr`` writes them), ``\\u009b`` for DEL, a C1 control, a bidirectional control, a line or
paragraph separator, a lone surrogate and a character that shows nothing (``\\u200b``). Escaping
is idempotent, and JSON stays JSON with the same values: JSON writers escape C0 themselves, and
the others become JSON escapes.

:func:`quoted` shows a value in a message, cut to a length: a message quotes, it does not
copy a 400 KB value.
"""

from __future__ import annotations

import re

# Control characters (C0 but tab and line feed, DEL, C1), bidirectional controls, line and
# paragraph separators, lone surrogates, and what shows nothing (a zero-width space, a word
# joiner, a soft hyphen, a byte-order mark: two names that look the same show apart; the
# zero-width joiner and non-joiner, which scripts and emoji need, are kept).
_INVISIBLE = "\u00ad\u200b\u2060-\u2064\ufeff"
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff{_INVISIBLE}]")
_UNSAFE_IN_FIELD = re.compile(f"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff{_INVISIBLE}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
QUOTED = 60  # the most characters of a value a message quotes


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}")


def shown(text: str) -> str:
    """``text`` with every character a terminal would obey, or an encoder refuse, escaped;
    line feeds and tabs kept."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def one_line(text: str) -> str:
    """``text`` as one line: as :func:`shown`, line feeds and tabs escaped too."""
    return _UNSAFE_IN_FIELD.sub(_escape, text) if _UNSAFE_IN_FIELD.search(text) else text


def encodable(text: str) -> str:
    """``text`` with each lone surrogate (which no encoder writes) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


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
