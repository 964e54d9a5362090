"""SVG pictures of a position, in the spirit of ``chess.svg.board``: a pure function from a
position (and the cube, dice and last play) to SVG text. Standard library only.

The board is drawn from player 1's side, as GNU Backgammon draws it: player 1 (X, dark)
bears off at the bottom right, player 0 (O, light) at the top right.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Sequence

from bgrecord.core.moves import BAR, OFF, Move

if TYPE_CHECKING:  # the core draws itself through this module: it is imported only to be typed
    from bgrecord.core.position import Position

WIDTH, HEIGHT = 560, 420
MARGIN, BAR_WIDTH, TRAY = 20, 36, 44
POINT = (WIDTH - 2 * MARGIN - BAR_WIDTH - TRAY) / 12
RADIUS = POINT / 2 - 1.5
COLOURS = ("#f4efe1", "#303030")  # player 0 (O), player 1 (X)
STROKES = ("#555", "#000")
BAR_X = MARGIN + 6 * POINT
TRAY_X = WIDTH - MARGIN - TRAY + 6


def _point_x(point: int) -> float:
    """The centre x of player 1's point ``point`` (1-24)."""
    column = 12 - point if point <= 12 else point - 13  # 0 = left edge
    x = MARGIN + column * POINT + POINT / 2
    return x + BAR_WIDTH if column >= 6 else x


def _checker_y(point: int, index: int) -> float:
    top = point >= 13
    step = min(2 * RADIUS, (HEIGHT / 2 - MARGIN - 10) / 5)
    offset = MARGIN + RADIUS + index * step
    return offset if top else HEIGHT - offset


def _checker(x: float, y: float, player: int, label: str = "") -> str:
    out = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS:.1f}" fill="{COLOURS[player]}" stroke="{STROKES[player]}"/>'
    return out + _label(x, y, player, label)


def _label(x: float, y: float, player: int, label: str) -> str:
    """The count written on the last checker drawn of a stack."""
    if not label:
        return ""
    return f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="12" text-anchor="middle" fill="{COLOURS[1 - player]}">{label}</text>'


def _place(position: Position, player: int, point_of_x: int) -> int:
    """Checkers of ``player`` on player 1's point ``point_of_x``."""
    side = position.sides[player]
    return side[point_of_x] if player == 1 else side[BAR - point_of_x]


def background(label_side: int = 1) -> str:
    """What every board shares: the frame, the points, the bar, and the point numbers of
    ``label_side`` (each number a ``<text class="label" data-point="N">``, N in player 1's
    numbering, so that a page can renumber them)."""
    parts = [
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#6b4f2a"/>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{WIDTH - 2 * MARGIN - TRAY}" height="{HEIGHT - 2 * MARGIN}" fill="#c8ab7d"/>',
        f'<rect x="{BAR_X:.1f}" y="{MARGIN}" width="{BAR_WIDTH}" height="{HEIGHT - 2 * MARGIN}" fill="#6b4f2a"/>',
    ]
    for point in range(1, 25):
        x = _point_x(point)
        top = point >= 13
        base, tip = (MARGIN, MARGIN + 5 * 2 * RADIUS) if top else (HEIGHT - MARGIN, HEIGHT - MARGIN - 5 * 2 * RADIUS)
        fill = "#8c2f1b" if point % 2 else "#e9dcc0"
        parts.append(f'<polygon points="{x - POINT / 2:.1f},{base} {x + POINT / 2:.1f},{base} {x:.1f},{tip}" fill="{fill}"/>')
        label_y = MARGIN - 6 if top else HEIGHT - MARGIN + 14
        label = point if label_side == 1 else BAR - point
        parts.append(f'<text class="label" data-point="{point}" x="{x:.1f}" y="{label_y}" font-size="10" text-anchor="middle" fill="#eee">{label}</text>')
    return "".join(parts)


def shared_defs() -> str:
    """What the boards of one page share, drawn once (for :func:`board` with ``shared``), in an
    SVG of no size: the background (with each side's point numbers), each side's stacks of one to five checkers (at the top
    and at the bottom), a borne-off checker, the cube and each side's die."""
    parts = [f'<g id="bgr-board{side}">{background(side)}</g>' for side in (0, 1)]
    parts += [f'<rect id="bgr-cube" width="28" height="28" rx="4" fill="#fff" stroke="#000"/>']
    for player in (0, 1):
        for top, point in (("t", 13), ("b", 1)):
            for count in range(1, 6):
                stack = "".join(_checker(0, _checker_y(point, index), player) for index in range(count))
                parts.append(f'<g id="bgr-s{player}{top}{count}">{stack}</g>')
        parts.append(f'<rect id="bgr-off{player}" x="{TRAY_X}" width="{TRAY - 12}" height="5" fill="{COLOURS[player]}" stroke="{STROKES[player]}"/>')
        parts.append(f'<rect id="bgr-d{player}" width="28" height="28" rx="5" fill="{COLOURS[player]}" stroke="#000"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true">'
            f'<defs>{"".join(parts)}</defs></svg>')  # fmt: skip


