"""FIBS ``oldmoves`` logs: the matches the FIBS server keeps, as text.

A game starts at ``Score is 3-1 in a 5 point match.`` (no "in a ..." for money play), the
next line names the sides (``alice is X - bob is O``), and each line after it is an action:
``X: (6 2) 24-18 13-11``, ``O: (6 6) can't move``, ``X: doubles``, ``O: accepts the double``
(or ``rejects``), ``X: wants to resign...``, ``O: wins 2 points``. Points are FIBS's
numbering, one fixed frame: each side's moves are turned into the mover's numbering by
their direction (ascending moves are counted from the other end), as GNU Backgammon's
import.c (``ImportOldmoves``) does. The player named X in the first game is player 0;
when the sides swap between games, the names decide. Other lines are free text and skipped.
A ``Score is`` line whose scores are the other way round from what the games before say (a FIBS
bug GNU Backgammon's importer corrects) is read the way nearer them, with an info.

What this reader does not check: the rules (the replay does).
"""

from __future__ import annotations

import re
from typing import Iterator

from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_LINES, TooLarge
from bgrecord.formats.numbers import number
from bgrecord.formats.records import Action, CubeAction, GameRecord, MatchRecord, MoveToken, Result, Roll, Unreadable
from bgrecord.formats.source import Input, lines

_SCORE = re.compile(r"Score is ([0-9]{1,6})-([0-9]{1,6})(?: in (?:a ([0-9]{1,6}) point|an unlimited) match)?")
_SIDES = re.compile(r"^[ \t]*(\S{1,64}) is X - (\S{1,64}) is O")
_ACTION = re.compile(r"^([XO]):[ \t]*(.*)$")
_ROLL = re.compile(r"\(([1-6]) ([1-6])\)[ \t]*(.*)$")
_STEP = re.compile(r"(bar|off|[0-9]{1,2})-(bar|off|[0-9]{1,2})", re.I)
_WINS = re.compile(r"wins ([0-9]{1,6}) points?", re.I)


def _point(text: str) -> int:
    lowered = text.lower()
    return 25 if lowered == "bar" else 0 if lowered == "off" else int(text)


def _ascending(steps: list[tuple[int, int]]) -> bool:
    """Whether a play is written from the far end (as GNU Backgammon decides it, on the
    first move: up the board, or off from 19-24, or entering on 1-6)."""
    source, target = steps[0]
    if source == 25:
        return 1 <= target <= 6
    if target == 0:
        return source >= 19
    return source < target


