"""Move generation: every legal play of a roll, one per distinct resulting position.

It works on the mover's counts (a :data:`~bgrecord.core.position.Side`, in a list it changes and
restores) and on two facts about the opponent that cannot change during a turn: which points
are closed (two or more of its checkers) and which hold a blot. A hit only turns a blot into
the mover's point, so the opponent's checkers are never copied.

A resulting position is known by a key, an int: a bit for each blot hit, and above them the net
change of the mover's counts (a signed hexadecimal digit a point: four moves never carry).
Two plays lead to the same position exactly when their keys are equal, so plays are told
apart without building positions.

What it does not do: check a written play (:meth:`Position.check_play` does), build positions
(:class:`~bgrecord.core.position.LegalPlay` does when asked) or know notation.
"""

from __future__ import annotations

from bisect import insort
from typing import Sequence

from bgrecord.core.moves import BAR, CHECKERS, OFF, Move

Found = dict[int, tuple[tuple[Move, ...], tuple[bool, ...]]]
"""key -> (moves, hits) of the first play found that leads there."""

_HIT = tuple(1 << point for point in range(26))  # the low 26 bits: the blots hit (never negative)
_UNIT = tuple(1 << (26 + 4 * point) for point in range(26))
_STEP = tuple(tuple(tuple(_UNIT[target] - _UNIT[source] + (_HIT[target] if hit else 0) for target in range(26))
                    for source in range(26)) for hit in (False, True))
"""``_STEP[hit][source][target]``: what a move adds to the key."""
_MOVES = tuple(tuple(Move(source, target) for target in range(26)) for source in range(26))
_DANCE: Found = {0: ((), ())}


def play_key(moves: Sequence[Move], hits: Sequence[bool]) -> int:
    """The key of the position a play leads to (see the module's docstring)."""
    key = 0
    for (source, target), hit in zip(moves, hits):
        key += _STEP[hit][source][target]
    return key


def legal(me: list[int], opponent: Sequence[int], first: int, second: int) -> tuple[int, Found]:
    """The dice a legal play uses (a play that bears off the last checker uses them all) and
    every legal play, in the order of a depth-first search from the highest point with the dice
    in the order given. ``me`` is changed during the search and restored."""
    facing = opponent[::-1]  # the opponent's checkers by the mover's point (0, off, is never closed)
    closed = [count > 1 for count in facing]
    blot = [count == 1 for count in facing]
    closed[OFF] = blot[OFF] = False
    if first == second:
        return _double(me, first, closed, blot)
    return _two(me, first, second, closed, blot)


def _sources(me: list[int], die: int, closed: list[bool], outside: int) -> list[int]:
    """The points (ascending) a checker may move from by ``die``; ``outside``: the mover's
    checkers not in its home board, the bar counted."""
    if me[BAR]:
        return [] if closed[BAR - die] else [BAR]
    if outside:
        return [source for source in range(die + 1, 25) if me[source] and not closed[source - die]]
    top = next((point for point in range(6, 0, -1) if me[point]), 0)
    return [source for source in range(1, top + 1)  # a larger die bears off only from the top point
            if me[source] and (not closed[source - die] if source > die else source == die or source == top)]


def _sources_after(sources: list[int], me: list[int], source: int, target: int, die: int, closed: list[bool], outside: int) -> list[int]:
    """``sources`` for ``die`` (ascending; the caller's own list, changed) once a checker has
    moved from ``source`` to ``target`` (``me`` and ``outside`` as after it). Within the board,
    with no checker on the bar before or after, only those two points can change; else the
    sources are found again."""
    if source == BAR or not outside:
        return _sources(me, die, closed, outside)
    if not me[source] and source in sources:
        sources.remove(source)
    if me[target] == 1 and target > die and not closed[target - die]:
        insort(sources, target)
    return sources


