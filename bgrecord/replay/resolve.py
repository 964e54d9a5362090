"""From a play as written to a legal play: notation meets the rules core.

A written play is a list of move tokens: ``24/18 13/11``, chains ``13/7*/4``, repeats
``8/5(2)``, consolidated moves ``13/4`` (one checker, both dice). Each step is split into
single-die hops every way the dice allow; every combination is checked with
:meth:`Position.play_error`; the legal ones are compared by the position they lead to.

Does not check turns, the cube or results: only whether these dice allow this play here.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Iterator, NamedTuple, Sequence

from bgrecord.core.movegen import _MOVES
from bgrecord.core.position import BAR, OFF, Dice, Illegal, LegalPlay, Move, Play, PlayError, Position
from bgrecord.formats.records import MoveToken


class Resolution(NamedTuple):
    """``play`` is the legal play read (None if none is), ``error`` why the play as written
    is illegal, ``ambiguous`` when several legal plays fit the notation and the hit marks
    did not decide, ``hints`` the legal plays nearest to what was written."""

    play: LegalPlay | None
    error: PlayError | None = None
    ambiguous: bool = False
    hints: tuple[LegalPlay, ...] = ()


def _splits(source: int, target: int, dice: list[int]) -> Iterator[tuple[list[tuple[int, int]], list[int]]]:
    """Ways to move one checker from ``source`` to ``target`` with some of ``dice``:
    the hops, and the dice left. One hop first when a die fits exactly."""
    distance = source - target
    tried: set[tuple[int, ...]] = set()
    for count in range(1, len(dice) + 1):
        for order in permutations(dice, count):
            if order in tried:
                continue
            tried.add(order)
            total, point, hops, ok = 0, source, [], True
            for index, die in enumerate(order):
                total += die
                last = index == count - 1
                nxt = point - die
                if not last and (nxt <= OFF or total >= distance):
                    ok = False
                    break
                if last:
                    nxt = target
                hops.append((point, nxt))
                point = nxt
            fits = total == distance or (target == OFF and total > distance)
            if ok and fits:
                rest = list(dice)
                for die in order:
                    rest.remove(die)
                yield hops, rest


def candidates(dice: Dice, moves: Sequence[MoveToken]) -> list[Play]:
    """Every reading of the written moves as single-die hops (the literal one first)."""
    steps = [pair for token in moves for pair in token.pairs()]
    found: list[Play] = []

    def expand(index: int, left: list[int], hops: list[tuple[int, int]]) -> None:
        if len(found) > 64:
            return
        if index == len(steps):
            found.append(Play.from_pairs(hops))
            return
        source, target = steps[index]
        split_any = False
        for split, rest in _splits(source, target, left):
            split_any = True
            expand(index + 1, rest, hops + split)
        if not split_any:  # no die fits: keep it as written, the rules core says why
            expand(index + 1, left, hops + [(source, target)])

    expand(0, dice.pips(), [])
    literal = Play.from_pairs(steps)
    return [literal] + [play for play in found if play != literal]


_new_tuple = tuple.__new__


class _Written(NamedTuple):
    play: Play  # the moves as written, one hop per written step
    marks: frozenset[int]  # the points written with a hit mark


_WRITTEN: dict[int, tuple[tuple[MoveToken, ...], _Written]] = {}
_NO_MARKS: frozenset[int] = frozenset()  # shared: an empty frozenset is 200 bytes, and most plays have no mark


@lru_cache(maxsize=4096)
def _token_steps(token: MoveToken) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """One written move's hops (its ``pairs()`` as moves) and its hit-marked points: a file
    holds few distinct moves, each in many cells."""
    hops = [_MOVES[source][target] if 0 <= source <= BAR and 0 <= target <= BAR else Move(source, target)
            for source, target in token.pairs()]  # fmt: skip
    marks = [point for point, hit in zip(token.points, token.hits) if hit] if True in token.hits else []
    return tuple(hops), tuple(marks)


def _written(moves: tuple[MoveToken, ...]) -> _Written:
    """What a written play says, memoised by the identity of its tuple: the reader gives one
    tuple per distinct cell, and hashing a tuple of tokens on every roll would cost a sixth
    of the play check. Each entry keeps its tuple alive, so the id stays the tuple's."""
    entry = _WRITTEN.get(id(moves))
    if entry is not None and entry[0] is moves:
        return entry[1]
    steps: list[Move] = []
    marks: list[int] = []
    for token in moves:
        chain, marked = _token_steps(token)
        steps += chain
        if marked:
            marks += marked
    if len(_WRITTEN) >= 65536:
        _WRITTEN.clear()
    written = _WRITTEN[id(moves)] = (moves, _Written(Play(tuple(steps)), frozenset(marks) if marks else _NO_MARKS))
    return written[1]


def marked_hits(moves: Sequence[MoveToken]) -> frozenset[int]:
    """The points written with a hit mark (``*``), in the mover's numbering."""
    return _written(tuple(moves)).marks


def resolve(position: Position, rolled: Sequence[int], moves: Sequence[MoveToken]) -> Resolution:
    """The legal play the written moves mean, or why there is none."""
    literal = _written(tuple(moves)).play
    first_error, checked = position.check_play(rolled, literal)
    if checked is not None:  # written move by move, and legal: the usual case
        return _new_tuple(Resolution, (checked, None, False, ()))  # Resolution(checked), without its Python-level __new__: half the cost
    dice = Dice(*rolled)
    if len(literal.moves) > 8:  # no reading of so many moves can be legal: do not split them
        return Resolution(None, first_error, False, nearest(position, dice, Play(literal.moves[:4])))
    legal: dict[Position, LegalPlay] = {}
    plays = candidates(dice, moves)[1:]  # the first is the literal reading
    for play in plays:
        error, checked = position.check_play(dice, play)
        if checked is not None:
            legal.setdefault(checked.position, checked)
        elif first_error is not None and first_error.reason is Illegal.WRONG_DISTANCE:
            first_error = error  # a move of one checker with both dice: say what stops it
    if not legal:
        return Resolution(None, first_error, False, nearest(position, dice, literal))
    options = list(legal.values())
    if len(options) == 1:
        return Resolution(options[0])
    marks = marked_hits(moves)
    fitting = [option for option in options if option.hit_points() == marks] or options
    return Resolution(fitting[0], None, len(fitting) > 1)


def nearest(position: Position, dice: Dice, written: Play, count: int = 3) -> tuple[LegalPlay, ...]:
    """The legal plays closest to what was written: fewest moves not written."""
    wanted = list(written.moves)

    def distance(option: LegalPlay) -> tuple[int, str]:
        left = list(wanted)
        missing = 0
        for move in option.play:
            if move in left:
                left.remove(move)
            else:
                missing += 1
        return missing + len(left), " ".join(f"{move}{'*' * hit}" for move, hit in zip(option.play.moves, option.hits))  # as made: ties as ever

    options = [option for option in position.legal_plays(dice) if option.play.moves]
    return tuple(sorted(options, key=distance)[:count])


__all__ = ["Move", "Resolution", "candidates", "marked_hits", "nearest", "resolve"]
