"""Snowie's text position files (``.txt``): one line of 40 fields separated by ``;``.

0 the match length (0 money play), 1 Jacoby, 2-3 unknown, 4 the player on roll (0 or 1),
5 and 6 the names (the player on roll's first), 7 the Crawford game, 8 and 9 the scores (the
player on roll's first), 10 the cube's value, 11 its owner (1 the player on roll, -1 the
other, 0 centred), 12-39 the board and the dice as :func:`snowie_position` reads them.
Fields as GNU Backgammon's import.c (``ParseSnowieTxt``) reads them: its code is the
reference, not its comments.

A file is a game holding one set-up of the board. What this reader does not check: whether
the position could arise in play.
"""

from __future__ import annotations

from typing import Iterator

from bgrecord.core.position import BAR, CHECKERS, OFF, Position
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.numbers import number
from bgrecord.formats.records import GameRecord, MatchRecord, SetPosition, Tag
from bgrecord.formats.source import Input

FIELDS = 40


def _signed(text: str) -> int:
    body = text.strip()
    value = number(body.removeprefix("-"), 15)
    if value is None:
        raise ValueError(f"{body[:12]!r} is not a count of checkers")
    return -value if body.startswith("-") else value


def snowie_position(fields: list[str], on_roll: int) -> Position:
    """The board of Snowie's 40 fields, with ``on_roll`` (the player to act next) on roll:
    fields 13-36 are points 1-24 counted from that player's side, a positive count that
    player's checkers and a negative count the other's (on the point counted from the
    other's side: 25 less); field 37 is that player's bar, field 12 the other's. Raises
    ``ValueError`` for what is not a position."""
    if len(fields) < FIELDS - 1:
        raise ValueError("a Snowie position has 40 fields")
    mine, theirs = [0] * 26, [0] * 26
    mine[BAR], theirs[BAR] = abs(_signed(fields[37])), abs(_signed(fields[12]))
    for point in range(1, 25):
        count = _signed(fields[12 + point])
        if count > 0:
            mine[point] += count
        elif count < 0:
            theirs[BAR - point] += -count
    mine[OFF], theirs[OFF] = CHECKERS - sum(mine), CHECKERS - sum(theirs)
    position = Position.from_relative(tuple(mine), tuple(theirs), on_roll)
    if not position.is_valid():
        raise ValueError("not a position (a side with more than 15 checkers, or a point held by both)")
    return position


def snowie_fields(position: Position, on_roll: int, names: tuple[str, str], scores: tuple[int, int], length: int,
                  cube: int, cube_owner: int | None, dice: tuple[int, int]) -> str:  # fmt: skip
    """Snowie's 40 fields (as :func:`snowie_position` reads them) of ``position`` with
    ``on_roll`` to act next: what a .mat's ``Illegal play (...)`` cell holds. ``names`` and
    ``scores`` are the left player's first."""
    mine, theirs = position.sides[on_roll], position.sides[1 - on_roll]
    points = [mine[point] or -theirs[BAR - point] for point in range(1, 25)]
    owner = 0 if cube_owner is None else 1 if cube_owner == on_roll else -1
    fields = [length, 0, 0, 0, 0, names[on_roll], names[1 - on_roll], 0, scores[on_roll], scores[1 - on_roll], cube, owner,
              theirs[BAR], *points, mine[BAR], dice[0], dice[1]]  # fmt: skip
    return ";".join(str(field).replace(";", ",").replace(")", "]") for field in fields) + ";"


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    encoding, blocks = source.text_blocks()
    text = "".join(raw for _, raw in blocks)
    match = MatchRecord(source.name, "snowie", encoding, raw=text)
    line = text.strip().splitlines()[0] if text.strip() else ""
    fields = [field.strip() for field in line.split(";")]

    def error(message: str) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
        match.issues.append(format_issue(Severity.ERROR, "unreadable", message, 1, None).at(path=source.name))
        yield match, None

    if len(fields) < FIELDS - 1:
        yield from error(f"a Snowie position has 40 fields separated by ';', not {len(fields)}")
        return
    on_roll = number(fields[4], 1)
    length = number(fields[0])
    if on_roll is None or length is None:
        yield from error("field 0 (the match length) and field 4 (the player on roll, 0 or 1) are numbers")
        return
    try:
        position = snowie_position(fields, on_roll)
    except ValueError as exc:
        yield from error(f"the board does not read: {exc}")
        return
    match.length = length
    names = [fields[5], fields[6]] if on_roll == 0 else [fields[6], fields[5]]
    game = GameRecord(1, 1, 1, (names[0], names[1]))
    scores = [number(fields[8]), number(fields[9])]
    game.scores = (scores[0], scores[1]) if on_roll == 0 else (scores[1], scores[0])
    if number(fields[7], 1):
        game.note = "Crawford"
    cube = number(fields[10], 1 << 15)
    owner = {"1": on_roll, "-1": 1 - on_roll}.get(fields[11])
    if cube and cube > 1:
        game.initial_cube, game.initial_cube_owner = cube, owner
    if length == 0:
        match.tags.append(Tag("Jacoby", "On" if number(fields[1], 1) else "Off", 1))
    dice = (number(fields[38], 6), number(fields[39].rstrip(";"), 6))
    rolled = (dice[0], dice[1]) if dice[0] and dice[1] else None
    shown = f"{rolled[0]}{rolled[1]}: " if rolled else ""
    game.actions.append(SetPosition(None, None, 1, 1, f"{shown}Snowie position", "snowie", line, rolled, on_roll))
    yield match, game
