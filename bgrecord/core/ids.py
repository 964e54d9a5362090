"""gnubg's Match ID and gnubg ID, and eXtreme Gammon's XGID: encode and decode (the Position
ID's codec, and the bit packing both share: :mod:`bgrecord.core.position_id`).

Layouts as in ``match-formats.md`` §4: bits packed least significant first into
bytes, then standard base64 without padding. Decoders raise ``ValueError`` with a
readable message on malformed input; they do not check that a position could arise
in play (use :meth:`Position.is_valid`).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bgrecord.core.position import BAR, CHECKERS, OFF, Position
from bgrecord.core.position_id import pack, unpack

# --- Match ID ---


class GameState(enum.IntEnum):
    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchState:
    """Every field of a gnubg Match ID. Players are 0 and 1 as in gnubg (0 = left column).

    ``player`` is who is on roll or has rolled (gnubg's fMove); ``turn`` is who must
    act now (fTurn), the other player while a double or resignation is pending.
    ``resignation`` is 0 (none), 1 single, 2 gammon, 3 backgammon. ``dice`` is (0, 0)
    before the roll. ``length`` 0 is money play.
    """

    cube: int = 1
    cube_owner: int | None = None
    player: int = 0
    crawford: bool = False
    state: GameState = GameState.PLAYING
    turn: int = 0
    doubled: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def id(self) -> str:
        """The 12-character Match ID (larger die first, as gnubg writes it)."""
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 1 << 15:
            raise ValueError(f"cube value {self.cube} is not a power of two")
        high, low = sorted(self.dice, reverse=True)
        fields = [
            (0, 4, self.cube.bit_length() - 1),
            (4, 2, 3 if self.cube_owner is None else self.cube_owner),
            (6, 1, self.player),
            (7, 1, int(self.crawford)),
            (8, 3, int(self.state)),
            (11, 1, self.turn),
            (12, 1, int(self.doubled)),
            (13, 2, self.resignation),
            (15, 3, high),
            (18, 3, low),
            (21, 15, self.length),
            (36, 15, self.score[0]),
            (51, 15, self.score[1]),
            (66, 1, int(not self.jacoby)),
        ]
        value = 0
        for offset, width, field in fields:
            if not 0 <= field < 1 << width:
                raise ValueError(f"Match ID field at bit {offset} out of range: {field}")
            value |= field << offset
        return pack(value, 9, 12)

    @classmethod
    def from_id(cls, match_id: str) -> MatchState:
        value = unpack(match_id, 12, "Match ID")

        def field(offset: int, width: int) -> int:
            return value >> offset & ((1 << width) - 1)

        owner = field(4, 2)
        state = field(8, 3)
        if owner == 2 or state > 4:
            raise ValueError(f"Match ID {match_id!r} has an impossible field")
        return cls(
            cube=1 << field(0, 4),
            cube_owner=None if owner == 3 else owner,
            player=field(6, 1),
            crawford=bool(field(7, 1)),
            state=GameState(state),
            turn=field(11, 1),
            doubled=bool(field(12, 1)),
            resignation=field(13, 2),
            dice=(field(15, 3), field(18, 3)),
            length=field(21, 15),
            score=(field(36, 15), field(51, 15)),
            jacoby=not field(66, 1),
        )


def gnubg_id(position: Position, match: MatchState) -> str:
    """``PositionID:MatchID``, the form gnubg's ``set gnubgid`` reads."""
    return f"{position.id()}:{match.id()}"


# --- XGID ---

_XG_OFFERS = ("D", "B", "R")


@dataclass(frozen=True, slots=True)
class XGID:
    """An XGID: a position, the match state, and what gnubg's Match ID cannot hold
    (the beaver rule of money play, the cube limit, a pending beaver or raccoon).

    Player 1 is XG's bottom (uppercase) player, player 0 the top one, as gnubg maps them.
    ``offer`` is "" or the pending cube action: "D" double, "B" beaver, "R" raccoon.
    """

    position: Position
    match: MatchState
    beaver: bool = False
    max_cube: int = 10
    offer: str = ""

    @classmethod
    def parse(cls, text: str) -> XGID:
        body = text.strip()
        if body.upper().startswith("XGID="):
            body = body[5:]
        fields = body.split(":")
        if len(fields) != 10 or len(fields[0]) != 26:
            raise ValueError(f"an XGID has a 26-character position and 9 numbers: {text!r}")
        if not all(re.fullmatch(r"-?[0-9]{1,5}", f) for i, f in enumerate(fields[1:]) if i != 3):
            raise ValueError(f"an XGID's fields after the position are numbers: {text[:80]!r}")
        cube_log, cube_pos, turn, _, score1, score0, rules, length, max_cube = (
            int(f) if i != 3 else 0 for i, f in enumerate(fields[1:])
        )
        if not (0 <= cube_log <= 15 and cube_pos in (-1, 0, 1) and 0 <= length <= 32767 and 0 <= score0 <= 32767
                and 0 <= score1 <= 32767 and 0 <= rules <= 3 and 0 <= max_cube <= 15):
            raise ValueError(f"an XGID field out of its range (cube 0-15, owner -1/0/1, scores and length 0-32767): {text[:80]!r}")
        top, bottom = [0] * 26, [0] * 26
        for i, char in enumerate(fields[0]):
            if char == "-":
                continue
            if not ("a" <= char.lower() <= "p"):
                raise ValueError(f"unexpected {char!r} in XGID position {fields[0]!r}")
            count = ord(char.lower()) - ord("a") + 1
            if char.isupper():
                bottom[BAR if i == 25 else i] += count
            else:
                top[BAR if i == 0 else BAR - i] += count
        for side in (top, bottom):
            side[OFF] = CHECKERS - sum(side)
            if side[OFF] < 0:
                raise ValueError(f"more than {CHECKERS} checkers a side in {fields[0]!r}")
        dice_field = fields[4].upper()
        player = 1 if turn == 1 else 0
        offer = dice_field if dice_field in _XG_OFFERS else ""
        if offer:
            dice = (0, 0)
        elif re.fullmatch(r"[0-6]{2}", dice_field):
            dice = (int(dice_field[0]), int(dice_field[1]))
        else:
            raise ValueError(f"XGID dice must be 00, two dice, D, B or R: {fields[4]!r}")
        money = length == 0
        match = MatchState(
            cube=1 << cube_log,
            cube_owner={1: 1, -1: 0, 0: None}[cube_pos],
            player=player,
            crawford=not money and bool(rules & 1),
            turn=1 - player if offer else player,
            doubled=bool(offer),
            dice=dice,
            length=length,
            score=(score0, score1),
            jacoby=money and bool(rules & 1),
        )
        position = Position((tuple(top), tuple(bottom)), player)
        if not position.is_valid():
            raise ValueError(f"XGID position {fields[0]!r} has a point held by both sides")
        return cls(position, match, money and bool(rules & 2), max_cube, offer)

    def __str__(self) -> str:
        m = self.match
        owner = {1: 1, 0: -1, None: 0}[m.cube_owner]
        dice = self.offer or f"{m.dice[0]}{m.dice[1]}"
        if m.length:
            rules = int(m.crawford)
        else:
            rules = int(m.jacoby) | 2 * int(self.beaver)
        numbers = [m.cube.bit_length() - 1, owner, 1 if m.player == 1 else -1]
        rest = [m.score[1], m.score[0], rules, m.length, self.max_cube]
        return "XGID=" + ":".join([xg_position_text(self.position), *map(str, numbers), dice, *map(str, rest)])

    def gnubg_id(self) -> str:
        return gnubg_id(self.position, self.match)

    @classmethod
    def from_gnubg(cls, position: Position, match: MatchState, beaver: bool = False, max_cube: int = 10) -> XGID:
        """The XGID of a gnubg state; ``position.turn`` must be the match's ``player``."""
        if position.turn != match.player:
            position = Position(position.sides, match.player)
        return cls(position, match, beaver, max_cube, "D" if match.doubled else "")


_XG_BOTTOM = "-ABCDEFGHIJKLMNO"  # by count: player 1's checkers on a point
_XG_TOP = "-abcdefghijklmno"  # player 0's


def xg_position_text(position: Position) -> str:
    """XGID's first field (26 characters): uppercase is player 1, lowercase player 0."""
    top, bottom = position.sides
    points = [_XG_BOTTOM[mine] if mine else _XG_TOP[theirs] for mine, theirs in zip(bottom[1:25], top[24:0:-1])]
    return _XG_TOP[top[BAR]] + "".join(points) + _XG_BOTTOM[bottom[BAR]]


def xg_position(text: str, turn: int = 0) -> Position:
    """The position of XGID's first field (26 characters): uppercase is player 1 (XG's
    bottom player), as GNU Backgammon maps it."""
    return XGID.parse(f"XGID={text}:0:0:{1 if turn == 1 else -1}:00:0:0:0:0:10").position


def identify(text: str, turn: int | None = None) -> tuple[Position, MatchState | None]:
    """The position (and the match state, where the identifier holds one) of a Position ID,
    a gnubg ID (``PositionID:MatchID``), an XGID or an OGID; ``turn`` is the player on roll
    for a bare Position ID (0 by default). Raises ``ValueError`` saying what is wrong."""
    from bgrecord.core.ogid import OGID, looks_like_ogid

    if looks_like_ogid(text):
        ogid = OGID.parse(text)
        offered = ogid.cube_action == "O"
        to_act = ogid.position.turn
        roller = 1 - to_act if offered else to_act  # a double offered: the doubler's side, as gnubg shows it
        state = MatchState(cube=ogid.cube, cube_owner=ogid.cube_owner, player=roller, crawford=ogid.crawford,
                           turn=to_act, doubled=offered, dice=(max(ogid.dice), min(ogid.dice)),
                           length=ogid.length, score=ogid.score)  # fmt: skip
        return Position(ogid.position.sides, roller), state
    if text.upper().startswith("XGID=") or text.count(":") >= 9:
        xgid = XGID.parse(text)
        return xgid.position, xgid.match
    if ":" in text:
        position_id, match_id = text.split(":", 1)
        match = MatchState.from_id(match_id)
        return Position.from_id(position_id, match.player if turn is None else turn), match
    return Position.from_id(text, turn or 0), None
