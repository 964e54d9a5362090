"""A position's occurrence as the index keeps it: a few small integers (docs/stats.md, "The
database of bgrecord index"), and back to the words, identifiers and play it stands for.

An occurrence is a replayed action with the position before it. The index keeps, a row each,
the position's 64-bit hash (:func:`position_hash` of the 10 bytes of its Position ID, from the
side of the player to act), the game and the step, and packed into small integers where it
stands (:func:`place_code`: the ``.mat`` row, and the line counted from the game's and the
row's), what was done (:func:`act_code`: the action, the player, the dice and the cube) and
the play (:func:`play_code`, its moves relative to the dice). SQLite writes an integer in
as few bytes as it needs (none for 0 and 1), so the usual values take a byte or two. The text
forms (Position ID, Match ID, XGID, OGID, the play's notation) are made again when read; a
game's positions are its plays applied from its start, kept once a game.

A play is written in bgrecord's notation, the one every output uses (docs/guide.md): the
highest source first, then the highest target, a ``*`` on each move that hits, ``bar`` and
``off`` by name (``24/18 13/11*``, ``bar/22``, ``6/off``).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Sequence, TypeVar

from bgrecord.core.moves import OFF, Move, Play, point_name
from bgrecord.core.position import LegalPlay, Position
from bgrecord.core.position_id import position_value, unpack
from bgrecord.formats.limits import MAX_ACTIONS

try:  # BLAKE2 itself: hashlib would load OpenSSL too, a few ms of a search's start
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without it
    from hashlib import blake2b

KINDS = ("move", "double", "take", "drop", "beaver", "raccoon", "resign", "win", "loss", "setup", "accept-resign", "reject-resign",
         "left-out")  # left-out: an action a repair of the replay reads as not done (a row written twice...)
KIND_CODES = {kind: code for code, kind in enumerate(KINDS)}
ANSWERS = frozenset({"take", "drop", "beaver", "raccoon"})  # answers to a cube offer: seen from the doubler's side

ROWS = 16384  # place_code's radix: more than a game's actions (MAX_ACTIONS), so more than its rows
DICE = 37  # 0 no dice, else (first - 1) * 6 + second: the dice in the order recorded
ACTS = len(KINDS) * DICE * 2  # act_code's radix below the cube (962)
_SINGLE, _DOUBLE, _ANY = 101, 51, 1351  # the bases of play_code's digits (each digit >= 1: 0 is a dance)
assert MAX_ACTIONS < ROWS
# a game's start kept by the index only where it is not this (the start_positions table: a row a game was 1 MB of
# blocks at 10,000 games, 19 MB at a million)
OPENING_SIDES = Position.start().sides


_Made = TypeVar("_Made")


class Codes(dict[tuple[Any, ...], _Made], Generic[_Made]):
    """Codes (or what a code stands for) made once for each key they are asked for, by
    ``make(*key)``: a dictionary, looked up at the speed of one (an archive's plays and actions
    recur), cleared when it holds ``most`` (its memory is bounded, whatever the archive)."""

    def __init__(self, make: Callable[..., _Made], most: int) -> None:
        super().__init__()
        self.make, self.most = make, most

    def __missing__(self, key: tuple[Any, ...]) -> _Made:
        if len(self) >= self.most:
            self.clear()
        code = self[key] = self.make(*key)
        return code


# --- the position ---


def position_hash(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> int:
    """The index's key of a position: the first 8 bytes of BLAKE2b of the checker counts of
    the side on roll (its 26 slots: off, points 1-24, bar, in its own numbering) then the
    opponent's, as a signed little-endian integer (two positions share one with a chance of 1
    in 2**64 a pair)."""
    return int.from_bytes(blake2b(bytes(on_roll + opponent), digest_size=8).digest(), "little", signed=True)


def hash_of(position: Position) -> int:
    """:func:`position_hash` of a position, from the side on roll."""
    return position_hash(position.on_roll, position.opponent)


def position_key(position: Position) -> bytes:
    """The 10 bytes of the Position ID of ``position`` (from the side on roll): its base64 is
    the Position ID (the opponent's points, then the side on roll's, least significant bit
    first: :func:`bgrecord.core.position_id.encode_position_id`)."""
    return position_value(position.opponent, position.on_roll).to_bytes(10, "little")


def key_of_id(position_id: str) -> bytes:
    """The 10 bytes of a Position ID (``ValueError`` for one that is malformed)."""
    return unpack(position_id, 14, "Position ID").to_bytes(10, "little")


def id_of_key(key: bytes) -> str:
    """The Position ID of its 10 bytes."""
    return base64.b64encode(key).decode("ascii")[:14]


# --- where, what was done, the play ---


def place_code(move: int | None, line_offset: int) -> int:
    """The ``.mat`` row (0 for none) and the line's offset from the game's line and the row
    (0 for a ``.mat`` file, whose rows are lines): ``row + 16384 * offset`` (the offset
    zigzagged: 0, -1, 1, -2... as 0, 1, 2, 3...)."""
    row = move or 0
    if not 0 <= row < ROWS:
        raise ValueError(f"row {row} of a game: beyond any game's")
    return row + ROWS * (2 * line_offset if line_offset >= 0 else -2 * line_offset - 1)


def from_place(code: int) -> tuple[int | None, int]:
    offset, row = divmod(code, ROWS)
    return row or None, offset // 2 if offset % 2 == 0 else -(offset + 1) // 2


def act_code(kind: str, player: int, dice: Sequence[int] | None, cube: int = 1, owner: int | None = None) -> int:
    """The action, the player to act (from whose side the position is seen), the dice to play
    and the cube in one integer: ``((kind * 37 + dice) * 2 + player) + 962 * cube`` (the cube
    as :func:`cube_code`; a move by either player with its dice, the cube in the middle at 1,
    is under 74: one byte). ``ValueError`` for an action bgrecord does not know."""
    rolled = (dice[0] - 1) * 6 + dice[1] if dice else 0
    if not 0 <= rolled < DICE:
        raise ValueError(f"dice {tuple(dice or ())} are not two dice from 1 to 6")
    return (KIND_CODES[kind] * DICE + rolled) * 2 + (1 if player else 0) + ACTS * cube_code(cube, owner)


ACT_CODES = Codes(act_code, 4096)  # a game's actions are a few dozen kinds
"""An action's code by ``(kind, player, dice, cube, owner)``: :func:`act_code`, made once each."""


