"""The plain values of the rules core: points, sides, dice, checker moves, plays, and the
starting layouts. They know nothing of positions or legality (:mod:`bgrecord.core.position`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Iterator, NamedTuple, Sequence

OFF = 0
BAR = 25
CHECKERS = 15

Side = tuple[int, ...]
"""26 counts: [borne off, point 1, ..., point 24, bar], in the side's own numbering."""


class Variant(enum.Enum):
    """Starting layouts. The rules of play are the same for all of them."""

    STANDARD = "standard"
    NACKGAMMON = "nackgammon"

    @property
    def start(self) -> Side:
        layout = _STARTS[self]
        side = [0] * 26
        for point, count in layout.items():
            side[point] = count
        side[OFF] = CHECKERS - sum(layout.values())
        return tuple(side)


_STARTS: dict[Variant, dict[int, int]] = {
    Variant.STANDARD: {24: 2, 13: 5, 8: 3, 6: 5},
    Variant.NACKGAMMON: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
}


class Dice(NamedTuple):
    """Two dice as rolled (order kept: files write them either way round)."""

    first: int
    second: int

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def is_valid(self) -> bool:
        return 1 <= self.first <= 6 and 1 <= self.second <= 6

    def pips(self) -> list[int]:
        """The dice to be played: four for a double, else the two."""
        return [self.first] * 4 if self.is_double else [self.first, self.second]

    def __str__(self) -> str:
        return f"{self.first}{self.second}"


def point_name(point: int) -> str:
    """``bar``, ``off`` or the point's number, in the mover's numbering."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


class Move(NamedTuple):
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{point_name(self.source)}/{point_name(self.target)}"


@dataclass(frozen=True, slots=True)
class Play:
    """The checker moves of one turn, in the order they are made. Empty for a dance."""

    moves: tuple[Move, ...] = ()

    @classmethod
    def from_pairs(cls, pairs: Iterable[Sequence[int]]) -> Play:
        """``Play.from_pairs([(24, 18), (13, 11)])``."""
        return cls(tuple(Move(int(s), int(t)) for s, t in pairs))

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        return " ".join(str(move) for move in self.moves)

    def __repr__(self) -> str:
        return f"Play.from_pairs({[tuple(m) for m in self.moves]!r})"