def _two(me: list[int], first: int, second: int, closed: list[bool], blot: list[bool]) -> tuple[int, Found]:
    """Two different dice: each order in turn. In the second order, a pair of moves within the
    board by two different checkers (no checker on the bar) is skipped: the first order made
    the same two moves and reached the same position."""
    found: Found = {}
    outside = sum(me[7:])
    on_bar = me[BAR]
    sources = {die: _sources(me, die, closed, outside) for die in (first, second)}
    for die, then, second_order in ((first, second, False), (second, first, True)):
        for s1 in reversed(sources[die]):
            t1 = s1 - die if s1 > die else OFF
            me[s1] -= 1
            me[t1] += 1
            hit1 = blot[t1]
            key1 = _STEP[hit1][s1][t1]
            if me[OFF] == CHECKERS:
                if key1 not in found:
                    found[key1] = ((_MOVES[s1][t1],), (hit1,))
            else:
                moved = outside - (s1 > 6 >= t1)
                seconds = sources[then]
                if second_order and not on_bar and t1:  # the first order made every pair of moves within the board
                    if moved:
                        seconds = [t1] if t1 > then and not closed[t1 - then] else []
                    else:
                        seconds = [point for point in _sources(me, then, closed, moved) if point == t1 or point <= then]
                else:
                    seconds = _sources_after(seconds.copy(), me, s1, t1, then, closed, moved)
                for s2 in reversed(seconds):
                    t2 = s2 - then if s2 > then else OFF
                    hit2 = blot[t2] and t2 != t1
                    key = key1 + _STEP[hit2][s2][t2]
                    if key not in found:
                        found[key] = ((_MOVES[s1][t1], _MOVES[s2][t2]), (hit1, hit2))
            me[s1] += 1
            me[t1] -= 1
    if found:
        return 2, found
    for die in sorted((first, second), reverse=True):  # only one die can be played: the larger if it can
        singles: Found = {}
        for source in reversed(sources[die]):
            target = source - die if source > die else OFF
            hit = blot[target]
            singles[_STEP[hit][source][target]] = ((_MOVES[source][target],), (hit,))
        if singles:
            return 1, singles
    return 0, _DANCE.copy()


def _double(me: list[int], die: int, closed: list[bool], blot: list[bool]) -> tuple[int, Found]:
    """A double: moves in non-increasing order of source point, which reaches every resulting
    position once per distinct set of moves. Only the plays using the most dice are kept."""
    found: Found = {}
    best = 0

    def walk(sources: list[int], left: int, outside: int, key: int, moves: tuple[Move, ...], hits: tuple[bool, ...]) -> None:
        """Every next move from ``sources`` (not empty); the plays that end there are recorded
        here, not in a call of their own (most plays end at the last die)."""
        nonlocal best
        if left == 1:  # every play ending here uses all four dice: the board need not change
            if best < 4:
                found.clear()
                best = 4
            for source in reversed(sources):
                target = source - die if source > die else OFF
                hit = blot[target] and not key >> target & 1
                after = key + _STEP[hit][source][target]
                if after not in found:
                    found[after] = (moves + (_MOVES[source][target],), hits + (hit,))
            return
        for index in range(len(sources) - 1, -1, -1):
            source = sources[index]
            target = source - die if source > die else OFF
            hit = blot[target] and not key >> target & 1
            me[source] -= 1
            me[target] += 1
            after = key + _STEP[hit][source][target]
            moved = outside - (source > 6 >= target)
            below: list[int] = []
            if me[OFF] < CHECKERS:  # the next moves: not from above this source
                below = _sources_after(sources[: index + 1], me, source, target, die, closed, moved)
                if source == BAR or not moved:
                    below = [point for point in below if point <= source]
            if below:
                walk(below, left - 1, moved, after, moves + (_MOVES[source][target],), hits + (hit,))
            else:
                rank = 4 if me[OFF] == CHECKERS else 5 - left
                if rank > best:
                    found.clear()
                    best = rank
                if rank == best and after not in found:
                    found[after] = (moves + (_MOVES[source][target],), hits + (hit,))
            me[source] += 1
            me[target] -= 1

    outside = sum(me[7:])
    sources = _sources(me, die, closed, outside)
    if not sources:
        return 0, _DANCE.copy()
    walk(sources, 4, outside, 0, (), ())
    return best, found