def pieces(position: Position, cube: int = 1, cube_owner: int | None = None, dice: Sequence[int] | None = None,
           last_play: Sequence[Move] = (), dice_player: int | None = None, shared: bool = False) -> str:  # fmt: skip
    """What changes from board to board: the checkers (a count on the fifth when more than
    five), the bar, the borne-off trays, the cube with its value next to its owner (or
    centred), the dice (of ``dice_player``, by default the side on roll), and arrows for
    ``last_play`` (moves of the side not on roll). ``bgrecord/show/htmlpage.py`` draws the same in
    the page's script, from the same constants. ``shared``: the stacks, the borne-off checkers, the
    cube and the dice drawn from :func:`shared_defs`."""
    parts = []
    for point in range(1, 25):
        x = _point_x(point)
        for player in (0, 1):
            count = _place(position, player, point)
            if shared and count:
                parts.append(f'<use href="#bgr-s{player}{"t" if point >= 13 else "b"}{min(count, 5)}" x="{x:.1f}"/>')
                parts.append(_label(x, _checker_y(point, 4), player, str(count) if count > 5 else ""))
                continue
            for index in range(min(count, 5)):
                label = str(count) if index == 4 and count > 5 else ""
                parts.append(_checker(x, _checker_y(point, index), player, label))
    for player in (0, 1):  # the bar: player 1's checkers in the upper half, player 0's in the lower
        count = position.sides[player][BAR]
        for index in range(min(count, 4)):
            y = HEIGHT / 2 - 30 - index * 2 * RADIUS if player == 1 else HEIGHT / 2 + 30 + index * 2 * RADIUS
            parts.append(_checker(BAR_X + BAR_WIDTH / 2, y, player, str(count) if index == 3 and count > 4 else ""))
        off = position.sides[player][OFF]
        for index in range(off):
            y = (HEIGHT - MARGIN - 6 - index * 7) if player == 1 else (MARGIN + 2 + index * 7)
            if shared:
                parts.append(f'<use href="#bgr-off{player}" y="{y}"/>')
            else:
                parts.append(f'<rect x="{TRAY_X}" y="{y:.1f}" width="{TRAY - 12}" height="5" fill="{COLOURS[player]}" stroke="{STROKES[player]}"/>')
    cube_y = HEIGHT / 2 - 14 if cube_owner is None else (MARGIN + 4 if cube_owner == 0 else HEIGHT - MARGIN - 32)
    cube_x = WIDTH - MARGIN - TRAY + 8 if cube_owner is None else BAR_X + 4
    if shared:
        parts.append(f'<use href="#bgr-cube" x="{cube_x:.1f}" y="{cube_y:.1f}"/>')
    else:
        parts.append(f'<rect x="{cube_x:.1f}" y="{cube_y:.1f}" width="28" height="28" rx="4" fill="#fff" stroke="#000"/>')
    parts.append(f'<text x="{cube_x + 14:.1f}" y="{cube_y + 19:.1f}" font-size="14" text-anchor="middle">{cube}</text>')
    if dice:
        mover = position.turn if dice_player is None else dice_player
        for index, die in enumerate(dice):
            x = MARGIN + (3 if mover == 0 else 9) * POINT + index * 34 + (BAR_WIDTH if mover == 1 else 0) - 17
            if shared:
                parts.append(f'<use href="#bgr-d{mover}" x="{x:.1f}" y="{HEIGHT / 2 - 14:.1f}"/>')
            else:
                parts.append(f'<rect x="{x:.1f}" y="{HEIGHT / 2 - 14:.1f}" width="28" height="28" rx="5" fill="{COLOURS[mover]}" stroke="#000"/>')
            parts.append(f'<text x="{x + 14:.1f}" y="{HEIGHT / 2 + 5:.1f}" font-size="15" text-anchor="middle" fill="{COLOURS[1 - mover]}">{die}</text>')
    mover = 1 - position.turn  # the last play was made by the side now not on roll
    for move in last_play:
        start, end = _arrow_end(move.source, mover), _arrow_end(move.target, mover)
        parts.append(
            f'<line x1="{start[0]:.1f}" y1="{start[1]:.1f}" x2="{end[0]:.1f}" y2="{end[1]:.1f}" stroke="#1f6fd1" stroke-width="3" opacity="0.8"/>'
        )
        parts.append(f'<circle cx="{end[0]:.1f}" cy="{end[1]:.1f}" r="5" fill="#1f6fd1"/>')
    return "".join(parts)


def board(
    position: Position,
    cube: int = 1,
    cube_owner: int | None = None,
    dice: Sequence[int] | None = None,
    last_play: Sequence[Move] = (),
    title: str | None = None,
    dice_player: int | None = None,
    description: str | None = None,
    shared: bool = False,
    label_side: int = 1,
) -> str:
    """The SVG text of ``position``: :func:`background` (its point numbers ``label_side``'s) and
    :func:`pieces`, with a title and (for screen readers) a description in words. ``shared``:
    for a page of many boards, which holds :func:`shared_defs` once; each board then uses its
    background and checkers."""
    desc = f"<desc>{escape(description)}</desc>" if description else ""
    under = f'<use href="#bgr-board{label_side}"/>' if shared else background(label_side)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img">'
        f"<title>{escape(title or 'Backgammon position ' + position.id())}</title>{desc}"
        f"{under}"
        f"{pieces(position, cube, cube_owner, dice, last_play, dice_player, shared)}</svg>"
    )


def _arrow_end(point: int, player: int) -> tuple[float, float]:
    """Where an arrow for ``player``'s point (25 bar, 0 off) starts or ends."""
    if point == BAR:
        return MARGIN + 6 * POINT + BAR_WIDTH / 2, HEIGHT / 2
    if point == OFF:
        return WIDTH - MARGIN - TRAY / 2, (HEIGHT - MARGIN - 20) if player == 1 else MARGIN + 20
    own = point if player == 1 else BAR - point
    return _point_x(own), (MARGIN + 2 * RADIUS) if own >= 13 else (HEIGHT - MARGIN - 2 * RADIUS)
