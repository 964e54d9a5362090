"""eXtreme Gammon's binary files: ``.xg`` matches and ``.xgp`` positions -> records.

The container (:mod:`bgrecord.formats.xg_archive`) holds the files; the game file
(``temp.xg``) is a run of 2,560-byte records, little-endian: the match header, then per game
a game header, cube records, move records and a game end, then a match end. Comments
(``temp.xgc``) are RTF texts, one a line, which records name by their index. (Facts from the layouts published by
eXtreme Gammon's author and in xgdatatools; this is bgrecord's own code.)

Records become the actions the replay checks: a move record's dice and moves (points in
the mover's numbering), a cube record's double and its answer (take, drop, beaver,
raccoon), a game end's winner and points (a resignation when XG says so). A position file
is a game holding one set-up of the board (with the dice, when rolled). A location is the
record's number in the game file (``unit`` "record"), or a byte offset for the container.

XG's analysis of each play and cube decision is kept beside the game (``game.analysis``, by
the index of the action it judges; a no-double decision goes with the roll after it), as the
file says it (:mod:`bgrecord.formats.xg_analysis`). What this reader does not check: the
rules (the replay does), and XG's analysis (the analysis layer reads it).
"""

from __future__ import annotations

import struct
from datetime import datetime, timedelta
from typing import Any, Iterator

from bgrecord.core.position import BAR, CHECKERS, OFF, Position
from bgrecord.formats.detect import refused
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.records import (
    Action,
    Comment,
    CubeAction,
    GameRecord,
    MatchRecord,
    MoveToken,
    Result,
    Roll,
    SetPosition,
    Tag,
)
from bgrecord.formats.rtf import rtf_text
from bgrecord.formats.source import Input, InputTooLarge
from bgrecord.formats.xg_analysis import cube_analysis, move_analysis
from bgrecord.formats.xg_archive import XgError, archive

RECORD = 2560
MATCH, GAME, CUBE, MOVE, GAME_END, MATCH_END = range(6)
_VARIATIONS = {0: "Backgammon", 1: "NackGammon", 2: "HyperGammon", 3: "LongGammon"}
_UNLIMITED = 99999  # XG's match length of a money session


def _utf16(record: bytes, offset: int, units: int) -> str:
    raw = record[offset : offset + 2 * units]
    end = next((i for i in range(0, len(raw) - 1, 2) if raw[i : i + 2] == b"\0\0"), len(raw) - len(raw) % 2)
    return raw[:end].decode("utf-16-le", errors="replace")


def _short(record: bytes, offset: int, size: int) -> str:
    """A Delphi short string: a length byte, then ANSI text."""
    length = min(record[offset], size - 1)
    return record[offset + 1 : offset + 1 + length].decode("cp1252", errors="replace")


def _date(days: float) -> datetime | None:
    """A Delphi TDateTime (days since 1899-12-30), if it is one."""
    if not 1.0 < days < 200000.0:
        return None
    return datetime(1899, 12, 30) + timedelta(days=days)


def board(cells: tuple[int, ...], turn: int) -> Position | None:
    """An XG board: 26 signed counts seen from XG's first player (our player 0): index 1-24
    its points, its checkers positive, the other's negative; 25 its bar, 0 the other's bar.
    None when it is not a position (more than 15 checkers a side)."""
    first, second = [0] * 26, [0] * 26
    for index in range(1, 25):
        count = cells[index]
        if count > 0:
            first[index] = count
        elif count < 0:
            second[BAR - index] = -count
    first[BAR], second[BAR] = abs(cells[25]), abs(cells[0])
    first[OFF], second[OFF] = CHECKERS - sum(first), CHECKERS - sum(second)
    position = Position((tuple(first), tuple(second)), turn)
    return position if position.is_valid() else None


