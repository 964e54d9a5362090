"""An OGXM producer's analysis of each ply, as an engine's facts. A checker ply's analysis holds
its ``alternatives`` (best first: ``equity``, ``move``), ``best_equity`` and ``played_equity``,
the roll's luck (``roll.luck``), the producer's own ``decision`` flag where it writes one, and the
cube decision before the roll (``cube_decision``, or ``missed_double``); a double's, its no
double, double/take and double/pass equities. Equities in match winning chances (a currency of
``cubeful_match``, with the ply's ``emg_anchors``: its losing and winning chances) are
normalised to money equity from the anchors; ``*_norm_eq`` are so already. A play counts as
the producer says, where it says, else as gnubg counts (more than one alternative).
"""

from __future__ import annotations

import math
from typing import Any

from bgrecord.analysis.engine import CubeEquities, EngineAction
from bgrecord.analysis.recorded import Place
from bgrecord.formats.ogxm import ply_steps
from bgrecord.formats.records import MatchRecord
from bgrecord.replay import Step

_BOUND = 10.0  # an equity beyond this is not one


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or abs(value) > _BOUND:
        return None
    return float(value)


def _normaliser(found: dict[str, Any]) -> Any:
    """Equities of ``found`` to money equity: from its anchors (losing, winning chances), if any."""
    anchors = found.get("emg_anchors")
    if isinstance(anchors, list) and len(anchors) == 2:
        lose, win = (_number(value) for value in anchors)
        if lose is not None and win is not None and win > lose:
            return lambda value: None if value is None else (2 * value - (win + lose)) / (win - lose)
    return lambda value: value


def _level(found: dict[str, Any]) -> str | None:
    level = found.get("level")
    if not isinstance(level, dict):
        return None
    if isinstance(level.get("rollout"), dict):
        return "rollout"
    plies = level.get("checker_ply", level.get("cube_ply"))
    return f"{plies}ply" if isinstance(plies, int) and not isinstance(plies, bool) else None


def _cube(found: Any, outer: dict[str, Any]) -> tuple[CubeEquities, str | None] | None:
    if not isinstance(found, dict):
        return None
    normal = _normaliser(found if "emg_anchors" in found else outer)
    values = []
    for name in ("no_double", "double_take", "double_pass"):
        value = _number(found.get(f"{name}_norm_eq"))
        values.append(value if value is not None else normal(_number(found.get(f"{name}_equity"))))
    nd, dt, dp = values
    if nd is None or dt is None or dp is None:
        return None
    return CubeEquities(nd, dt, dp, True), _level(found) or _level(outer)


class OgxmSource:
    counting = "gnubg"

    def engine(self, match: MatchRecord) -> tuple[str, str]:
        info = match.analysis
        name = next((str(info[key]) for key in ("model_name", "producer") if isinstance(info.get(key), str) and info[key]), "ogxm")
        build = info.get("engine_build")
        return name.lower()[:40], str(build)[:40] if isinstance(build, str) else ""

    def play(self, raw: dict[str, Any] | None, step: Step, place: Place) -> EngineAction:
        action = EngineAction("move", place.player, dice=step.dice, cube_value=place.cube)
        if raw is None:
            return action
        cube = _cube(raw.get("cube_decision") or raw.get("missed_double"), raw)
        if cube is not None:
            action.cube = cube[0]
        normal = _normaliser(raw)
        listed = raw.get("alternatives")
        alternatives = [found for found in listed if isinstance(found, dict)] if isinstance(listed, list) else []
        best, played = normal(_number(raw.get("best_equity"))), normal(_number(raw.get("played_equity")))
        if alternatives and best is not None:
            action.candidates = len(alternatives)
            action.best_equity, action.played_equity = best, played if played is not None else best
            steps = ply_steps(place.player, alternatives[0].get("move"))
            action.best = tuple(steps) if steps is not None else None
        decision = raw.get("decision")
        action.counted = decision if isinstance(decision, bool) else None
        roll = raw.get("roll")
        luck = _number(roll.get("luck") if isinstance(roll, dict) else raw.get("luck"))
        action.luck, action.luck_cost = luck, place.cost(luck)
        action.level = _level(raw)
        return action

    def double(self, raw: dict[str, Any] | None, place: Place) -> tuple[CubeEquities, str | None] | None:
        return _cube(raw, raw) if raw else None