class _Reader:
    def __init__(self, source: Input) -> None:
        self.path = source.name
        self.match: MatchRecord | None = None
        self.game: GameRecord | None = None
        self.names: tuple[str, str] | None = None
        self.swap = False  # X is player 1 in this game
        self.pending_score: tuple[int, int, int, str] | None = None  # score line waiting for its sides
        self.games = 0
        self.loose: list[str] = []  # text as written not yet given to a match or a game
        self.parts: list[str] = []  # the open game's text as written

    def issue(self, message: str, line: int, column: int = 1, severity: Severity = Severity.ERROR, code: str = "unreadable") -> None:
        found = format_issue(severity, code, message, line, column)
        if self.game is not None:
            self.game.issues.append(found.at(path=self.path, game=self.game.index))
        elif self.match is not None:
            self.match.issues.append(found.at(path=self.path))

    def line(self, number_: int, text: str, raw: str, encoding: str) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
        score = _SCORE.search(text)
        if score:
            yield from self.close()
            length = number(score.group(3)) if score.group(3) else 0
            self.pending_score = (number(score.group(1)) or 0, number(score.group(2)) or 0, length or 0, text)
            if self.match is None:
                self.match = MatchRecord(self.path, "fibs", encoding, length=length, raw="".join(self.loose))
                self.loose = []
            self.loose.append(raw)  # the score line opens the game the sides line starts
            self.start_line = number_
            return
        sides = _SIDES.match(text)
        if sides and self.pending_score is not None:
            self.start_game(number_, sides.group(1), sides.group(2))
            self.parts, self.loose = [*self.loose, raw], []
            return
        held = self.parts if self.game is not None else self.loose
        held.append(raw)
        if len(held) > MAX_LINES:  # a game (or the text between games) longer than any game: the rest is not read
            raise TooLarge(f"more than {MAX_LINES:,} lines in one game or between two", number_)
        found = _ACTION.match(text)
        if found is None or self.game is None:
            return  # free text between games
        player = (0 if found.group(1) == "X" else 1) ^ self.swap
        action = self.action(player, found.group(2), number_, text)
        if action is not None:
            self.game.actions.append(action)

    start_line = 1

    def start_game(self, line: int, x_name: str, o_name: str) -> None:
        assert self.match is not None and self.pending_score is not None
        x_score, o_score, length, _ = self.pending_score
        self.pending_score = None
        if self.names is None:
            self.names = (x_name, o_name)
        self.swap = self.names == (o_name, x_name) and x_name != o_name
        self.games += 1
        self.game = GameRecord(self.games, self.games, self.start_line, self.names)
        self.game.scores = (o_score, x_score) if self.swap else (x_score, o_score)
        self.game.score_line = self.start_line
        expected = self.expected
        if expected is not None and _differ(self.game.scores[::-1], expected) < _differ(self.game.scores, expected):
            # "the score is swapped (due to fibs oldmoves bug)" (GNU Backgammon's import.c): the reading closer to the games before
            self.game.scores = self.game.scores[::-1]
            self.issue(f"the score line gives the scores the other way round ({x_score}-{o_score}): read as "
                       f"{self.names[0]} {self.game.scores[0]}, {self.names[1]} {self.game.scores[1]}, nearer what the games before say (a FIBS bug)",
                       self.start_line, 1, Severity.INFO, "score-swapped")
        if self.names not in ((x_name, o_name), (o_name, x_name)):
            self.issue(f"new players ({x_name}, {o_name}) in the middle of the log: read as the same match", line, 1, Severity.WARNING)

    def action(self, player: int, body: str, line: int, text: str) -> Action | None:
        column = text.index(body) + 1 if body else 1
        lowered = body.lower()
        roll = _ROLL.match(body)
        if roll:
            dice = (int(roll.group(1)), int(roll.group(2)))
            rest = roll.group(3).strip()
            if rest.lower().startswith("can't move") or not rest:
                return Roll(player, None, line, column, body, dice, (), "cannot move" if rest else "")
            steps = [(_point(a), _point(b)) for a, b in _STEP.findall(rest)]
            if not steps or len(steps) > 8:
                self.issue(f"cannot read the moves {rest[:40]!r}", line, column)
                return Unreadable(player, None, line, column, body)
            if _ascending(steps):
                steps = [(s if s in (0, 25) else 25 - s, t if t in (0, 25) else 25 - t) for s, t in steps]
            if any(not (1 <= s <= 25 and 0 <= t <= 24) for s, t in steps):
                self.issue(f"a move that is not on the board: {rest[:40]!r}", line, column)
                return Unreadable(player, None, line, column, body)
            tokens = tuple(MoveToken((s, t), (False, False), 1, f"{s}/{t}", 0) for s, t in steps)
            return Roll(player, None, line, column, body, dice, tokens)
        if lowered.startswith("doubles"):
            return CubeAction(player, None, line, column, body, "double")
        if lowered.startswith("accepts"):
            return CubeAction(player, None, line, column, body, "take")
        if lowered.startswith("rejects"):
            return CubeAction(player, None, line, column, body, "drop")
        if lowered.startswith("wants to resign"):
            return Result(player, None, line, column, body, "resign")
        wins = _WINS.match(body)
        if wins:
            points = number(wins.group(1))
            if points is None:
                self.issue("a number of points beyond what backgammon can mean", line, column)
                return None
            return Result(player, None, line, column, body, "win", points, "match" in lowered)
        if body.startswith("("):  # a roll's shape: dice that are no dice, or a play that does not read
            self.issue(f"cannot read the roll {body[:40]!r}", line, column)
            return Unreadable(player, None, line, column, body)
        self.issue(f"cannot read {body[:40]!r}", line, column, Severity.WARNING)
        return None

    expected: tuple[int, int] | None = None  # the score after the last game, by its score and its 'wins' line

    def close(self) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
        if self.game is not None and self.match is not None:
            wins = [a for a in self.game.actions if isinstance(a, Result) and a.kind == "win" and a.player is not None and a.points is not None]
            scores = self.game.scores
            self.expected = None
            if wins and None not in scores:
                after = [int(scores[0] or 0), int(scores[1] or 0)]
                after[wins[-1].player or 0] += wins[-1].points or 0
                self.expected = (after[0], after[1])
            self.game.raw = "".join(self.parts)
            yield self.match, self.game
        self.game, self.parts = None, []

    def finish(self) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
        """The last game, with the text after it; or the match with no game."""
        if self.game is not None:
            self.parts += self.loose
        elif self.match is not None:
            self.match.raw += "".join(self.loose)
        produced = self.games > 0
        yield from self.close()
        if not produced and self.match is not None:
            yield self.match, None


def _differ(scores: tuple[int | None, int | None], expected: tuple[int, int]) -> int:
    return sum(1 for a, b in zip(scores, expected) if a != b)


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    encoding, blocks = source.text_blocks()
    reader = _Reader(source)
    line_number = 0
    for _, raw in blocks:
        for line in lines(raw):
            line_number += 1
            yield from reader.line(line_number, line.text, line.raw, encoding)
    yield from reader.finish()
