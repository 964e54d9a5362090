"""bgrecord's own JSON (what ``bgrecord convert --to json`` writes) -> records, so that a
conversion to JSON reads back as the same match.

A document (a list of them for a file of several matches) starts with ``"bgrecord"`` (its
schema version) and holds the match's length, tags and comments, and its games: names, score
and steps. A step's ``action`` is a roll (``move``: its ``dice`` and ``play``, written
``24/18 13/11*``, ``""`` for a dance, null for dice not played), a cube action, a set-up
(``setup``: its board from the step's XGID, the player on roll next in ``on_roll`` where the
source said) or a result's step (left out: the game's ``result`` says the winner, points and
how it ended). A location is the step's number in its game (``unit`` "step").

What this reader does not check: the rules (the replay does), nor the IDs beside each step
(written for other programs; only a set-up's XGID is read).
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

from bgrecord.core.ids import XGID
from bgrecord.core.position import BAR, Position
from bgrecord.formats.cutmark import cut_comment, is_cut_mark
from bgrecord.formats.detect import each_game, refused
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.records import (
    Action,
    CubeAction,
    GameRecord,
    MatchRecord,
    MoveToken,
    Result,
    Roll,
    SetPosition,
    Tag,
    Unreadable,
)
from bgrecord.formats.source import Input, InputTooLarge, decode

SCHEMA = 1
_MOVE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})(\*?)$")
_CUBE = {"double", "take", "drop", "beaver", "raccoon"}
_RESULTS = {"resign", "accept-resign", "reject-resign", "win", "loss"}  # said by the game's result
_LIMIT = 1 << 15


def _int(value: Any, low: int, high: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


class _Reader:
    def __init__(self, source: Input, doc: dict[str, Any], encoding: str) -> None:
        self.path = source.name
        self.doc = doc
        self.match = MatchRecord(source.name, "json", encoding, unit="step")

    def issue(self, game: GameRecord, message: str, step: int | None, code: str = "unreadable") -> None:
        game.issues.append(format_issue(Severity.ERROR, code, message, step, None).at(path=self.path, game=game.index, unit="step"))

    def header(self) -> None:
        doc, match = self.doc, self.match
        match.length = _int(doc.get("length"), 0, _LIMIT)
        for pair in _list(doc.get("tags")):
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair):
                match.tags.append(Tag(pair[0], pair[1], 1))
        match.comments = [comment for comment in _list(doc.get("comments")) if isinstance(comment, str)]

    def games(self) -> Iterator[GameRecord]:
        games = self.doc.get("games")
        if not isinstance(games, list):
            self.match.issues.append(format_issue(Severity.ERROR, "unreadable", "the match has no list of games", None, None).at(path=self.path))
            return
        for index, data in enumerate(games, 1):
            if isinstance(data, dict):
                yield self.game(index, data)

    def game(self, index: int, data: dict[str, Any]) -> GameRecord:
        names = data.get("names")
        game = GameRecord(index, _int(data.get("number"), 1, _LIMIT) or index, 1)
        if isinstance(names, list) and len(names) == 2:
            game.names = (_text(names[0]), _text(names[1]))
        score = data.get("score")
        if isinstance(score, list) and len(score) == 2:
            game.scores = (_int(score[0], 0, _LIMIT), _int(score[1], 0, _LIMIT))
        if data.get("crawford") is True:
            game.note = "Crawford"
        steps = [step for step in _list(data.get("steps")) if isinstance(step, dict)]
        if steps and (_int(steps[0].get("cube"), 2, _LIMIT)):  # the cube a game starts with (automatic doubles)
            game.initial_cube = steps[0]["cube"]
            game.initial_cube_owner = _int(steps[0].get("cube_owner"), 0, 1)
        for number, step in enumerate(steps, 1):
            action = self.action(game, number, step)
            if action is not None:
                game.actions.append(action)
        cut = data.get("cut")
        if isinstance(cut, str) and is_cut_mark(cut):  # where a forced conversion cut the game: bgrecord.formats.cutmark
            mark, warning = cut_comment(cut, len(steps) + 1, None)
            game.actions.append(mark)
            game.issues.append(warning.at(path=self.path, game=game.index, unit="step"))
        result = data.get("result")
        if isinstance(result, dict):
            winner, points = _int(result.get("winner"), 0, 1), _int(result.get("points"), 1, 3 * _LIMIT)
            if winner is not None and points is not None:
                text = f"Wins {points} point{'s' if points != 1 else ''}"
                game.actions.append(Result(winner, None, len(steps) + 1, None, text, "win", points, False, result.get("ended_by") == "resign"))
        return game

    def action(self, game: GameRecord, number: int, step: dict[str, Any]) -> Action | None:
        kind = _text(step.get("action"))
        player = _int(step.get("player"), 0, 1)
        text = _text(step.get("text"))[:200]
        if kind in _RESULTS:
            return None
        if kind == "setup":
            return self.setup(game, number, step, player, text)
        if player is None:
            self.issue(game, f"a {str(kind)[:20]!r} step without its player (0 or 1)", number)
            return Unreadable(None, None, number, None, text)
        if kind in _CUBE:
            return CubeAction(player, None, number, None, text, str(kind))
        dice = self.dice(step.get("dice"))
        if kind != "move" or dice is None:
            self.issue(game, f"a step of kind {str(kind)[:20]!r} with dice {str(step.get('dice'))[:20]}: not a step bgrecord writes", number)
            return Unreadable(player, None, number, None, text)
        play = step.get("play")
        if play is None:
            return Roll(player, None, number, None, text, dice, (), "unplayed")
        tokens = []
        for written in _text(play).split():
            found = _MOVE.match(written)
            points = (int(found.group(1)), int(found.group(2))) if found else (-1, -1)
            if not found or not (0 < points[0] <= BAR and 0 <= points[1] < BAR):
                self.issue(game, f"the play {_text(play)[:60]!r}: {written[:12]!r} is not a move like 13/7", number)
                return Unreadable(player, None, number, None, text)
            tokens.append(MoveToken(points, (False, bool(found.group(3))), 1, written, 0))
        return Roll(player, None, number, None, text, dice, tuple(tokens))

    @staticmethod
    def dice(value: Any) -> tuple[int, int] | None:
        if isinstance(value, list) and len(value) == 2 and all(_int(die, 1, 6) for die in value):
            return value[0], value[1]
        return None

    def setup(self, game: GameRecord, number: int, step: dict[str, Any], player: int | None, text: str) -> Action:
        """A set-up: the board of its XGID; the player on roll next where the source said
        (then its dice are to play), else the dice of the play it stands for."""
        try:
            board = XGID.parse(_text(step.get("xgid"))).position
        except ValueError as exc:
            self.issue(game, f"a set-up whose XGID does not read: {exc}", number, "set-position")
            return Unreadable(player, None, number, None, text)
        on_roll = _int(step.get("on_roll"), 0, 1)
        position = Position(board.sides, on_roll or 0)
        return SetPosition(player, None, number, None, text or "set-up", "board", position.id(), self.dice(step.get("dice")), on_roll)


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each match of a JSON file bgrecord wrote, game by game."""
    try:
        text, encoding = decode(source.read_bytes())
        loaded = json.loads(text)
    except InputTooLarge as exc:
        yield refused(source, f"not a readable bgrecord JSON file: {exc}", "unreadable", format="json"), None
        return
    except json.JSONDecodeError as exc:
        match = refused(source, f"not a readable bgrecord JSON file: {exc.msg}", "unreadable", format="json", offset=exc.lineno, unit="line")
        yield match, None
        return
    except RecursionError:
        yield refused(source, "not a readable bgrecord JSON file: nested too deep", "unreadable", format="json"), None
        return
    documents = loaded if isinstance(loaded, list) else [loaded]
    for doc in documents:
        if not isinstance(doc, dict) or doc.get("bgrecord") != SCHEMA:
            version = doc.get("bgrecord") if isinstance(doc, dict) else None
            yield refused(source, f"not a match of bgrecord's JSON (schema {SCHEMA}; this says {str(version)[:20]})", "unreadable", format="json"), None
            continue
        reader = _Reader(source, doc, encoding)
        reader.header()
        yield from each_game(reader.match, reader.games())
