"""Validation of whole files: what the reader could not read and what the replay found wrong.

``validate_file(path)`` reads a file game by game, replays each game as it comes (memory
holds one game at a time, however large the file) and returns a :class:`FileReport`: the
number of games and every issue, in file order. A failure of bgrecord itself on one file is
an ``internal`` issue on that file, never an exception: one bad file does not stop a run.
It is what ``bgrecord validate`` runs, in worker processes when asked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

from bgrecord.escapes import cut, one_line
from bgrecord.extras import MissingExtra
from bgrecord.formats.issues import Issue, Severity, count
from bgrecord.formats.limits import MAX_ISSUES
from bgrecord.formats.reader import iter_games
from bgrecord.formats.records import GameRecord, MatchRecord
from bgrecord.formats.source import Input
from bgrecord.names import named
from bgrecord.replay import GameReplay, MatchReplayer
from bgrecord.replay.repeats import Repeats
from bgrecord.replay.rules import rules_for

T = TypeVar("T")


@dataclass(slots=True)
class FileReport:
    """What ``validate`` found in one file: its games and issues, in file order."""

    path: str
    games: int = 0
    issues: list[Issue] = field(default_factory=list)
    failure: str | None = None  # the file could not be read at all (I/O)
    beyond: Beyond = field(default_factory=lambda: Beyond())  # issues past MAX_ISSUES: counted, not kept

    def add(self, issues: Iterable[Issue]) -> None:
        keep(self.issues, self.beyond, issues)

    def count(self, severity: Severity) -> int:
        return sum(issue.severity is severity for issue in self.issues) + self.beyond[severity]

    @property
    def internal(self) -> bool:
        return any(issue.code == "internal" for issue in self.issues)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "games": self.games,
            "issues": [issue.to_json() for issue in self.issues],
            **({"failure": self.failure} if self.failure else {}),
        }


@dataclass(slots=True)
class Beyond:
    """The issues of a file past what its report keeps: counted by severity."""

    counts: Counter[Severity] = field(default_factory=Counter)
    room: list[int] = field(default_factory=lambda: [MAX_ISSUES, MAX_ISSUES])  # left for errors, for other issues

    def __getitem__(self, severity: Severity) -> int:
        return self.counts[severity]


def keep(kept: list[Issue], beyond: Beyond, issues: Iterable[Issue]) -> None:
    """``issues`` added to ``kept``: the errors up to :data:`~bgrecord.formats.limits.MAX_ISSUES`, and
    as many warnings and infos (a file's report costs bounded memory however many issues it
    has, and notices never crowd an error out); the others counted in ``beyond``."""
    room = beyond.room
    for issue in issues:
        other = issue.severity is not Severity.ERROR
        if room[other] > 0:
            room[other] -= 1
            kept.append(issue)
        else:
            beyond.counts[issue.severity] += 1


def _said_beyond(path: str, issues: list[Issue], beyond: Beyond) -> None:
    total = sum(beyond[s] for s in Severity)
    if total:
        counts = ", ".join(count(beyond[s], str(s)) for s in Severity if beyond[s])
        issues.append(Issue(Severity.INFO, "format", "more-issues", f"{total:,} more issues not listed ({counts}): a file's report "
                            f"lists its first {MAX_ISSUES:,} errors and {MAX_ISSUES:,} other issues", path))  # fmt: skip


def internal_issue(path: str, exc: BaseException) -> Issue:
    """bgrecord's own failure on a file, as an issue on that file (with where it happened).
    Never fails itself: an exception that cannot say what it is (or no memory left to say it)
    is named by its type alone."""
    try:
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        at = f" at {Path(where.filename).name}:{where.lineno}" if where else ""
        said = cut(str(exc))
    except Exception:  # noqa: BLE001 - the exception's own __str__ failed, or memory ran out: say less
        at, said = "", "..."
    message = (f"bgrecord failed on this file ({type(exc).__name__}: {said}{at}); this is a bug in bgrecord: "
               "please report it, with the file")  # fmt: skip
    return Issue(Severity.ERROR, "internal", "internal", message, path)


def failed_report(file: Any, exc: BaseException) -> FileReport:
    """What :func:`validate_file` gives for a file whose work failed outside it (a worker that died)."""
    name = getattr(file, "name", None) or str(file)
    return FileReport(name, issues=[internal_issue(name, exc)])


def replayed(source: Input | str | Path, rules: str | None = None, steps: bool = False,
             repeats: Repeats | None = None) -> Iterator[tuple[MatchRecord, GameRecord | None, GameReplay | None]]:
    """Each game of a file with its replay, as the file is read: (match, game, replay) for
    every game, and (match, None, None) once when a match ends (its issues are then all
    known). A match's replays come one game late: a game's end is judged when the next
    game (or the end of the match) is seen. ``repeats``: the file's repeats (one unknown
    convention told once), to say at the end how many places share each."""
    current: MatchRecord | None = None
    replayer: MatchReplayer | None = None
    repeats = repeats or Repeats()

    def ended(match: MatchRecord, replayer: MatchReplayer) -> Iterator[tuple[MatchRecord, GameRecord | None, GameReplay | None]]:
        for out in replayer.finish():
            yield match, out.game, out
        yield match, None, None

    for match, game in iter_games(source):
        if match is not current:
            if current is not None and replayer is not None:
                yield from ended(current, replayer)
            current, replayer = match, MatchReplayer(match, rules_for(match, rules), steps, repeats)
        if game is not None and replayer is not None:
            for out in replayer.feed(game):
                yield match, out.game, out
    if current is not None and replayer is not None:
        yield from ended(current, replayer)


def guarded(path: str, work: Callable[[], T], on_failure: Callable[[Issue], T]) -> T:
    """``work()``, or ``on_failure`` of an ``internal`` issue when bgrecord fails on the file.
    A missing optional package (:class:`~bgrecord.extras.MissingExtra`) is the environment's
    problem, not the file's: it is raised."""
    try:
        return work()
    except (OSError, KeyboardInterrupt, SystemExit, MissingExtra):
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of ours on one file is reported on that file
        return on_failure(internal_issue(path, exc))


