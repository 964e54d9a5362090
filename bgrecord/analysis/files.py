"""Analysing a file: each match read and replayed by bgrecord, and analysed by the analysis the
record stores (eXtreme Gammon's, GNU Backgammon's SGF, OGXM's: :mod:`bgrecord.analysis.recorded`)
or by an engine, given the games without errors as a clean .mat; the facts mapped back to the
replay's steps and made into the rows of the three tables (:mod:`bgrecord.analysis.rows`,
:mod:`bgrecord.analysis.tables`).

:func:`analyse_file` is what ``bgrecord analyze`` runs on each file, in worker processes when
asked; each process keeps one engine for all its files. A game with errors is not analysed
(it is said once, with the match); a match the engine cannot analyse is one problem of the
file, and the next match is analysed. Nothing here raises on a bad file.

Which analysis (``engine``): ``gnubg`` (GNU Backgammon analyses every match), ``recorded``
(the record's own analysis; a match without one is not analysed) or ``auto`` (the record's own
where it has one, gnubg where not).

What it does not do: judge the records (the replay has) or evaluate (the engine does).
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterator

from bgrecord.analysis.counting import COUNTINGS, Counting
from bgrecord.analysis.engine import Engine, EngineError, EngineMatch, EngineMissing
from bgrecord.analysis.measures import Sums, Thresholds
from bgrecord.analysis.recorded import judged_steps, read_recorded, stores_analysis, unplayed
from bgrecord.analysis.rows import GameRows, Made, MatchPlace, game_key, player_row
from bgrecord.analysis.settings import AnalysisRules, setting_key, threshold_columns
from bgrecord.escapes import file_text
from bgrecord.formats.issues import Severity
from bgrecord.formats.records import Action, CubeAction, GameRecord, MatchRecord, Result, Roll
from bgrecord.formats.source import Input, failed_name, table_name
from bgrecord.replay import GameReplay, MatchReplayer
from bgrecord.replay.matchkeys import MatchKeys
from bgrecord.replay.repeats import Repeats
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import guarded, internal_issue, replayed
from bgrecord.writing.writers import write_mat

__all__ = ["ENGINES", "FileAnalysis", "analyse_file", "close_engines", "engine_for", "failed_analysis", "game_key", "open_engine"]

PART = 50  # games of a money session given to the engine at once: about 190 MB of gnubg (2,000 at once: 2.8 GB, and it died)
_NAMES = ("left", "right")  # what the engine is told the players are called (gnubg refuses an empty name)
MODES = ("auto", "recorded", "gnubg")  # which analysis: the record's where it has one, the record's only, gnubg's


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


def gnubg_settings(timeout: float | None = None) -> tuple[str, dict[str, float]]:
    """The version and default analysis thresholds of the gnubg this process runs (started, and
    kept for its matches): what a run checks at its start and gives every worker to check.
    :class:`EngineMissing` when gnubg is not installed, :class:`EngineError` when it does not start."""
    return engine_for("gnubg", timeout).settings()


def close_engines() -> None:
    while _ENGINES:
        _, engine = _ENGINES.popitem()
        engine.close()


# --- a file ---


@dataclass(frozen=True, slots=True)
class Asked:
    """What a run asks of every match: the analysis (``engine``: one of :data:`MODES`), the
    plies of gnubg's, the user's rules, gnubg's timeout, and gnubg's version and thresholds as
    the run found them at its start (None: as this process's gnubg says, when it is run)."""

    engine: str = "gnubg"
    plies: int = 0
    rules: str | None = None
    timeout: float | None = None
    gnubg: tuple[str, dict[str, float]] | None = None


def analyse_file(path: str | Path | Input | MatchRecord, plies: int = 0, rules: str | None = None, engine: str = "gnubg",
                 timeout: float | None = None, known: frozenset[str] = frozenset(),
                 gnubg: tuple[str, dict[str, float]] | None = None) -> FileAnalysis:  # fmt: skip
    """Analyse every match of the file at ``path`` (or of a match already read); ``engine``:
    one of :data:`MODES`; ``known``: the analyses held elsewhere, left out
    (:attr:`FileAnalysis.cached` counts them): a database's, each by :func:`cache_key` (the
    match and its setting), or a match's bare key (held whatever its setting, as by the tables
    given to a report); ``gnubg``: the
    version and thresholds the run expects of gnubg (its start found them)."""
    if engine not in MODES:
        raise ValueError(f"unknown analysis {engine!r}: one of {', '.join(MODES)}")
    if isinstance(path, MatchRecord):
        name = file_text(path.path or "<record>")
    else:
        name = table_name(path)
    found = FileAnalysis(name)
    asked = Asked(engine, plies, rules, timeout, gnubg)

    def work() -> FileAnalysis:
        if isinstance(path, MatchRecord):
            _analyse(_replayed_record(path, rules), found, asked, known)
        else:
            _analyse(replayed(path if isinstance(path, Input) else Input.of(Path(path)), rules, steps=True), found, asked, known)
        return found

    def failed(issue: Any) -> FileAnalysis:
        return FileAnalysis(name, problem=issue.message, internal=True)

    try:
        return guarded(name, work, failed)
    except OSError as exc:
        return FileAnalysis(name, problem=f"cannot read: {exc.strerror or exc}")


def failed_analysis(file: Any, exc: BaseException) -> FileAnalysis:
    """What :func:`analyse_file` gives for a file whose work failed outside it (a worker that died)."""
    name = failed_name(file)
    return FileAnalysis(name, problem=internal_issue(name, exc).message, internal=True)


Replayed = Iterator[tuple[MatchRecord, GameRecord | None, GameReplay | None]]


def _replayed_record(match: MatchRecord, rules: str | None) -> Replayed:
    """A match already read, replayed as :func:`~bgrecord.replay.validate.replayed` replays a file."""
    replayer = MatchReplayer(match, rules_for(match, rules), True, Repeats())
    for game in match.games:
        for out in replayer.feed(game):
            yield match, out.game, out
    for out in replayer.finish():
        yield match, out.game, out
    yield match, None, None


def _analyse(replaying: Replayed, found: FileAnalysis, asked: Asked, known: frozenset[str]) -> None:
    current: MatchRecord | None = None
    games: list[GameReplay] = []
    keys = MatchKeys()
    number = 0
    for match, game, out in replaying:
        if match is not current:
            current, number, games = match, number + 1, []
        if out is not None:
            keys.add(number, match.length, out)
            games.append(out)
        elif game is None and games:  # the match has ended: all its games are known
            _MatchWork(found, match, number, keys.key(number), games, asked).run(known)


def cache_key(match_key: str | None, engine: str | None, version: str | None, rules: str | None,
              thresholds: tuple[float | None, ...]) -> str:  # fmt: skip
    """What a database's kept analysis of a match is known by: the match and its setting."""
    return f"{match_key} {setting_key(engine, version, rules, thresholds)}"


class _MatchWork:
    """One match: the analysis it gets (the record's, or the engine's reply), and the rows made."""

    def __init__(self, found: FileAnalysis, match: MatchRecord, number: int, key: str | None, games: list[GameReplay],
                 asked: Asked) -> None:  # fmt: skip
        self.found, self.match, self.number, self.key, self.asked = found, match, number, key, asked
        self.length = match.length or 0
        self.rules = AnalysisRules.of(self.length, rules_for(match, asked.rules))
        self.place = MatchPlace(found.path, key, number, match, self.length, self.rules)
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

    def run(self, known: frozenset[str]) -> None:
        found, asked = self.found, self.asked
        row = self._match_row()
        found.matches.append(row)
        if self.match.length is None:
            return self._not_analysed(row, "the match length does not read (an error of the record): not analysed as money play")
        if self.rules.variant != "standard":
            return self._not_analysed(row, f"{self.rules.variant} is not analysed (GNU Backgammon's .mat knows only standard backgammon)")
        if not self.kept:
            return None
        if self.key in known:  # held, whatever its setting
            return self._held()
        if asked.engine != "gnubg" and stores_analysis(self.match, self.kept):
            recorded = read_recorded(self.match, self.kept, self.rules)
            if recorded is not None:
                marks = Thresholds.of(asked.gnubg[1] if asked.gnubg else {})
                made = Made(recorded.engine, recorded.version, recorded.plies, COUNTINGS[recorded.counting](marks))
                try:
                    return self._analysed(row, recorded.facts, made)
                except EngineError as exc:  # the record's analysis and its moves disagree
                    return self._not_analysed(row, f"its analysis does not fit its moves ({exc})")
        if asked.engine == "recorded":
            return self._not_analysed(row, "the record holds no analysis bgrecord reads: not analysed (--engine gnubg or auto analyses it)")
        self._by_gnubg(row, known)
        return None

    def _by_gnubg(self, row: dict[str, Any], known: frozenset[str]) -> None:
        """The match analysed by gnubg, unless the database holds its analysis under the same settings."""
        asked = self.asked
        row.update(engine=f"gnubg {asked.plies}ply", plies=asked.plies)
        try:
            if asked.gnubg is not None and self._known(asked.gnubg, known):  # known before gnubg is started
                return
            engine = engine_for("gnubg", asked.timeout)
            settings = engine.settings()
            if asked.gnubg is None and self._known(settings, known):
                return
            if asked.gnubg is not None and settings != asked.gnubg:
                raise EngineError(f"gnubg {settings[0] or '(version unknown)'} here, where the run started with gnubg {asked.gnubg[0] or '(version unknown)'}")
            made = Made(f"gnubg {asked.plies}ply", settings[0], asked.plies, Counting(Thresholds.of(settings[1])))
            facts = self._facts(engine)
            if self.rules.cube_limit is not None:  # gnubg knows no cube limit: no double past it
                _limit_cube(facts, self.kept, self.rules)
            self._analysed(row, facts, made)
        except (EngineError, EngineMissing) as exc:  # missing: on a cluster's worker, found only there
            row["problem"] = str(exc)
            self.found.failures.append(f"match {self.number}: {exc}: not analysed")

    def _known(self, settings: tuple[str, dict[str, float]], known: frozenset[str]) -> bool:
        """Whether the database holds this match's analysis by this gnubg at these plies and rules
        (then its row is taken back: the database's rows stand)."""
        thresholds = tuple(threshold_columns(Thresholds.of(settings[1])).values())
        if cache_key(self.key, f"gnubg {self.asked.plies}ply", settings[0], self.rules.text(), thresholds) not in known:
            return False
        self._held()
        return True

    def _held(self) -> None:
        """The match is analysed elsewhere: its row is taken back (the rows held there stand)."""
        self.found.matches.pop()
        self.found.cached += 1

    def _not_analysed(self, row: dict[str, Any], why: str) -> None:
        row["problem"] = why
        self.found.notes.append(f"match {self.number}: {why}")

    def _match_row(self) -> dict[str, Any]:
        names = self.games[0].game.names
        return {"file": self.found.path, "match_key": self.key, "match": self.number, "match_length": self.match.length,
                "player0": names[0], "player1": names[1], "plies": None, "engine": None, "games": len(self.games),
                "games_analysed": 0, "games_skipped": self.skipped, "problem": None, "engine_version": None,
                "rules": self.rules.text(), "threshold_doubtful": None, "threshold_bad": None, "threshold_very_bad": None}  # fmt: skip

    def _facts(self, engine: Engine) -> EngineMatch:
        """The engine's facts of the games kept: a match at once, a money session in parts of
        :data:`PART` games (its games stand alone), so that the engine's memory and its reply
        stay bounded however long the session. The engine's own statistics are of the whole
        match only when it went at once."""
        plies, jacoby, cube = self.asked.plies, self.rules.jacoby, self.rules.cube
        if self.length or len(self.kept) <= PART:
            return engine.analyse(self._mat(self.kept), plies, jacoby, cube)
        games = []
        for start in range(0, len(self.kept), PART):
            games += engine.analyse(self._mat(self.kept[start : start + PART]), plies, jacoby, cube).games
        return EngineMatch(games)

    def _mat(self, kept: list[GameReplay]) -> str:
        """Games without errors as a .mat, in GNU Backgammon's layout: bgrecord's own writing
        of its replay, with plain names and nothing but the plays, cube actions and results."""
        header = MatchRecord(None, "mat", "utf-8", self.length)
        clean = []
        for number, out in enumerate(kept, 1):
            actions: list[Action] = [a for a in out.game.actions if isinstance(a, (Roll, CubeAction, Result)) and not unplayed(a)]
            clean.append(replace(out, game=replace(out.game, names=_NAMES, number=number, actions=actions)))
        return write_mat(header, clean)

    def _analysed(self, row: dict[str, Any], facts: EngineMatch, made: Made) -> None:
        """The rows of the match from ``facts``: decisions, both players, and the match's own."""
        if len(facts.games) != len(self.kept):
            raise EngineError(f"{made.engine} read {len(facts.games)} games where bgrecord wrote {len(self.kept)}")
        totals = (Sums(), Sums())
        rows: list[dict[str, Any]] = []
        for out, game in zip(self.kept, facts.games):
            sums = GameRows(self.place, out, game, self.games.index(out) + 1, made).rows(rows)
            for side in (0, 1):
                totals[side].add(sums.players[side])
        self.found.decisions.extend(rows)
        row.update(engine=made.engine, plies=made.plies, engine_version=made.version, games_analysed=len(self.kept),
                   **threshold_columns(made.counting.thresholds))  # fmt: skip
        self.found.references.append((self.number, facts.reference))
        all_moves = totals[0].moves + totals[1].moves
        names = self.games[0].game.names
        for side in (0, 1):
            self.found.players.append(player_row(self.place, side, names, len(self.kept), totals[side], all_moves, made))


def _limit_cube(facts: EngineMatch, games: list[GameReplay], rules: AnalysisRules) -> None:
    """gnubg's cube decisions before rolls where the cube may not be doubled (at its limit): none."""
    for out, game in zip(games, facts.games):
        cubes = iter(step.cube for _, step in judged_steps(out) if step.kind == "move")
        for action in game.actions:
            if action.action == "move":
                cube = next(cubes, None)
                if cube is not None and not rules.may_double(cube):
                    action.cube = None


# why a game is not given to the engine: said of one game, and of several
LEFT_OUT = {
    "errors": ("has errors", "have errors"),
    "setup": ("starts from a set-up position", "start from a set-up position"),
    "no roll": ("has no roll", "have no roll"),
    "turn left out": ("leaves out a turn (a closed-out player's dance, its dice unknown)",
                      "leave out a turn (a closed-out player's dance, its dice unknown)"),
}  # fmt: skip


def _left_out(out: GameReplay) -> str | None:
    """Why a game is not analysed (a key of :data:`LEFT_OUT`), or None."""
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