def from_act(code: int) -> tuple[str, int, tuple[int, int] | None, int, int | None]:
    """``(kind, player, dice, cube, cube owner)`` of :func:`act_code` (kind ``?`` for a code
    it never makes)."""
    cube, code = divmod(code, ACTS)
    player, rest = code % 2, code // 2
    kind, rolled = divmod(rest, DICE)
    dice = ((rolled - 1) // 6 + 1, (rolled - 1) % 6 + 1) if rolled else None
    value, owner = from_cube(cube)
    return KINDS[kind] if 0 <= kind < len(KINDS) else "?", player, dice, value, owner


def cube_code(value: int, owner: int | None) -> int:
    """The cube and its owner in one integer, 0 for the cube at 1 in the middle:
    ``(value - 1) * 3 + (0 centred, 1 player 0, 2 player 1)``."""
    return (value - 1) * 3 + (0 if owner is None else owner + 1)


def from_cube(code: int) -> tuple[int, int | None]:
    value, owner = divmod(code, 3)
    return value + 1, None if owner == 0 else owner - 1


def play_code(play: LegalPlay, dice: tuple[int, int] | None) -> int:
    """A play's moves, with their hits, as one integer (the same whatever their order), 0
    for a dance. Each move is a digit: its source, which die it uses (the higher or the
    lower; none to tell for a double) and whether it hits; the digits, smallest first, are
    the number's digits from the most significant. A move no die accounts for (or a play
    without dice) makes the whole play a negative number of digits that hold its source and
    target instead. (:data:`PLAY_CODES` by the moves, hits and dice.)"""
    return PLAY_CODES[(play.play.moves, play.hits, dice)]


def _play_code(moves: Sequence[Move], hits: Sequence[bool], dice: tuple[int, int] | None) -> int:
    high, low = (max(dice), min(dice)) if dice else (0, 0)
    digits = []
    for (source, target), hit in zip(moves, hits):
        distance = source - target
        if high and high == low and (distance == high or target == OFF and distance < high):
            digits.append((source - 1) * 2 + hit + 1)
        elif high and high != low and (distance == high or distance == low or target == OFF and distance < high):
            lower = distance == low or target == OFF and distance < low
            digits.append(((source - 1) * 2 + lower) * 2 + hit + 1)
        else:
            return -_number([(source * 26 + target) * 2 + hit + 1 for (source, target), hit in zip(moves, hits)], _ANY)
    return _number(digits, _DOUBLE if high == low else _SINGLE)


PLAY_CODES = Codes(_play_code, 16384)  # :func:`play_code` by ``(moves, hits, dice)`` as given: four plays in five recur
"""A play's code by ``(its moves, its hits, the dice)``: :func:`play_code` without the call."""


def _number(digits: list[int], base: int) -> int:
    code = 0
    for digit in sorted(digits):
        code = code * base + digit
    return code


def from_play(code: int, dice: Sequence[int] | None) -> tuple[tuple[int, int, bool], ...]:
    """The moves ``(source, target, hit)`` of :func:`play_code` (``ValueError`` for a code
    that cannot be one)."""
    moves = []
    if code < 0:
        code = -code
        while code:
            code, digit = divmod(code, _ANY)
            if not digit:
                raise ValueError("not a play's code")
            (source, target), hit = divmod((digit - 1) // 2, 26), (digit - 1) % 2
            moves.append((source, target, bool(hit)))
        return tuple(moves)
    if code and not dice:
        raise ValueError("a play without dice")
    high, low = (max(dice), min(dice)) if dice else (0, 0)
    double = high == low
    while code:
        code, digit = divmod(code, _DOUBLE if double else _SINGLE)
        if not digit:
            raise ValueError("not a play's code")
        digit -= 1
        hit = digit % 2
        if double:
            source, die = digit // 2 + 1, high
        else:
            source, die = digit // 4 + 1, low if digit // 2 % 2 else high
        moves.append((source, max(source - die, OFF), bool(hit)))
    return tuple(moves)


def notation(moves: Iterable[tuple[int, int, bool]]) -> str:
    """``24/18 13/11*``, ``bar/22``, ``6/off`` (the moves in the order given: :func:`from_play`
    gives them highest source first, then highest target, a hit first)."""
    return " ".join(f"{point_name(source)}/{point_name(target)}{'*' if hit else ''}" for source, target, hit in moves)


def played(position: Position, moves: Iterable[tuple[int, int, bool]]) -> Position:
    """The position after ``moves`` (from the side of ``position.turn``), the other side on roll."""
    return position.play(Play(tuple(Move(source, target) for source, target, _ in moves)))


# --- a game's occurrences, from its rows ---


@dataclass(slots=True)
class Occurrence:
    """One row of the positions table, read back: the position before the action (None
    where it cannot be known: a row changed by another program), what was done, where."""

    step: int
    kind: str
    player: int
    dice: tuple[int, int] | None
    cube: int
    cube_owner: int | None
    move: int | None
    line: int | None
    moves: tuple[tuple[int, int, bool], ...] | None  # the play; None: no play
    position: Position | None = None

    @property
    def play(self) -> str | None:
        return None if self.moves is None else NOTATIONS[(self.moves,)]

    @property
    def actor(self) -> int:
        """Who acts: the player the position is seen from, but for the answer to a double."""
        return 1 - self.player if self.kind in ANSWERS else self.player


def _moves_read(code: int, dice: tuple[int, int] | None) -> tuple[tuple[int, int, bool], ...] | None:
    try:
        return from_play(code, dice)
    except ValueError:  # a code another program wrote
        return None


# what the codes stand for, read once each: a position's rows repeat a few actions and plays
ACTS_READ = Codes(from_act, 4096)
PLAYS_READ = Codes(_moves_read, 16384)
NOTATIONS = Codes(notation, 16384)


def occurrence(row: Sequence[Any], base: int | None) -> Occurrence:
    """An occurrence from ``(step, place, act, play)`` as stored, the game's line ``base``
    beside; a value another program made NULL or out of range reads as unknown."""
    step, place, act, code = row
    kind, player, dice, cube, owner = ACTS_READ[(act,)] if isinstance(act, int) else ("?", 0, None, 1, None)
    move, offset = from_place(place) if isinstance(place, int) else (None, None)
    moves = PLAYS_READ[(code, dice)] if isinstance(code, int) else None
    line = None if offset is None or not isinstance(base, int) else base + offset + (move or 0)
    return Occurrence(step, kind, player, dice, cube, owner, move, line, moves)
