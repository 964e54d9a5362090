"""Analyses already in the records: eXtreme Gammon's in ``.xg`` files, GNU Backgammon's in its
SGF, an OGXM producer's in OGXM plies. Read into the same facts an engine gives
(:class:`~bgrecord.analysis.engine.EngineMatch`), one per replayed step, so that the tables are
made by the same code whoever analysed (:mod:`bgrecord.analysis.files`), with no engine run.

Each source (:mod:`~bgrecord.analysis.recorded_xg`, :mod:`~bgrecord.analysis.recorded_sgf`,
:mod:`~bgrecord.analysis.recorded_ogxm`) reads its own numbers; what they share is here: which
steps are judged, where each stands (:class:`Place`: the score, the cube, the mover, to turn
match winning chances into equities and luck into its cost) and each game's result. Decisions
are counted as the source's engine counts them (:mod:`bgrecord.analysis.counting`).

What it does not do: judge (the measures do) or check the record (the replay has). An action
whose stored analysis does not read is an action without analysis, never an error.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Protocol

from bgrecord.analysis import met
from bgrecord.analysis.engine import CubeEquities, EngineAction, EngineGame, EngineMatch
from bgrecord.analysis.settings import AnalysisRules
from bgrecord.formats.records import MatchRecord, Roll
from bgrecord.replay import GameReplay, Step

ANALYSED = ("move", "double", "take", "drop", "beaver", "raccoon")  # the steps an analysis judges


def unplayed(action: Any) -> bool:
    return isinstance(action, Roll) and action.note == "unplayed"


def judged_steps(out: GameReplay) -> list[tuple[int, Step]]:
    """(step number, step) of the steps an analysis judges: plays and cube actions of a player."""
    return [(index, step) for index, step in enumerate(out.steps, 1)
            if step.kind in ANALYSED and step.player is not None and not unplayed(step.action)]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Place:
    """Where a decision stands: the match length (0: money), the score before the game, the
    Crawford game, the player deciding and the cube's value."""

    length: int
    score: tuple[int, int]
    crawford: bool
    player: int
    cube: int

    @property
    def known(self) -> bool:
        """Whether match winning chances can be had here (money play, or a match the table covers)."""
        return not self.length or met.covers(self.length)

    def emg(self, mwc: float) -> float:
        """Match winning chances as an equity normalised to money (money play: as they are)."""
        return met.mwc_to_emg(mwc, self.length, self.score, self.player, self.cube, self.crawford) if self.length else mwc

    def cash(self) -> float:
        """Double/pass, normalised: the doubler's match winning chances when the other passes."""
        if not self.length:
            return 1.0
        return self.emg(met.equity_after(self.length, self.score, self.player, self.cube, self.player, self.crawford))

    def cost(self, luck: float | None) -> float | None:
        """Luck (EMG) in match winning chances (money play: points at the cube)."""
        if luck is None or not self.known:
            return None
        return met.cost(luck, self.length, self.score, self.player, self.cube, self.crawford)


class Source(Protocol):
    """A record's stored analysis, read action by action."""

    counting: str  # whose way of counting decisions (a key of counting.COUNTINGS)

    def engine(self, match: MatchRecord) -> tuple[str, str]:
        """Whose analysis (``xg``, ``gnubg``...) and the version the record says ("" when it does not)."""
        ...

    def play(self, raw: dict[str, Any] | None, step: Step, place: Place) -> EngineAction:
        """A roll's play, with the cube decision before it where the analysis holds one."""
        ...

    def double(self, raw: dict[str, Any] | None, place: Place) -> tuple[CubeEquities, str | None] | None:
        """A double's analysis: the cube equities and their level; None when there is none."""
        ...


def source_of(match: MatchRecord) -> Source | None:
    """The reader of the analysis ``match`` stores, or None when it stores none bgrecord reads."""
    engine = match.analysis.get("engine")
    if engine == "xg" and match.format == "xg":
        from bgrecord.analysis.recorded_xg import XgSource

        return XgSource()
    if engine == "gnubg" and match.format == "sgf":
        from bgrecord.analysis.recorded_sgf import SgfSource

        return SgfSource()
    if engine == "ogxm":
        from bgrecord.analysis.recorded_ogxm import OgxmSource

        return OgxmSource()
    return None


def stores_analysis(match: MatchRecord, games: Iterable[GameReplay]) -> bool:
    """Whether the record holds an analysis of these games that bgrecord reads."""
    return source_of(match) is not None and any(out.game.analysis for out in games)


@dataclass(slots=True)
class Recorded:
    """A match's stored analysis as an engine's facts: whose (``engine``: its name and the level
    most of its decisions were made at, ``xg 3ply``), its version, depth and way of counting."""

    facts: EngineMatch
    engine: str
    version: str
    plies: int | None
    counting: str


# the order of depth of the levels (an n-ply level by n; XG's rollouts and XG Roller above them)
_DEPTH = {"book": -1, "roller": 100, "roller+": 101, "roller++": 102, "rollout": 1000}


def depth(level: str) -> int:
    if level.endswith("ply") and level[:-3].isdigit():
        return int(level[:-3])
    return _DEPTH.get(level, -1)


def read_recorded(match: MatchRecord, games: list[GameReplay], rules: AnalysisRules) -> Recorded | None:
    """The analysis ``match`` stores of ``games`` (each replayed, steps kept), or None."""
    source = source_of(match)
    if source is None:
        return None
    length = match.length or 0
    levels: Counter[str] = Counter()
    facts = []
    for out in games:
        stored = {id(out.game.actions[index]): raw for index, raw in out.game.analysis.items() if index < len(out.game.actions)}
        actions = []
        for _, step in judged_steps(out):
            place = Place(length, out.score, out.crawford, step.player or 0, step.cube)
            raw = stored.get(id(step.action))
            if step.kind == "move":
                action = source.play(raw, step, place)
                if action.cube is not None and not rules.may_double(step.cube):  # the rules allow no double here
                    action.cube = None
            elif step.kind == "double":
                found = source.double(raw, place) if rules.may_double(step.cube) else None
                action = EngineAction("double", place.player, cube=found[0] if found else None, cube_value=step.cube,
                                      level=found[1] if found else None)  # fmt: skip
            elif step.kind in ("beaver", "raccoon"):  # not analysed (gnubg's way); the first double's equities stand
                action = EngineAction("double", place.player, cube_value=step.cube, beaver=True)
            else:
                action = EngineAction(step.kind, place.player, cube_value=step.cube)
            if action.level:
                levels[action.level] += 1
            actions.append(action)
        facts.append(EngineGame(actions, _result(length, out)))
    name, version = source.engine(match)
    if not levels:
        return Recorded(EngineMatch(facts), name, version, None, source.counting)
    level = max(levels, key=lambda found: (levels[found], depth(found)))
    plies = depth(level) if level.endswith("ply") else None
    return Recorded(EngineMatch(facts), f"{name} {level}", version, plies, source.counting)


def _result(length: int, out: GameReplay) -> tuple[float, float]:
    """The game's result for each player, as gnubg's statistics count it (0 when not known)."""
    result = out.result
    if result is None or (length and not met.covers(length)):
        return (0.0, 0.0)
    return met.game_result(length, out.score, result.winner, result.points, out.crawford)
