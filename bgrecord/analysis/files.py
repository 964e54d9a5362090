"""Analysing a file: each match read and replayed by bgrecord, its games without errors written
as a clean .mat for the engine, the engine's facts mapped back to the replay's steps, and the
rows of the three tables (:mod:`bgrecord.analysis.tables`) made from them.

:func:`analyse_file` is what ``bgrecord analyze`` runs on each file, in worker processes when
asked; each process keeps one engine for all its files. A game with errors is not given to
the engine (it is said once, with the match); a match the engine cannot analyse is one
problem of the file, and the next match is analysed. Nothing here raises on a bad file.

What it does not do: judge the records (the replay has) or evaluate (the engine does).
"""

from __future__ import annotations

import atexit
import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from bgrecord.analysis.engine import Engine, EngineAction, EngineError, EngineMatch, EngineMissing
from bgrecord.analysis.measures import (
    CUBE_CATEGORIES,
    GameSums,
    Judged,
    Sums,
    derived,
    judge_answer,
    judge_double,
    judge_no_double,
    judge_play,
    skill,
)
from bgrecord.core.ids import GameState
from bgrecord.core.position import Play, Position
from bgrecord.escapes import encodable
from bgrecord.formats.issues import Severity
from bgrecord.formats.records import Action, CubeAction, MatchRecord, Result, Roll
from bgrecord.formats.source import Input
from bgrecord.replay import GameReplay, Step
from bgrecord.replay.matchkeys import MatchKeys, game_fingerprint
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import guarded, internal_issue, replayed
from bgrecord.writing.writers import notation, step_state, write_mat

PART = 50  # games of a money session given to the engine at once: about 190 MB of gnubg (2,000 at once: 2.8 GB, and it died)
ANALYSED = ("move", "double", "take", "drop", "beaver", "raccoon")  # the steps an engine judges
_ENGINE_KIND = {"move": "move", "double": "double", "beaver": "double", "raccoon": "double", "take": "take", "drop": "drop"}
_NAMES = ("left", "right")  # what the engine is told the players are called (gnubg refuses an empty name)


