"""The repairs of a game's replay: its whole state kept and restored between two actions, an
action read as its :class:`~bgrecord.replay.repairs.Repair` says, the game not checked past an
error no reading gets past, and what a new error's repair is (asked of
:mod:`bgrecord.replay.recovery`). A part of :class:`bgrecord.replay.game.GameReplayer`, which
replays the game again from its start after each new repair: the game is the record plus its
repairs, the same way every time."""

from __future__ import annotations

from typing import Any

from bgrecord.core.position import Position
from bgrecord.formats.issues import Severity
from bgrecord.formats.records import Action, GameRecord, MatchRecord, Roll, SetPosition, Unreadable
from bgrecord.replay.cube import Cube
from bgrecord.replay.recovery import decide
from bgrecord.replay.repairs import LOOK, MAX_REPAIRS, Repair, State
from bgrecord.replay.results import Claims
from bgrecord.replay.rules import RuleSet
from bgrecord.replay.state import GameReplay, GameResult, Stop

# what a cube action or result lost in a loose line (see Unreadable.loose) shows as at the next action
# (such a line holds no dice and no move: no roll is lost, only a cube action)
LOST_ACTION = frozenset({"double-unanswered", "answer-without-double", "answer-by-doubler"})


class Repairing:
    """The repair machinery of a game's replay; the replayer's own fields it works on are below."""

    match: MatchRecord
    game: GameRecord
    rules: RuleSet
    work: int
    out: GameReplay
    position: Position | None
    turn: int | None
    unplayed: Roll | None
    rolls: list[int]
    result: GameResult | None
    inferred: set[str]
    before: tuple[int, int | None, int | None]
    cube: Cube
    claims: Claims
    loose: list[Unreadable]
    pending: Unreadable | None
    repairs: dict[int, Repair]
    lenient: bool
    quiet: bool
    keep_steps: bool
    lost: set[int]
    recover: bool
    initial: State

    # the replayer's own, which the repairs call (declared here, defined by GameReplayer)
    def act(self, action: Action) -> None: ...
    def roll(self, action: Roll, repair: Repair | None = None) -> None: ...
    def step(self, action: Action, kind: str, before: Position | None, dice: tuple[int, int] | None = None, play: Any = None) -> None: ...
    def issue(self, severity: Severity, category: str, code: str, message: str, action: Action | None) -> None: ...
    def explain(self, loose: Unreadable, why: str) -> None: ...
    def play_from(self, start: int, end: int) -> None: ...

    def snapshot(self) -> State:
        """The replay's state between two actions (what :meth:`restore` goes back to)."""
        cube, claims, out = self.cube, self.claims, self.out
        return (self.position, self.turn, self.unplayed, tuple(self.rolls), self.result, frozenset(self.inferred), self.before,
                cube.value, cube.owner, cube.turned, cube.automatic, cube.offer, tuple(claims.lines), claims.offer,
                tuple(self.loose), self.pending, len(out.issues), len(out.steps), out.checked)  # fmt: skip

    def restore(self, state: State) -> None:
        cube, claims, out = self.cube, self.claims, self.out
        (self.position, self.turn, self.unplayed, rolls, self.result, inferred, self.before, cube.value, cube.owner, cube.turned,
         cube.automatic, cube.offer, lines, claims.offer, loose, self.pending, issues, steps, out.checked) = state  # fmt: skip
        self.rolls, self.inferred, claims.lines, self.loose = list(rolls), set(inferred), list(lines), list(loose)
        del out.issues[issues:]
        del out.steps[steps:]

    def apply(self, repair: Repair, index: int) -> int:
        """The action at ``index`` as ``repair`` reads it; the index of the next action to replay."""
        actions = self.game.actions
        action = actions[index]
        if repair.issue is not None and not self.quiet:
            self.out.issues.append(repair.issue)
        if repair.then == "halt":
            return self.halt(index, repair)
        if self.keep_steps:
            self.before = (self.cube.value, self.cube.owner, self.cube.offered)
        steps = len(self.out.steps)
        for player, dice, legal in repair.inserted:  # plays the record left out, before the action
            self.position, self.turn = legal.position, 1 - player
            self.rolls[player] += 1
        if repair.then == "play" and isinstance(action, Roll):
            self.roll(action, repair)
        elif repair.then == "lenient":
            self.lenient = True
            try:
                self.act(action)
            finally:
                self.lenient = False
        elif repair.then == "act":
            self.act(repair.action or action)
        elif repair.then == "skip":
            for left in actions[index : index + 1 + repair.skipped]:
                self.step(left, "left-out", self.position)
        for step in self.out.steps[steps:]:
            if step.action is action or step.action is repair.action or repair.then == "skip":
                step.repair = repair.said or "as written"
        return index + 1 + repair.skipped

    def halt(self, index: int, repair: Repair) -> int:
        """The rest of the game from ``index`` is not checked: an info says so."""
        actions = self.game.actions
        action = actions[index]
        if not self.quiet:
            after = f" after the error at {repair.said}" if repair.said else ""
            why = f": no reading of the record replays past here{after}" if self.recover else ""
            self.issue(Severity.INFO, "structure", "not-checked", f"the rest of this game is not checked{why} (checking resumes with the "
                       "next game)", action)  # fmt: skip
        self.loose += [later for later in actions[index + 1 :] if isinstance(later, Unreadable) and later.loose]  # not checked: no defect told there
        self.out.checked = False
        return len(actions)

    def repaired(self, stop: Stop) -> dict[int, Repair]:
        """The repair of the error ``stop`` (by its index): what the record is read to mean
        there, or where checking stops."""
        index = stop.index
        lost = self.lost_action(stop)
        if lost is not None:
            return {index: lost}
        last = max(self.repairs, default=None)
        if last is not None and (index - last <= LOOK or any(isinstance(a, SetPosition) for a in self.game.actions[last:index])):
            # it fails again within a few actions of the last repair, under every reading of it (a passage
            # the record garbled), or after a board the producer set up from its own course past that error:
            # the same cause, not a new defect; the game is not checked on
            return {index: Repair(index, "halt", 0.0, said=f"line {self.game.actions[last].line}")}
        if self.recover and len(self.repairs) < MAX_REPAIRS and index not in self.repairs:
            repair = decide(self, index, stop.issue)
            if repair.index not in self.repairs and repair.index > max(self.repairs, default=-1):
                return {repair.index: repair}
        return {index: Repair(index, "halt", 0.0, issue=stop.issue)}

    def lost_action(self, stop: Stop) -> Repair | None:
        """After a loose line, an action that fails for want of a cube action: the line may have
        held it. It stays the reader's error, saying so, and the game is not checked past it."""
        pending, issue = self.pending, stop.issue
        action = self.game.actions[stop.index]
        if pending is None or action is pending or issue is None or issue.code not in LOST_ACTION:
            return None
        self.lost.add(id(pending))
        self.explain(pending, f"; the action after it fails ({issue.message}): it may hold a lost cube action")
        return Repair(stop.index, "halt", 0.0)

    def ended_cleanly(self) -> bool:
        """Whether the game, replayed to its last action, agrees with its result lines (a trial's
        last check: nothing is kept)."""
        if self.result is None:
            return True
        issues = self.out.issues
        mark = len(issues)
        self.claims.check(self.result)
        clean = not any(issue.severity is Severity.ERROR for issue in issues[mark:])
        del issues[mark:]
        return clean

