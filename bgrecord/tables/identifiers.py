"""What an occurrence's row reads as, beside its position: the dice as text, the match state
before the action (the fields of GNU Backgammon's Match ID), the Match ID and the XGID. A value
another program wrote that no identifier holds reads as None, never as a failure.

What it does not do: read the index (:mod:`bgrecord.tables.search` and
:mod:`bgrecord.tables.read_back` do), or check that a state could occur.
"""

from __future__ import annotations

from typing import Any

from bgrecord.core.ids import XGID, GameState, MatchState
from bgrecord.core.position import Position
from bgrecord.tables.positions import ANSWERS, Occurrence


def dice_text(seen: Occurrence) -> str | None:
    return f"{max(seen.dice)}{min(seen.dice)}" if seen.dice else None


def match_state(seen: Occurrence, score0: Any, score1: Any, length: Any, crawford: Any, jacoby: Any) -> MatchState:
    """The match state before the action, as GNU Backgammon shows it (its Match ID's fields)."""
    return MatchState(cube=seen.cube, cube_owner=seen.cube_owner, player=seen.player, crawford=bool(crawford), state=GameState.PLAYING,
                      turn=seen.actor, doubled=seen.kind in ANSWERS, dice=seen.dice or (0, 0), length=length or 0,
                      score=(score0 or 0, score1 or 0), jacoby=bool(jacoby))  # fmt: skip


def match_id(state: MatchState) -> str | None:
    try:
        return state.id()
    except (ValueError, OverflowError):  # a value another program wrote that no Match ID holds
        return None


def xgid(position: Position | None, state: MatchState) -> str | None:
    if position is None:
        return None
    try:
        return str(XGID.from_gnubg(position, state))
    except (ValueError, OverflowError, IndexError):
        return None


class Identifiers:
    """The Match ID and XGID of the position in each state it is found in (remembered: the
    occurrences of a position share a few states)."""

    def __init__(self, position_id: str) -> None:
        self.seen_from = [Position.from_id(position_id, player) for player in (0, 1)]
        self.made: dict[MatchState, tuple[str | None, str | None]] = {}

    def of(self, state: MatchState) -> tuple[str | None, str | None]:
        found = self.made.get(state)
        if found is None:
            if len(self.made) > 10_000:
                self.made.clear()
            found = self.made[state] = (match_id(state), xgid(self.seen_from[state.player], state))
        return found
