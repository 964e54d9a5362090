"""An ASCII board in GNU Backgammon's layout (its ``show board``), with pip counts.

Player 0 is O at the top, player 1 is X at the bottom, as gnubg draws them; the
point numbers are those of the side on roll. Stacks of more than five show their
count in the fifth row (6-9, then A-F), borne-off checkers stand right of the board.
"""

from __future__ import annotations

from bgrecord.ids import MatchState
from bgrecord.position import BAR, OFF, Position

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

    def cell(point: int, row: int) -> str:
        """X's point ``point`` (1-24), checker row ``row`` (0 at the edge, 4 = count row)."""
        x_count, o_count = x[point], o[BAR - point]
        if row == 4:
            return f" {_X_COUNT[x_count] if x_count else _O_COUNT[o_count]} "
        return " X " if x_count > row else " O " if o_count > row else "   "

    def tray(count: int, row: int, mark: str) -> str:
        return "".join(mark if count > 5 * col + row else " " for col in range(3))

    lines = [f" GNU Backgammon  Position ID: {position.id()}"]
    if match:
        lines.append(f"                 Match ID   : {match.id()}")
    lines.append((_TOP_X if on_x else _BOTTOM_X) + texts[0])
    top_points, bottom_points = range(13, 25), range(12, 0, -1)
    for row in range(5):
        left = "".join(cell(p, row) for p in top_points[:6])
        right = "".join(cell(p, row) for p in top_points[6:])
        bar = f" {_O_COUNT[o[BAR]]} " if row == 4 else (" O " if o[BAR] > row else "   ")
        text = f" {texts[row + 1]}" if row < 2 and texts[row + 1] else ""
        lines.append(f" |{left}|{bar}|{right}| {tray(o[OFF], row, 'O')}{text}")
    lines.append(("v" if on_x else "^") + "|                  |BAR|                  |     " + texts[3])
    for row in range(4, -1, -1):
        left = "".join(cell(p, row) for p in bottom_points[:6])
        right = "".join(cell(p, row) for p in bottom_points[6:])
        bar = f" {_X_COUNT[x[BAR]]} " if row == 4 else (" X " if x[BAR] > row else "   ")
        text = f" {texts[5 - row]}" if row < 2 and texts[5 - row] else ""
        lines.append(f" |{left}|{bar}|{right}| {tray(x[OFF], row, 'X')}{text}")
    lines.append((_BOTTOM_X if on_x else _TOP_X) + texts[6])
    pips = position.pips()
    lines.append(f" Pip count  O: {pips[0]}  X: {pips[1]}")
    return "\n".join(line.rstrip() for line in lines) + "\n"
