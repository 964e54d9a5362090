"""Row numbers: each row of a .mat game is numbered one more than the row before it.

A number that skips (``12)`` then ``21)``) or comes twice is a ``row-number`` warning where the
game replays across it (a slip of the number alone); where a row is missing or written twice there,
the replay's error names that cause (:mod:`bgrecord.replay.recovery`), and the numbers are said in
it, not again. What is not a row of its own: a result row that repeats the number of the last row
(``4)  Losses 2 point   Wins 2 point``: eXtreme Gammon, Galaxy), and a cell on a wrapped line, which
takes the number of the row it continues.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import Action, GameRecord, MatchRecord, Result


class Row(NamedTuple):
    """A row: its number as written, its line, and the index of its first action in the game."""

    number: int
    line: int
    start: int


def rows(actions: Sequence[Action]) -> list[Row]:
    """The rows of a game, in order: the actions of one number on one line; result rows left out."""
    found: list[Row] = []
    for index, action in enumerate(actions):
        number = action.number
        if number is None or found and (found[-1].number, found[-1].line) == (number, action.line):
            continue
        if isinstance(action, Result) and all(isinstance(a, Result) for a in actions[index:] if a.line == action.line):
            continue  # a result row: it repeats the last row's number
        found.append(Row(number, action.line, index))
    return found


def numbered_after(actions: Sequence[Action], start: int) -> int | None:
    """The number the row starting at action ``start`` should have: one more than the row before
    it (None for the first row)."""
    before = rows(actions[:start])
    return before[-1].number + 1 if before else None


def skips(actions: Sequence[Action], start: int, by: int = 1) -> bool:
    """Whether the row starting at action ``start`` is numbered ``by`` more than it should (1: a row
    skipped; -1: the number of the row before again)."""
    expected = numbered_after(actions, start)
    return expected is not None and actions[start].number == expected + by


def row_issues(match: MatchRecord, game: GameRecord, told: Iterable[int]) -> list[Issue]:
    """A warning at each row whose number does not follow the row before it, but at the lines in
    ``told`` (a row missing or written twice, said by the replay), and for a cell on a wrapped
    line (no number of its own on its line)."""
    if _consecutive(game.actions):
        return []  # the usual game: every row one more than the row before, read in one pass
    said = set(told)
    lines = game.raw.splitlines()
    found = []
    previous: Row | None = None
    for row in rows(game.actions):
        if previous is not None and row.number != previous.number + 1 and row.line not in said and _numbered(game, lines, row):
            what = "again" if row.number == previous.number else "after row " + str(previous.number)
            message = f"row {row.number} {what}: the row numbers go up by one" + (
                " (the rows replay: a slip of the number)" if row.number > previous.number else "")
            action = game.actions[row.start]
            found.append(Issue(Severity.WARNING, "structure", "row-number", message, match.path, row.line, action.column, game.index,
                               row.number, unit=match.unit))  # fmt: skip
        previous = row
    return found


def _consecutive(actions: Sequence[Action]) -> bool:
    """Whether every numbered action's number is its row's, or one more than the last (a quick
    look: a repeat, a result row's included, is looked at again by :func:`rows`)."""
    last, line = -1, -1
    for action in actions:
        number = action.number
        if number is None:
            continue
        if number != last:
            if last >= 0 and number != last + 1:
                return False
            last, line = number, action.line
        elif action.line != line:
            return False  # the same number on another line: a result row, a wrapped line, or a repeat
    return True


def _numbered(game: GameRecord, lines: list[str], row: Row) -> bool:
    """Whether the row's line itself (of ``lines``: the game's text split once) starts with its
    number (a wrapped line's cell does not)."""
    at = row.line - game.line
    text = lines[at] if 0 <= at < len(lines) else ""
    return text.lstrip().startswith(f"{row.number})")
