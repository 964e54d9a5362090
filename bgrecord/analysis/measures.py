"""What an analysis measures, as GNU Backgammon defines it (docs/analysis.md says each in
words): the error of a checker play and of a cube decision, the luck of a roll, and each
player's totals over a match, with gnubg's rating label.

Every figure is computed in C ``float`` arithmetic, in gnubg's order (per game, then the
games summed), so that the totals are gnubg's own statistics to the last bit, not merely
close to them: :func:`f32` rounds each step as gnubg's C code does.

What this module does not do: evaluate anything (the engine did) or know about records
(:mod:`bgrecord.analysis.files` maps the facts to the replay's steps).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

from bgrecord.analysis.engine import CubeEquities

_FLOAT = struct.Struct("f")


def f32(value: float) -> float:
    """``value`` rounded to a C float (IEEE single precision)."""
    return float(_FLOAT.unpack(_FLOAT.pack(value))[0])


# stock gnubg 1.07.001's thresholds (what its ``show analysis`` says): an error above one marks a
# decision. The thresholds of an analysis are those of the gnubg run (:class:`Thresholds`)
STOCK_THRESHOLDS = {"doubtful": 0.03, "bad": 0.06, "very bad": 0.12}
CLOSE = f32(0.16)  # a cube decision is close when doubling costs less than this (gnubg: isCloseCubedecision)
# gnubg's rating of an error per decision (EMG): the label of the first bound it is below
RATINGS = ((f32(0.002), "Supernatural"), (f32(0.005), "World class"), (f32(0.008), "Expert"), (f32(0.012), "Advanced"),
           (f32(0.018), "Intermediate"), (f32(0.026), "Casual player"), (f32(0.035), "Beginner"))  # fmt: skip
AWFUL = "Awful!"
MARKS = ("doubtful", "bad", "very bad")


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The errors (EMG) above which a decision is marked doubtful, bad, very bad."""

    doubtful: float = STOCK_THRESHOLDS["doubtful"]
    bad: float = STOCK_THRESHOLDS["bad"]
    very_bad: float = STOCK_THRESHOLDS["very bad"]

    @classmethod
    def of(cls, found: dict[str, float]) -> Thresholds:
        """The thresholds an engine said (``doubtful``, ``bad``, ``very bad``), the stock ones where it said none."""
        values = {**STOCK_THRESHOLDS, **{name: value for name, value in found.items() if name in STOCK_THRESHOLDS}}
        return cls(values["doubtful"], values["bad"], values["very bad"])

    def mark(self, error: float) -> str | None:
        """gnubg's mark of a decision that cost ``error`` (EMG, not negative): None when unmarked."""
        for name, bound in (("very bad", self.very_bad), ("bad", self.bad), ("doubtful", self.doubtful)):
            if error > f32(bound):
                return name
        return None


def skill(error: float, thresholds: Thresholds = Thresholds()) -> str | None:
    """gnubg's mark of a decision that cost ``error`` (EMG, not negative): None when unmarked."""
    return thresholds.mark(error)


def rating(error_per_decision: float | None) -> str | None:
    """gnubg's rating label of an error rate (EMG per decision); None without decisions."""
    if error_per_decision is None:
        return None
    return next((label for bound, label in RATINGS if error_per_decision < bound), AWFUL)


# --- one decision ---


@dataclass(frozen=True, slots=True)
class CubeJudgement:
    """A cube decision judged: the equity of each choice (doubler's side) and the best."""

    optimal: float  # the equity of the best choice
    double_best: bool  # doubling is the best choice


def judge_cube(cube: CubeEquities) -> CubeJudgement:
    """gnubg's FindBestCubeDecision: double when double/take and double/pass both beat no
    double (then the opponent's better answer), else no double."""
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    if cube.available and dt >= nd and dp >= nd:
        return CubeJudgement(dt if dp > dt else dp, True)
    return CubeJudgement(nd, False)


def is_close(cube: CubeEquities, judged: CubeJudgement) -> bool:
    """gnubg's isCloseCubedecision: doubling costs less than 0.16 against the best."""
    return f32(judged.optimal - min(cube.double_take, 1.0)) < CLOSE


