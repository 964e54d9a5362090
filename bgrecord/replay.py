"""The replay: every game of a record played through the rules, with the match state.

``replay(match)`` yields one :class:`GameReplay` per game: its steps (the position before and
after each action, dice, play, cube and score), its issues and its result. Everything the
reader gave is judged here: moves, turns, the cube, results and scores (categories ``move``,
``structure``, ``cube``, ``result``, ``score``).

No cascades: after an error that leaves the game's course unknown (an illegal play, a turn out
of order), the rest of that game is not checked (an info issue says so); the score goes on with
what the file claims, so the next games are checked as usual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from bgrecord.issues import Issue, Severity
from bgrecord.position import BAR, CHECKERS, Dice, Illegal, LegalPlay, Outcome, Play, Position
from bgrecord.records import (
    Action,
    Comment,
    CubeAction,
    GameRecord,
    MatchRecord,
    Result,
    Roll,
    SetPosition,
    Unreadable,
)
from bgrecord.resolve import Resolution, marked_hits, resolve
from bgrecord.rules import RuleSet, rules_for
from bgrecord.sgf import point_of

KINDS = {1: "single game", 2: "gammon", 3: "backgammon"}


@dataclass(slots=True)
class Step:
    """One action replayed. ``before``/``after`` are None until the game's first roll."""

    action: Action
    kind: str  # move, double, take, drop, beaver, raccoon, resign, win, loss, setup
    player: int | None
    before: Position | None
    after: Position | None
    dice: tuple[int, int] | None
    play: LegalPlay | None
    cube: int  # the cube value and owner before the action
    cube_owner: int | None
    score: tuple[int, int]
    offered: int | None = None  # the cube on offer before the action (a double, beaver or raccoon)


@dataclass(slots=True)
class GameResult:
    winner: int
    points: int
    kind: int  # 1 single, 2 gammon, 3 backgammon
    ended_by: str  # bearoff, drop, resign


@dataclass(slots=True)
class GameReplay:
    game: GameRecord
    score: tuple[int, int]  # before the game, in its columns' order
    crawford: bool
    post_crawford: bool
    steps: list[Step] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    result: GameResult | None = None
    checked: bool = True  # False when an error stopped the checking
    cube: int = 1
    cube_owner: int | None = None


class _Stop(Exception):
    """An error after which the game's course is unknown: stop checking it."""


