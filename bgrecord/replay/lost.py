"""Plays the record lost, found by the plays it goes on with (see :mod:`bgrecord.replay.recovery`):
the two plays of a row left out (:func:`missing_row`), and a play where the record has none that
reads (an unreadable cell, dice that are no dice, a cube word where a roll was, a turn left out:
:func:`unknown_plays`). Every play of every roll is a candidate; cheap sieves (each player's next
written plays) keep the few that the trials then replay."""

from __future__ import annotations

from typing import Sequence

from bgrecord.core.position import Dice, LegalPlay, Position
from bgrecord.formats.records import Action, Roll, Unreadable
from bgrecord.replay.readings import salvaged
from bgrecord.replay.repairs import PAIRS, PLAY_ERRORS, ROLLS, TRIED, Repair, Replaying
from bgrecord.replay.resolve import physical, ranked, resolve
from bgrecord.replay.rows import skips

def _all_plays(position: Position) -> list[tuple[Dice, LegalPlay]]:
    """Every play of every roll from ``position``, one per resulting position."""
    seen: dict[Position, tuple[Dice, LegalPlay]] = {}
    for dice in ROLLS:
        for option in position.legal_plays(dice):
            seen.setdefault(option.position, (dice, option))
    return list(seen.values())


def _next_rolls(actions: Sequence[Action], start: int, count: int) -> list[Roll]:
    """The next ``count`` rolls from ``start`` whose player is known: plays and dances (not a roll
    left unplayed, ``???``, before a resignation)."""
    return [a for a in actions[start:] if isinstance(a, Roll) and a.player is not None and a.note != "unplayed"][:count]


def _legal_after(position: Position, roll: Roll) -> Position | None:
    """The position after ``roll``'s written play from ``position`` (its player on roll), or None;
    a roll written without moves is a dance, legal where no checker can move."""
    mover = Position(position.sides, roll.player or 0)
    if not roll.moves:
        return mover if Dice(*roll.dice).is_valid and not mover.can_play(roll.dice) else None
    side = position.sides[roll.player or 0]
    moved = [0] * 26
    for token in roll.moves:
        for source, target in token.pairs():
            if not 0 <= target < source <= 25:
                return None
            moved[source] += 1
            moved[target] -= 1
    if any(count > side[point] for point, count in enumerate(moved)):
        return None  # more checkers leave a point than stand there or arrive: no order of the moves is legal
    play = resolve(mover, roll.dice, roll.moves, hints=False).play if Dice(*roll.dice).is_valid else None
    return play.position if play is not None else None


def _replays(position: Position, rolls: Sequence[Roll]) -> bool:
    """Whether ``rolls``' written plays are legal one after the other from ``position``."""
    at: Position | None = position
    for roll in rolls:
        at = _legal_after(at, roll) if at is not None else None
    return at is not None


def _lead(position: Position, player: int, rolls: Sequence[Roll]) -> int:
    """How many of ``player``'s plays among ``rolls`` (both players' next written plays, in order)
    are legal one after the other from ``position``, the other's made as written where their
    checkers can move so (a cheap sieve: the other's play that the search has not chosen yet is
    missing, so theirs are not judged)."""
    at = position
    count = 0
    for roll in rolls:
        mover = roll.player or 0
        before = Position(at.sides, mover)
        if mover == player:
            after = _legal_after(before, roll)
            if after is None:
                break
            at, count = after, count + 1
        else:
            made = physical(before, roll.dice, roll.moves) if Dice(*roll.dice).is_valid else None
            at = made.position if made is not None else at
    return count


def _sieved(position: Position, player: int, rolls: Sequence[Roll], count: int) -> list[tuple[Dice, LegalPlay]]:
    """The plays of any roll of ``player`` from ``position`` under which the most of its next plays
    among ``rolls`` (see :func:`_lead`) stay legal, at most ``count`` (all, where none does and the
    first of them enters from the bar: a hit in between, unknown here, may have put a checker there)."""
    scored = [(_lead(x.position, player, rolls), order, dice, x) for order, (dice, x) in enumerate(_all_plays(position))]
    most = max((score[0] for score in scored), default=0)
    own = next((roll for roll in rolls if roll.player == player), None)
    # a play from the bar, or a dance: a hit in between, unknown here, may have put a checker there
    enters = own is not None and (not own.moves or any(token.points[0] == 25 for token in own.moves))
    return [(dice, x) for lead, _, dice, x in scored if lead == most and (lead or enters)][:count]


