"""The mark a forced conversion leaves where it cut a game at an error.

``bgrecord convert --force`` writes a game with an error as the replay found it: up to the
error (SGF, JSON and OGXM hold only what was replayed; a .mat keeps the rest as written, so
the error stands again). Cut so, the game would read back as a clean, unfinished game: what
was lost would not show. So the writer leaves a mark, a comment in each format's own place
for one (a .mat comment line, SGF's ``C``, a JSON game's ``cut``, an OGXM game annotation
keyed ``x-bgrecord-cut``), saying where the original's error stood; each reader keeps it as a
:class:`~bgrecord.formats.records.Comment` at the game's end (so that a conversion of the
conversion writes it again) and reports it as the warning ``cut-at-error``.
"""

from __future__ import annotations

from bgrecord.escapes import cut, one_line
from bgrecord.formats.issues import Issue, Severity, format_issue
from bgrecord.formats.records import Comment

PREFIX = "bgrecord: cut at an error"
OGXM_KEY = "x-bgrecord-cut"  # an OGXM game annotation's key


def cut_mark(where: str, message: str) -> str:
    """The mark's text, one line: ``bgrecord: cut at an error of the original (bad.mat, line
    7): 18/12: the distance matches no unused die``."""
    return f"{PREFIX} of the original ({one_line(cut(where, 200))}): {one_line(cut(message, 300))}"


def is_cut_mark(text: str) -> bool:
    """Whether a comment's text (a .mat comment line's ``;`` or ``#`` before it) is a cut mark."""
    return text.lstrip(" \t;#").startswith(PREFIX)


def cut_comment(text: str, line: int, column: int | None) -> tuple[Comment, Issue]:
    """A cut mark read at ``line``: the comment kept in the game, and its warning (the caller
    places it: path, game, unit)."""
    said = cut(text.lstrip(" \t;#")[len(PREFIX) :].strip(), 600)
    message = f"the game was cut here by a forced conversion, at an error {said}; what followed it is not in this file"
    return Comment(None, None, line, column, text.strip()), format_issue(Severity.WARNING, "cut-at-error", message, line, column)
