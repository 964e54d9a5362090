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
    if len(_WRITTEN) >= 16384:
        _WRITTEN.clear()
    written = _WRITTEN[id(moves)] = (moves, _Written(Play(tuple(steps)), frozenset(marks) if marks else _NO_MARKS))
    return written[1]


def marked_hits(moves: Sequence[MoveToken]) -> frozenset[int]:
    """The points written with a hit mark (``*``), in the mover's numbering."""
    return _written(tuple(moves)).marks


def resolve(position: Position, rolled: Sequence[int], moves: Sequence[MoveToken], hints: bool = True) -> Resolution:
    """The legal play the written moves mean, or why there is none (with the nearest legal
    plays, unless ``hints`` is False: a search that only asks whether a play is legal)."""
    literal = _written(tuple(moves)).play
    first_error, checked = position.check_play(rolled, literal)
    if checked is not None:  # written move by move, and legal: the usual case
        return _new_tuple(Resolution, (checked, None, False, ()))  # Resolution(checked), without its Python-level __new__: half the cost
    dice = Dice(*rolled)
    if len(literal.moves) > 8:  # no reading of so many moves can be legal: do not split them
        return Resolution(None, first_error, False, nearest(position, dice, moves[:4]) if hints else ())
    legal: dict[Position, LegalPlay] = {}
    plays = candidates(dice, moves)[1:]  # the first is the literal reading
    for play in plays:
        error, checked = position.check_play(dice, play)
        if checked is not None:
            legal.setdefault(checked.position, checked)
        elif first_error is not None and first_error.reason is Illegal.WRONG_DISTANCE:
            first_error = error  # a move of one checker with both dice: say what stops it
    if not legal:
        return Resolution(None, first_error, False, nearest(position, dice, moves) if hints else ())
    options = list(legal.values())
    if len(options) == 1:
        return Resolution(options[0])
    marks = marked_hits(moves)
    fitting = [option for option in options if option.hit_points() == marks] or options
    return Resolution(fitting[0], None, len(fitting) > 1)


def nearest(position: Position, dice: Dice, moves: Sequence[MoveToken], count: int = 3) -> tuple[LegalPlay, ...]:
    """The legal plays closest to what was written (see :func:`ranked`)."""
    return tuple(option for _, option in ranked(position, dice, moves)[:count])


def ranked(position: Position, dice: Sequence[int], moves: Sequence[MoveToken]) -> list[tuple[float, LegalPlay]]:
    """The legal plays of ``dice`` (none for dice that are no dice), each with its distance from
    what was written, closest first: 0.5 for what one usual slip of the pen makes of it (a point
    one digit off, a point in the opponent's numbering 25-n, the whole play in the opponent's
    numbering, the two dice's distances swapped; a little more for a point a checker left), else 1
    and a quarter for each checker's end that differs. Plays are compared by where the mover's checkers end, so ``13/9`` is
    ``13/10 10/9``."""
    if not Dice(*dice).is_valid:
        return []
    mover = position.turn
    options = [option for option in position.legal_plays(dice) if option.play.moves]
    by_side: dict[tuple[int, ...], list[LegalPlay]] = {}
    for option in options:
        by_side.setdefault(option.position.sides[mover], []).append(option)
    start = position.sides[mover]
    cost: dict[int, float] = {}
    for slips, steps in _variants(moves):
        ends = _ends(start, steps)
        for option in by_side.get(ends, ()) if ends is not None else ():
            cost[id(option)] = min(cost.get(id(option), slips), slips)
    written = _ends(start, [pair for token in moves for pair in token.pairs()], lenient=True)
    found = []
    for option in options:
        if id(option) not in cost:
            apart = sum(abs(a - b) for a, b in zip(written or start, option.position.sides[mover])) if written else 8
            cost[id(option)] = 1 + apart / 4
        found.append((cost[id(option)], option))
    found.sort(key=lambda pair: (pair[0], _as_made(pair[1])))
    return found


