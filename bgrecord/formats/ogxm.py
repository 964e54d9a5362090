"""OGXM matches (``.ogxm``) and streams of them (``.ogxms``, often ``.ogxms.zst``): read
through the ``ogxm`` package (the format's reference codec; bgrecord holds no copy of the
format's rules). Writing is :mod:`bgrecord.writing.ogxm`'s.

Reading: every member of a stream is a match; the codec gives its JSON projection, whose
plies become the actions the replay checks. White is player 0 (the left column of a .mat
file), Black player 1; a ply's ``color`` is 1 for White, 0 for Black. Steps are ``from`` (one
fixed frame: 0 White's bar, 25 Black's; White moves up, Black down) and ``pips``. A
corrupt member is one error at its byte offset, and reading goes on with the next member.
A location is the ply's number in its game (``unit`` "ply"). A ply's analysis record is kept
beside its game as the codec gives it (``game.analysis``), and the match's ``analysis_info``
(who analysed it) with the match: the analysis layer reads them.

What this module does not check: the rules (the replay does).
"""

from __future__ import annotations

from typing import Any, Iterator

from bgrecord.core.position import BAR, CHECKERS, OFF, Position
from bgrecord.escapes import encodable, quoted
from bgrecord.extras import require
from bgrecord.formats.cutmark import OGXM_KEY, cut_comment, is_cut_mark
from bgrecord.formats.detect import each_game
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_ACTIONS, MAX_MEMBER
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
from bgrecord.formats.source import Input

DICE_IDS = [(low, high) for low in range(1, 7) for high in range(low, 7)]  # action ids 0-20
DOUBLE, TAKE, DROP, GAME_OVER, MATCH_OVER, FINAL, RESIGN_GAME, RESIGN_MATCH, FORFEIT, NULL, SET_POSITION = range(21, 32)
_SETTLE, _CUBE_SET = 34, 36
_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}


def codec() -> Any:
    return require("ogxm")


# --- reading ---


def _player(color: Any) -> int | None:
    return {1: 0, 0: 1}.get(color) if isinstance(color, int) and not isinstance(color, bool) else None


def ply_steps(player: int, moves: Any) -> list[tuple[int, int]] | None:
    """OGXM steps (fixed frame ``from`` and ``pips``) as (source, target) in the mover's
    numbering; None when a step is not on the board."""
    found = []
    for step in moves or []:
        source, pips = (step.get("from"), step.get("pips")) if isinstance(step, dict) else (None, None)
        if not isinstance(source, int) or not isinstance(pips, int) or not 0 <= source <= BAR or not 1 <= pips <= 7:
            return None
        point = BAR - source if player == 0 else source
        found.append((point, max(point - pips, OFF)))
    return found