class _Reader:
    """The game file's records to a match and its games."""

    def __init__(self, source: Input, files: dict[str, bytes]) -> None:
        self.source = source
        self.path = source.name
        self.data = files.get("temp.xg", b"")
        self.comments = _comments(files.get("temp.xgc", b""))
        self.match = MatchRecord(self.path, "xg", "", unit="record", analysis={"engine": "xg"})
        self.version = 0
        self.game: GameRecord | None = None
        self.held_cube: dict[str, Any] | None = None  # a no-double decision's analysis, for the roll after it
        self.games = 0
        self.position_file = _is_position_file(self.data)

    def issue(self, severity: Severity, code: str, message: str, record: int | None, game: GameRecord | None = None) -> None:
        found = format_issue(severity, code, message, record, None).at(path=self.path, unit="record")
        (game.issues if game is not None else self.match.issues).append(found.at(game=game.index) if game else found)

    def comment(self, index: int, record: int, player: int | None = None) -> Action | None:
        if 0 <= index < len(self.comments) and self.comments[index]:
            return Comment(player, None, record, None, self.comments[index])
        return None

    def read(self) -> Iterator[GameRecord]:
        data = self.data
        if len(data) % RECORD:
            self.issue(Severity.WARNING, "cut-short", f"the game file ends inside a record ({len(data) % RECORD} bytes left over)", len(data) // RECORD + 1)
        for number in range(1, len(data) // RECORD + 1):
            record = data[(number - 1) * RECORD : number * RECORD]
            kind = record[8]
            if number == 1 and kind != MATCH:
                self.issue(Severity.ERROR, "unreadable", "the game file does not start with a match header", 1)
            if kind == MATCH:
                self.match_header(record, number)
            elif kind == GAME:
                if self.game is not None:
                    yield self.game
                self.game_header(record, number)
            elif kind in (CUBE, MOVE, GAME_END):
                if self.game is None:
                    self.issue(Severity.ERROR, "unreadable", "a record outside any game", number)
                    continue
                (self.cube if kind == CUBE else self.move if kind == MOVE else self.game_end)(record, number)
            elif kind == MATCH_END:
                comment = self.comment(struct.unpack_from("<l", self.header_record, 580)[0], number) if self.header_record else None
                if comment is not None:
                    self.match.comments.append(comment.text)
            else:
                self.issue(Severity.WARNING, "unknown-record", f"a record of unknown type {kind}: skipped", number, self.game)
        if self.game is not None:
            yield self.game

    header_record: bytes = b""

    def match_header(self, record: bytes, number: int) -> None:
        self.header_record = record
        self.version = struct.unpack_from("<l", record, 552)[0]
        match = self.match
        length, variation = struct.unpack_from("<2l", record, 92)
        crawford, jacoby, beaver, automatic = record[100:104]
        match.length = 0 if length in (0, _UNLIMITED) else length if 0 < length <= 32767 else None
        if match.length is None:
            self.issue(Severity.ERROR, "match-length", f"a match length of {length}: beyond what backgammon can mean", number)
        names = [_short(record, 9, 41), _short(record, 50, 41)]
        event, site, round_ = _short(record, 136, 129), _short(record, 283, 129), _short(record, 417, 129)
        transcriber = ""
        limit = 0
        if self.version >= 8:
            limit = struct.unpack_from("<l", record, 612)[0]
        if self.version >= 24:
            names = [_utf16(record, 880, 129) or names[0], _utf16(record, 1138, 129) or names[1]]
            event = _utf16(record, 622, 129) or event
            site = _utf16(record, 1396, 129) or site
            round_ = _utf16(record, 1654, 129) or round_
        if self.version >= 30:
            transcriber = _utf16(record, 1960, 129)
        self.names = (names[0].strip(), names[1].strip())
        when = _date(struct.unpack_from("<d", record, 128)[0])
        tags = [("Site", site), ("Event", event), ("Round", round_), ("Player 1", self.names[0]), ("Player 2", self.names[1]),
                ("EventDate", when.strftime("%Y.%m.%d") if when else ""), ("EventTime", when.strftime("%H.%M") if when else ""),
                ("Variation", _VARIATIONS.get(variation, "")), ("Crawford", "On" if crawford else "Off"),
                ("Transcriber", transcriber)]  # fmt: skip
        if match.length == 0:
            tags += [("Jacoby", "On" if jacoby else "Off"), ("Beaver", "On" if beaver else "Off")]
            if automatic:
                tags.append(("AutoDouble", "On"))
        if 0 < limit <= 15:
            tags.append(("CubeLimit", str(1 << limit)))
        match.tags = [Tag(key, value, number) for key, value in tags if value]
        comment = self.comment(struct.unpack_from("<l", record, 576)[0], number)
        if comment is not None:
            match.comments.append(comment.text)

    names: tuple[str, str] = ("", "")
    footer_comment = -1

    def game_header(self, record: bytes, number: int) -> None:
        self.games += 1
        self.held_cube = None
        first, second = struct.unpack_from("<2l", record, 12)
        cells = struct.unpack_from("<26b", record, 21)
        game_number = struct.unpack_from("<l", record, 48)[0]
        game = self.game = GameRecord(self.games, game_number if 0 < game_number <= 32767 else None, number, self.names)
        game.scores = (first if 0 <= first <= 32767 else None, second if 0 <= second <= 32767 else None)
        if record[20]:
            game.note = "Crawford"
        if self.version >= 26:
            automatic = struct.unpack_from("<l", record, 64)[0]
            if 0 < automatic <= 15:
                game.initial_cube = 1 << automatic
        start = board(cells, 0) if any(cells) else None
        if any(cells) and start != Position.start(turn=0):
            self.set_up(game, start, number, "initial position", None, None)
        comment = self.comment(struct.unpack_from("<l", record, 56)[0], number)
        if comment is not None:
            game.actions.append(comment)
        self.footer_comment = struct.unpack_from("<l", record, 60)[0]  # said after the game's end

    def player(self, active: int, record: int) -> int | None:
        if active in (1, -1):
            return 0 if active == 1 else 1
        self.issue(Severity.ERROR, "unreadable", f"an active player of {active}: neither player", record, self.game)
        return None

    def cube(self, record: bytes, number: int) -> None:
        game = self.game
        assert game is not None
        active, double, take, beaver, raccoon, cube = struct.unpack_from("<6l", record, 12)
        if self.position_file:
            self.position_record(struct.unpack_from("<26b", record, 36), active, None, number, cube)
            self.keep_position_analysis("cube", cube_analysis(record))
            return
        if double in (-2, -1, 0):  # the position at the start, or a decision not to double
            self.held_cube = cube_analysis(record) if double == 0 else None
            return
        player = self.player(active, number)
        if player is None or double != 1:
            if double != 1:
                self.issue(Severity.ERROR, "unreadable", f"a cube record with double={double}", number, game)
            return
        other = 1 - player
        actions: list[Action] = [CubeAction(player, None, number, None, "Doubles", "double")]
        answers = {0: (other, "drop", "Drops"), 1: (other, "take", "Takes"), 2: (other, "beaver", "Beavers")}
        if take in answers:
            who, kind, text = answers[take]
            actions.append(CubeAction(who, None, number, None, text, kind))
        if take == 2:
            if beaver == 2:
                actions.append(CubeAction(player, None, number, None, "Raccoons", "raccoon"))
                if raccoon == 0:
                    actions.append(CubeAction(other, None, number, None, "Drops", "drop"))
            elif beaver == 0:
                actions.append(CubeAction(player, None, number, None, "Drops", "drop"))
        found = cube_analysis(record)
        if found is not None:
            game.analysis[len(game.actions)] = found  # the double's: its answer is judged by the same equities
        game.actions += actions
        if self.version >= 0:
            comment = self.comment(struct.unpack_from("<l", record, 292)[0], number, player)
            if comment is not None:
                game.actions.append(comment)

    def position_record(self, cells: tuple[int, ...], active: int, dice: tuple[int, int] | None, number: int,
                        cube: int | None = None) -> None:
        """A position file's board: one set-up, with the player on roll, the dice (a move
        record has them) and the cube (a cube record has it: log2 of its value, its sign the
        owner, XG's first player when positive)."""
        game = self.game
        assert game is not None
        player = 0 if active == 1 else 1
        game.actions = [action for action in game.actions if not isinstance(action, SetPosition)]  # the last record says it
        if cube is not None and cube and abs(cube) <= 15:
            game.initial_cube, game.initial_cube_owner = 1 << abs(cube), 0 if cube > 0 else 1
        text = f"{dice[0]}{dice[1]}: " if dice else ""
        self.set_up(game, board(cells, player), number, text + "position", dice, player)

    def set_up(self, game: GameRecord, position: Position | None, number: int, text: str,
               dice: tuple[int, int] | None, player: int | None) -> None:
        if position is None:
            self.issue(Severity.ERROR, "unreadable", "a board that is not a position (more than 15 checkers a side)", number, game)
            return
        turn = position.turn if player is None else player
        shown = Position(position.sides, turn)
        game.actions.append(SetPosition(None, None, number, None, f"{text} {shown.id()}", "board", shown.id(), dice, player))

    def move(self, record: bytes, number: int) -> None:
        game = self.game
        assert game is not None
        before = struct.unpack_from("<26b", record, 9)
        active = struct.unpack_from("<l", record, 64)[0]
        steps = struct.unpack_from("<8l", record, 68)
        dice = struct.unpack_from("<2l", record, 100)
        if not all(1 <= die <= 6 for die in dice):
            self.issue(Severity.ERROR, "unreadable", f"dice {dice[0]} and {dice[1]}: not two dice", number, game)
            return
        if self.position_file:
            self.position_record(before, active, (dice[0], dice[1]), number)  # the dice to play, no play
            self.keep_position_analysis("move", move_analysis(record))
            return
        player = self.player(active, number)
        if player is None:
            return
        if self.version >= 24 and record[2528]:  # XG says the position was edited here
            self.set_up(game, board(before, player), number, "edited position", None, player)
        if steps == (0,) * 8:  # rolled, then resigned: XG's "????"
            self.keep_move_analysis(game, record)
            game.actions.append(Roll(player, None, number, None, f"{dice[0]}{dice[1]}: ????", (dice[0], dice[1]), (), "unplayed"))
            return
        tokens: list[MoveToken] = []
        texts: list[str] = []
        for source, target in zip(steps[::2], steps[1::2]):
            if source < 0:
                break
            start, end = source + 1, 0 if target < 0 else target + 1
            if not (1 <= start <= BAR and 0 <= end <= 24):
                self.issue(Severity.ERROR, "unreadable", f"a move from {source} to {target}: not points of the board", number, game)
                return
            text = f"{'bar' if start == BAR else start}/{'off' if end == 0 else end}"
            tokens.append(MoveToken((start, end), (False, False), 1, text, 0))
            texts.append(text)
        text = f"{dice[0]}{dice[1]}: " + (" ".join(texts) if texts else "Cannot Move")
        self.keep_move_analysis(game, record)
        game.actions.append(Roll(player, None, number, None, text, (dice[0], dice[1]), tuple(tokens), "" if tokens else "cannot move"))
        comment = self.comment(struct.unpack_from("<l", record, 2524)[0], number, player)
        if comment is not None:
            game.actions.append(comment)

    def keep_move_analysis(self, game: GameRecord, record: bytes) -> None:
        """The analysis of the roll about to be appended: its play's, and the no-double decision before it."""
        found = move_analysis(record)
        if self.held_cube is not None:
            found = {"kind": "move", "candidates": [], "level": None, "analysed": False, "luck": None, "illegal": False} if found is None else found
            found["cube"] = self.held_cube
            self.held_cube = None
        if found is not None:
            game.analysis[len(game.actions)] = found

    def keep_position_analysis(self, part: str, found: dict[str, Any] | None) -> None:
        """A position file's analysis (the cube decision, the play of the dice), with its set-up."""
        game = self.game
        if game is None or found is None or not game.actions:
            return
        game.analysis = {len(game.actions) - 1: {**next(iter(game.analysis.values()), {"kind": "position"}), part: found}}

    def game_end(self, record: bytes, number: int) -> None:
        game = self.game
        assert game is not None
        winner, points, termination = struct.unpack_from("<3l", record, 24)
        player = self.player(winner, number)
        if player is None:
            return
        if not 0 < points <= 3 * 32768:
            self.issue(Severity.ERROR, "unreadable", f"a game won for {points} points", number, game)
            return
        resigned = 100 <= termination < 2000
        text = f"Wins {points} point{'s' if points != 1 else ''}" + (" (resigned)" if resigned else "")
        game.actions.append(Result(player, None, number, None, text, "win", points, False, resigned))
        comment = self.comment(self.footer_comment, number)
        if comment is not None:
            game.actions.append(comment)


def _is_position_file(data: bytes) -> bool:
    """A position (``.xgp``), not a match: no game ends, and no more than one move record,
    with no play (the dice to play, at most)."""
    kinds = [data[offset + 8] for offset in range(0, len(data) - RECORD + 1, RECORD)]
    moves = [offset for offset, kind in zip(range(0, len(data), RECORD), kinds) if kind == MOVE]
    if GAME_END in kinds or len(moves) > 1:
        return False
    return all(struct.unpack_from("<8l", data, offset + 68) == (0,) * 8 for offset in moves)


def _comments(data: bytes) -> list[str]:
    """The texts of ``temp.xgc``: one RTF text a line (its own line breaks as bytes 1, 2)."""
    if not data:
        return []
    return [rtf_text(line.replace(b"\x01\x02", b"\n").decode("cp1252", errors="replace")) for line in data.split(b"\r\n")]


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """The match of an .xg file, game by game, or the position of an .xgp file."""
    try:
        files = archive(source.read_bytes())
    except (XgError, InputTooLarge) as exc:
        yield refused(source, str(exc), "unreadable", format="xg", offset=exc.offset if isinstance(exc, XgError) else None, unit="byte"), None
        return
    reader = _Reader(source, files)
    if "temp.xg" not in files or len(reader.data) < RECORD:
        what = "an eXtreme Gammon file with no match or position (analysis only)"
        yield refused(source, f"{what}: not read", "unsupported-format", format="xg"), None
        return
    games = list(reader.read())  # the file is in memory already (bounded): so are its records
    if reader.position_file:
        reader.match.format = "xgp"
    for game in games:
        yield reader.match, game
    if not games:
        yield reader.match, None