def _as_made(option: LegalPlay) -> str:
    """A play's moves in the order the generator made them: ties among equally close plays
    sorted as ever, whatever order bgrecord's notation writes a play in."""
    return " ".join(f"{move}{'*' * hit}" for move, hit in zip(option.play.moves, option.hits))


def _ends(start: tuple[int, ...], steps: Sequence[tuple[int, int]], lenient: bool = False) -> tuple[int, ...] | None:
    """Where the mover's checkers end after ``steps`` (no rule checked); None for a step off the
    board (``lenient``: such a step left out)."""
    side = list(start)
    for source, target in steps:
        if not 0 <= target < source <= BAR:
            if lenient:
                continue
            return None
        side[source] -= 1
        side[target] += 1
    return tuple(side)


def mirror(point: int) -> int:
    """A point in the other player's numbering (the bar and off are the same words for both)."""
    return point if point in (OFF, BAR) else BAR - point


def _digit_slips(point: int) -> set[int]:
    """The points a slip of one digit makes of ``point``: a digit changed, added or left out."""
    text = str(point)
    found = set()
    for index in range(len(text) + 1):
        for digit in "0123456789":
            found.add(text[:index] + digit + text[index + 1 :])  # changed (or added at the end)
            found.add(text[:index] + digit + text[index:])  # added
        found.add(text[:index] + text[index + 1 :])  # left out
    return {int(slip) for slip in found if slip and len(slip) <= 2} - {point}


def _variants(moves: Sequence[MoveToken]) -> Iterator[tuple[float, list[tuple[int, int]]]]:
    """What the writer may have meant, as steps, with the slips it takes: the play as written,
    then each slip of the pen."""
    points = [list(token.points) for token in moves]

    def steps(chains: list[list[int]]) -> list[tuple[int, int]]:
        return [pair for chain, token in zip(chains, moves) for pair in list(zip(chain, chain[1:])) * token.repeat]

    yield 0.0, steps(points)
    yield 0.5, steps([[mirror(point) for point in chain] for chain in points])  # the opponent's numbering
    for at, chain in enumerate(points):
        for place, point in enumerate(chain):
            for slip in sorted(_digit_slips(point) | {mirror(point)}):
                changed = [list(c) for c in points]
                changed[at][place] = slip
                yield 0.5 if place else 0.55, steps(changed)  # where a checker went is mistyped more than where it stood
    singles = [at for at, chain in enumerate(points) if len(chain) == 2 and moves[at].repeat == 1]
    if len(singles) == 2:  # the two dice's distances swapped: 24/20 13/7 for 24/18 13/9
        (a, b), (c, d) = points[singles[0]], points[singles[1]]
        swapped = [list(chain) for chain in points]
        swapped[singles[0]], swapped[singles[1]] = [a, a - (c - d)], [c, c - (a - b)]
        yield 0.5, steps(swapped)


def physical(position: Position, rolled: Sequence[int], moves: Sequence[MoveToken]) -> LegalPlay | None:
    """The written play made as written, the dice aside: every checker moved where the record
    says, a hop of one to six pips at a time, each hop possible on the board (a checker there,
    the bar first, the point open, bearing off only when all are home). None when it cannot be."""
    if sum(len(token.points) - 1 for token in moves) > 8:
        return None  # more moves than any roll has
    for play in candidates(Dice(*rolled), moves)[:16]:
        hits = []
        after = position
        try:
            for move in play.moves:
                bar = after.sides[1 - after.turn][BAR]
                after = after.play(Play((move,))).swap_turn()
                hits.append(after.sides[1 - after.turn][BAR] > bar)
        except ValueError:
            continue
        return LegalPlay(play, after.swap_turn(), tuple(hits))
    return None


__all__ = ["Move", "Resolution", "candidates", "marked_hits", "mirror", "nearest", "physical", "ranked", "resolve"]