class _Game:
    """Replays one game."""

    def __init__(self, match: MatchRecord, game: GameRecord, rules: RuleSet, out: GameReplay, marks: bool, keep_steps: bool) -> None:
        self.match, self.game, self.rules, self.out = match, game, rules, out
        self.keep_steps = keep_steps
        self.length = match.length or 0
        self.marks = marks  # the file writes hit marks: check them
        self.position: Position | None = None
        self.turn: int | None = None  # whose turn it is (None before the opening roll)
        self.cube: int = 1
        self.owner: int | None = None
        self.cube_turned = False
        self.offer: tuple[str, int, int] | None = None  # (double|beaver|raccoon, who offers, cube if accepted)
        self.unplayed: Roll | None = None  # dice without a play: a resignation must follow
        self.rolls = [0, 0]
        self.result: GameResult | None = None
        self.claims: list[Result] = []
        self.inferred: set[str] = set()
        self.before: tuple[int, int | None, int | None] = (1, None, None)  # cube, owner, offer before the action

    # --- reporting ---

    def issue(self, severity: Severity, category: str, code: str, message: str, action: Action | None) -> None:
        self.out.issues.append(
            Issue(
                severity, category, code, message, self.match.path,
                action.line if action else self.game.line, action.column if action else None,
                self.game.index, action.number if action else None, action.text if action else "",
            )
        )

    def stop(self, category: str, code: str, message: str, action: Action) -> None:
        self.issue(Severity.ERROR, category, code, message, action)
        raise _Stop

    def name(self, player: int) -> str:
        return self.game.names[player] or ("the left player", "the right player")[player]

    def step(self, action: Action, kind: str, before: Position | None, dice: tuple[int, int] | None = None, play: LegalPlay | None = None) -> None:
        if not self.keep_steps:
            return
        cube, owner, offered = self.before
        self.out.steps.append(Step(action, kind, action.player, before, self.position, dice, play, cube, owner, self.out.score, offered))

    # --- the game ---

    def run(self) -> None:
        action: Action | None = None
        try:
            for action in self.game.actions:
                self.act(action)
        except _Stop:
            self.out.checked = False
            self.issue(Severity.INFO, "structure", "not-checked", "the rest of this game is not checked", action)
        self.finish()

    def act(self, action: Action) -> None:
        if self.keep_steps:
            self.before = (self.cube, self.owner, self.offer[2] if self.offer else None)
        if isinstance(action, Comment):
            return
        if isinstance(action, Unreadable):
            raise _Stop  # the reader has reported it
        if (self.result is not None or self.unplayed is not None) and not isinstance(action, Result):
            if self.result is not None:
                self.stop("structure", "after-game-end", f"{self.what(action)} after the game ended", action)
            bare = self.unplayed
            assert bare is not None
            self.stop("move", "roll-without-play", f"dice without a play, though a play was possible (position {self.position.id() if self.position else '?'}); only a resignation may follow", bare)
        if isinstance(action, Roll):
            self.roll(action)
        elif isinstance(action, CubeAction):
            self.cube_action(action)
        elif isinstance(action, Result):
            self.claim(action)
        elif isinstance(action, SetPosition):
            self.set_position(action)

    @staticmethod
    def what(action: Action) -> str:
        return f"{action.text!r}" if action.text else type(action).__name__

    def expect_turn(self, action: Action, player: int | None) -> int:
        if player is None:
            self.stop("structure", "no-player", "whose action this is cannot be told", action)
        assert player is not None
        if self.turn is not None and player != self.turn:
            self.stop("structure", "turn-order", f"it is {self.name(self.turn)}'s turn, not {self.name(player)}'s", action)
        return player

    def roll(self, action: Roll) -> None:
        if self.offer is not None:
            kind, offerer, _ = self.offer
            if kind == "double" or action.player != self.turn:
                self.stop("cube", "double-unanswered", "a roll while a double awaits its answer", action)
            self.accept()  # after a beaver or a raccoon, the doubler's roll accepts it
        player = action.player
        if player is None or player != self.turn:
            player = self.expect_turn(action, player)
        first, second = action.dice
        if not (1 <= first <= 6 and 1 <= second <= 6):
            self.stop("move", "bad-dice", f"dice {first}{second} are not two dice from 1 to 6", action)
        if self.turn is None:  # the opening roll
            if first == second and not self.rules.opening_double:
                self.stop("move", "opening-double", "the opening roll cannot be a double", action)
            if self.position is None:
                self.position = Position.start(self.rules.variant, player)
        before = self.position
        assert before is not None
        if before.turn != player:
            before = Position(before.sides, player)
        self.rolls[player] += 1
        if action.moves:
            resolution = resolve(before, action.dice, action.moves)
            play = resolution.play
            if play is None:
                self.illegal(action, before, resolution)
                return
            if resolution.ambiguous:
                self.issue(Severity.WARNING, "move", "ambiguous-move", "the notation fits several plays; the first is taken", action)
            if self.marks:
                self.check_marks(action, play)
        else:
            dice = Dice(first, second)
            can_move = before.can_play(dice)
            if action.note == "cannot move" and can_move:
                example = before.legal_plays(dice)[0]
                self.stop("move", "could-move", f"'Cannot Move', but {example} is legal (position {before.id()}, dice {dice})", action)
            if can_move:  # bare dice or '???': rolled, then resigned; the next action must say so
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
            self.end(outcome_result(outcome, self.cube, self.jacoby_single()))

    def illegal(self, action: Roll, before: Position, resolution: Resolution) -> None:
        error = resolution.error
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

    def jacoby_unknown(self, result: GameResult) -> bool:
        """A money gammon with the cube unturned, and no tag saying whether Jacoby applies."""
        return (self.length == 0 and not self.rules.given("jacoby") and result.ended_by == "bearoff"
                and result.kind > 1 and not self.cube_turned)

    def jacoby_single(self) -> bool:
        return self.length == 0 and self.rules.jacoby and not self.cube_turned

    # --- the cube: an offer is (double|beaver|raccoon, who offers, the cube if accepted) ---

    def accept(self) -> None:
        assert self.offer is not None
        kind, offerer, value = self.offer
        self.cube, self.cube_turned, self.offer = value, True, None
        self.owner = 1 - offerer if kind == "double" else offerer  # beaver, raccoon: the redoubler keeps it

    def cube_action(self, action: CubeAction) -> None:
        kind, player = action.kind, action.player
        if player is None:
            self.stop("structure", "no-player", "whose cube action this is cannot be told", action)
        assert player is not None
        if kind == "double":
            self.double(action, player)
            return
        if self.offer is None:
            self.stop("cube", "answer-without-double", f"{action.text!r} answers no double", action)
        assert self.offer is not None
        offered, offerer, value = self.offer
        if player == offerer:
            self.stop("cube", "answer-by-doubler", f"{self.name(player)} answers their own double", action)
        if kind == "take":
            self.accept()
            self.step(action, "take", self.position)
        elif kind == "drop":
            self.offer = None
            self.step(action, "drop", self.position)
            self.end(GameResult(offerer, self.cube, 1, "drop"))
        else:
            self.redouble(action, player, kind, offered, value)

    def double(self, action: CubeAction, player: int) -> None:
        if self.offer is not None:
            self.stop("cube", "double-unanswered", "a double while a double awaits its answer", action)
        if self.turn is None or self.position is None:
            self.stop("cube", "double-before-opening", "no double before the opening roll", action)
        self.expect_turn(action, player)
        if self.owner is not None and self.owner != player:
            self.stop("cube", "not-owner", f"{self.name(self.owner)} owns the cube: {self.name(player)} cannot double", action)
        if self.out.crawford and self.rules.crawford:
            self.stop("cube", "crawford-double", "no double in the Crawford game", action)
        if action.value is not None and action.value != self.cube * 2:
            self.automatic_start(action.value // 2, action)
        value = self.cube * 2
        self.check_value(action, value)
        if self.rules.holland and self.out.post_crawford and min(self.rolls) < 2 and self.trailing(player):
            self.stop("cube", "holland", "Holland rule: after the Crawford game the trailer doubles only after two rolls each", action)
        if not self.rules.match_winning_double and self.length:
            score = self.out.score[player]
            if score + value >= self.length > score + self.cube:
                self.stop("cube", "match-winning-double", "house rule: no double that lets the doubler win the match with a single game", action)
        self.offer = ("double", player, value)
        self.step(action, "double", self.position)

    def check_value(self, action: CubeAction, value: int) -> None:
        if action.value is not None and action.value != value:
            self.stop("cube", "cube-value", f"the cube goes to {value}, not {action.value}", action)
        limit = self.rules.cube_limit
        if limit is not None and value > limit and self.rules.given("cube_limit"):
            self.stop("cube", "cube-limit", f"the cube limit is {limit}", action)

    def trailing(self, player: int) -> bool:
        return self.out.score[player] < self.out.score[1 - player]

    def redouble(self, action: CubeAction, player: int, kind: str, offered: str, value: int) -> None:
        """A beaver (the doubled player takes and redoubles, keeping the cube) or a raccoon
        (the doubler redoubles the beaver); the doubler's next roll accepts it."""
        if self.length:
            self.stop("cube", f"{kind}-in-match", f"a {kind} in match play", action)
        if offered != ("double" if kind == "beaver" else "beaver"):
            self.stop("cube", f"{kind}-out-of-turn", f"a {kind} answers only a {'double' if kind == 'beaver' else 'beaver'}", action)
        allowed = self.rules.beavers if kind == "beaver" else self.rules.raccoons
        if not allowed and self.rules.given(kind + "s"):
            self.stop("cube", f"{kind}-not-allowed", f"{kind}s are not allowed in this session", action)
        if not allowed:
            self.infer(kind + "s", f"a {kind}: the session is read as played with {kind}s", action)
        self.check_value(action, value * 2)
        self.cube, self.cube_turned, self.owner = value, True, player  # the offer is taken...
        self.offer = (kind, player, value * 2)  # ...and redoubled
        self.step(action, kind, self.position)

    def claim(self, action: Result) -> None:
        if action.kind == "resign":  # "Resigns": the Wins line that follows gives the points
            self.step(action, "resign", self.position)
            return
        self.claims.append(action)
        if self.result is None:
            if action.kind == "loss":
                return  # the Wins line that follows says how the game ended
            self.resign(action)
        self.step(action, "win" if action.kind == "win" else "loss", self.position)

    def resign(self, action: Result) -> None:
        """A Wins line before the game ended: a resignation."""
        winner = action.player
        if winner is None:
            self.stop("structure", "no-player", "whose win this is cannot be told", action)
        assert winner is not None
        if self.offer is not None and self.offer[0] != "double":
            self.accept()  # a beaver or raccoon stands until the game ends
        if self.offer is not None:
            self.stop("cube", "double-unanswered", "the game ends while a double awaits its answer", action)
        points = action.points or 0
        levels = [level for level in (1, 2, 3) if points == level * self.cube]
        if not levels:
            starts = [points // level for level in (1, 2, 3) if points % level == 0]
            if any(self.automatic_start(start, action) for start in starts if start > 1):
                levels = [points // self.cube]
        needed = self.needed(winner)
        if not levels and needed is not None and points == needed:  # the match's last points
            levels = [level for level in (1, 2, 3) if level * self.cube >= needed][:1]
            if not levels:
                self.issue(Severity.WARNING, "result", "forfeit", f"a forfeit: {self.name(winner)} is given the {points} points the match needed", action)
                levels = [3]
        if not levels:
            self.stop("result", "resign-points", f"{points} points is no resignation with the cube at {self.cube} (1, 2 or 3 times the cube)", action)
        self.end(GameResult(winner, points, levels[0], "resign"))

    def fair_claims(self, points: int, needed: int | None) -> set[int]:
        """What a Wins line may say for ``points``: the points, or for the game that wins the
        match the points capped at what was needed or at the match length (Galaxy)."""
        if needed is None or points < needed:
            return {points}
        return {points, needed, min(points, self.length)}

    def automatic_start(self, cube: int, action: Action) -> bool:
        """With automatic doubles (money play), the cube may start above 1, centred: take the
        starting cube the record shows, if the rules allow it."""
        limit = self.rules.automatic_doubles
        if self.length or not limit or self.cube_turned or self.cube != 1:
            return False
        if cube not in {2**k for k in range(1, limit + 1)}:
            return False
        self.cube = cube
        self.issue(Severity.INFO, "rules", "automatic-doubles", f"the cube starts at {cube}: automatic doubles", action)
        return True

    def infer(self, rule: str, message: str, action: Action | None) -> None:
        """A rule no tag gave, told by the record itself: say so once per game."""
        if rule not in self.inferred:
            self.inferred.add(rule)
            self.issue(Severity.INFO, "rules", f"inferred-{rule}", message, action)

    def needed(self, player: int) -> int | None:
        """The points ``player`` needs to win the match; None in money play."""
        return self.length - self.out.score[player] if self.length else None

    def set_position(self, action: SetPosition) -> None:
        setup = read_setup(action, self.position)
        if setup is None:
            self.stop("structure", "set-position", f"a position set-up that cannot be read: {action.setup!r}", action)
        assert setup is not None
        before = self.position
        self.position = setup
        if self.rolls == [0, 0]:
            self.turn = None  # a set-up before the first roll: the next roll is the opening
        elif action.player is not None:
            self.turn = 1 - action.player
        self.step(action, "setup", before)

    def end(self, result: GameResult) -> None:
        self.result = result

    def finish(self) -> None:
        out = self.out
        out.cube, out.cube_owner = self.cube, self.owner
        out.result = self.result
        if not out.checked:
            return
        if self.result is not None:
            self.check_claims()

    def check_claims(self) -> None:
        result = self.result
        assert result is not None
        wins = [c for c in self.claims if c.kind == "win"]
        if not wins:
            self.issue(Severity.WARNING, "result", "no-result-line", f"no 'Wins' line; {self.name(result.winner)} wins {result.points}", self.game.actions[-1] if self.game.actions else None)
        needed = self.needed(result.winner)
        for claim in self.claims:
            if claim.kind == "win" and claim.player != result.winner:
                self.issue(Severity.ERROR, "result", "result-winner", f"{self.name(result.winner)} won this game, not {self.name(claim.player or 0)}", claim)
            elif claim.kind == "loss" and claim.player == result.winner:
                # a Losses line without a row number is placed by its indent alone
                severity = Severity.ERROR if claim.number is not None else Severity.WARNING
                self.issue(severity, "result", "losses-side", f"the 'Losses' line stands on the side of {self.name(result.winner)}, who won", claim)
            elif result.ended_by == "bearoff" and claim.points and claim.points % result.kind == 0 and self.automatic_start(claim.points // result.kind, claim):
                result.points = claim.points
            elif self.jacoby_unknown(result) and claim.points in (self.cube, result.kind * self.cube):
                on = claim.points == self.cube
                self.infer("jacoby", f"a {KINDS[result.kind]} with the cube unturned counted {claim.points}: the session is read as played {'with' if on else 'without'} the Jacoby rule", claim)
            elif claim.points not in self.fair_claims(result.points, needed):
                how = {"bearoff": f"a {KINDS[result.kind]} with the cube at {self.cube}" + (" (Jacoby: counts single)" if self.jacoby_single() and result.kind > 1 else ""),
                       "drop": f"a dropped double (the cube was at {result.points})", "resign": "the resignation"}[result.ended_by]
                self.issue(Severity.ERROR, "result", "result-points", f"{result.points} point{'s' if result.points != 1 else ''} for {how}, not {claim.points}", claim)


def outcome_result(outcome: Outcome, cube: int, jacoby_single: bool) -> GameResult:
    kind = 1 if jacoby_single else outcome.kind
    return GameResult(outcome.winner, kind * cube, outcome.kind, "bearoff")


_SNOWIE_FIELDS = 40


def read_setup(action: SetPosition, current: Position | None) -> Position | None:
    """The position a set-up gives, or None when it cannot be read."""
    try:
        if action.kind == "snowie":
            return _snowie(action.setup, action.player or 0)
        if action.kind == "xg":
            from bgrecord.ids import xg_position

            return xg_position(action.setup.split("/")[0], current.turn if current else 0)
        return _sgf_setup(action.setup, current)
    except (ValueError, IndexError):
        return None


def _snowie(setup: str, player: int) -> Position:
    """Snowie's 40 fields: 12 the on-roll side's bar, 13-36 points 1-24 from its side
    (positive its own, negative the opponent's), 37 the opponent's bar."""
    fields = [f.strip() for f in setup.split(";")]
    if len(fields) < _SNOWIE_FIELDS - 1:
        raise ValueError("a Snowie position has 40 fields")
    own, other = [0] * 26, [0] * 26
    own[BAR], other[BAR] = abs(int(fields[12])), abs(int(fields[37]))
    for point in range(1, 25):
        count = int(fields[12 + point])
        if count > 0:
            own[point] = count
        elif count < 0:
            other[BAR - point] = -count
    own[0], other[0] = CHECKERS - sum(own), CHECKERS - sum(other)
    position = Position.from_relative(tuple(own), tuple(other), player)
    if not position.is_valid():
        raise ValueError("not a position")
    return position


_SGF_PROPERTY = re.compile(r"([A-Z]+)((?:\[[^\]]*\])+)")


def _sgf_setup(setup: str, current: Position | None) -> Position:
    """SGF set-up properties (AE, AW, AB, PL) applied to the current position."""
    sides = [list(side) for side in (current or Position.start()).sides]
    turn = current.turn if current else 0
    for ident, values in _SGF_PROPERTY.findall(setup):
        for value in re.findall(r"\[([^\]]*)\]", values):
            if ident == "AE":
                sides = [[0] * 26, [0] * 26]
            elif ident in ("AW", "AB"):
                player = 0 if ident == "AW" else 1
                letter = value[:1]
                if not "a" <= letter <= "y":
                    raise ValueError(f"no point {value!r}")
                sides[player][point_of(letter, player)] += 1
            elif ident == "PL":
                turn = 0 if value.upper() == "W" else 1
    for side in sides:
        side[0] = CHECKERS - sum(side[1:])
    position = Position((tuple(sides[0]), tuple(sides[1])), turn)
    if not position.is_valid():
        raise ValueError("not a position")
    return position


def _crawford_flags(length: int, before: tuple[int, int], crawford_done: bool) -> tuple[bool, bool]:
    """(Crawford game, post-Crawford game) for a game starting at ``before``."""
    if not length:
        return False, False
    away = [length - score for score in before]
    one_away = [a == 1 for a in away]
    if any(one_away) and not all(one_away) and not crawford_done:
        return True, False
    return False, any(one_away) and crawford_done


def replay(match: MatchRecord, rules: RuleSet | None = None, steps: bool = True) -> Iterator[GameReplay]:
    """Each game of ``match`` replayed, in order; header scores checked against the
    running score (players matched by name). ``steps=False`` keeps only issues and results
    (validation needs no steps)."""
    rules = rules or rules_for(match)
    marks = any(True in t.hits for g in match.games for a in g.actions if isinstance(a, Roll) and "*" in a.text for t in a.moves)
    length = match.length or 0
    running: dict[str, int] = {}
    crawford_done = False
    match_over = False
    for game in match.games:
        names = game.names
        if not running and game.index == 1:
            running = {names[0]: game.scores[0] or 0, names[1]: game.scores[1] or 0}
        expected = (running.get(names[0], 0), running.get(names[1], 0))
        crawford, post = _crawford_flags(length, expected, crawford_done)
        out = GameReplay(game, expected, crawford, post)
        if crawford:
            crawford_done = True

        def game_issue(severity: Severity, category: str, code: str, message: str, line: int = game.line) -> None:
            out.issues.append(Issue(severity, category, code, message, match.path, line, game=game.index))

        if game.scores != (None, None) and tuple(game.scores) != expected:
            if set(names) == set(running) or game.index == 1:
                game_issue(
                    Severity.ERROR, "score", "header-score",
                    f"the score before this game is {names[0] or 'left'} {expected[0]}, {names[1] or 'right'} {expected[1]}, not {game.scores[0]}-{game.scores[1]}",
                    game.line + 1,
                )
        if match_over:
            game_issue(Severity.ERROR, "structure", "after-match", "a game after the match was won")
        _Game(match, game, rules, out, marks, steps).run()
        claimed = _claimed(out)
        if out.result is not None and out.checked:
            winner_name, points = names[out.result.winner], out.result.points
        elif claimed is not None:
            winner_name, points = claimed
        else:
            winner_name, points = None, 0
        if out.result is None and out.checked and claimed is None:
            if game is match.games[-1]:
                game_issue(Severity.INFO, "structure", "unfinished-game", "the last game is unfinished")
            else:
                game_issue(Severity.ERROR, "structure", "no-result", "the game has no end: no result, and the next game starts")
        if winner_name is not None:
            for name in names:
                running.setdefault(name, 0)
            running[winner_name] += points
            if length and running[winner_name] >= length:
                match_over = True
        yield out


def _claimed(out: GameReplay) -> tuple[str, int] | None:
    """The winner and points the file claims, when the replay could not tell."""
    for action in out.game.actions:
        if isinstance(action, Result) and action.kind == "win" and action.player is not None and action.points is not None:
            return out.game.names[action.player], action.points
    return None
