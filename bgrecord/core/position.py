"""The rules core: positions, dice, checker moves, plays and their legality.

A :class:`Position` holds both sides' checkers and the side on roll. Each side is
a tuple of 26 counts seen from that side's own end of the board: slot 0 is the
checkers borne off, slots 1-24 the points in that side's numbering (24 is its
back point, 1 its ace point), slot 25 its bar. A :class:`Move` is one checker
moved by one die, ``Move(13, 7)``; a :class:`Play` is the sequence of moves of a
turn.

What this module does not know: notation (``13/7*/4``, ``bar``), files, the
cube, scores or whose turn it is in a match. It answers "what may the side on
roll do with these dice" and "is this play legal, and if not, why".
"""

from __future__ import annotations

import enum
import operator
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Sequence

from bgrecord.core.movegen import legal, play_key
from bgrecord.core.moves import BAR, CHECKERS, OFF, Dice, Move, Play, Side, Variant
from bgrecord.core.position_id import decode_position_id, encode_position_id

__all__ = ["BAR", "CHECKERS", "OFF", "Dice", "Illegal", "IllegalPlayError", "LegalPlay", "Move", "Outcome", "Play",
           "PlayError", "Position", "Side", "Variant"]  # fmt: skip

_POINTS = range(26)  # a side's points with their pip values: 0 off, 25 the bar


class Illegal(enum.Enum):
    """Why a play is illegal. The value is a message template."""

    BAD_DICE = "dice must be two numbers from 1 to 6"
    BAD_POINTS = "a checker moves forward from a point (1-24, or 25 for the bar) to a lower point or off"
    TOO_MANY_MOVES = "more checker moves than the dice allow"
    WRONG_DISTANCE = "the distance matches no unused die"
    NO_CHECKER = "there is no checker of the player on that point"
    MUST_ENTER_FIRST = "a checker on the bar must enter before any other checker moves"
    CLOSED_POINT = "the point is held by two or more of the opponent's checkers"
    CANNOT_BEAR_OFF_YET = "bearing off needs all fifteen checkers in the home board"
    OVERAGE_NOT_FROM_HIGHEST = "a larger die bears off only from the highest occupied point"
    MORE_DICE_COULD_BE_USED = "more of the dice could be played"
    LARGER_DIE_COULD_BE_USED = "when only one die can be played, the larger one must be played"

    @property
    def code(self) -> str:
        """The stable code used in reports: ``wrong-distance``, ``closed-point``, ..."""
        return self.name.lower().replace("_", "-")


@dataclass(frozen=True, slots=True)
class PlayError:
    """An illegal play: the reason, the 0-based index of the offending move (None when
    the play as a whole is at fault) and the die involved, if any."""

    reason: Illegal
    move_index: int | None = None
    move: Move | None = None

    @property
    def message(self) -> str:
        if self.move is None:
            return self.reason.value
        return f"{self.move}: {self.reason.value}"

    def __str__(self) -> str:
        return self.message


class IllegalPlayError(ValueError):
    """Raised by :meth:`Position.play` for an illegal play; ``error`` says why."""

    def __init__(self, error: PlayError) -> None:
        super().__init__(error.message)
        self.error = error


class LegalPlay:
    """A legal play and where it leads. ``hits[i]`` tells whether move i hit a blot.

    Move generation gives many plays of which a caller reads few, so the :class:`Play` and
    the :class:`Position` are built when first read (from ``origin``, the position played from).
    """

    __slots__ = ("_moves", "_play", "_position", "_origin", "hits")

    def __init__(self, play: Play | None, position: Position | None, hits: tuple[bool, ...],
                 moves: tuple[Move, ...] = (), origin: Position | None = None) -> None:
        if position is None and origin is None:
            raise ValueError("a LegalPlay needs the play and its position, or the moves and their origin")
        self._play, self._position, self._origin, self.hits = play, position, origin, hits
        self._moves = play.moves if play is not None else moves

    @property
    def play(self) -> Play:
        if self._play is None:
            self._play = Play(self._moves)
        return self._play

    @property
    def position(self) -> Position:
        if self._position is None:
            assert self._origin is not None
            self._position = self._origin._moved(self._moves)
        return self._position

    def __iter__(self) -> Iterator[Any]:
        """``play, position, hits = legal``."""
        return iter((self.play, self.position, self.hits))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalPlay):
            return NotImplemented
        return (self._moves, self.hits, self.position) == (other._moves, other.hits, other.position)

    def __hash__(self) -> int:
        return hash((self._moves, self.hits, self.position))

    def __repr__(self) -> str:
        return f"LegalPlay({self.play!r}, {self.position!r}, {self.hits!r})"

    def __str__(self) -> str:
        """bgrecord's notation, the one every output writes (docs/guide.md): the highest source
        first, then the highest target, a ``*`` on each move that hits (``24/18 13/11*``)."""
        moves = sorted(zip(self._moves, self.hits), key=lambda mh: (-mh[0].source, -mh[0].target))
        return " ".join(f"{move}{'*' if hit else ''}" for move, hit in moves)

    def hit_points(self) -> set[int]:
        """The points where this play hits a blot (the mover's numbering)."""
        return {move.target for move, hit in zip(self._moves, self.hits) if hit}


