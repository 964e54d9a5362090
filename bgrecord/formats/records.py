"""Records: what a match file says, as written, with where each part stands.

A :class:`MatchRecord` holds the header (tags, comments, match length) and its
:class:`GameRecord` s; a game holds its actions in file order. Every action keeps its
line, column and the text as written, and every record keeps its raw lines, so
``record.text()`` gives the file back.

What records do not do: judge. Dice may be impossible, points out of range, a double
may have no take: the replay finds out. Records only say what the file says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, NamedTuple

from bgrecord.formats.issues import Issue

# Records are plain mutable dataclasses, not frozen ones: a reader builds tens of
# thousands of actions a second, and frozen construction costs four times as much.
# Treat them as read-only.

LEFT, RIGHT = 0, 1


class MoveToken(NamedTuple):
    """One move as written: ``13/7*/4(2)`` is points (13, 7, 4), a hit mark after the 7,
    repeated twice. 25 is the bar and 0 is off, in the mover's numbering. ``offset`` is
    where it stands in its action's text (its column is the action's plus the offset)."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]  # hits[i]: a `*` after points[i]
    repeat: int
    text: str
    offset: int

    def pairs(self) -> list[tuple[int, int]]:
        """The (from, to) steps written, chains split and repeats expanded."""
        return list(zip(self.points, self.points[1:])) * self.repeat

    def __str__(self) -> str:
        return self.text


@dataclass(slots=True)
class Action:
    """Something a player did, as written. ``player`` is 0 for the left column, 1 for
    the right one, None when the file does not say; ``number`` is the row number written.
    In a binary file ``line`` counts what the match's ``unit`` says, and ``column`` is None."""

    player: int | None
    number: int | None
    line: int
    column: int | None
    text: str


@dataclass(slots=True)
class Roll(Action):
    """Dice, and the checker play written after them. ``note`` is "" for a play (or bare
    dice), "cannot move" for an explicit dance, "unplayed" for XG's ``???`` (rolled, then
    resigned)."""

    dice: tuple[int, int]
    moves: tuple[MoveToken, ...] = ()
    note: str = ""


@dataclass(slots=True)
class SetPosition(Action):
    """A board set up inside a game: Snowie's ``Illegal play (...)`` (``kind`` "snowie",
    with the dice), eXtreme Gammon's ``; Set Pos=`` line ("xg"), SGF set-up ("sgf"), or the
    board of a position file ("xg" too: XGID's position text). ``on_roll``: the player to act
    next, where the source says (a position file, SGF's ``PL``); then ``dice`` are the dice
    that player has to play. Without it, ``dice`` are those of the play the set-up stands for
    (Snowie's illegal play)."""

    kind: str
    setup: str
    dice: tuple[int, int] | None = None
    on_roll: int | None = None


@dataclass(slots=True)
class CubeAction(Action):
    """``kind`` is double, take, drop, beaver or raccoon; ``value`` the number after ``=>``."""

    kind: str
    value: int | None = None


@dataclass(slots=True)
class Result(Action):
    """``Wins N point(s) [and the match]`` (kind "win"), ``Losses N point(s)`` ("loss") or a
    resignation ("resign"). ``resigned`` is set where the file says the game ended by
    resignation (SGF ``RE[W+2R]``)."""

    kind: str
    points: int | None = None
    match: bool = False
    resigned: bool = False


@dataclass(slots=True)
class Comment(Action):
    """A comment line inside a game, kept where it stands."""


@dataclass(slots=True)
class Unreadable(Action):
    """A line (or the rest of one) the reader could not read; an error issue goes with it.
    ``loose``: a whole line with no row number and no dice, standing between rows: it may be
    decoration (the replay decides, by whether the game stays consistent around it)."""

    loose: bool = False


@dataclass(slots=True)
class Tag:
    """A header tag, ``; [Key "Value"]``, and its line."""

    key: str
    value: str
    line: int


@dataclass(slots=True)
class GameRecord:
    """One game as written: its number, players and scores, its actions in file order, its
    raw text and the reader's issues."""

    index: int  # 1-based position of the game in its file
    number: int | None  # as written: "Game 3"
    line: int  # the game's first line
    names: tuple[str, str] = ("", "")
    scores: tuple[int | None, int | None] = (None, None)
    score_line: int | None = None  # where the scores stand, and their columns
    score_columns: tuple[int | None, int | None] = (None, None)
    ratings: tuple[int | None, int | None] = (None, None)
    note: str = ""  # text after "Game N", like "(Crawford)"
    initial_cube: int | None = None  # where the file says the cube starts (automatic doubles)
    initial_cube_owner: int | None = None  # and who owns it then, when the file says
    actions: list[Action] = field(default_factory=list)
    properties: dict[str, tuple[str, ...]] = field(default_factory=dict)  # SGF root properties
    raw: str = ""  # the game's text as in the file, line endings included
    issues: list[Issue] = field(default_factory=list)
    # the analysis the file stores (eXtreme Gammon's, GNU Backgammon's SGF, OGXM's), as the file
    # says it: by the index in ``actions`` of the action it judges; its meaning is the analysis layer's
    analysis: dict[int, dict[str, Any]] = field(default_factory=dict)

    def text(self) -> str:
        return self.raw


@dataclass(slots=True)
class MatchRecord:
    """One match as written: its format and encoding, length, tags, comments and games, the
    text before the first game, and the issues of the header and the match as a whole."""

    path: str | None
    format: str  # "mat", "gam", "sgf", "xg", "xgp", "bgf", "ogxm", "fibs", "snowie", "json"; "unknown" when refused
    encoding: str  # of a text: "utf-8", "utf-8-sig", "utf-16-le"..., "cp1252" or "latin-1"; "" for binary
    length: int | None = None  # 0 for money play; None where the file does not say (.gam)
    tags: list[Tag] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    raw: str = ""  # the text before the first game, as written
    issues: list[Issue] = field(default_factory=list)  # of the header and the match as a whole
    unit: str = "line"  # what an action's ``line`` counts: "line", or "record", "ply", "move", "step"
    analysis: dict[str, Any] = field(default_factory=dict)  # who made the analysis its games store, as the file says

    def tag(self, key: str, default: str | None = None) -> str | None:
        """A tag's value, the key compared without case."""
        wanted = key.lower()
        for tag in self.tags:
            if tag.key.lower() == wanted:
                return tag.value
        return default

    @property
    def variant(self) -> str:
        return (self.tag("Variation") or "Backgammon").strip()

    @property
    def players(self) -> tuple[str, str]:
        """The players' names: from the tags, else from the first game's score line."""
        first, second = self.tag("Player 1"), self.tag("Player 2")
        if first is not None and second is not None:
            return first, second
        return self.games[0].names if self.games else ("", "")

    def all_issues(self) -> list[Issue]:
        """The match's issues and its games', in file order."""
        issues = list(self.issues)
        for game in self.games:
            issues.extend(game.issues)
        return sorted(issues, key=lambda issue: (issue.line or 0, issue.column or 0))

    def text(self) -> str:
        return self.raw + "".join(game.raw for game in self.games)

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(self.games)