def missing_row(replayer: Replaying, start: int, back: int = 0) -> list[Repair]:
    """A row left out before the row at ``start`` (``back`` rows before the one that failed): the
    two plays it held, each of any roll, found by the written plays after it. The first mover's
    play must let its next written play be made, and rank by how many of its later plays stay
    legal (the other's checkers where they stand); the other's must let its own next play be made
    after that one (whose hits it suffers); the pairs of both replay the next four plays."""
    actions = replayer.game.actions
    first = actions[start]
    if not isinstance(first, Roll) or first.player is None or replayer.position is None or replayer.turn is None:
        return []
    mover, other = first.player, 1 - first.player
    after = _next_rolls(actions, start, 12)
    if len(after) < 2 or after[0].player != mover or after[1].player != other:
        return []
    position = replayer.position
    # its number skips one: a row is missing there; else the nearer the failure, the likelier
    cost = 0.5 if skips(actions, start) else 1.5 + 0.1 * back
    own = _sieved(Position(position.sides, mover), mover, after, PAIRS)
    groups: dict[tuple[int, ...], list[tuple[Dice, LegalPlay]]] = {}  # by the other's checkers after it (its hits)
    for dice_x, x in own:
        groups.setdefault(x.position.sides[other], []).append((dice_x, x))
    found: list[Repair] = []
    own_next = next((roll for roll in after if roll.player == mover), None)
    hit = own_next is not None and (not own_next.moves or own_next.moves[0].points[0] == 25) and not position.sides[mover][25]
    for group in groups.values():
        theirs = _sieved(Position(group[0][1].position.sides, other), other, after, PAIRS)
        if hit:  # the mover's next play is from the bar (or a dance), and it was not on the bar: the other's play hit, likely
            theirs.sort(key=lambda play: True not in play[1].hits)
        # at most TRIED pairs looked at: the side with fewer plays keeps them all
        keep_theirs = min(len(theirs), max(int(TRIED**0.5), TRIED // max(1, len(group))))
        keep_own = min(len(group), max(1, TRIED // max(1, keep_theirs)))
        for dice_x, x in group[:keep_own]:
            for dice_y, y in theirs[:keep_theirs]:
                _, checked = Position(x.position.sides, other).check_play(dice_y, y.play)
                if checked is None or not _replays(checked.position, after[:4]):
                    continue
                between = f"{dice_x}: {x}, {dice_y}: {checked}"
                found.append(Repair(start, "act", cost, "skipped-row", f"with a row left out before it, {between}", detail=between,
                                    inserted=((mover, dice_x, x), (other, dice_y, checked))))  # fmt: skip
                if len(found) >= PAIRS:
                    return found
    return found


def unknown_plays(replayer: Replaying, index: int, code: str) -> list[Repair]:
    """The action stands where a play was lost (its text unreadable, its dice no dice, a cube
    word where a roll was): any play of any roll, found by the next plays after it."""
    actions = replayer.game.actions
    action = actions[index]
    player = action.player if action.player is not None else replayer.turn
    if player is None or replayer.position is None or code in PLAY_ERRORS | {"could-move", "roll-without-play", "opening-double"}:
        return []  # a roll whose dice and moves read: its play is one of its dice's
    if code == "turn-order" and replayer.turn is not None:  # the turn of the player on roll was lost before it
        position = Position(replayer.position.sides, replayer.turn)
        after = _next_rolls(actions, index, 2)
        return [Repair(index, "act", 2.0, said=f"with a turn left out before it, {dice}: {x}", inserted=((replayer.turn, dice, x),))
                for dice, x in _all_plays(position) if _replays(x.position, after)]  # fmt: skip
    position = Position(replayer.position.sides, player)
    after = _next_rolls(actions, index + 1, 2)
    written = action.moves if isinstance(action, Roll) else salvaged(action)[1] if isinstance(action, Unreadable) else ()
    closeness: dict[Dice, dict[Position, float]] = {}
    found = []
    for dice, x in _all_plays(position):
        if _replays(x.position, after):
            if written and dice not in closeness:
                closeness[dice] = {option.position: cost for cost, option in reversed(ranked(position, dice, written))}
            cost = 2.0 + closeness[dice].get(x.position, 4.0) / 4 if written else 2.5
            found.append(Repair(index, "skip", cost, said=f"as a lost roll, {dice}: {x}", inserted=((player, dice, x),)))
    found.sort(key=lambda repair: repair.cost)
    return found