class _Reader:
    def __init__(self, path: str | None, doc: dict[str, Any], member: int, offset: int) -> None:
        self.path = path
        self.doc = doc
        self.match = MatchRecord(path, "ogxm", "", unit="ply")
        self.member = member
        self.offset = offset
        self.cut_marks: dict[int, list[str]] = {}  # game index (from 0) -> the cut marks annotating it
        for note in doc.get("annotations") or ():
            if isinstance(note, dict) and note.get("scope") == "game" and note.get("key") == OGXM_KEY and isinstance(note.get("ref"), int) \
                    and isinstance(note.get("value"), str) and is_cut_mark(note["value"]):  # fmt: skip
                self.cut_marks.setdefault(note["ref"], []).append(note["value"])

    def issue(self, game: GameRecord, message: str, ply: int | None, code: str = "unreadable",
              severity: Severity = Severity.ERROR) -> None:
        game.issues.append(format_issue(severity, code, message, ply, None).at(path=self.path, game=game.index, unit="ply"))

    def header(self) -> None:
        doc, match = self.doc, self.match
        length = doc.get("match_length", 0)
        match.length = length if isinstance(length, int) and 0 <= length <= 32767 else None
        variant = doc.get("variant", "backgammon")
        tags = [("Player 1", doc.get("player_white")), ("Player 2", doc.get("player_black")), ("Event", doc.get("event")),
                ("Round", doc.get("round")), ("Site", doc.get("site") or doc.get("platform") or doc.get("city")),
                ("Stage", doc.get("stage")), ("Match ID", doc.get("match_ref")),
                ("Variation", "NackGammon" if variant == "nackgammon" else None),
                ("Crawford", "On" if doc.get("crawford") else "Off")]  # fmt: skip
        if match.length == 0:
            tags += [("Jacoby", "On" if doc.get("jacoby") else "Off"), ("Beaver", "On" if doc.get("beavers") else "Off")]  # fmt: skip
        limit = doc.get("cube_limit")
        if isinstance(limit, int) and 1 <= limit <= 1 << 15:
            tags.append(("CubeLimit", str(limit)))
        match.tags = [Tag(key, encodable(str(value)), 1) for key, value in tags if value not in (None, "")]
        info = doc.get("analysis_info")
        if isinstance(info, dict):
            match.analysis = {"engine": "ogxm", **info}
        if self.member > 1:
            match.tags.append(Tag("Stream member", f"{self.member} (byte {self.offset})", 1))
        if variant not in ("backgammon", "nackgammon", 0, 1):
            match.issues.append(format_issue(Severity.ERROR, "unsupported-variant", f"a match of {variant}: bgrecord reads backgammon and Nackgammon only", None, None)
                                .at(path=self.path))  # fmt: skip

    def games(self) -> Iterator[GameRecord]:
        if any(i.code == "unsupported-variant" for i in self.match.issues):
            return
        names = (encodable(str(self.doc.get("player_white") or "")), encodable(str(self.doc.get("player_black") or "")))
        start = self.doc.get("score_start")
        if start is None and "white_score_start" in self.doc:  # the codec's projection names them apart
            start = [self.doc.get("white_score_start", 0), self.doc.get("black_score_start", 0)]
        for index, data in enumerate(self.doc.get("games") or [], 1):
            if isinstance(data, dict):
                yield self.game(index, data, names, start if index == 1 and isinstance(start, list) else None)

    def game(self, index: int, data: dict[str, Any], names: tuple[str, str], start: list[Any] | None) -> GameRecord:
        game = GameRecord(index, index, 1, names)
        valid = start and len(start) == 2 and all(isinstance(v, int) and 0 <= v <= 32767 for v in start)
        game.scores = (int(start[0]), int(start[1])) if valid else ((0, 0) if index == 1 else (None, None))  # type: ignore[index]
        if data.get("is_crawford"):
            game.note = "Crawford"
        board = data.get("initial_board")
        if data.get("is_default_board") is False and board is not None:
            first = _player(data.get("first_to_move"))  # a colour, as a ply's (1 White)
            origin = self.board(game, 0, board, first, None)
            if origin is None:
                return game  # a game from a board that cannot be read is not replayed from the standard one
            origin.text = f"initial board {origin.setup}"
            game.actions.append(origin)
        cube = data.get("initial_cube_value", 1)
        automatic = data.get("auto_doubles", 0)
        if isinstance(cube, int) and isinstance(automatic, int) and (cube > 1 or automatic > 0):
            game.initial_cube = cube << min(max(automatic, 0), 15)
            game.initial_cube_owner = {"white": 0, "black": 1}.get(str(data.get("initial_cube_owner")), None)
        for number, ply in enumerate(data.get("plies") or [], 1):
            if len(game.actions) > MAX_ACTIONS:  # past the limit (said where every reader's records pass): not built
                break
            action = self.action(game, number, ply) if isinstance(ply, dict) else None
            if action is not None:
                if isinstance(ply.get("analysis"), dict):
                    game.analysis[len(game.actions)] = ply["analysis"]
                game.actions.append(action)
        for note in self.cut_marks.get(index - 1, ()):  # where a forced conversion cut the game: bgrecord.formats.cutmark
            mark, warning = cut_comment(note, len(data.get("plies") or []) + 1, None)
            game.actions.append(mark)
            game.issues.append(warning.at(path=self.path, game=game.index, unit="ply"))
        winner, points = _player_of_winner(data.get("winner")), data.get("points_won")
        if winner is not None and isinstance(points, int) and 0 < points <= 3 << 15:
            resigned = any(isinstance(a, Result) and a.kind == "resign" for a in game.actions)
            number = len(data.get("plies") or []) + 1
            game.actions.append(Result(winner, None, number, None, f"Wins {points} point{'s' if points != 1 else ''}", "win", points,
                                       False, resigned))  # fmt: skip
        return game

    def action(self, game: GameRecord, number: int, ply: dict[str, Any]) -> Action | None:
        kind = ply.get("action_id")
        player = _player(ply.get("color"))
        if isinstance(kind, int) and 0 <= kind <= 20:
            dice = (ply.get("d1"), ply.get("d2"))
            if player is None or dice != DICE_IDS[kind] and dice[::-1] != DICE_IDS[kind]:
                self.issue(game, f"a roll of {quoted(dice)} for action {kind}, by color {quoted(ply.get('color'))}", number)
                return None
            steps = ply_steps(player, ply.get("moves"))
            if steps is None:
                self.issue(game, "a step that is not on the board", number)
                return None
            tokens = tuple(MoveToken((s, t), (False, False), 1, f"{'bar' if s == BAR else s}/{'off' if t == OFF else t}", 0) for s, t in steps)
            d1, d2 = int(dice[0]), int(dice[1])  # type: ignore[arg-type]
            # no steps: a dance, or dice rolled and not played (before a resignation): the replay tells
            return Roll(player, None, number, None, f"{d1}{d2}: " + " ".join(t.text for t in tokens), (d1, d2), tokens)
        if kind in (DOUBLE, TAKE, DROP) and player is not None:
            word, text = {DOUBLE: ("double", "Doubles"), TAKE: ("take", "Takes"), DROP: ("drop", "Drops")}[kind]
            return CubeAction(player, None, number, None, text, word)
        if kind in (RESIGN_GAME, RESIGN_MATCH, FORFEIT, _SETTLE) and player is not None:
            what = {RESIGN_GAME: "Resigns", RESIGN_MATCH: "Resigns the match", FORFEIT: "Forfeits", _SETTLE: "Settles"}[kind]
            return Result(player, None, number, None, what, "resign")
        if kind in (GAME_OVER, MATCH_OVER, FINAL, NULL):
            return None
        if kind == SET_POSITION:
            self.issue(game, "a board set by hand (a play the source could not record as legal)", number, "set-position", Severity.WARNING)
            # the ply's colour is the player on roll, whose turn the set-up does not end (the codec's
            # rule); with dice, it stands for the other's play of them (an illegal play, recorded as its board)
            die1, die2 = ply.get("d1"), ply.get("d2")
            played = (die1, die2) if isinstance(die1, int) and isinstance(die2, int) and 1 <= die1 <= 6 and 1 <= die2 <= 6 else None
            return self.board(game, number, ply.get("set_position"), player, played)
        self.issue(game, f"an OGXM action (id {kind}) that bgrecord does not read: the rest of the game is not checked", number)
        return Unreadable(player, None, number, None, f"action {kind}")

    def board(self, game: GameRecord, number: int, cells: Any, on_roll: int | None, played: tuple[int, int] | None) -> SetPosition | None:
        """A board of 26 signed counts (a game's ``initial_board``, a ``set_position`` ply:
        index 0 White's bar ... 25 Black's, White's checkers positive) as a set-up, with the
        player to act next where known; ``played``: the dice of the play it stands for."""
        if not isinstance(cells, list) or len(cells) != 26 or not all(isinstance(c, int) and -CHECKERS <= c <= CHECKERS for c in cells):
            self.issue(game, "a board without its 26 points", number)
            return None
        mover = 1 - on_roll if on_roll is not None and played is not None else None  # whose play of ``played`` it stands for
        next_up = on_roll if mover is None else None
        position = board_position(cells, next_up or 0)  # a "board" set-up's ID is from the side of its on_roll, else player 0's
        if not position.is_valid():
            self.issue(game, "a board that is not a position", number)
            return None
        return SetPosition(mover, None, number or 1, None, f"set position {position.id()}", "board", position.id(), played, next_up)


