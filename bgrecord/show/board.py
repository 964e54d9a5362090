"""An ASCII board in GNU Backgammon's layout (its ``show board``), with pip counts.

Player 0 is O at the top, player 1 is X at the bottom, as gnubg draws them; the
point numbers are those of the side on roll. Stacks of more than five show their
count in the fifth row (6-9, then A-F), borne-off checkers stand right of the board.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from bgrecord.core.moves import BAR, OFF

if TYPE_CHECKING:  # the core draws itself through this module: it is imported only to be typed
    from bgrecord.core.ids import MatchState
    from bgrecord.core.position import Position

_X_COUNT = "     X6789ABCDEF"
_O_COUNT = "     O6789ABCDEF"
_TOP_X = " +13-14-15-16-17-18------19-20-21-22-23-24-+     "
_BOTTOM_X = " +12-11-10--9--8--7-------6--5--4--3--2--1-+     "


def _annotations(position: Position, match: MatchState | None, names: tuple[str, str]) -> list[str]:
    """The seven texts gnubg writes right of the board (top to bottom)."""
    texts = [""] * 7
    texts[0] = f"O: {names[0]}".rstrip()
    texts[6] = f"X: {names[1]}".rstrip()
    cube = match.cube if match else 1
    owner = match.cube_owner if match else None
    if owner is not None:
        texts[0 if owner == 0 else 6] += f" (Cube: {cube})"
    if match and match.length:
        texts[1] = f"{match.score[0]} points"
        texts[5] = f"{match.score[1]} points"
        texts[3] = f"{match.length} point match" + (" (Cube: %d)" % cube if owner is None else "")
    elif owner is None:
        texts[3] = f"(Cube: {cube})"
    roll = "On roll"
    if match and match.dice != (0, 0):
        roll = f"Rolled {match.dice[0]}{match.dice[1]}"
    if match and match.doubled:
        roll = f"Cube offered at {match.cube * 2}"
    texts[2 if position.turn == 0 else 4] = roll
    return texts


def ascii_board(position: Position, match: MatchState | None = None, names: tuple[str, str] = ("", "")) -> str:
    """The board as gnubg's ``show board`` draws it, then a pip-count line."""
    o, x = position.sides
    on_x = position.turn == 1
    texts = _annotations(position, match, names)
    lines = [f" GNU Backgammon  Position ID: {position.id()}"]
    if match:
        lines.append(f"                 Match ID   : {match.id()}")
    lines.append((_TOP_X if on_x else _BOTTOM_X) + texts[0])
    top = [_column(x[point], o[BAR - point]) for point in range(13, 25)]  # X's points 13-24, left to right
    bar, tray = _column(0, o[BAR]), _tray(o[OFF], "O")
    for row, (left, right) in enumerate(zip(zip(*top[:6]), zip(*top[6:]))):
        text = f" {texts[row + 1]}" if row < 2 and texts[row + 1] else ""
        lines.append(f" |{''.join(left)}|{bar[row]}|{''.join(right)}| {tray[row]}{text}")
    lines.append(("v" if on_x else "^") + "|                  |BAR|                  |     " + texts[3])
    bottom = [_column(x[point], o[BAR - point]) for point in range(12, 0, -1)]  # X's points 12-1
    bar, tray = _column(x[BAR], 0), _tray(x[OFF], "X")
    lefts, rights = list(zip(*bottom[:6])), list(zip(*bottom[6:]))
    for row in range(4, -1, -1):  # from the middle of the board to its edge
        text = f" {texts[5 - row]}" if row < 2 and texts[5 - row] else ""
        lines.append(f" |{''.join(lefts[row])}|{bar[row]}|{''.join(rights[row])}| {tray[row]}{text}")
    lines.append((_BOTTOM_X if on_x else _TOP_X) + texts[6])
    pips = position.pips()
    lines.append(f" Pip count  O: {pips[0]}  X: {pips[1]}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


@lru_cache(maxsize=None)
def _column(x_count: int, o_count: int) -> tuple[str, ...]:
    """A point's five cells from the edge of the board (X's ``x_count`` and O's ``o_count``
    checkers): four rows of checkers, then the count row. (A few hundred kinds of points: each
    drawn once.)"""
    cells = [" X " if x_count > row else " O " if o_count > row else "   " for row in range(4)]
    return (*cells, f" {_X_COUNT[x_count] if x_count else _O_COUNT[o_count]} ")


@lru_cache(maxsize=None)
def _tray(count: int, mark: str) -> tuple[str, ...]:
    """The borne-off checkers' five rows: five to a column, three columns."""
    return tuple("".join(mark if count > 5 * column + row else " " for column in range(3)) for row in range(5))
