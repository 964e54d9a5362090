"""One game replayed: every action of a :class:`GameRecord` in order, through the rules.

Turns (a dance is a turn; a turn left out of the record is accepted only when the player on
roll could play no roll at all: closed out), dice and plays (resolved from the notation by
:mod:`bgrecord.replay.resolve`), hit marks, set-ups, and the end of the game. The cube
(:mod:`bgrecord.replay.cube`) and the result lines (:mod:`bgrecord.replay.results`) are
parts of it. What it does not know: the match around the game (the score and the Crawford
game come from :mod:`bgrecord.replay.match`).

Recovery, not cascades: after an error, the replay finds what the record goes on from
(:mod:`bgrecord.replay.recovery`: the play as written, a repair, a row left out or written twice...)
and keeps checking; each error stands at its own line, and what follows from one cause is not
told again. The game is the record plus the repairs taken (:attr:`GameReplayer.repairs`): after
each new repair it is replayed from its start, the same way every time. A game no repair fits is
not checked past its error, and an info says so.
"""

from __future__ import annotations

import weakref

from bgrecord.core.position import CHECKERS, Dice, Illegal, LegalPlay, Play, Position
from bgrecord.escapes import quoted
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import Action, Comment, CubeAction, GameRecord, MatchRecord, Result, Roll, SetPosition, Unreadable
from bgrecord.names import named
from bgrecord.replay.cube import Cube
from bgrecord.replay.repairing import Repairing
from bgrecord.replay.repairs import ROLLS, Repair
from bgrecord.replay.resolve import Resolution, marked_hits, physical, resolve
from bgrecord.replay.results import Claims, outcome_result
from bgrecord.replay.rows import row_issues
from bgrecord.replay.rules import RuleSet
from bgrecord.replay.setup import read_setup
from bgrecord.replay.state import GameReplay, GameResult, Step, Stop





