"""Boards set up inside a record: what position a ``SetPosition`` gives.

Snowie's ``Illegal play (...)`` fields (:func:`bgrecord.formats.snowie.snowie_position`),
eXtreme Gammon's ``; Set Pos=`` (XGID's position text), a Position ID from a binary file
(``board``), and SGF's set-up properties applied to the current position. Does not judge
whether the position could arise in play, only whether it is a position.
"""

from __future__ import annotations

import re

from bgrecord.core.position import CHECKERS, Position
from bgrecord.formats.records import SetPosition
from bgrecord.formats.snowie import snowie_position

# Possessive, a name starting where no capital stands before it, a value holding no "[": a
# search through any set-up text stays linear (a point's value is letters: "a", "a:y").
_SGF_PROPERTY = re.compile(r"(?<![A-Z])([A-Z]++)((?:\[[^\][]*+\])++)")
_SGF_VALUE = re.compile(r"\[([^\][]*+)\]")


def read_setup(action: SetPosition, current: Position | None) -> Position | None:
    """The position a set-up gives, or None when it cannot be read."""
    try:
        if action.kind == "snowie":  # the board after the cell's player's play: the other plays next
            on_roll = action.on_roll if action.on_roll is not None else 1 - (action.player or 0)
            return snowie_position([field.strip() for field in action.setup.split(";")], on_roll)
        if action.kind == "xg":
            from bgrecord.core.ids import xg_position

            return xg_position(action.setup.split("/")[0], current.turn if current else 0)
        if action.kind == "board":  # a Position ID, from the side of the player on roll
            return Position.from_id(action.setup, action.on_roll if action.on_roll is not None else 0)
        return _sgf_setup(action.setup, current)
    except (ValueError, IndexError):
        return None


def _sgf_setup(setup: str, current: Position | None) -> Position:
    """SGF set-up properties (AE, AW, AB, PL) applied to the current position. A checker
    listed at ``z`` is borne off (writers that list all fifteen). ``AW``/``AB`` add checkers
    (GNU Backgammon's reading); where that would give a side more than fifteen, the list is
    the side's whole position (writers that set a position up without ``AE``)."""
    from bgrecord.formats.sgf import point_of  # a .mat run needs no SGF reader

    sides = [list(side) for side in (current or Position.start()).sides]
    turn = current.turn if current else 0
    listed: list[list[int]] = [[0] * 26, [0] * 26]
    for ident, values in _SGF_PROPERTY.findall(setup):
        for value in _SGF_VALUE.findall(values):
            if ident == "AE":
                sides = [[0] * 26, [0] * 26]
            elif ident in ("AW", "AB"):
                player = 0 if ident == "AW" else 1
                letter = value[:1]
                if not "a" <= letter <= "z":
                    raise ValueError(f"no point {value!r}")
                listed[player][point_of(letter, player)] += 1
            elif ident == "PL":  # W, B, or a word starting so ("White", "bLaCk")
                turn = 0 if value.strip()[:1].upper() == "W" else 1
    for player in (0, 1):
        added = [a + b for a, b in zip(sides[player], listed[player])]
        whole = sum(added[1:]) > CHECKERS and sum(listed[player]) <= CHECKERS
        sides[player] = list(listed[player]) if whole else added
    for side in sides:
        side[0] = CHECKERS - sum(side[1:])
    position = Position((tuple(sides[0]), tuple(sides[1])), turn)
    if not position.is_valid():
        raise ValueError("not a position")
    return position