def board_position(cells: list[int], turn: int) -> Position:
    """The position of OGXM's 26 signed counts (index 0 White's bar, 1-24 the points from
    White's start, 25 Black's bar; White's checkers positive), which may not be valid (a
    checker on the other's bar, more than 15)."""
    white, black = [0] * 26, [0] * 26
    for pip, count in enumerate(cells):
        if count > 0:
            white[BAR - pip] += count  # pip 25 is White's "off": not a place for a checker on the board
        elif count < 0:
            black[pip] += -count
    white[OFF] = CHECKERS - sum(white) if cells[25] <= 0 else -1
    black[OFF] = CHECKERS - sum(black) if cells[0] >= 0 else -1
    return Position((tuple(white), tuple(black)), turn)


def _player_of_winner(value: Any) -> int | None:
    """A game's ``winner``: 0 White, 1 Black (255: unfinished)."""
    return value if value in (0, 1) else None


def _members(source: Input, problems: list[tuple[int, str]]) -> Iterator[tuple[int, bytes]]:
    """Each member of an OGXM stream (a single file is a stream of one), with its offset."""
    ogxm = codec()
    stream = source.open()
    position = 0

    def skipped(offset: int, length: int) -> None:
        problems.append((offset, f"a corrupt stream member ({length:,} bytes): skipped, reading goes on with the next"))

    try:
        for member in ogxm.iter_stream(stream, strict=False, on_skip=skipped):
            if len(member) > MAX_MEMBER:  # its plies, unpacked, would cost memory without bound
                problems.append((position, f"a match of {len(member):,} bytes, more than {MAX_MEMBER >> 20} MB: not read"))
            else:
                yield position, member
            position += len(member)
    except ogxm.StreamTruncated as exc:
        problems.append((exc.offset, f"the stream is cut short: {exc.length:,} bytes of an unfinished member at its end"))
    except ogxm.StreamError as exc:
        problems.append((exc.offset, f"the stream does not read: {exc}"))
    finally:
        stream.close()


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each match of an OGXM file or stream, game by game."""
    ogxm = codec()
    problems: list[tuple[int, str]] = []
    count = 0
    for offset, member in _members(source, problems):
        count += 1
        try:
            doc = ogxm.binary_to_json(member)
        except ogxm.OgxmError as exc:
            problems.append((offset, f"a stream member that does not read: {exc}"))
            continue
        reader = _Reader(source.name, doc, count, offset)
        reader.header()
        for problem_offset, message in problems:
            reader.match.issues.append(format_issue(Severity.ERROR, "corrupt-member", message, problem_offset, None).at(path=source.name, unit="byte"))
        problems.clear()
        yield from each_game(reader.match, reader.games())
    if problems or not count:
        match = MatchRecord(source.name, "ogxm", "", unit="byte")
        for problem_offset, message in problems or [(0, "no OGXM match could be read")]:
            match.issues.append(format_issue(Severity.ERROR, "corrupt-member", message, problem_offset, None).at(path=source.name, unit="byte"))
        yield match, None