class Outcome(NamedTuple):
    """A finished game: the winner (0 or 1) and the kind, 1 single, 2 gammon, 3 backgammon."""

    winner: int
    kind: int


# --- the rule of one checker moved by one die, shared by checking and generation ---


def _hop_error(me: Sequence[int], opp: Sequence[int], source: int, die: int) -> Illegal | None:
    """Why moving a checker from ``source`` by ``die`` is illegal, or None."""
    if me[BAR] and source != BAR:
        return Illegal.MUST_ENTER_FIRST
    if not me[source]:
        return Illegal.NO_CHECKER
    target = source - die
    if target > 0:
        return Illegal.CLOSED_POINT if opp[BAR - target] >= 2 else None
    if any(me[7:26]):
        return Illegal.CANNOT_BEAR_OFF_YET
    if target < 0 and any(me[source + 1 : 7]):
        return Illegal.OVERAGE_NOT_FROM_HIGHEST
    return None


def _hop(me: list[int], opp: list[int], source: int, target: int) -> bool:
    """Make the move in place (already known to be legal); return True if it hit."""
    me[source] -= 1
    me[target] += 1
    if target and opp[BAR - target] == 1:
        opp[BAR - target] = 0
        opp[BAR] += 1
        return True
    return False


@dataclass(frozen=True, slots=True, init=False)
class Position:
    """Both sides' checkers (see :data:`Side`) and the side on roll, 0 or 1."""

    sides: tuple[Side, Side]
    turn: int = 0

    # --- construction and identity ---

    def __init__(self, sides: tuple[Side, Side], turn: int = 0) -> None:
        # frozen: the fields are set through their slots, where the dataclass's own __init__
        # goes through object.__setattr__ at half as much again (a replay makes one a roll)
        _set_sides(self, sides)
        _set_turn(self, turn)

    @classmethod
    def start(cls, variant: Variant = Variant.STANDARD, turn: int = 0) -> Position:
        side = variant.start
        return cls((side, side), turn)

    @classmethod
    def from_id(cls, position_id: str, turn: int = 0) -> Position:
        """From a gnubg Position ID, seen from the side on roll, who is player ``turn``."""
        not_on_roll, on_roll = decode_position_id(position_id)
        position = cls.from_relative(on_roll, not_on_roll, turn)
        if not position.is_valid():
            raise ValueError(f"Position ID {position_id!r} has a point held by both sides")
        return position

    @classmethod
    def from_layout(cls, on_roll: Mapping[int, int], opponent: Mapping[int, int], turn: int = 0) -> Position:
        """From {point: count} for each side in its own numbering (25 = bar); the
        checkers not placed are borne off. ``Position.from_layout({6: 2}, {24: 1})``."""
        sides = []
        for layout in (on_roll, opponent):
            side = [0] * 26
            for point, count in layout.items():
                if not 1 <= point <= 25 or count < 0:
                    raise ValueError(f"no point {point} with {count} checkers on a side")
                side[point] += count
            side[OFF] = CHECKERS - sum(side)
            if side[OFF] < 0:
                raise ValueError(f"more than {CHECKERS} checkers on a side: {dict(layout)}")
            sides.append(tuple(side))
        return cls.from_relative(sides[0], sides[1], turn)

    @classmethod
    def from_relative(cls, on_roll: Side, opponent: Side, turn: int = 0) -> Position:
        sides = (on_roll, opponent) if turn == 0 else (opponent, on_roll)
        return cls(sides, turn)

    def id(self) -> str:
        """The gnubg Position ID, from the side on roll."""
        return encode_position_id(self.opponent, self.on_roll)

    def __repr__(self) -> str:
        turn = f", turn={self.turn}" if self.turn else ""
        return f"Position.from_id({self.id()!r}{turn})"

    def __str__(self) -> str:
        from bgrecord.show.board import ascii_board

        return ascii_board(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, for Jupyter."""
        from bgrecord.show.svg import board

        return board(self)

    @property
    def on_roll(self) -> Side:
        return self.sides[self.turn]

    @property
    def opponent(self) -> Side:
        return self.sides[1 - self.turn]

    def swap_turn(self) -> Position:
        """The same checkers with the other side on roll."""
        return Position(self.sides, 1 - self.turn)

    def pips(self) -> tuple[int, int]:
        """Pip counts of player 0 and player 1."""
        a, b = self.sides
        return (sum(map(operator.mul, a, _POINTS)), sum(map(operator.mul, b, _POINTS)))

    def is_valid(self) -> bool:
        """Counts in range, 15 checkers a side, and no point held by both sides."""
        a, b = self.sides
        if len(a) != 26 or len(b) != 26 or min(a) < 0 or min(b) < 0:
            return False
        if sum(a) != CHECKERS or sum(b) != CHECKERS:
            return False
        return not any(a[p] and b[BAR - p] for p in range(1, 25))

    # --- game end ---

    def outcome(self, backgammon_despite_borne_off: bool = False) -> Outcome | None:
        """The result if a side has borne off all its checkers, else None.

        A gammon when the loser has borne off none; a backgammon when, in addition,
        the loser has a checker on the bar or in the winner's home board. With
        ``backgammon_despite_borne_off`` (an online playroom's house rule) the bar
        or home-board checker makes a backgammon whatever the loser bore off.
        """
        for winner in (0, 1):
            if self.sides[winner][OFF] == CHECKERS:
                loser = self.sides[1 - winner]
                trapped = any(loser[19:26])
                if backgammon_despite_borne_off and trapped:
                    return Outcome(winner, 3)
                if loser[OFF]:
                    return Outcome(winner, 1)
                return Outcome(winner, 3 if trapped else 2)
        return None

    # --- playing ---

    def play(self, play: Play, dice: Sequence[int] | None = None) -> Position:
        """The position after ``play``, with the other side on roll.

        With ``dice`` the play is checked against every rule and raises
        :class:`IllegalPlayError` if illegal. Without, each move is checked on its
        own (checker there, bar first, point open, bearing off allowed, 1 to 6 pips).
        """
        if dice is not None:
            error, checked = self.check_play(dice, play)
            if checked is None:
                assert error is not None
                raise IllegalPlayError(error)
            return checked.position
        me, opp = list(self.on_roll), list(self.opponent)
        for index, move in enumerate(play.moves):
            error = _check_points(move, index)
            distance = move.source - move.target
            if error is None and distance > 6:
                error = PlayError(Illegal.WRONG_DISTANCE, index, move)
            if error is None:
                reason = _hop_error(me, opp, move.source, distance)
                error = PlayError(reason, index, move) if reason else None
            if error:
                raise IllegalPlayError(error)
            _hop(me, opp, move.source, move.target)
        return self._after(me, opp)

    def _after(self, me: list[int], opp: list[int]) -> Position:
        sides = (tuple(me), tuple(opp)) if self.turn == 0 else (tuple(opp), tuple(me))
        return Position(sides, 1 - self.turn)

    def play_error(self, dice: Sequence[int], play: Play) -> PlayError | None:
        """None if ``play`` is legal for ``dice``, else why not.

        Moves are tried in the order given, then (only if that fails) in any other
        order, since the order of a turn's moves is free. Legal plays are generated
        only when the play uses fewer dice than rolled.
        """
        return self.check_play(dice, play)[0]

    def check_play(self, dice: Sequence[int], play: Play) -> tuple[PlayError | None, LegalPlay | None]:
        """``play_error`` and, for a legal play, the play in an order that works, where it
        leads and which of its moves hit."""
        first, second = dice
        if not (1 <= first <= 6 and 1 <= second <= 6):
            return PlayError(Illegal.BAD_DICE), None
        pips = [first] * 4 if first == second else [first, second]
        moves = play.moves
        if len(moves) > len(pips):
            return PlayError(Illegal.TOO_MANY_MOVES), None
        me, opp = list(self.sides[self.turn]), list(self.sides[1 - self.turn])
        hits: list[bool] = []
        first_error = _apply_ordered(me, opp, moves, list(pips), hits)
        if first_error:  # the usual play applies in its order: only then is the rest looked at
            for index, (source, target) in enumerate(moves):
                if not 0 <= target < source <= BAR:
                    return PlayError(Illegal.BAD_POINTS, index, moves[index]), None
            for order in _other_orders(play):
                me, opp, hits = list(self.on_roll), list(self.opponent), []
                if _apply_ordered(me, opp, order.moves, list(pips), hits) is None:
                    play = order
                    break
            else:
                return first_error, None
        if len(moves) < len(pips) and me[OFF] < CHECKERS:
            error = self._maximality_error(first, second, play, hits)
            if error:
                return error, None
        return None, LegalPlay(play, self._after(me, opp), tuple(hits))

    def _maximality_error(self, first: int, second: int, play: Play, hits: list[bool]) -> PlayError | None:
        """The play used fewer dice than rolled: legal only if no play does better."""
        most, found = legal(list(self.on_roll), self.opponent, first, second)
        if play_key(play.moves, hits) in found:
            return None
        if len(play.moves) < most:
            return PlayError(Illegal.MORE_DICE_COULD_BE_USED)
        return PlayError(Illegal.LARGER_DIE_COULD_BE_USED)

    def can_play(self, dice: Sequence[int]) -> bool:
        """Whether any checker can move with either die (else the roll is lost)."""
        me, opp = self.on_roll, self.opponent
        sources = (BAR,) if me[BAR] else [point for point in range(24, 0, -1) if me[point]]
        return any(_hop_error(me, opp, source, die) is None for die in set(dice) for source in sources)

    def legal_plays(self, dice: Sequence[int]) -> list[LegalPlay]:
        """Every legal play for ``dice``, one per distinct resulting position, in the order of
        a search from the highest point with the dice as given (see :mod:`bgrecord.core.movegen`).

        A roll that cannot be played at all gives one empty play (a dance).
        """
        first, second = dice
        if not (1 <= first <= 6 and 1 <= second <= 6):
            raise ValueError(f"invalid dice {tuple(dice)}")
        _, found = legal(list(self.sides[self.turn]), self.sides[1 - self.turn], first, second)
        return [LegalPlay(None, None, hits, moves, self) for moves, hits in found.values()]

    def _moved(self, moves: Iterable[Move]) -> Position:
        """The position after ``moves``, already known to be legal, with the other side on roll."""
        me, opp = list(self.on_roll), list(self.opponent)
        for source, target in moves:
            _hop(me, opp, source, target)
        return self._after(me, opp)


_set_sides = Position.__dict__["sides"].__set__  # the slots' own setters (see Position.__init__)
_set_turn = Position.__dict__["turn"].__set__


def _apply_ordered(me: list[int], opp: list[int], moves: tuple[Move, ...], dice: list[int], hits: list[bool]) -> PlayError | None:
    """Apply ``moves`` in order, consuming ``dice``; the first error, if any (a move whose
    points are out of range among them). The die of a move is the exact one, else for a
    bear-off the smallest larger one (the choice never matters for the rest of the turn)."""
    for index, move in enumerate(moves):
        source, target = move
        if not 0 <= target < source <= BAR:
            return PlayError(Illegal.BAD_POINTS, index, move)
        distance = source - target
        if distance in dice:
            die = distance
        else:
            larger = [d for d in dice if d > distance] if target == OFF else None
            if not larger:
                early = target == OFF and any(me[7:26])
                return PlayError(Illegal.CANNOT_BEAR_OFF_YET if early else Illegal.WRONG_DISTANCE, index, move)
            die = min(larger)
        reason = _hop_error(me, opp, source, die)
        if reason:
            return PlayError(reason, index, move)
        dice.remove(die)
        hits.append(_hop(me, opp, source, target))
    return None


def _check_points(move: Move, index: int) -> PlayError | None:
    if not (1 <= move.source <= 25 and 0 <= move.target < move.source):
        return PlayError(Illegal.BAD_POINTS, index, move)
    return None


def _other_orders(play: Play) -> Iterator[Play]:
    seen = {play.moves}
    for order in permutations(play.moves):
        if order not in seen:
            seen.add(order)
            yield Play(order)


