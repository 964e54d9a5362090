"""eXtreme Gammon's analysis in an ``.xg`` file (as :mod:`bgrecord.formats.xg_analysis` reads
it), as an engine's facts: XG's equities are already normalised to money (EMG), from the
decider's side. The play made is the candidate whose stored position is the record's position
after the play; the best, XG's first candidate (for an illegal play, the best of the others).
A play's level is its record's (the level XG says it analysed the move at); it counts as XG
counts it (:func:`bgrecord.analysis.counting.xg_play_counted`).
"""

from __future__ import annotations

from typing import Any

from bgrecord.analysis.counting import xg_play_counted
from bgrecord.analysis.engine import CubeEquities, EngineAction
from bgrecord.analysis.recorded import Place
from bgrecord.core.position import BAR, OFF
from bgrecord.formats.records import MatchRecord
from bgrecord.formats.xg_analysis import LEVELS
from bgrecord.replay import Step


def _pairs(moves: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """XG's eight bytes of a play: (from, to) pairs, 0-based in the mover's numbering (24 the
    bar, below 0 off), ended by -1 or an empty pair."""
    pairs = []
    for source, target in zip(moves[::2], moves[1::2]):
        if source < 0 or (source == 0 and target == 0):
            break
        pairs.append((BAR if source >= 24 else source + 1, OFF if target < 0 else target + 1))
    return tuple(pairs)


def _cube(raw: dict[str, Any] | None) -> tuple[CubeEquities, str | None] | None:
    if raw is None or raw.get("kind") != "cube":
        return None
    return CubeEquities(raw["nd"], raw["dt"], raw["dp"], True), LEVELS.get(raw["level"])


class XgSource:
    counting = "xg"

    def engine(self, match: MatchRecord) -> tuple[str, str]:
        return "xg", ""

    def play(self, raw: dict[str, Any] | None, step: Step, place: Place) -> EngineAction:
        action = EngineAction("move", place.player, dice=step.dice, cube_value=place.cube, counted=False)
        if raw is None:
            return action
        cube = _cube(raw.get("cube"))
        if cube is not None:
            action.cube = cube[0]
        candidates = raw["candidates"]
        if not candidates:
            return action
        equities = [candidate["equity"] for candidate in candidates]
        played = next((number for number, candidate in enumerate(candidates) if candidate["played"]), None)
        best = 0
        if raw["illegal"] and played is not None and len(candidates) > 1:  # the best legal play: the best of the others
            best = max((number for number in range(len(candidates)) if number != played), key=lambda number: equities[number])
        action.candidates = len(candidates)
        action.best = _pairs(candidates[best]["moves"])
        action.best_equity = equities[best]
        action.played_equity = equities[played] if played is not None else equities[best]
        action.counted = xg_play_counted(equities, raw["analysed"], raw["illegal"])
        action.luck = raw["luck"]
        action.luck_cost = place.cost(raw["luck"])
        action.level = LEVELS.get(raw["level"])
        return action

    def double(self, raw: dict[str, Any] | None, place: Place) -> tuple[CubeEquities, str | None] | None:
        return _cube(raw)
