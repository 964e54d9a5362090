"""Numbers read from files, bounded by what backgammon can mean.

A match length, a score, a point count or a row number beyond what GNU Backgammon's Match ID
can hold (15 bits) means nothing in backgammon; a cube beyond 2**15 neither. Readers take
every number through :func:`number`, which never converts more digits than it needs (a
number of 5,000 digits costs nothing) and says when a number is out of bounds.
"""

from __future__ import annotations

import re

MAX_NUMBER = 32767  # match lengths, scores, points, game and row numbers (15 bits)
MAX_CUBE = 32768  # 2**15: the largest cube GNU Backgammon's Match ID can hold
_DIGITS = re.compile(r"[0-9]+")


def number(text: str, limit: int | None = MAX_NUMBER) -> int | None:
    """The value of ``text`` (ASCII digits, surrounding blanks allowed), or None when it is
    not a number or is larger than ``limit`` (None: :data:`MAX_NUMBER`)."""
    limit = MAX_NUMBER if limit is None else limit
    if text.isdigit() and text.isascii() and len(text) <= 4:  # the usual case: a row number, a score
        value = int(text)
        return value if value <= limit else None
    digits = text.strip()
    if not _DIGITS.fullmatch(digits):
        return None
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(limit)):
        return None
    value = int(digits)
    return value if value <= limit else None


def too_large(text: str, limit: int | None = MAX_NUMBER) -> str:
    """The message for a number out of bounds."""
    limit = MAX_NUMBER if limit is None else limit
    shown = text.strip()
    shown = shown if len(shown) <= 12 else f"{shown[:6]}...({len(shown)} digits)"
    return f"the number {shown} is beyond what backgammon can mean (at most {limit:,})"
