"""Which decisions count, as the engine that made an analysis counts them: a player's error
rate and PR are the error of the counted decisions over their number, and engines differ in
what they count (docs/analysis.md sets them side by side).

- GNU Backgammon (:class:`Counting`): every unforced play (more than one legal play); the
  close cube decisions (doubling costs less than 0.16) and every actual double, take and pass.
- eXtreme Gammon (:class:`XgCounting`): a play XG analysed with a real choice (its candidates'
  equities differ by 0.0001 or more: XG's display precision), not an illegal one; a cube
  decision unless it is trivial (no double and doubling within 0.001, or either more than 0.2
  apart, or both no double and double/take below -0.9), and a take or pass unless take and pass
  are within 0.001. This is XG's rule as gammonview reads it from XG's own PR figures (XG
  publishes no definition); an error of 0.001 or more always counts.

The errors themselves are the same definitions for every engine (:mod:`bgrecord.analysis.measures`);
a decision's mark follows the thresholds of the analysis.
"""

from __future__ import annotations

from bgrecord.analysis.engine import CubeEquities, EngineAction
from bgrecord.analysis.measures import Judged, Thresholds, judge_answer, judge_double, judge_no_double, judge_play

XG_SPREAD = 1e-4  # XG counts a play whose candidates' equities differ by this much (its display precision)
XG_TRIVIAL = 0.001  # a cube error below this, on a trivial cube decision, is no decision


class Counting:
    """GNU Backgammon's way of counting decisions."""

    name = "gnubg"

    def __init__(self, thresholds: Thresholds) -> None:
        self.thresholds = thresholds

    def marked(self, judged: Judged) -> Judged:
        judged.mark = self.thresholds.mark(judged.error)
        return judged

    def play(self, action: EngineAction) -> Judged:
        """A roll's play; ``action.counted``, where the source says, wins over the rule."""
        judged = judge_play(action.best_equity, action.played_equity, action.candidates)
        if action.counted is not None:
            judged.counted = action.counted
        return self.marked(judged)

    def no_double(self, cube: CubeEquities) -> Judged:
        return self.marked(judge_no_double(cube)[0])

    def double(self, cube: CubeEquities) -> Judged:
        return self.marked(judge_double(cube))

    def answer(self, cube: CubeEquities, take: bool) -> Judged:
        return self.marked(judge_answer(cube, take))


def _trivial(nd: float, dt: float, dp: float) -> bool:
    doubled = min(dt, dp)
    return abs(nd - doubled) < XG_TRIVIAL or nd - dt > 0.2 or nd - dp > 0.2 or (nd < -0.9 and dt < -0.9)


class XgCounting(Counting):
    """eXtreme Gammon's way of counting decisions (the plays: the reader says which count)."""

    name = "xg"

    def no_double(self, cube: CubeEquities) -> Judged:
        judged = super().no_double(cube)
        nd, dt, dp = (round(value, 4) for value in (cube.no_double, cube.double_take, cube.double_pass))  # as XG shows them
        missed = max(0.0, min(dt, dp) - nd)
        judged.counted = not _trivial(nd, dt, dp) or missed >= XG_TRIVIAL
        return judged

    def double(self, cube: CubeEquities) -> Judged:
        judged = super().double(cube)
        judged.counted = not _trivial(cube.no_double, cube.double_take, cube.double_pass) or round(judged.error, 4) >= XG_TRIVIAL
        return judged

    def answer(self, cube: CubeEquities, take: bool) -> Judged:
        judged = super().answer(cube, take)
        judged.counted = abs(cube.double_take - cube.double_pass) >= XG_TRIVIAL
        return judged


def xg_play_counted(equities: list[float], analysed: bool, illegal: bool) -> bool:
    """Whether XG counts a play: analysed, legal, and its candidates' equities spread."""
    return analysed and not illegal and len(equities) > 1 and max(equities) - min(equities) >= XG_SPREAD


COUNTINGS: dict[str, type[Counting]] = {"gnubg": Counting, "xg": XgCounting}