@dataclass(slots=True)
class Judged:
    """A decision's error (EMG, not negative), and whether and where it is counted."""

    error: float
    counted: bool  # a decision of the totals: an unforced play, a close or actual cube decision
    category: str | None = None  # of a cube error: missed double below/above CP, wrong double below DP/above TG, wrong take/pass
    equity: float | None = None  # of the choice made (the chooser's side)
    best_equity: float | None = None
    best: str | None = None  # of a cube decision: the best choice in words
    mark: str | None = None  # doubtful, bad, very bad (set by the counting, with its thresholds)


def judge_no_double(cube: CubeEquities) -> tuple[Judged, bool]:
    """Rolling without doubling: (its judgement, whether it is one of gnubg's cube decisions).
    A missed double is always close (gnubg counts its error either way)."""
    judged = judge_cube(cube)
    error = f32(judged.optimal - cube.no_double) if cube.no_double < judged.optimal else 0.0
    category = None
    if error:
        category = "missed double above CP" if cube.double_take > 1.0 else "missed double below CP"
    close = is_close(cube, judged)
    best = _cube_best(cube, judged)
    return Judged(error, close, category, cube.no_double, judged.optimal, best), close


def judge_double(cube: CubeEquities) -> Judged:
    """A double: worth the opponent's better answer, min(DT, DP); wrong when no double was best."""
    judged = judge_cube(cube)
    doubled = cube.double_take if cube.double_take < cube.double_pass else cube.double_pass
    cost = f32(doubled - judged.optimal)
    error = f32(-cost) if cost < 0 else 0.0
    category = None
    if error:
        category = "wrong double above TG" if cube.no_double > 1.0 else "wrong double below DP"
    return Judged(error, True, category, doubled, judged.optimal, _cube_best(cube, judged))


def judge_answer(cube: CubeEquities, take: bool) -> Judged:
    """A take or a pass, judged with the double's equities (the taker's side is their negation)."""
    take_equity, pass_equity = -cube.double_take, -cube.double_pass
    made, other = (take_equity, pass_equity) if take else (pass_equity, take_equity)
    error = f32(other - made) if made < other else 0.0
    category = ("wrong take" if take else "wrong pass") if error else None
    best = "take" if take_equity >= pass_equity else "pass"
    return Judged(error, True, category, made, max(made, other), best)


def judge_play(best_equity: float | None, played_equity: float | None, candidates: int) -> Judged:
    """A checker play: the best play's equity less the play's, counted when there was a choice."""
    if best_equity is None or played_equity is None:
        return Judged(0.0, candidates > 1)
    error = f32(best_equity - played_equity)
    return Judged(max(error, 0.0), candidates > 1, None, played_equity, best_equity)


def _cube_best(cube: CubeEquities, judged: CubeJudgement) -> str:
    """The best choice in words: no double, too good (to double: playing on beats cashing),
    double/take or double/pass (the opponent's right answer)."""
    if not judged.double_best:
        return "too good" if cube.available and cube.no_double > cube.double_pass else "no double"
    return "double, take" if cube.double_pass > cube.double_take else "double, pass"


# --- totals ---

# the kinds of cube error, in gnubg's order, with their columns in the players table
CUBE_CATEGORIES = {"missed double below CP": "missed_doubles_below_cp", "missed double above CP": "missed_doubles_above_cp",
                   "wrong double below DP": "wrong_doubles_below_dp", "wrong double above TG": "wrong_doubles_above_tg",
                   "wrong take": "wrong_takes", "wrong pass": "wrong_passes"}  # fmt: skip


