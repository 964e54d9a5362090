"""The boundary between bgrecord and an analysis engine: what bgrecord gives an engine (a
match as a .mat text it wrote from its own replay, the plies, the rules) and what an engine
gives back (:class:`EngineMatch`: per game, per action, the facts the engine found).

An engine only evaluates. Errors, totals, ratings and the mapping back to the record are
bgrecord's (:mod:`bgrecord.analysis.measures`, :mod:`bgrecord.analysis.files`), the same
for every engine. Equities are cubeful and normalised to money equity (EMG) from the side
of the player who acts, as GNU Backgammon gives them. An engine fails one match at a time
(:class:`EngineError`): the run goes on with the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class EngineError(Exception):
    """The engine could not analyse one match (it crashed, timed out, or refused it)."""


class EngineMissing(Exception):
    """The engine is not installed; the message says how to install it."""


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """A cube decision as the engine saw it, from the doubler's side: no double, double and
    take, double and pass; ``available``: the doubler may double (else the best is no double)."""

    no_double: float
    double_take: float
    double_pass: float
    available: bool


@dataclass(slots=True)
class EngineAction:
    """One action as the engine read and judged it. ``player`` 0 is the left column."""

    action: str  # move, double, take, drop, resign
    player: int
    dice: tuple[int, int] | None = None
    move: tuple[tuple[int, int], ...] = ()  # (from, to) in the mover's numbering, 25 the bar, 0 off
    position_id: str | None = None  # before the action, from the acting player's side
    candidates: int = 0  # legal plays the engine ranked (distinct resulting positions)
    best: tuple[tuple[int, int], ...] | None = None
    best_equity: float | None = None
    played_equity: float | None = None
    luck: float | None = None  # EMG
    luck_cost: float | None = None  # in match winning chances (money play: points at the cube)
    cube: CubeEquities | None = None  # before a roll: the cube decision, when the engine analysed one
    cube_value: int = 1
    beaver: bool = False  # a double that answers a double (not analysed)
    counted: bool | None = None  # a play the source says counts or not (an analysis read from a record); None: the rule says
    level: str | None = None  # how deep the action was evaluated, as the engine names it ("0ply", "roller++")


@dataclass(slots=True)
class EngineGame:
    actions: list[EngineAction]
    actual_result: tuple[float, float] = (0.0, 0.0)  # per player, in match winning chances (money: points)
    reference: dict[str, Any] = field(default_factory=dict)  # the engine's own statistics of the game, if it has them


@dataclass(slots=True)
class EngineMatch:
    games: list[EngineGame]
    reference: dict[str, Any] = field(default_factory=dict)  # the engine's own statistics of the match


class Engine(Protocol):
    """An analysis engine: one instance a worker, fed match after match."""

    name: str  # e.g. "gnubg"
    version: str  # e.g. "1.07.001" ("" until started, or when it does not say)
    thresholds: dict[str, float]  # its default analysis thresholds: doubtful, bad, very bad

    def settings(self) -> tuple[str, dict[str, float]]:
        """The version and thresholds (the engine started when it is not)."""
        ...

    def analyse(self, mat: str, plies: int, jacoby: bool, cube: bool = True) -> EngineMatch:
        """The facts of the match written in ``mat`` (a .mat text), analysed at ``plies``
        (``cube``: the cube is in use; else no cube decision is analysed). Raises
        :class:`EngineError` when this match cannot be analysed."""
        ...

    def close(self) -> None:
        """Stop the engine (it may be started again by the next :meth:`analyse`)."""
        ...
