"""How a game ends, and whether the record says so rightly: resignations and the result
lines (``Wins N points``, ``Losses``, SGF's ``RE``) checked against the replay.

A result line before the game's natural end is a resignation: its points must be 1, 2 or 3
times the cube (a single game, a gammon, a backgammon), unless it wins the match with more
than was needed (a forfeit: a warning), or the game had no play at all (nothing to check it
against). A resignation offer (``resign``, with its level where the record gives it) ends the
game when the other player accepts it. Part of the game replay (:mod:`bgrecord.replay.game`).
"""

from __future__ import annotations

from typing import Protocol

from bgrecord.core.position import Outcome
from bgrecord.escapes import cut, quoted
from bgrecord.formats.issues import Severity, count
from bgrecord.formats.records import CubeAction, Result, Roll
from bgrecord.replay.cube import Cube
from bgrecord.replay.state import KINDS, GameResult, Replaying


class ReplayingWithCube(Replaying, Protocol):
    """The game being replayed, as the result lines see it: its cube too."""

    cube: Cube


def outcome_result(outcome: Outcome, cube: int, jacoby_single: bool) -> GameResult:
    kind = 1 if jacoby_single else outcome.kind
    return GameResult(outcome.winner, kind * cube, outcome.kind, "bearoff")


class Claims:
    """The result lines of one game, and the resignations they stand for."""

    def __init__(self, game: ReplayingWithCube) -> None:
        self.game = game
        self.lines: list[Result] = []
        self.doubt = False  # the game's result rests on a repair (see check)
        self.offer: tuple[int, int | None, Result] | None = None  # a resignation offered: (who, level, the offer)

    def act(self, action: Result) -> None:
        game = self.game
        if action.kind == "resign":  # "Resigns": the Wins line that follows gives the points
            if action.player is not None and game.result is None:
                self.offer = (action.player, action.points, action)
            game.step(action, "resign", game.position)
            return
        if action.kind in ("accept", "reject"):
            self.answer(action)
            return
        self.lines.append(action)
        if game.result is None:
            if action.kind == "loss":
                return  # the Wins line that follows says how the game ended
            self.resign(action)
        game.step(action, "win" if action.kind == "win" else "loss", game.position)

    def answer(self, action: Result) -> None:
        """The answer to a resignation offer (SGF's ``accept`` and ``reject``)."""
        game = self.game
        if self.offer is None or action.player is None or action.player == self.offer[0]:
            game.stop("result", "answer-without-resign", f"{quoted(action.text)} answers no resignation", action)
        assert self.offer is not None and action.player is not None
        resigner, level, offer = self.offer
        self.offer = None
        game.step(action, "accept-resign" if action.kind == "accept" else "reject-resign", game.position)
        if action.kind == "accept" and game.result is None and level is not None:
            points = self.offered_points(resigner, level, offer)
            self.resign(Result(1 - resigner, None, action.line, action.column, action.text, "win", points))

    def offered_points(self, resigner: int, offered: int, offer: Result) -> int:
        """The points of an accepted ``offer`` ``resign:N``. Gibbon writes the points offered (its
        readers pass points), libgsgf's comment says a level (1 single, 2 gammon, 3
        backgammon): where the two differ (a cube above 1), the reading the record's result
        (``RE``) agrees with is taken, else the points where they are a resignation's, and an
        info says which."""
        game = self.game
        cube = game.cube.value
        if offered not in (1, 2, 3) or cube == 1:
            return offered
        by_level = offered * cube
        claimed = {c.points for c in game.game.actions if isinstance(c, Result) and c.kind == "win" and c.player == 1 - resigner}
        needed = game.needed(1 - resigner)
        fair = offered % cube == 0 and offered // cube in (1, 2, 3) or needed is not None and offered >= needed
        take_level = by_level in claimed and offered not in claimed or not fair and offered not in claimed
        points = by_level if take_level else offered
        if points in claimed:
            why = "as the record's result says"
        elif take_level:
            why = f"{count(offered, 'point')} is no resignation with the cube at {cube}"
        else:
            why = "Gibbon writes the points offered"
        taken, other = count(offered, "point"), f"a {KINDS[offered]} ({by_level} points with the cube at {cube})"
        if take_level:
            taken, other = other, taken
        game.issue(Severity.INFO, "result", "resign-reading", f"{cut(offer.text)} read as {taken}, not {other}: {why}", offer)
        return points

    def resign(self, action: Result) -> None:
        """A Wins line before the game ended: a resignation."""
        game = self.game
        cube = game.cube
        winner = action.player
        if winner is None:
            game.stop("structure", "no-player", "whose win this is cannot be told", action)
        assert winner is not None
        if self.offer is not None and self.offer[0] == winner:
            game.stop("result", "result-winner", f"{game.name(winner)} resigned this game ({quoted(self.offer[2].text)}) and cannot win it", action)
        if cube.offer is not None and cube.offer[0] != "double":
            cube.accept()  # a beaver or raccoon stands until the game ends
        if cube.offer is not None:
            game.stop("cube", "double-unanswered", "the game ends while a double awaits its answer", action)
        points = action.points or 0
        if not any(isinstance(a, (Roll, CubeAction)) for a in game.game.actions):
            game.issue(Severity.INFO, "result", "no-play", f"a game with no play: its {points} point{'s' if points != 1 else ''} are taken as written", action)
            game.end(GameResult(winner, points, 1, "resign"))
            return
        levels = [level for level in (1, 2, 3) if points == level * cube.value]
        if not levels:
            starts = [points // level for level in (1, 2, 3) if points % level == 0]
            if any(cube.automatic_start(start, action) for start in starts if start > 1):
                levels = [points // cube.value]
        needed = game.needed(winner)
        if not levels and needed is not None and points >= needed:  # the match's last points
            levels = [level for level in (1, 2, 3) if level * cube.value >= needed][:1] if points == needed else []
            marked = self.offer is not None or game.unplayed is not None  # "Resigns", "52: ????": a resignation, not a forfeit
            if not levels and marked and action.match and points == game.length:
                game.issue(Severity.INFO, "result", "match-credit", f"{game.name(winner)} is credited the match ({points} points) "
                           f"for the resignation that ends it (it needed {needed})", action)  # fmt: skip
                levels = [3]
            if not levels:
                game.issue(Severity.WARNING, "result", "forfeit", f"a forfeit: {game.name(winner)} is given {points} points (the match needed {needed})", action)
                levels = [3]
        if not levels:
            game.stop("result", "resign-points", f"{count(points, 'point')} is no resignation with the cube at {cube.value} (1, 2 or 3 times the cube)", action)
        game.end(GameResult(winner, points, levels[0], "resign"))

    def fair(self, points: int, needed: int | None) -> set[int]:
        """What a Wins line may say for ``points``: the points, or for the game that wins the
        match the points capped at what was needed or at the match length (Galaxy)."""
        if needed is None or points < needed:
            return {points}
        return {points, needed, min(points, self.game.length)}

    def check(self, result: GameResult, repaired: bool = False) -> None:
        """The result lines against the game's result. In a game replayed past an error by a
        repair (``repaired``) the result rests on that reading: a line that disagrees is a
        warning, and the line stands for the score."""
        game = self.game
        self.doubt = repaired
        wins = [c for c in self.lines if c.kind == "win"]
        if not wins and game.match.format != "sgf":  # SGF's RE is optional
            last = game.game.actions[-1] if game.game.actions else None
            game.issue(Severity.WARNING, "result", "no-result-line", f"no 'Wins' line; {game.name(result.winner)} wins {result.points}", last)
        needed = game.needed(result.winner)
        told: set[tuple[int, int | None]] = set()  # eXtreme Gammon's "Losses 3 point   Wins 3 point": one wrong value, told once
        for claim in self.lines:
            if claim.kind == "win" and claim.match and needed is not None and claim.player == result.winner and result.points < needed:
                game.issue(Severity.WARNING, "result", "match-not-won",
                           f"'and the match', but {game.name(result.winner)} reaches {game.length - needed + result.points} of {game.length}", claim)  # fmt: skip
            if claim.kind == "win" and claim.player != result.winner:
                self.wrong("result-winner", f"{game.name(result.winner)} won this game, not {game.name(claim.player or 0)}", claim)
            elif claim.kind == "loss" and claim.player == result.winner:
                # a Losses line without a row number is placed by its indent alone
                self.wrong("losses-side", f"the 'Losses' line stands on the side of {game.name(result.winner)}, who won", claim, claim.number is not None)
            elif result.ended_by == "bearoff" and claim.points and claim.points % result.kind == 0 and game.cube.automatic_start(claim.points // result.kind, claim):
                result.points = claim.points
            elif game.jacoby_unknown(result) and claim.points in (game.cube.value, result.kind * game.cube.value):
                on = claim.points == game.cube.value
                game.infer("jacoby", f"a {KINDS[result.kind]} with the cube unturned counted {claim.points}: the session is read as played {'with' if on else 'without'} the Jacoby rule", claim)
            elif claim.points not in self.fair(result.points, needed) and (claim.line, claim.points) not in told:
                told.add((claim.line, claim.points))
                self.wrong_points(result, claim)

    def wrong_points(self, result: GameResult, claim: Result) -> None:
        game = self.game
        cube = game.cube.value
        how = {"bearoff": f"a {KINDS[result.kind]} with the cube at {cube}" + (" (Jacoby: counts single)" if game.jacoby_single() and result.kind > 1 else ""),
               "drop": f"a dropped double (the cube was at {result.points})", "resign": "the resignation"}[result.ended_by]  # fmt: skip
        self.wrong("result-points", f"{result.points} point{'s' if result.points != 1 else ''} for {how}, not {claim.points}", claim)

    def wrong(self, code: str, message: str, claim: Result, error: bool = True) -> None:
        """A result line the replay disagrees with: an error, or a warning where the game's
        result rests on a repair (the line may be right, and the reading wrong)."""
        if self.doubt:
            error, message = False, f"{message} (as replayed past an error, by a repair: the line may be right, and the repair wrong)"
        self.game.issue(Severity.ERROR if error else Severity.WARNING, "result", code, message, claim)
