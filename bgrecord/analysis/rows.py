"""One game's analysis as rows: the engine's facts paired with the replay's steps (checked to
be the same actions), each decision judged and counted as the analysing engine counts
(:mod:`bgrecord.analysis.counting`), the decisions table's rows and the game's sums; and a
player's row of the players table from a match's sums.

What it does not do: run an engine or read a record's analysis (the facts come made), or
decide which games are analysed (:mod:`bgrecord.analysis.files`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Iterable

from bgrecord.analysis.counting import Counting
from bgrecord.analysis.engine import EngineAction, EngineError, EngineGame
from bgrecord.analysis.measures import CUBE_CATEGORIES, GameSums, Judged, Sums, derived
from bgrecord.analysis.recorded import judged_steps
from bgrecord.analysis.settings import AnalysisRules, threshold_columns
from bgrecord.core.ids import GameState
from bgrecord.core.position import Play, Position
from bgrecord.formats.records import MatchRecord, MoveToken
from bgrecord.replay import GameReplay, Step
from bgrecord.replay.matchkeys import game_fingerprint
from bgrecord.replay.resolve import resolve
from bgrecord.writing.writers import notation, step_state

_ENGINE_KIND = {"move": "move", "double": "double", "beaver": "double", "raccoon": "double", "take": "take", "drop": "drop"}


@dataclass(frozen=True, slots=True)
class Made:
    """Who made an analysis and how: what every row of it says (``engine``: whose, at what
    level; ``plies``: its depth, where it is one), and how it counts."""

    engine: str
    version: str
    plies: int | None
    counting: Counting


@dataclass(frozen=True, slots=True)
class MatchPlace:
    """The match a game belongs to, as its rows name it."""

    file: str
    key: str | None
    number: int
    match: MatchRecord
    length: int
    rules: AnalysisRules


def game_key(length: int, out: GameReplay) -> str:
    """A game's key: its match length, score, Crawford flag and replay (its fingerprint), so
    that the same game at the same score has the same analysis wherever it is found."""
    digest = hashlib.sha256(f"{length} {out.score[0]} {out.score[1]} {int(out.crawford)}\n".encode())
    digest.update(game_fingerprint(out))
    return digest.hexdigest()[:16]


class GameRows:
    """One game: the engine's actions paired with the replay's steps, and their rows."""

    def __init__(self, place: MatchPlace, out: GameReplay, game: EngineGame, in_match: int, made: Made) -> None:
        self.place, self.out, self.game, self.made = place, out, game, made
        self.key = game_key(place.length, out)
        self.in_match = in_match

    def pairs(self) -> Iterable[tuple[int, Step, EngineAction]]:
        """(step number, step, engine action), checked to be the same action. What gnubg adds
        (the take a beaver implies) and leaves out (a dance before a resignation) is allowed for."""
        engine = self.made.engine
        steps = judged_steps(self.out)
        actions = [a for a in self.game.actions if a.action in ("move", "double", "take", "drop")]
        at = 0
        implied: list[EngineAction] = []  # takes gnubg adds, said at the step that follows them
        for number, action in enumerate(actions):
            if action.action == "take" and number and actions[number - 1].beaver and (at == len(steps) or steps[at][1].kind != "take"):
                implied.append(action)  # the doubler's roll accepted the beaver: gnubg records a take the record does not write
                continue
            if at == len(steps):
                raise EngineError(f"{engine} read more actions in game {self.out.game.index} than bgrecord wrote")
            index, step = steps[at]
            at += 1
            for take in implied:
                yield index, step, take
            implied = []
            same = _ENGINE_KIND[step.kind] == action.action and step.player == action.player
            if same and step.kind == "move":
                before = _before(step)
                same = sorted(step.dice or ()) == sorted(action.dice or ()) and (
                    action.position_id is None or before is None or before.id() == action.position_id)
            if not same:
                raise EngineError(f"{engine} read game {self.out.game.index}, move {step.action.number}, otherwise than bgrecord")
            yield index, step, action
        if implied or not all(_dance(step) for _, step in steps[at:]):  # a roll that could not be played, then the game resigned
            raise EngineError(f"{engine} read game {self.out.game.index} otherwise than bgrecord (its end)")

    def rows(self, rows: list[dict[str, Any]]) -> GameSums:
        counting = self.made.counting
        sums = GameSums(self.game.actual_result)
        offered: EngineAction | None = None  # the double being answered, when analysed
        for index, step, action in self.pairs():
            player = action.player
            if action.action == "move":
                offered = None
                if action.cube is not None:
                    judged = counting.no_double(action.cube)
                    sums.players[player].add_cube(judged)
                    if judged.counted:
                        rows.append(self.row(index, step, "no double", judged, "no double", action.level))
                judged = counting.play(action)
                sums.players[player].add_checker(judged)
                if action.luck is not None:
                    sums.luck(player, action.luck, action.luck_cost or 0.0)
                rows.append(self.checker_row(index, step, action, judged))
            elif action.action == "double":
                if not action.beaver:  # gnubg analyses neither a beaver nor a raccoon: the first double stands
                    offered = action if action.cube is not None else None
                    if offered is not None and offered.cube is not None:
                        judged = counting.double(offered.cube)
                        sums.players[player].add_cube(judged)
                        rows.append(self.row(index, step, "double", judged, "double", action.level))
            elif offered is not None and offered.cube is not None:  # a take or a pass, with the analysed double's equities
                take = action.action == "take"
                judged = counting.answer(offered.cube, take)
                sums.players[player].add_cube(judged)
                rows.append(self.row(index, step, "take" if take else "pass", judged, "take" if take else "pass", offered.level))
                offered = None
        return sums

    def row(self, index: int, step: Step, kind: str, judged: Judged, made: str, level: str | None, dice: bool = False) -> dict[str, Any]:
        place = self.place
        position, state = step_state(step, self.out, place.match, place.rules.jacoby)
        if not dice:
            state = replace(state, dice=(0, 0))
        names = self.out.game.names
        player = step.player if step.player is not None else 0
        return {
            "file": place.file, "match_key": place.key, "match": place.number, "game": self.out.game.index,
            "game_in_match": self.in_match, "game_key": self.key, "move": step.action.number, "step": index,
            "player": player, "name": names[player], "kind": kind, "dice": None, "play": made, "best": judged.best,
            "equity": judged.equity, "best_equity": judged.best_equity, "error": judged.error, "counted": judged.counted,
            "mark": judged.mark, "category": judged.category, "candidates": None, "luck": None, "luck_cost": None,
            "cube": step.cube, "position_id": position.id() if position is not None else None,
            "match_id": state.id() if state.state is GameState.PLAYING else None, "plies": self.made.plies,
            "level": level, "engine": self.made.engine, "engine_version": self.made.version,
        }  # fmt: skip

    def checker_row(self, index: int, step: Step, action: EngineAction, judged: Judged) -> dict[str, Any]:
        row = self.row(index, step, "checker", judged, notation(step.play) if step.play is not None else "", action.level, dice=True)
        dice = step.dice or (0, 0)
        row.update(dice=f"{max(dice)}{min(dice)}", best=_best_play(step, action), candidates=action.candidates,
                   luck=action.luck, luck_cost=action.luck_cost)  # fmt: skip
        return row


def _dance(step: Step) -> bool:
    return step.kind == "move" and (step.play is None or not step.play.play.moves)


def _before(step: Step) -> Position | None:
    """The position a roll is played from, from the mover's side."""
    if step.before is None or step.player is None:
        return None
    return Position(step.before.sides, step.player)


