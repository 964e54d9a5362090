"""BGBlitz's ``.bgf`` matches -> records.

A ``.bgf`` file is one line of JSON (``{"format":"BGF","version":"1.0","compress":true,
"useSmile":true}``), then the match as JSON: gzip-compressed when ``compress`` says so, in
Smile (binary JSON, :mod:`bgrecord.formats.smile`) when ``useSmile`` says so. The match holds
its rules and names, and games of ``moves``: each move of a player (``player`` -1 the left
column, the green player; 1 the right, red) with its dice (``green``, ``red``) and up to four
steps (``from``, ``to``: the mover's points, 25 the bar, 0 off, -1 unused). Other actions are
moves whose ``green`` die is 7 and whose ``red`` die says which: 1 a double, 2 a take, 3 a
drop, 4 the game won (by this player), 5 a dance (its dice in ``from[0]`` and ``to[0]``), 9 a
resignation. A game's points are its ``wonPoints``.
(Facts from the files and kevung/bgfparser's notes; this is bgrecord's own code.)

A location is the move's number in its game (``unit`` "move"). What this reader does not
check: the rules (the replay does), and BGBlitz's analysis (kept out).
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Iterator

from bgrecord.escapes import cut, encodable, quoted
from bgrecord.formats.detect import each_game, refused
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_ACTIONS, MAX_BINARY, MAX_ELEMENTS
from bgrecord.formats.records import Action, Comment, CubeAction, GameRecord, MatchRecord, MoveToken, Result, Roll, Tag
from bgrecord.formats.smile import SmileError, decode
from bgrecord.formats.source import Input, InputTooLarge

_ACTION_DIE = 7
_CUBE_ACTIONS = {1: ("double", "Doubles"), 2: ("take", "Takes"), 3: ("drop", "Drops")}
_WON, _DANCE, _RESIGNS = 4, 5, 9
_STANDARD = [2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2]


class BgfError(ValueError):
    pass


_HEADER = 4096  # bytes of the header line: it holds four short fields


def document(data: bytes) -> dict[str, Any]:
    """The match a .bgf file holds, as JSON values (held to the limits of a document:
    :data:`~bgrecord.formats.limits.MAX_ELEMENTS` values, nested no deeper than Python reads, numbers
    of at most 4,300 digits)."""
    line_end = data.find(b"\n", 0, _HEADER + 1)
    if line_end < 0:
        raise BgfError(f"no header line in the first {_HEADER:,} bytes")
    try:
        header = json.loads(data[:line_end].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: bad JSON, or a number of more than 4,300 digits
        raise BgfError("the header line is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != "BGF":
        raise BgfError("the header line does not say BGF")
    body = data[line_end + 1 :]
    if header.get("compress", True) or body[:2] == b"\x1f\x8b":
        try:
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
            body = inflater.decompress(body, MAX_BINARY + 1)
        except (zlib.error, OSError, EOFError) as exc:
            raise BgfError(f"the compressed body does not inflate ({exc})") from None
        if len(body) > MAX_BINARY:
            raise BgfError(f"the body inflates beyond {MAX_BINARY >> 20} MB")
    smile = header.get("useSmile", True) or body[:3] == b":)\n"
    if not smile and body.count(b",") + body.count(b"[") + body.count(b"{") >= MAX_ELEMENTS:
        raise BgfError(f"the body holds more than {MAX_ELEMENTS:,} values, more than any match file")
    try:
        match = decode(body) if smile else json.loads(body.decode("utf-8"))
    except RecursionError:
        raise BgfError("the body does not read: it is nested deeper than any match file") from None
    except (SmileError, UnicodeDecodeError, ValueError) as exc:  # ValueError: bad JSON, or a number of more than 4,300 digits
        raise BgfError(f"the body does not read: {cut(str(exc))}") from None
    if not isinstance(match, dict):
        raise BgfError("the body is not a match")
    return match


def _int(value: Any, low: int, high: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


def _text(value: Any) -> str:
    """A text field; a lone surrogate (a JSON ``\\ud800`` escape: text no encoder writes) as U+FFFD."""
    return encodable(value.strip()) if isinstance(value, str) else ""


class _Reader:
    def __init__(self, source: Input, match: dict[str, Any]) -> None:
        self.path = source.name
        self.doc = match
        self.match = MatchRecord(source.name, "bgf", "", unit="move")

    def issue(self, game: GameRecord, message: str, number: int | None, code: str = "unreadable") -> None:
        game.issues.append(format_issue(Severity.ERROR, code, message, number, None).at(path=self.path, game=game.index, unit="move"))

    def header(self) -> None:
        doc, match = self.doc, self.match
        length = _int(doc.get("matchlen"), 0, 32767)
        match.length = length
        if length is None:
            match.issues.append(format_issue(Severity.ERROR, "match-length", f"a match length of {quoted(doc.get('matchlen'))}", None, None)
                                .at(path=self.path))  # fmt: skip
        limit = 1 if doc.get("useCube") is False else _int(doc.get("cubeLimit"), 1, 1 << 15)  # no cube: whatever the limit says
        tags = [("Site", _text(doc.get("site"))), ("Event", _text(doc.get("event"))), ("Round", _text(doc.get("round"))),
                ("Site", _text(doc.get("location"))), ("EventDate", _text(doc.get("date"))),
                ("Player 1", _text(doc.get("nameGreen"))), ("Player 2", _text(doc.get("nameRed"))),
                ("Match ID", _text(doc.get("extMatchID"))), ("Crawford", "On" if doc.get("useCrawford") else "Off"),
                ("CubeLimit", str(limit) if limit else "")]  # fmt: skip
        if length == 0:
            tags += [("Jacoby", "On" if doc.get("useJacoby") else "Off"), ("Beaver", "On" if doc.get("useBeaver") else "Off")]
        seen: set[str] = set()
        for key, value in tags:
            if value and key not in seen:
                seen.add(key)
                match.tags.append(Tag(key, value, 1))
        if _text(doc.get("comment")):
            match.comments.append(_text(doc.get("comment")))

    def games(self) -> Iterator[GameRecord]:
        games = self.doc.get("games")
        if not isinstance(games, list):
            self.match.issues.append(format_issue(Severity.ERROR, "unreadable", "the match has no list of games", None, None).at(path=self.path))
            return
        final = (_int(self.doc.get("finalGreen"), 0, 1 << 16), _int(self.doc.get("finalRed"), 0, 1 << 16))
        for index, data in enumerate(games, 1):
            if not isinstance(data, dict):
                continue
            after = games[index] if index < len(games) and isinstance(games[index], dict) else None
            scores_after = (_int(after.get("scoreGreen"), 0, 1 << 16), _int(after.get("scoreRed"), 0, 1 << 16)) if after else final
            yield self.game(index, data, scores_after)

    def game(self, index: int, data: dict[str, Any], scores_after: tuple[int | None, int | None]) -> GameRecord:
        names = (_text(data.get("nameGreen")) or _text(self.doc.get("nameGreen")),
                 _text(data.get("nameRed")) or _text(self.doc.get("nameRed")))  # fmt: skip
        game = GameRecord(index, index, 1, names)
        game.scores = (_int(data.get("scoreGreen"), 0, 32767), _int(data.get("scoreRed"), 0, 32767))
        if data.get("isCrawford"):
            game.note = "Crawford"
        initial = data.get("initial")
        if isinstance(initial, dict):
            points = initial.get("points")
            if isinstance(points, list) and points[:24] != _STANDARD and any(points[:24]):
                self.issue(game, "a game from a starting position other than the standard one: not read", 1, "unsupported-start")
                return game
            cube = _int(initial.get("cube"), 1, 1 << 15)
            if cube and cube > 1:
                game.initial_cube = cube
        winner: int | None = None
        for number, move in enumerate(data.get("moves") or [], 1):
            if len(game.actions) > MAX_ACTIONS:  # past the limit (said where every reader's records pass): not built
                break
            action = self.action(game, number, move)
            if isinstance(action, int):
                winner = action
            elif action is not None:
                game.actions.append(action)
            comment = move.get("comment") if isinstance(move, dict) else None
            if _text(comment):
                game.actions.append(Comment(None, None, number, None, _text(comment)))
        self.result(game, data, len(game.actions) + 1, scores_after, winner)
        for note in (data.get("comment") or [])[: MAX_ACTIONS + 1]:
            if _text(note):
                game.actions.append(Comment(None, None, len(game.actions) + 1, None, _text(note)))
        return game

    def action(self, game: GameRecord, number: int, move: Any) -> Action | int | None:
        """The action a move entry holds; for the entry that says who won, the winner."""
        if not isinstance(move, dict):
            self.issue(game, "a move that is not an object", number)
            return None
        side = move.get("player")
        player = {-1: 0, 1: 1}.get(side) if isinstance(side, int) else None
        green, red = _int(move.get("green"), 0, 9), _int(move.get("red"), 0, 9)
        if player is None or green is None or red is None:
            self.issue(game, f"a move of player {quoted(move.get('player'))} with dice {quoted(move.get('green'))}, {quoted(move.get('red'))}", number)
            return None
        sources, targets = move.get("from") or [], move.get("to") or []
        steps = [(s, t) for s, t in zip(sources, targets) if isinstance(s, int) and isinstance(t, int) and s >= 0]
        if green == _ACTION_DIE:
            if red in _CUBE_ACTIONS:
                kind, text = _CUBE_ACTIONS[red]
                return CubeAction(player, None, number, None, text, kind)
            if red == _WON:
                return player
            if red == _RESIGNS:
                return Result(player, None, number, None, "Resigns", "resign")
            if red == _DANCE and steps and steps[0][0] in range(1, 7) and steps[0][1] in range(1, 7):
                dice = (steps[0][0], steps[0][1])
                return Roll(player, None, number, None, f"{dice[0]}{dice[1]}: Cannot Move", dice, (), "cannot move")
            self.issue(game, f"an action of kind {red}, which BGBlitz files are not known to hold", number)
            return None
        if not (1 <= green <= 6 and 1 <= red <= 6):
            self.issue(game, f"dice {green} and {red}: not two dice", number)
            return None
        tokens = []
        for source, target in steps:
            if not (1 <= source <= 25 and 0 <= target <= 24):
                self.issue(game, f"a move from {source} to {target}: not points of the board", number)
                return None
            text = f"{'bar' if source == 25 else source}/{'off' if target == 0 else target}"
            tokens.append(MoveToken((source, target), (False, False), 1, text, 0))
        text = f"{green}{red}: " + (" ".join(t.text for t in tokens) or "Cannot Move")
        return Roll(player, None, number, None, text, (green, red), tuple(tokens), "" if tokens else "cannot move")

    def result(self, game: GameRecord, data: dict[str, Any], number: int, after: tuple[int | None, int | None],
               winner: int | None) -> None:
        """The game's end: its points, and its winner as the file says, else from the scores
        after it, else the player who moved last. The last game of a match may say no points
        (``wonPoints`` 0) though its entry says who won and the match's final score has
        grown: its points are what the score gained."""
        points = _int(data.get("wonPoints"), 1, 3 << 15)
        gained = [(a - b) if a is not None and b is not None else None for a, b in zip(after, game.scores)]
        if points is None:
            won = gained[winner] if winner is not None else None
            if winner is None or not won or won < 0 or gained[1 - winner]:
                return  # an unfinished game
            points = won
        if winner is not None:
            self.claim(game, data, number, points, winner)
            return
        winner = next((a.player for a in reversed(game.actions) if isinstance(a, Roll)), None)
        if gained[0] and gained[0] > 0 and not (gained[1] and gained[1] > 0):
            winner = 0
        elif gained[1] and gained[1] > 0 and not (gained[0] and gained[0] > 0):
            winner = 1
        if winner is not None:
            self.claim(game, data, number, points, winner)

    @staticmethod
    def claim(game: GameRecord, data: dict[str, Any], number: int, points: int, winner: int) -> None:
        resigned = bool(data.get("wasResignation") or data.get("wasForfeit") or data.get("lostOnTime"))
        how = " (forfeit)" if data.get("wasForfeit") else " (lost on time)" if data.get("lostOnTime") else " (resigned)" if resigned else ""
        text = f"Wins {points} point{'s' if points != 1 else ''}{how}"
        game.actions.append(Result(winner, None, number, None, text, "win", points, False, resigned))


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    try:
        doc = document(source.read_bytes())
    except (BgfError, InputTooLarge) as exc:
        yield refused(source, f"not a readable BGBlitz file: {exc}", "unreadable", format="bgf"), None
        return
    reader = _Reader(source, doc)
    reader.header()
    yield from each_game(reader.match, reader.games())

