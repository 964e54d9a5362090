"""The doubling cube of one game: its value, its owner, the offer awaiting an answer, and
the rules of doubling (owner, Crawford game, value after ``=>``, cube limit, beavers and
raccoons, the Holland and playroom rules, automatic doubles).

Part of the game replay (:mod:`bgrecord.replay.game`), which gives it its actions in order
and through which it reports. An offer is (double|beaver|raccoon, who offers, the cube if
accepted).
"""

from __future__ import annotations

from bgrecord.escapes import quoted
from bgrecord.formats.issues import Severity
from bgrecord.formats.numbers import MAX_CUBE
from bgrecord.formats.records import Action, CubeAction
from bgrecord.replay.state import GameResult, Replaying


class Cube:
    def __init__(self, game: Replaying) -> None:
        self.game = game
        record = game.game
        self.value: int = record.initial_cube or 1
        self.owner: int | None = record.initial_cube_owner
        self.turned = False  # turned by a double, a beaver or a raccoon
        self.automatic = bool(record.initial_cube and record.initial_cube > 1)  # turned by automatic doubles
        self.offer: tuple[str, int, int] | None = None

    @property
    def offered(self) -> int | None:
        return self.offer[2] if self.offer else None

    def accept(self) -> None:
        assert self.offer is not None
        kind, offerer, value = self.offer
        self.value, self.turned, self.offer = value, True, None
        self.owner = 1 - offerer if kind == "double" else offerer  # beaver, raccoon: the redoubler keeps it

    def act(self, action: CubeAction) -> None:
        game = self.game
        kind, player = action.kind, action.player
        if player is None:
            game.stop("structure", "no-player", "whose cube action this is cannot be told", action)
        assert player is not None
        if kind == "double":
            self.double(action, player)
            return
        if self.offer is None:
            game.breach("cube", "answer-without-double", f"{quoted(action.text)} answers no double", action)
            self.offer = ("double", 1 - player, self.value * 2)  # as made: the answer to a double the record lost
        offered, offerer, value = self.offer
        if player == offerer:
            game.stop("cube", "answer-by-doubler", f"{game.name(player)} answers their own double", action)
        if kind == "take":
            self.accept()
            game.step(action, "take", game.position)
        elif kind == "drop":
            self.offer = None
            game.step(action, "drop", game.position)
            game.end(GameResult(offerer, self.value, 1, "drop"))
        else:
            self.redouble(action, player, kind, offered, value)

    def double(self, action: CubeAction, player: int) -> None:
        game, rules = self.game, self.game.rules
        if self.offer is not None:
            game.breach("cube", "double-unanswered", "a double while a double awaits its answer", action)
            self.accept()  # as made: the double before taken
        if game.turn is None or game.position is None:
            game.stop("cube", "double-before-opening", "no double before the opening roll", action)
        game.expect_turn(action, player)
        if self.owner is not None and self.owner != player:
            game.breach("cube", "not-owner", f"{game.name(self.owner)} owns the cube: {game.name(player)} cannot double", action)
        out = game.out
        if out.crawford_unknown and rules.crawford:
            game.issue(Severity.INFO, "cube", "crawford-unknown",
                       f"the record starts at {out.score[0]}-{out.score[1]}: whether this is the Crawford game (no double) cannot be told",
                       action)  # fmt: skip
        elif out.crawford and rules.crawford:
            game.breach("cube", "crawford-double", "no double in the Crawford game", action)
        if action.value is not None and action.value != self.value * 2:
            self.automatic_start(action.value // 2, action)
        value = self.value * 2
        self.check_value(action, value)
        if rules.holland and out.post_crawford and min(game.rolls) < 2 and game.trailing(player):
            game.breach("cube", "holland", "Holland rule: after the Crawford game the trailer doubles only after two rolls each", action)
        if not rules.match_winning_double and game.length:
            score = out.score[player]
            if score + value >= game.length > score + self.value:
                game.breach("cube", "match-winning-double", "house rule: no double that lets the doubler win the match with a single game", action)
        self.offer = ("double", player, value)
        game.step(action, "double", game.position)

    def check_value(self, action: CubeAction, value: int) -> None:
        rules = self.game.rules
        if value > MAX_CUBE:
            self.game.stop("cube", "cube-limit", f"a cube of {value}: beyond the largest cube, {MAX_CUBE}", action)
        if action.value is not None and action.value != value:
            self.game.breach("cube", "cube-value", f"the cube goes to {value}, not {action.value}", action)
        limit = rules.cube_limit
        if limit is not None and value > limit and rules.given("cube_limit"):
            self.game.breach("cube", "cube-limit", f"the cube limit is {limit}", action)

    def redouble(self, action: CubeAction, player: int, kind: str, offered: str, value: int) -> None:
        """A beaver (the doubled player takes and redoubles, keeping the cube) or a raccoon
        (the doubler redoubles the beaver); the doubler's next roll accepts it."""
        game, rules = self.game, self.game.rules
        if game.length:
            game.breach("cube", f"{kind}-in-match", f"a {kind} in match play", action)
        if offered != ("double" if kind == "beaver" else "beaver"):
            game.stop("cube", f"{kind}-out-of-turn", f"a {kind} answers only a {'double' if kind == 'beaver' else 'beaver'}", action)
        allowed = rules.beavers if kind == "beaver" else rules.raccoons
        if not allowed and rules.given(kind + "s"):
            game.breach("cube", f"{kind}-not-allowed", f"{kind}s are not allowed in this session", action)
        elif not allowed:
            game.infer(kind + "s", f"a {kind}: the session is read as played with {kind}s", action)
        self.check_value(action, value * 2)
        self.value, self.turned, self.owner = value, True, player  # the offer is taken...
        self.offer = (kind, player, value * 2)  # ...and redoubled
        game.step(action, kind, game.position)

    def automatic_start(self, cube: int, action: Action) -> bool:
        """With automatic doubles (money play), the cube may start above 1, centred: take the
        starting cube the record shows, if the rules allow it."""
        game = self.game
        limit = game.rules.automatic_doubles
        if game.length or not limit or self.turned or self.value != 1:
            return False
        if cube not in {2**k for k in range(1, limit + 1)}:
            return False
        self.value = cube
        self.automatic = True
        game.issue(Severity.INFO, "rules", "automatic-doubles", f"the cube starts at {cube}: automatic doubles", action)
        return True
