"""One convention we do not know, told once: repeats of one failure across a file.

A producer's convention bgrecord does not know shows as the same failure at place after place
of one file; told at every place, one unknown convention would look like as many defects. Two
kinds of repeat are folded, each into one error at its first place:

- :class:`Repeats`: the same written text judged wrong by the same check at several places of
  a file (an unknown word in every game, placeholder dice...). Each later place is a warning
  naming the first; ``validate`` says at the first how many places share it.
- :class:`OpeningRuns`: the games of a match that, from its first game on, each fail at their
  first move (either player's first roll) for a reason that rests on the position: the start
  position is not the standard one. The first game gets one ``nonstandard-start`` error, the
  others a warning. (A wrong distance is wrong from any start: it is no sign of the start.)

What is never folded, because there the same text at two places is two defects: a play (its
verdict rests on the position it is played in), bare dice, and the checks whose verdict rests on
where a text stands or on the score (which side won, whose turn it is, the score lines, a game
without an end). Nothing is hidden: every place is still told, as a warning.
"""

from __future__ import annotations

import re

from bgrecord.formats.issues import Issue, Severity, count
from bgrecord.formats.records import Action, CubeAction, GameRecord, Roll
from bgrecord.replay.state import GameReplay

# checks whose verdict rests on where the text stands or on the match around it
_CONTEXTUAL = frozenset({
    "result-winner", "losses-side", "turn-order", "no-player", "header-score", "score-beyond-length", "no-result",
    "after-match", "not-checked", "internal", "nonstandard-start", "unsupported-variant",
})  # fmt: skip
_WORDS = re.compile(r"[A-Za-z?]")


class Repeats:
    """The first place of each (check, text) seen in one file, and how many places repeat it."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], Issue] = {}
        self.more: dict[tuple[str, str], int] = {}

    def fold(self, game: GameRecord, *lists: list[Issue]) -> None:
        """Turn each repeat among ``lists`` (a game's issues, in place) into a warning naming
        its first place."""
        if not any(issue.severity is Severity.ERROR for issues in lists for issue in issues):
            return  # only errors are folded: most games have none, and need no index of their actions
        actions: dict[tuple[int | None, int | None], Action] = {(action.line, action.column): action for action in game.actions}
        for issues in lists:
            for index, issue in enumerate(issues):
                key = _key(issue, actions.get((issue.line, issue.column)))
                if key is None:
                    continue
                first = self.first.setdefault(key, issue)
                if first is issue:
                    continue
                self.more[key] = self.more.get(key, 0) + 1
                where = f"line {first.line}" if first.unit == "line" else f"{first.unit} {first.line}"
                issues[index] = issue.at(severity=Severity.WARNING,
                                         message=f"{issue.message} (the same as at {where}: one convention of this file, told once as an error)")  # fmt: skip

    def counted(self, issues: list[Issue]) -> list[Issue]:
        """``issues`` with, at the first place of each repeat, how many places share it."""
        shared = {id(self.first[key]): more for key, more in self.more.items()}
        return [issue.at(message=f"{issue.message} (and {count(shared[id(issue)], 'more place')} in this file: one convention, told once)")
                if id(issue) in shared else issue for issue in issues]  # fmt: skip


def _key(issue: Issue, action: Action | None) -> tuple[str, str] | None:
    """What makes two errors one repeat: the check and the text as written (its case and
    spacing aside); None for an error that is not folded."""
    if issue.severity is not Severity.ERROR or issue.code in _CONTEXTUAL or action is None:
        return None
    if isinstance(action, Roll) and (action.moves or not _WORDS.search(action.text)):
        return None  # a play, or bare dice
    return issue.code, " ".join(action.text.lower().split())


# the errors of a play that rest on the position it is played in (a wrong distance or bad
# dice are wrong from any start)
_SURE = 8  # plays and cube actions a repaired first move must be followed by to show the start is the standard one
_POSITIONAL = frozenset({"no-checker", "closed-point", "must-enter-first", "cannot-bear-off-yet", "more-dice-could-be-used",
                         "larger-die-could-be-used", "roll-without-play", "could-move", "opening-double"})  # fmt: skip


_START = _POSITIONAL - {"opening-double", "roll-without-play", "could-move"}  # the failures that say where checkers start


def opening_failure(out: GameReplay, unsure: bool = True) -> int | None:
    """The index in ``out.issues`` of the game's first error, where it stands at its first move
    (either player's first roll) for a reason that rests on the position and, with ``unsure``, no
    reading of it replays the game on over a few plays (a slip of the pen in a first move, repaired
    with the game going on cleanly, is that game's own); else None."""
    for index, issue in enumerate(out.issues):
        if issue.severity is Severity.ERROR:
            if issue.code not in _POSITIONAL:
                return None
            rolls = [at for at, action in enumerate(out.game.actions) if isinstance(action, Roll)][:2]
            first = next((at for at in rolls if (out.game.actions[at].line, out.game.actions[at].column) == (issue.line, issue.column)), None)
            if first is None:
                return None
            after = sum(1 for action in out.game.actions[first + 1 :] if isinstance(action, (Roll, CubeAction)))
            return index if not unsure or not out.checked or after < _SURE and issue.code in _START else None
    return None


class OpeningRuns:
    """The games of a match that, from its first game on, each fail at their first move."""

    def __init__(self) -> None:
        self.run: tuple[GameReplay, int] | None = None  # the first game and its failure, until it is said
        self.start: int | None = None  # the index of the first game, once said
        self.broken = False  # a game replayed past its first move: the start is the standard one

    def judge(self, out: GameReplay, held: GameReplay | None) -> None:
        """``out`` replayed; ``held``, the game before it, not yet given out (its error can
        still become the run's one error)."""
        failure = opening_failure(out) if not self.broken else None
        if failure is None:
            self.run, self.start, self.broken = None, None, True
            return
        if self.run is not None and self.run[0] is held:  # the second game of a run: say it once, at the first
            self.close("every game fails")
        if self.start is not None:
            issue = out.issues[failure]
            out.issues[failure] = issue.at(severity=Severity.WARNING, message=f"{issue.message} (like every game before it: "
                                                                              "the start position is not the standard one)")
            return
        self.run = (out, failure)

    def close(self, every: str = "the match's one game fails") -> None:
        """The run's first game's error becomes the one ``nonstandard-start`` error (at the second
        game of the run, or at the end of a match whose only game failed so)."""
        if self.run is None:
            return
        first, at = self.run
        issue = first.issues[at]
        first.issues[at] = issue.at(category="rules", code="nonstandard-start",
                                    message=f"{every} at its first move, under every reading of it: the start position is not one "
                                            f"bgrecord knows (a variant the record does not name?), or the first moves are miswritten; "
                                            f"here: {issue.message}")  # fmt: skip
        self.start, self.run = first.game.index, None
