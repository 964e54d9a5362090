"""The names an archive's records give their players, and those that may be one person
(``bgrecord players``): what the user confirms in an aliases table (:mod:`bgrecord.names`).

Only the records are read (no replay): a file's names, each with the games it plays.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgrecord.formats.issues import Severity
from bgrecord.formats.reader import iter_games
from bgrecord.formats.source import Input, table_name
from bgrecord.names import LookAlike, People, look_alike, person
from bgrecord.replay.validate import guarded, internal_issue


@dataclass(slots=True)
class FileNames:
    """The names of one file's games, each with the games it plays (``problem``: why the file
    gave none that could be read)."""

    path: str
    names: Counter[str] = field(default_factory=Counter)
    problem: str | None = None


def file_names(source: str | Path | Input) -> FileNames:
    """The names each game of the file gives its two players, counted; a failure is reported,
    never raised."""
    name = table_name(source)
    found = FileNames(name)

    def read() -> FileNames:
        games = 0
        errors: list[str] = []
        for match, game in iter_games(source if isinstance(source, Input) else Input.of(Path(source))):
            if game is not None:
                games += 1
                found.names.update(spelling for spelling in game.names if person(spelling))
            else:
                errors += [issue.message for issue in match.issues if issue.severity is Severity.ERROR]
        if not games:
            found.problem = f"no games: {errors[0]}" if errors else "no games in the file"
        return found

    def failed(issue: Any) -> FileNames:
        return FileNames(name, problem=issue.message)

    try:
        return guarded(name, read, failed)
    except OSError as exc:
        return FileNames(name, problem=f"cannot read: {exc.strerror or exc}")


def failed_names(file: Any, exc: BaseException) -> FileNames:
    """What :func:`file_names` gives for a file whose work failed outside it (a worker that died)."""
    name = getattr(file, "name", None) or str(file)
    return FileNames(name, problem=internal_issue(name, exc).message)


@dataclass
class Listing:
    """Every name of an archive, as persons (:class:`~bgrecord.names.People`): the games each
    plays, the spellings read as one (Unicode forms, invisible characters) and the names that
    may be one person."""

    people: People
    games: Counter[str] = field(default_factory=Counter)  # person -> games
    spellings: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))  # person -> spelling -> games

    def add(self, names: Counter[str]) -> None:
        for spelling, games in names.items():
            who = self.people.of(spelling)
            self.games[who] += games
            self.spellings[who][spelling] += games

    def merged(self) -> list[tuple[str, list[tuple[str, int]]]]:
        """The persons written in several ways that read as one (not by an alias), with each way."""
        return [(who, sorted(ways.items(), key=lambda item: (-item[1], item[0])))
                for who, ways in sorted(self.spellings.items()) if len({person(way) for way in ways}) == 1 and len(ways) > 1]  # fmt: skip

    def look_alike(self) -> list[LookAlike]:
        return look_alike(self.games)