@dataclass(slots=True)
class FileAnalysis:
    """The rows of one file's analysis, and what could not be analysed."""

    path: str
    decisions: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said once each: games with errors left out, matches left out
    failures: list[str] = field(default_factory=list)  # matches the engine could not analyse
    problem: str | None = None  # the file could not be read, or bgrecord failed on it
    internal: bool = False
    skipped_games: int = 0  # games with errors, not analysed
    cached: int = 0  # matches found already analysed (``known``)
    references: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (match, the engine's own statistics)


# --- the engine of this process ---

ENGINES = ("gnubg",)
_ENGINES: dict[tuple[str, float | None], Engine] = {}


def open_engine(name: str = "gnubg", timeout: float | None = None) -> Engine:
    """An engine by name. Raises :class:`EngineMissing` when it is not installed."""
    if name == "gnubg":
        from bgrecord.analysis.gnubg import GnubgEngine

        return GnubgEngine(timeout=timeout)
    raise ValueError(f"unknown engine {name!r}: one of {', '.join(ENGINES)}")


def engine_for(name: str, timeout: float | None) -> Engine:
    """This process's engine (started once, kept for every file the process analyses)."""
    engine = _ENGINES.get((name, timeout))
    if engine is None:
        if not _ENGINES:
            atexit.register(close_engines)
        engine = _ENGINES[(name, timeout)] = open_engine(name, timeout)
    return engine


def close_engines() -> None:
    while _ENGINES:
        _, engine = _ENGINES.popitem()
        engine.close()


# --- a file ---


def analyse_file(path: str | Path | Input, plies: int = 0, rules: str | None = None, engine: str = "gnubg",
                 timeout: float | None = None, known: frozenset[str] = frozenset()) -> FileAnalysis:  # fmt: skip
    """Analyse every match of the file at ``path`` at ``plies``; ``known``: match keys already
    analysed at these plies, left out (:attr:`FileAnalysis.cached` counts them)."""
    name = encodable((path.name if isinstance(path, Input) else str(path)) or "<stdin>")  # as the tables can write it
    found = FileAnalysis(name)

    def work() -> FileAnalysis:
        source = path if isinstance(path, Input) else Input.of(Path(path))
        _analyse(source, found, plies, rules, engine, timeout, known)
        return found

    def failed(issue: Any) -> FileAnalysis:
        return FileAnalysis(name, problem=issue.message, internal=True)

    try:
        return guarded(name, work, failed)
    except OSError as exc:
        return FileAnalysis(name, problem=f"cannot read: {exc.strerror or exc}")


def failed_analysis(file: Any, exc: BaseException) -> FileAnalysis:
    """What :func:`analyse_file` gives for a file whose work failed outside it (a worker that died)."""
    name = encodable(getattr(file, "name", None) or str(file))
    return FileAnalysis(name, problem=internal_issue(name, exc).message, internal=True)


def _analyse(source: Input, found: FileAnalysis, plies: int, rules: str | None, engine: str, timeout: float | None,
             known: frozenset[str]) -> None:  # fmt: skip
    current: MatchRecord | None = None
    games: list[GameReplay] = []
    keys = MatchKeys()
    number = 0
    for match, game, out in replayed(source, rules, steps=True):
        if match is not current:
            current, number, games = match, number + 1, []
        if out is not None:
            keys.add(number, match.length, out)
            games.append(out)
        elif game is None:  # the match has ended: all its games are known
            key = keys.key(number)
            if key is not None and key in known:
                found.cached += 1
                continue
            if games:
                _MatchWork(found, match, number, key, games, plies, rules).run(engine, timeout)


class _MatchWork:
    """One match: the games the engine is given, its reply, and the rows made from both."""

    def __init__(self, found: FileAnalysis, match: MatchRecord, number: int, key: str | None, games: list[GameReplay],
                 plies: int, rules: str | None) -> None:  # fmt: skip
        self.found, self.match, self.number, self.key, self.plies = found, match, number, key, plies
        self.rules = rules_for(match, rules)
        self.length = match.length or 0
        self.games = games
        self.kept: list[GameReplay] = []
        left_out: dict[str, list[int]] = {}
        for out in games:
            why = _left_out(out)
            if why:
                left_out.setdefault(why, []).append(out.game.index)
            else:
                self.kept.append(out)
        self.skipped = sum(len(indexes) for indexes in left_out.values())
        found.skipped_games += len(left_out.get("errors", ()))
        for why, indexes in left_out.items():  # said once a match, whatever the number of games
            one, many = LEFT_OUT[why]
            said = f"game {indexes[0]} {one}" if len(indexes) == 1 else f"games {', '.join(map(str, indexes))} {many}"
            found.notes.append(f"match {number}: {said}: not analysed")

    def run(self, engine_name: str, timeout: float | None) -> None:
        found = self.found
        row = self._match_row()
        found.matches.append(row)
        if self.rules.variant.value != "standard":
            row["problem"] = f"{self.rules.variant.value} is not analysed (GNU Backgammon's .mat knows only standard backgammon)"
            found.notes.append(f"match {self.number}: {row['problem']}")
            return
        if not self.kept:
            return
        try:
            engine = engine_for(engine_name, timeout)
            self._rows(self._facts(engine), engine.name)
        except (EngineError, EngineMissing) as exc:  # missing: on a cluster's worker, found only there
            row["problem"] = str(exc)
            found.failures.append(f"match {self.number}: {exc}: not analysed")
            return
        row["games_analysed"] = len(self.kept)

    def _match_row(self) -> dict[str, Any]:
        names = self.games[0].game.names
        return {"file": self.found.path, "match_key": self.key, "match": self.number, "match_length": self.match.length,
                "player0": names[0], "player1": names[1], "plies": self.plies, "engine": None, "games": len(self.games),
                "games_analysed": 0, "games_skipped": self.skipped, "problem": None}  # fmt: skip

    def _facts(self, engine: Engine) -> EngineMatch:
        """The engine's facts of the games kept: a match at once, a money session in parts of
        :data:`PART` games (its games stand alone), so that the engine's memory and its reply
        stay bounded however long the session. The engine's own statistics are of the whole
        match only when it went at once."""
        jacoby = self.rules.jacoby and not self.length
        if self.length or len(self.kept) <= PART:
            return engine.analyse(self._mat(self.kept), self.plies, jacoby)
        games = []
        for start in range(0, len(self.kept), PART):
            games += engine.analyse(self._mat(self.kept[start : start + PART]), self.plies, jacoby).games
        return EngineMatch(games)

    def _mat(self, kept: list[GameReplay]) -> str:
        """Games without errors as a .mat, in GNU Backgammon's layout: bgrecord's own writing
        of its replay, with plain names and nothing but the plays, cube actions and results."""
        header = MatchRecord(None, "mat", "utf-8", self.length)
        clean = []
        for number, out in enumerate(kept, 1):
            actions: list[Action] = [a for a in out.game.actions if isinstance(a, (Roll, CubeAction, Result)) and not _unplayed(a)]
            clean.append(replace(out, game=replace(out.game, names=_NAMES, number=number, actions=actions)))
        return write_mat(header, clean)

    def _rows(self, facts: EngineMatch, engine: str) -> None:
        if len(facts.games) != len(self.kept):
            raise EngineError(f"{engine} read {len(facts.games)} games where bgrecord wrote {len(self.kept)}")
        totals = (Sums(), Sums())
        rows: list[dict[str, Any]] = []
        for out, game in zip(self.kept, facts.games):
            sums = _GameRows(self, out, game, engine).rows(rows)
            for side in (0, 1):
                totals[side].add(sums.players[side])
        self.found.decisions.extend(rows)
        self.found.matches[-1]["engine"] = engine
        self.found.references.append((self.number, facts.reference))
        all_moves = totals[0].moves + totals[1].moves
        names = self.games[0].game.names
        for side in (0, 1):
            self.found.players.append(_player_row(self, side, names, totals[side], all_moves, engine))


def _unplayed(action: Any) -> bool:
    return isinstance(action, Roll) and action.note == "unplayed"


# why a game is not given to the engine: said of one game, and of several
LEFT_OUT = {
    "errors": ("has errors", "have errors"),
    "setup": ("starts from a set-up position", "start from a set-up position"),
    "no roll": ("has no roll", "have no roll"),
    "turn left out": ("leaves out a turn (a closed-out player's dance, its dice unknown)",
                      "leave out a turn (a closed-out player's dance, its dice unknown)"),
}  # fmt: skip


def _left_out(out: GameReplay) -> str | None:
    """Why a game is not given to the engine (a key of :data:`LEFT_OUT`), or None."""
    errors = sum(issue.severity is Severity.ERROR for issue in (*out.issues, *out.game.issues))
    if errors or not out.checked:
        return "errors"
    if any(step.kind == "setup" for step in out.steps):
        return "setup"
    rolls = [step.player for step in out.steps if step.kind == "move" and step.dice is not None]
    if not rolls:
        return "no roll"
    if any(first == second for first, second in zip(rolls, rolls[1:])):
        return "turn left out"
    return None


def game_key(length: int, out: GameReplay) -> str:
    """A game's key: its match length, score, Crawford flag and replay (its fingerprint), so
    that the same game at the same score has the same analysis wherever it is found."""
    digest = hashlib.sha256(f"{length} {out.score[0]} {out.score[1]} {int(out.crawford)}\n".encode())
    digest.update(game_fingerprint(out))
    return digest.hexdigest()[:16]


class _GameRows:
    """One game: the engine's actions paired with the replay's steps, and their rows."""

    def __init__(self, work: _MatchWork, out: GameReplay, game: Any, engine: str) -> None:
        self.work, self.out, self.game, self.engine = work, out, game, engine
        self.key = game_key(work.length, out)
        self.in_match = work.games.index(out) + 1

    def pairs(self) -> Iterable[tuple[int, Step, EngineAction]]:
        """(step number, step, engine action), checked to be the same action. What gnubg adds
        (the take a beaver implies) and leaves out (a dance before a resignation) is allowed for."""
        steps = [(index, step) for index, step in enumerate(self.out.steps, 1)
                 if step.kind in ANALYSED and step.player is not None and not _unplayed(step.action)]  # fmt: skip
        actions = [a for a in self.game.actions if a.action in ("move", "double", "take", "drop")]
        at = 0
        implied: list[EngineAction] = []  # takes gnubg adds, said at the step that follows them
        for number, action in enumerate(actions):
            if action.action == "take" and number and actions[number - 1].beaver and (at == len(steps) or steps[at][1].kind != "take"):
                implied.append(action)  # the doubler's roll accepted the beaver: gnubg records a take the record does not write
                continue
            if at == len(steps):
                raise EngineError(f"{self.engine} read more actions in game {self.out.game.index} than bgrecord wrote")
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
                raise EngineError(f"{self.engine} read game {self.out.game.index}, move {step.action.number}, otherwise than bgrecord")
            yield index, step, action
        if implied or not all(_dance(step) for _, step in steps[at:]):  # a roll that could not be played, then the game resigned
            raise EngineError(f"{self.engine} read game {self.out.game.index} otherwise than bgrecord (its end)")

    def rows(self, rows: list[dict[str, Any]]) -> GameSums:
        sums = GameSums(self.game.actual_result)
        offered: EngineAction | None = None  # the double being answered, when analysed
        for index, step, action in self.pairs():
            player = action.player
            if action.action == "move":
                offered = None
                if action.cube is not None:
                    judged, _ = judge_no_double(action.cube)
                    sums.players[player].add_cube(judged)
                    if judged.counted:
                        rows.append(self.row(index, step, "no double", judged, "no double"))
                judged = judge_play(action.best_equity, action.played_equity, action.candidates)
                sums.players[player].add_checker(judged)
                if action.luck is not None:
                    sums.luck(player, action.luck, action.luck_cost or 0.0)
                rows.append(self.checker_row(index, step, action, judged))
            elif action.action == "double":
                if not action.beaver:  # gnubg analyses neither a beaver nor a raccoon: the first double stands
                    offered = action if action.cube is not None else None
                    if offered is not None and offered.cube is not None:
                        judged = judge_double(offered.cube)
                        sums.players[player].add_cube(judged)
                        rows.append(self.row(index, step, "double", judged, "double"))
            elif offered is not None and offered.cube is not None:  # a take or a pass, with the analysed double's equities
                take = action.action == "take"
                judged = judge_answer(offered.cube, take)
                sums.players[player].add_cube(judged)
                rows.append(self.row(index, step, "take" if take else "pass", judged, "take" if take else "pass"))
                offered = None
        return sums

    def row(self, index: int, step: Step, kind: str, judged: Judged, made: str, dice: bool = False) -> dict[str, Any]:
        work = self.work
        position, state = step_state(step, self.out, work.match, work.rules.jacoby)
        if not dice:
            state = replace(state, dice=(0, 0))
        names = self.out.game.names
        player = step.player if step.player is not None else 0
        return {
            "file": work.found.path, "match_key": work.key, "match": work.number, "game": self.out.game.index,
            "game_in_match": self.in_match, "game_key": self.key, "move": step.action.number, "step": index,
            "player": player, "name": names[player], "kind": kind, "dice": None, "play": made, "best": judged.best,
            "equity": judged.equity, "best_equity": judged.best_equity, "error": judged.error, "counted": judged.counted,
            "mark": skill(judged.error), "category": judged.category, "candidates": None, "luck": None, "luck_cost": None,
            "cube": step.cube, "position_id": position.id() if position is not None else None,
            "match_id": state.id() if state.state is GameState.PLAYING else None, "plies": work.plies,
        }  # fmt: skip

    def checker_row(self, index: int, step: Step, action: EngineAction, judged: Judged) -> dict[str, Any]:
        row = self.row(index, step, "checker", judged, notation(step.play) if step.play is not None else "", dice=True)
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
    made when it leads to the same position (whatever way the checkers went); "" for a dance."""
    before = _before(step)
    if before is None or step.dice is None:
        return None
    if not action.best:
        return "" if action.candidates == 0 else None
    error, legal = before.check_play(step.dice, Play.from_pairs(action.best))
    if error is not None or legal is None:
        return None
    if step.play is not None and legal.position.sides == step.play.position.sides:
        return notation(step.play)
    return notation(legal)


def _player_row(work: _MatchWork, side: int, names: tuple[str, str], sums: Sums, all_moves: int, engine: str) -> dict[str, Any]:
    return {
        "file": work.found.path, "match_key": work.key, "match": work.number, "player": side, "name": names[side],
        "opponent": names[1 - side], "plies": work.plies, "engine": engine, "games": len(work.kept), "moves": sums.moves,
        "checker_decisions": sums.checker_decisions, "checker_error": sums.checker_error,
        "cube_decisions": sums.cube_decisions, "cube_error": sums.cube_error, "error": sums.error,
        **derived(sums, all_moves), "luck": sums.luck, "luck_cost": sums.luck_cost, "actual_result": sums.actual_result,
        "luck_adjusted_result": sums.luck_adjusted_result, "doubtful": sums.marks("doubtful"), "bad": sums.marks("bad"),
        "very_bad": sums.marks("very bad"), **{column: sums.cube_counts[name] for name, column in CUBE_CATEGORIES.items()},
    }  # fmt: skip