class GameReplayer(Repairing):
    def __init__(self, match: MatchRecord, game: GameRecord, rules: RuleSet, out: GameReplay, marks: bool, keep_steps: bool,
                 recover: bool = True) -> None:  # fmt: skip
        self.match, self.game, self.rules, self.out = match, game, rules, out
        out.variant = rules.variant
        self.keep_steps = keep_steps
        self.length = match.length or 0
        self.marks = marks  # the file writes hit marks: check them
        self.position: Position | None = None
        self.turn: int | None = None  # whose turn it is (None before the opening roll)
        self.unplayed: Roll | None = None  # dice without a play: a resignation must follow
        self.rolls = [0, 0]
        self.result: GameResult | None = None
        self.inferred: set[str] = set()
        self.before: tuple[int, int | None, int | None] = (1, None, None)  # cube, owner, offer before the action
        # the cube and the result lines look back at the game through a weak reference: no
        # cycle, so a game's records are freed as soon as it is replayed, not at a collection
        me = weakref.proxy(self)
        self.cube = Cube(me)
        self.claims = Claims(me)
        self.loose: list[Unreadable] = []  # loose lines met, each taken as a comment unless the next action fails for want of it
        self.pending: Unreadable | None = None  # the last loose line, until an action after it replays
        self.repairs: dict[int, Repair] = {}  # what the record is taken to mean at each error, by the action's index
        self.recover = recover  # False: the game is not checked past its first error (no repair sought)
        self.lenient = False  # the action at hand is taken as made, the rule it breaks aside (a repair's reading)
        self.quiet = False  # a trial of a repair: nothing kept
        self.work = 0  # actions replayed in trials: bounded (recovery.budget)
        self.lost: set[int] = set()  # the loose lines that stay errors: the action after them failed for want of one

    # --- reporting ---

    def issue(self, severity: Severity, category: str, code: str, message: str, action: Action | None) -> None:
        self.out.issues.append(
            Issue(
                severity, category, code, message, self.match.path,
                action.line if action else self.game.line, action.column if action else None,
                self.game.index, action.number if action else None, action.text if action else "", self.match.unit,
            )
        )  # fmt: skip

    def stop(self, category: str, code: str, message: str, action: Action) -> None:
        self.issue(Severity.ERROR, category, code, message, action)
        raise Stop(self.out.issues[-1])

    def breach(self, category: str, code: str, message: str, action: Action) -> None:
        """A rule the action breaks, where the action still says what was done: an error, or,
        when a repair takes the action as made (``lenient``), nothing: the replay goes on."""
        if not self.lenient:
            self.stop(category, code, message, action)

    def name(self, player: int) -> str:
        return named(self.game.names[player], player)

    def infer(self, rule: str, message: str, action: Action | None) -> None:
        """A rule no tag gave, told by the record itself: say so once per game."""
        if rule not in self.inferred:
            self.inferred.add(rule)
            self.issue(Severity.INFO, "rules", f"inferred-{rule}", message, action)

    def step(self, action: Action, kind: str, before: Position | None, dice: tuple[int, int] | None = None, play: LegalPlay | None = None) -> None:
        if not self.keep_steps:
            return
        cube, owner, offered = self.before
        self.out.steps.append(Step(action, kind, action.player, before, self.position, dice, play, cube, owner, self.out.score, offered))

    # --- the match around the game ---

    def needed(self, player: int) -> int | None:
        """The points ``player`` needs to win the match; None in money play."""
        return self.length - self.out.score[player] if self.length else None

    def trailing(self, player: int) -> bool:
        return self.out.score[player] < self.out.score[1 - player]

    def jacoby_unknown(self, result: GameResult) -> bool:
        """A money gammon with the cube unturned, and no tag saying whether Jacoby applies."""
        return (self.length == 0 and not self.rules.given("jacoby") and result.ended_by == "bearoff"
                and result.kind > 1 and not self.cube.turned and not self.cube.automatic)  # fmt: skip

    def jacoby_single(self) -> bool:
        """The Jacoby rule: a gammon counts single while the cube is unturned (an automatic
        double turns it)."""
        return self.length == 0 and self.rules.jacoby and not self.cube.turned and not self.cube.automatic

    # --- the game ---

    def run(self) -> None:
        self.initial = self.snapshot()
        while True:
            try:
                self.play_from(0, len(self.game.actions))
                break
            except Stop as stop:
                self.repairs.update(self.repaired(stop))
                self.restore(self.initial)  # the game replayed again from its start, with the repairs
        self.finish()
        self.keep_loose_lines()

    def play_from(self, start: int, end: int) -> None:
        """Actions ``start`` to ``end`` (exclusive), each as written or as its repair reads it;
        :class:`Stop` at the first that fails, with its index."""
        actions, repairs = self.game.actions, self.repairs
        index = start
        try:
            if not repairs and start == 0 and end == len(actions):  # the usual game: no error met
                for index, action in enumerate(actions):
                    self.act(action)
                    if self.pending is not None and action is not self.pending and not isinstance(action, Comment):
                        self.pending = None  # the action after the loose line replays: the line held no action
                return
            while index < end:
                repair = repairs.get(index)
                if repair is not None:
                    index = self.apply(repair, index)
                    continue
                action = actions[index]
                self.act(action)
                if self.pending is not None and action is not self.pending and not isinstance(action, Comment):
                    self.pending = None
                index += 1
        except Stop as stop:
            stop.index = index
            raise

    def explain(self, loose: Unreadable, why: str) -> None:
        for index, issue in enumerate(self.game.issues):
            if issue.code == "unreadable" and issue.line == loose.line and issue.column == loose.column and why not in issue.message:
                self.game.issues[index] = issue.at(message=issue.message + why)

    def keep_loose_lines(self) -> None:
        """Each loose line the game replayed consistently around: decoration, kept as a
        comment; the reader's error becomes a warning."""
        for loose in self.loose:
            if id(loose) in self.lost:
                continue
            for index, issue in enumerate(self.game.issues):
                if issue.code == "unreadable" and issue.line == loose.line and issue.column == loose.column:
                    message = f"{loose.text[:60]!r} reads as no move, cube action or result, and the game replays consistently around it (or is not checked there): kept as a comment"
                    self.game.issues[index] = issue.at(severity=Severity.WARNING, code="unknown-text", message=message)

    def act(self, action: Action) -> None:
        if self.keep_steps:
            self.before = (self.cube.value, self.cube.owner, self.cube.offered)
        if type(action) is Roll and self.result is None and self.unplayed is None and self.claims.offer is None:
            self.roll(action)  # the usual action, a roll in a game going on: none of the checks below applies
            return
        if isinstance(action, Comment):
            return
        if isinstance(action, Unreadable):
            if action.loose:
                self.loose.append(action)
                self.pending = action
                return
            raise Stop  # the reader has said it
        if (self.result is not None or self.unplayed is not None) and not isinstance(action, Result):
            if self.result is not None:
                what = quoted(action.text) if action.text else type(action).__name__
                self.stop("structure", "after-game-end", f"{what} after the game ended", action)
            bare = self.unplayed
            assert bare is not None
            where = self.position.id() if self.position else "?"
            self.stop("move", "roll-without-play", f"dice without a play, though a play was possible (position {where}); only a resignation may follow", bare)
        offer = self.claims.offer
        if offer is not None and isinstance(action, (Roll, CubeAction)) and not (isinstance(action, CubeAction) and action.kind in ("take", "drop")):
            self.stop("structure", "after-game-end", f"{quoted(action.text)} after {self.name(offer[0])} resigned ({quoted(offer[2].text)})", action)
        if isinstance(action, Roll):
            self.roll(action)
        elif isinstance(action, CubeAction):
            if self.cube.offer is None and action.kind in ("take", "drop") and offer is not None and action.player not in (None, offer[0]):
                # "Accepts" (a take's word) after "Resigns": the answer to the resignation
                kind = "accept" if action.kind == "take" else "reject"
                self.claims.answer(Result(action.player, action.number, action.line, action.column, action.text, kind))
            else:
                self.cube.act(action)
        elif isinstance(action, Result):
            self.claims.act(action)
        elif isinstance(action, SetPosition):
            self.set_position(action)

    def expect_turn(self, action: Action, player: int | None) -> int:
        if player is None:
            self.stop("structure", "no-player", "whose action this is cannot be told", action)
        assert player is not None
        if self.turn is not None and player != self.turn:
            if not self.closed_out(self.turn):
                self.breach("structure", "turn-order", f"it is {self.name(self.turn)}'s turn, not {self.name(player)}'s", action)
            else:
                self.issue(Severity.INFO, "move", "closed-out", f"{self.name(self.turn)} is closed out: the turn the record leaves out is a dance", action)
            self.rolls[self.turn] += 1
            self.turn = player
        return player

    def closed_out(self, player: int) -> bool:
        """Whether ``player``, on roll, could play no roll at all (on the bar against a
        closed board)."""
        if self.position is None:
            return False
        position = Position(self.position.sides, player)
        return not any(position.can_play(dice) for dice in ROLLS)

    def roll(self, action: Roll, repair: Repair | None = None) -> None:
        """A roll and its play; with ``repair``, the play that repair reads (the dice aside)."""
        cube = self.cube
        if cube.offer is not None:
            kind, _, _ = cube.offer
            if kind == "double" or action.player != self.turn:
                self.breach("cube", "double-unanswered", "a roll while a double awaits its answer", action)
            cube.accept()  # after a beaver or a raccoon, the doubler's roll accepts it (as made: the double taken)
        player = action.player
        if player is None or player != self.turn:
            player = self.expect_turn(action, player)
        first, second = action.dice
        bad = not (1 <= first <= 6 and 1 <= second <= 6)
        if bad and repair is None:
            self.breach("move", "bad-dice", _bad_dice(action.dice), action)
        if self.turn is None:  # the opening roll
            if first == second and not self.rules.opening_double and repair is None:
                self.breach("move", "opening-double", "the opening roll cannot be a double", action)
            if self.position is None:
                self.position = Position.start(self.rules.variant, player)
        before = self.position
        assert before is not None
        if before.turn != player:
            before = Position(before.sides, player)
        self.rolls[player] += 1
        if repair is not None and repair.play is not None:
            play = repair.play
        elif action.moves:
            resolution = resolve(before, action.dice, action.moves, not self.quiet) if not bad else Resolution(None)
            found = resolution.play
            if found is None:
                found = physical(before, action.dice, action.moves) if self.lenient else None
                if found is None:
                    self.illegal(action, before, resolution)
                    return
            play = found
            if resolution.ambiguous:
                self.issue(Severity.WARNING, "move", "ambiguous-move", "the notation fits several plays; the first is taken", action)
            if self.marks and resolution.play is not None:
                self.check_marks(action, play)
        else:
            dice = Dice(first, second)
            can_move = not bad and before.can_play(dice)
            if action.note == "cannot move" and can_move:
                example = before.legal_plays(dice)[0]
                self.breach("move", "could-move", f"'Cannot Move', but {example} is legal (position {before.id()}, dice {dice})", action)
            elif can_move:  # bare dice or '???': rolled, then resigned; the next action must say so
                self.unplayed = action
                self.step(action, "move", before, action.dice, None)
                self.turn = player
                return
            play = LegalPlay(Play(), before.swap_turn(), ())
        after = self.position = play.position
        if self.keep_steps:
            self.step(action, "move", before, action.dice, play)
        self.turn = 1 - player
        if after.sides[0][0] == CHECKERS or after.sides[1][0] == CHECKERS:  # all borne off: the game is over
            outcome = after.outcome(self.rules.backgammon_despite_borne_off)
            assert outcome is not None
            self.end(outcome_result(outcome, self.cube.value, self.jacoby_single()))

    def illegal(self, action: Roll, before: Position, resolution: Resolution) -> None:
        error = resolution.error
        if not Dice(*action.dice).is_valid:
            self.stop("move", "bad-dice", _bad_dice(action.dice), action)
        code = error.reason.code if error else Illegal.WRONG_DISTANCE.code
        hints = " or ".join(str(h) for h in resolution.hints)
        message = (error.message if error else "not a legal play") + f" (position {before.id()}, dice {Dice(*action.dice)})"
        self.stop("move", code, message + (f"; did you mean {hints}?" if hints else ""), action)

    def check_marks(self, action: Roll, play: LegalPlay) -> None:
        marks = marked_hits(action.moves)
        if not marks and True not in play.hits:  # no mark and no hit: the usual case
            return
        made = play.hit_points()
        if marks != made:
            detail = "hits on " + ", ".join(map(str, sorted(made))) if made else "no hit"
            self.issue(Severity.WARNING, "move", "hit-mark", f"the hit marks disagree with the play, which makes {detail}", action)

    def set_position(self, action: SetPosition) -> None:
        setup = read_setup(action, self.position)
        if setup is None:
            self.stop("structure", "set-position", f"a position set-up that cannot be read: {action.setup[:80]!r}", action)
        assert setup is not None
        before = self.position
        self.position = setup
        if action.on_roll is not None:
            self.turn = action.on_roll  # a position file: its player on roll acts next
        elif self.rolls == [0, 0]:
            self.turn = None  # a set-up before the first roll: the next roll is the opening
        elif action.player is not None:
            self.turn = 1 - action.player
        self.step(action, "setup", before, action.dice)

    def end(self, result: GameResult) -> None:
        self.result = result

    def finish(self) -> None:
        out = self.out
        out.cube, out.cube_owner = self.cube.value, self.cube.owner
        out.result = self.result
        out.repaired = any(repair.then != "halt" for repair in self.repairs.values())
        if self.game.raw:  # the row numbers (a text's): where a row is missing or written twice, its error says them
            told = [self.game.actions[index].line for index, repair in self.repairs.items() if repair.code in ("skipped-row", "duplicate-row")]
            out.issues += row_issues(self.match, self.game, told)
        if out.checked and self.result is not None:
            self.claims.check(self.result, out.repaired)


def _bad_dice(dice: tuple[int, int]) -> str:
    return f"dice {dice[0]}{dice[1]} are not two dice from 1 to 6"
