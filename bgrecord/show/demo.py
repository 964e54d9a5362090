"""Random legal games played by the rules core: the built-in sample that
``bgrecord demo`` replays, and a source of positions for tests.

Nothing here is strategy: every legal play is equally likely.
"""

from __future__ import annotations

import random
from typing import Iterator, NamedTuple

from bgrecord.core.position import Dice, LegalPlay, Position, Variant


class Turn(NamedTuple):
    """One turn of a random game: the position before it, the roll and the play chosen."""

    position: Position
    dice: Dice
    chosen: LegalPlay


def opening_roll(rng: random.Random) -> tuple[int, Dice]:
    """Each side rolls one die until they differ; the higher plays both dice."""
    while True:
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        if first != second:
            return (0 if first > second else 1), Dice(first, second)


def random_game(rng: random.Random, variant: Variant = Variant.STANDARD, max_turns: int = 2000) -> Iterator[Turn]:
    """The turns of one game from the starting position to its end (or ``max_turns``)."""
    player, dice = opening_roll(rng)
    position = Position.start(variant, turn=player)
    for _ in range(max_turns):
        chosen = rng.choice(position.legal_plays(dice))
        yield Turn(position, dice, chosen)
        position = chosen.position
        if position.outcome():
            return
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