def _best_play(step: Step, action: EngineAction) -> str | None:
    """The engine's best play in bgrecord's notation (``24/18 13/11``, ``bar/22*``): the play
    made when it leads to the same position (whatever way the checkers went); "" for a dance.
    A checker's two hops written as one (XG's ``24/18`` of a 5-1) are read as the replay reads them."""
    before = _before(step)
    if before is None or step.dice is None:
        return None
    if not action.best:  # a dance: gnubg lists no play, XG lists the empty one
        return "" if action.candidates == 0 or action.best == () else None
    if not all(0 <= target < source <= 25 for source, target in action.best):  # not a play (a record's analysis may say anything)
        return None
    error, legal = before.check_play(step.dice, Play.from_pairs(action.best))
    if error is not None or legal is None:
        legal = resolve(before, step.dice, [MoveToken((s, t), (False, False), 1, "", 0) for s, t in action.best]).play
    if legal is None:
        return None
    if step.play is not None and legal.position.sides == step.play.position.sides:
        return notation(step.play)
    return notation(legal)


def player_row(place: MatchPlace, side: int, names: tuple[str, str], games: int, sums: Sums, all_moves: int, made: Made) -> dict[str, Any]:
    """One player's row of the players table, from the match's sums."""
    return {
        "file": place.file, "match_key": place.key, "match": place.number, "player": side, "name": names[side],
        "opponent": names[1 - side], "plies": made.plies, "engine": made.engine, "games": games, "moves": sums.moves,
        "checker_decisions": sums.checker_decisions, "checker_error": sums.checker_error,
        "cube_decisions": sums.cube_decisions, "cube_error": sums.cube_error, "error": sums.error,
        **derived(sums, all_moves), "luck": sums.luck, "luck_cost": sums.luck_cost, "actual_result": sums.actual_result,
        "luck_adjusted_result": sums.luck_adjusted_result, "doubtful": sums.marks("doubtful"), "bad": sums.marks("bad"),
        "very_bad": sums.marks("very bad"), **{column: sums.cube_counts[name] for name, column in CUBE_CATEGORIES.items()},
        "engine_version": made.version, **threshold_columns(made.counting.thresholds),
    }  # fmt: skip