@dataclass(slots=True)
class Sums:
    """One player's sums over a game or a match, in gnubg's float arithmetic."""

    moves: int = 0  # every roll played (forced ones and dances too)
    checker_decisions: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0  # close or actual
    cube_errors: dict[str, float] = field(default_factory=lambda: dict.fromkeys(CUBE_CATEGORIES, 0.0))
    cube_counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CUBE_CATEGORIES, 0))
    checker_marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))  # every play, as gnubg counts
    cube_marks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))
    luck: float = 0.0
    luck_cost: float = 0.0
    actual_result: float = 0.0
    luck_adjusted_result: float = 0.0

    @property
    def cube_error(self) -> float:
        """The six kinds of cube error, summed in gnubg's order."""
        total = 0.0
        for name in CUBE_CATEGORIES:
            total = f32(total + self.cube_errors[name])
        return total

    @property
    def error(self) -> float:
        return f32(self.checker_error + self.cube_error)

    @property
    def decisions(self) -> int:
        return self.checker_decisions + self.cube_decisions

    def add_checker(self, judged: Judged) -> None:
        self.moves += 1
        if judged.counted:
            self.checker_decisions += 1
            self.checker_error = f32(self.checker_error + judged.error)
        if judged.mark is not None:
            self.checker_marks[judged.mark] += 1

    def add_cube(self, judged: Judged) -> None:
        self.cube_decisions += judged.counted
        if judged.category is not None:
            self.cube_counts[judged.category] += 1
            self.cube_errors[judged.category] = f32(self.cube_errors[judged.category] + judged.error)
        if judged.mark is not None:
            self.cube_marks[judged.mark] += 1

    def marks(self, name: str) -> int:
        """Decisions marked ``name`` (doubtful, bad, very bad): plays and cube decisions."""
        return self.checker_marks[name] + self.cube_marks[name]

    def add_luck(self, luck: float, cost: float) -> None:
        self.luck = f32(self.luck + luck)
        self.luck_cost = f32(self.luck_cost + cost)

    def add(self, other: Sums) -> None:
        """A game's sums into a match's (gnubg's AddStatcontext)."""
        self.moves += other.moves
        self.checker_decisions += other.checker_decisions
        self.checker_error = f32(self.checker_error + other.checker_error)
        self.cube_decisions += other.cube_decisions
        for name in CUBE_CATEGORIES:
            self.cube_errors[name] = f32(self.cube_errors[name] + other.cube_errors[name])
            self.cube_counts[name] += other.cube_counts[name]
        for name in MARKS:
            self.checker_marks[name] += other.checker_marks[name]
            self.cube_marks[name] += other.cube_marks[name]
        self.luck = f32(self.luck + other.luck)
        self.luck_cost = f32(self.luck_cost + other.luck_cost)
        self.actual_result = f32(self.actual_result + other.actual_result)
        self.luck_adjusted_result = f32(self.luck_adjusted_result + other.luck_adjusted_result)


class GameSums:
    """Both players' sums over one game, with the luck-adjusted result kept as gnubg keeps it:
    the actual result, less each roll's luck for its roller, plus it for the opponent."""

    def __init__(self, actual_result: tuple[float, float]) -> None:
        self.players = (Sums(), Sums())
        for side in (0, 1):
            self.players[side].actual_result = actual_result[side]
            self.players[side].luck_adjusted_result = actual_result[side]

    def luck(self, player: int, luck: float, cost: float) -> None:
        self.players[player].add_luck(luck, cost)
        mine, theirs = self.players[player], self.players[1 - player]
        mine.luck_adjusted_result = f32(mine.luck_adjusted_result - cost)
        theirs.luck_adjusted_result = f32(theirs.luck_adjusted_result + cost)


def per_decision(total: float, count: int) -> float | None:
    """``total / count`` in C float (gnubg's rate), None without decisions."""
    return f32(total / f32(count)) if count else None


def derived(sums: Sums, all_moves: int) -> dict[str, Any]:
    """The rates and the rating of one player's match sums; ``all_moves``: both players' moves."""
    error, decisions = sums.error, sums.decisions
    rate = per_decision(error, decisions)
    return {
        "error_rate": error / decisions * 1000 if decisions else None,
        "pr": error / decisions * 500 if decisions else None,
        "snowie_er": error / all_moves * 1000 if all_moves else None,
        "luck_rate": sums.luck / sums.moves * 1000 if sums.moves else None,
        "rating": rating(rate),
    }
