"""The readings of an action that does not replay, that cost no search (see
:mod:`bgrecord.replay.recovery`): the action as made, the plays its written moves may have meant
(other dice, the opponent's numbering, the did-you-mean), another cube word, the action left out,
a row written twice; and what a text that does not read still says (:func:`salvaged`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Sequence

from bgrecord.core.position import Dice, Position
from bgrecord.formats.records import Action, CubeAction, MoveToken, Roll, Unreadable
from bgrecord.replay.repairs import AS_MADE, CUBE_ERRORS, ROLLS, Repair, Replaying
from bgrecord.replay.resolve import mirror, physical, ranked, resolve
from bgrecord.replay.rows import skips

_MAT_DICE = re.compile(r"(?<![0-9])([0-9])([0-9])[ \t]*:")
_MAT_MOVE = re.compile(r"(?i)(?<![0-9])(bar|[0-9]{1,2})[ \t]*/[ \t]*(off|[0-9]{1,2})(?![0-9])")
_SGF_MOVE = re.compile(r"[WB]\[([0-9])([0-9])((?:[a-z][a-z])*)[a-z]?\]")


def row_starts(actions: Sequence[Action], index: int, latest: int, count: int) -> list[int]:
    """Where the row of the action at ``index`` starts, and the rows before it, ``count`` rows in
    all (a row is the actions of one row number on one line), all after the latest repair."""
    starts: list[int] = []
    at = index
    while len(starts) < count and at > latest:
        action = actions[at]
        if action.number is None:
            break
        while at > 0 and actions[at - 1].number == action.number and actions[at - 1].line == action.line:
            at -= 1
        if at <= latest:
            break
        starts.append(at)
        at -= 1
    return starts


def _before(replayer: Replaying, action: Roll) -> Position:
    """The position a roll is played from, in the state at hand."""
    player = action.player if action.player is not None else (replayer.turn or 0)
    position = replayer.position or Position.start(replayer.rules.variant, player)
    return Position(position.sides, player)


def readings_of(replayer: Replaying, index: int, code: str) -> list[Repair]:
    """The readings of the action at ``index`` that cost no search: as made, repaired, recognised."""
    action = replayer.game.actions[index]
    found: list[Repair] = []
    if code in AS_MADE:
        found.append(Repair(index, "lenient", 0.5 if code in CUBE_ERRORS else 0.7, said="as written"))
    if isinstance(action, Roll):
        before = _before(replayer, action)
        if action.moves:
            found += _plays(index, before, action)
        elif code in ("could-move", "roll-without-play"):
            found += [Repair(index, "play", 1.0, said=f"as {option}", play=option) for option in before.legal_plays(Dice(*action.dice))[:40]]
        found.append(Repair(index, "skip", 1.5, said="left out"))
    elif isinstance(action, CubeAction):
        for kind in ("double", "take", "drop"):
            if kind != action.kind:
                found.append(Repair(index, "act", 1.0, said=f"as a {kind}", action=replace(action, kind=kind, value=None)))
        found.append(Repair(index, "skip", 1.5, said="left out"))
    elif isinstance(action, Unreadable):
        found.append(Repair(index, "skip", 1.0))
        dice, moves = salvaged(action)
        player = action.player if action.player is not None else replayer.turn
        if dice is not None and dice.is_valid and moves and player is not None and replayer.position is not None:
            before = Position(replayer.position.sides, player)
            found += [Repair(index, "skip", 1.0 + cost, said=f"as {dice}: {option}", inserted=((player, dice, option),))
                      for cost, option in ranked(before, dice, moves)[:24]]  # fmt: skip
    return found


def salvaged(action: Unreadable) -> tuple[Dice | None, tuple[MoveToken, ...]]:
    """What a text that does not read still says: its dice and moves, where they show (a .mat
    cell ``61: 13/7 8/7x``, an SGF move ``W[75mhnh]``)."""
    text = action.text[:200]
    sgf = _SGF_MOVE.fullmatch(text.strip())
    if sgf is not None and action.player is not None:
        from bgrecord.formats.sgf import point_of  # an SGF's own numbering

        letters = sgf.group(3)
        pairs = [(point_of(letters[i], action.player), point_of(letters[i + 1], action.player)) for i in range(0, len(letters), 2)]
        return Dice(int(sgf.group(1)), int(sgf.group(2))), tuple(MoveToken(pair, (False, False), 1, "", 0) for pair in pairs[:8])
    dice = _MAT_DICE.search(text)
    point = {"bar": 25, "off": 0}
    pairs = [(point.get(a.lower(), 0) if a.isalpha() else int(a), point.get(b.lower(), 0) if b.isalpha() else int(b))
             for a, b in _MAT_MOVE.findall(text)]  # fmt: skip
    moves = tuple(MoveToken((a, b), (False, False), 1, "", 0) for a, b in pairs if 0 <= b < a <= 25)[:8]
    return (Dice(int(dice.group(1)), int(dice.group(2))) if dice else None), moves


def _plays(index: int, before: Position, action: Roll) -> list[Repair]:
    """The plays a roll's written moves may have meant (none for more moves than any roll has)."""
    found: list[Repair] = []
    written = sum(len(token.points) - 1 for token in action.moves)
    if written > 8:
        return found
    dice = Dice(*action.dice)
    mirrored = tuple(token._replace(points=tuple(mirror(point) for point in token.points)) for token in action.moves)
    if dice.is_valid:
        play = resolve(before, dice, mirrored, hints=False).play
        if play is not None:
            found.append(Repair(index, "play", 0.3, "opponent-numbering", f"as {play}", play=play))
    for roll in ROLLS:
        if roll != dice and sorted(roll) != sorted(dice):
            play = resolve(before, roll, action.moves, hints=False).play
            if play is not None:
                apart = 2 - len(list((Counter(roll) & Counter(dice)).elements()))  # the dice that differ
                fits = f"{max(roll)}{min(roll)}"
                split = abs(len(play.play.moves) - written)  # 8/5 read as 8/7 7/6 6/5: less likely than as written
                found.append(Repair(index, "play", 0.4 + 0.2 * apart + 0.05 * split, "wrong-dice" if dice.is_valid else None, f"as {fits}: {play}", play=play, detail=fits))
    made = physical(before, action.dice, action.moves)
    if made is not None:
        found.append(Repair(index, "play", 0.8, said="as written, the dice aside", play=made))
    for cost, option in ranked(before, dice, action.moves)[:24]:
        found.append(Repair(index, "play", cost, said=f"as {option}", play=option))
    return found


def _same_roll(one: Action, other: Action) -> bool:
    return (isinstance(one, Roll) and isinstance(other, Roll) and one.player == other.player and one.dice == other.dice
            and " ".join(one.text.split()) == " ".join(other.text.split()))  # fmt: skip


def duplicates(actions: Sequence[Action], start: int) -> list[Repair]:
    """A row written twice: its first cell repeats the same player's roll before it (and its
    second cell, if any, the other's)."""
    action = actions[start]
    previous = next((a for a in reversed(actions[:start]) if isinstance(a, Roll) and a.player == action.player), None)
    if previous is None or not _same_roll(action, previous):
        return []
    partner = actions[start + 1] if start + 1 < len(actions) else None
    earlier = next((a for a in reversed(actions[:start]) if partner is not None and isinstance(a, Roll) and a.player == partner.player), None)
    skipped = 1 if partner is not None and earlier is not None and partner.line == action.line and _same_roll(partner, earlier) else 0
    cost = 0.1 if skips(actions, start, -1) else 0.2  # its number again
    return [Repair(start, "skip", cost, "duplicate-row", "left out: a row written twice", skipped=skipped)]