def guarded_steps(path: str, work: Iterator[T], on_failure: Callable[[Issue], None]) -> Iterator[T]:
    """What ``work`` yields, then ``on_failure`` of an ``internal`` issue if bgrecord fails on
    the file part way (what came before it stands)."""
    try:
        yield from work
    except (OSError, KeyboardInterrupt, SystemExit, MissingExtra):
        raise
    except Exception as exc:  # noqa: BLE001 - as in guarded
        on_failure(internal_issue(path, exc))


def validate_file(path: str | Path | Input, rules: str | None = None) -> FileReport:
    """Read and replay every match of ``path``; ``rules`` as for ``--rules``."""
    name = path.name if isinstance(path, Input) else str(path)
    report = FileReport(name or "<stdin>")
    repeats = Repeats()

    def work() -> FileReport:
        for match, game, out in replayed(path, rules, repeats=repeats):
            if out is not None:
                report.games += 1
                report.add(out.game.issues)
                report.add(out.issues)
            elif game is None:
                report.add(match.issues)
        report.issues = repeats.counted(report.issues)
        return report

    return _reported(report, work)


@dataclass(slots=True)
class ReadReport:
    """What the reader alone makes of a file: each match in a line, and the reader's issues."""

    path: str
    matches: list[dict[str, Any]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    failure: str | None = None
    beyond: Beyond = field(default_factory=lambda: Beyond())  # issues past MAX_ISSUES: counted, not kept

    def add(self, issues: Iterable[Issue]) -> None:
        keep(self.issues, self.beyond, issues)

    @property
    def errors(self) -> int:
        return sum(issue.severity is Severity.ERROR for issue in self.issues) + self.beyond[Severity.ERROR]

    @property
    def internal(self) -> bool:
        return any(issue.code == "internal" for issue in self.issues)

    def lines(self) -> list[str]:
        found = []
        for match in self.matches:
            length = match["length"]
            kind = "money play" if length == 0 else f"{length} point match" if length else "no match length"
            players = " vs ".join(one_line(named(name, side)) for side, name in enumerate(match["players"]))
            unlisted = match.get("unlisted", {"games": 0, "actions": 0})
            games = len(match["games"]) + unlisted["games"]
            actions = sum(game["actions"] for game in match["games"]) + unlisted["actions"]
            encoding = f" ({match['encoding']})" if match["encoding"] else ""
            found.append(f"{one_line(self.path)}: {match['format']}{encoding}, {kind}, {players}, {count(games, 'game')}, {count(actions, 'action')}")
        return found + [f"  {issue}" for issue in self.issues]

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "matches": self.matches, "issues": [issue.to_json() for issue in self.issues],
                **({"failure": self.failure} if self.failure else {})}  # fmt: skip


def _close(report: ReadReport, match: MatchRecord, entry: dict[str, Any]) -> None:
    """A match read to its end: what only the end tells (its format, tags, players)."""
    report.add(match.issues)
    entry.update(format=match.format, length=match.length, tags={tag.key: tag.value for tag in match.tags})
    first, second = match.tag("Player 1"), match.tag("Player 2")
    if first is not None and second is not None or not entry["players"]:
        entry["players"] = [first or "", second or ""]


def read_file(path: str | Path | Input, name: str | None = None) -> ReadReport:
    """Read ``path`` game by game (nothing replayed) and say what was read."""
    report = ReadReport(name or (path.name if isinstance(path, Input) else str(path)) or "<stdin>")

    def work() -> ReadReport:
        current: MatchRecord | None = None
        entry: dict[str, Any] = {}
        listed = 0
        for match, game in iter_games(path):
            if match is not current:
                if current is not None:
                    _close(report, current, entry)
                current = match
                entry = {"format": match.format, "encoding": match.encoding, "length": match.length, "players": [], "tags": {}, "games": []}
                report.matches.append(entry)
            if game is not None:
                report.add(game.issues)
                if not entry["games"] and "unlisted" not in entry:
                    entry["players"] = list(game.names)
                listed += 1
                if listed > MAX_ISSUES:  # a file's listing is bounded: the rest counted
                    unlisted = entry.setdefault("unlisted", {"games": 0, "actions": 0})
                    unlisted["games"] += 1
                    unlisted["actions"] += len(game.actions)
                    continue
                entry["games"].append({"index": game.index, "number": game.number, "line": game.line, "names": list(game.names),
                                       "scores": list(game.scores), "actions": len(game.actions)})  # fmt: skip
        if current is not None:
            _close(report, current, entry)
        return report

    return _reported(report, work)


R = TypeVar("R", FileReport, ReadReport)


def _reported(report: R, work: Callable[[], R]) -> R:
    """``work()`` filling ``report``, guarded: bgrecord's failure an issue on the file, an I/O
    failure said in ``failure``; the issues in the order of the file."""

    def failed(issue: Issue) -> R:
        report.issues.append(issue)
        return report

    try:
        guarded(report.path, work, failed)
    except OSError as exc:
        report.failure = f"cannot read: {exc.strerror or exc}"
    report.issues.sort(key=lambda issue: (issue.line or 0, issue.column or 0))
    _said_beyond(report.path, report.issues, report.beyond)
    return report
