"""Perft: legal-play counts of committed (position, dice) pairs, recomputed twice.

``data/perft.jsonl`` comes from GNU Backgammon self-play (see ``data/make_perft.py``).
Each count must equal both ``Position.legal_plays`` and an independent brute force
written here from the rules alone: a different board representation (one signed array,
the mover's checkers positive), every ordering of the dice and every checker tried,
no shared code with ``bgrecord.core.position``.
"""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrecord import LegalPlay, Position

PERFT = Path(__file__).resolve().parent / "data" / "perft.jsonl"
ROWS = [json.loads(line) for line in PERFT.read_text(encoding="utf-8").splitlines()]

# board[0] = mover's borne off, board[1..24] = points in the mover's numbering (mover > 0,
# opponent < 0), board[25] = mover's bar, board[26] = opponent's bar
Board = tuple[int, ...]


def to_board(position: Position) -> Board:
    me, opp = position.on_roll, position.opponent
    board = [0] * 27
    board[0], board[25], board[26] = me[0], me[25], opp[25]
    for point in range(1, 25):
        board[point] = me[point] - opp[25 - point]
    return tuple(board)


def step(board: Board, source: int, die: int) -> Board | None:
    """Move one checker of the mover from ``source`` by ``die``, or None if the rules forbid it."""
    if board[25] > 0 and source != 25:
        return None
    count = board[25] if source == 25 else board[source]
    if count <= 0:
        return None
    new = list(board)
    new[source] -= 1
    target = source - die
    if target >= 1:
        if new[target] < -1:
            return None
        if new[target] == -1:
            new[target] = 0
            new[26] += 1
        new[target] += 1
        return tuple(new)
    outside = board[25] + sum(max(board[p], 0) for p in range(7, 25))
    if outside:
        return None
    if target < 0 and any(board[p] > 0 for p in range(source + 1, 7)):
        return None
    new[0] += 1
    return tuple(new)


def brute_force(position: Position, dice: tuple[int, int]) -> int:
    """How many distinct boards a play can lead to (0 for a roll that cannot be played)."""
    return len(brute_force_boards(position, dice))


def brute_force_boards(position: Position, dice: tuple[int, int]) -> set[Board]:
    """Distinct resulting boards over all dice orders and checkers, filtered by the rules
    of using as many dice as possible, and the larger die (none when nothing can move)."""
    rolls = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    finals: dict[Board, set[tuple[int, ...]]] = {}  # board -> sets of dice used to reach it

    def walk(board: Board, remaining: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if board[0] < 15 and remaining:
            for source in range(25, 0, -1):
                after = step(board, source, remaining[0])
                if after is not None:
                    moved = True
                    walk(after, remaining[1:], used + (remaining[0],))
        if not moved:
            finals.setdefault(board, set()).add(used)

    start = to_board(position)
    for order in set(permutations(rolls)):
        walk(start, order, ())

    def size(board: Board, used: tuple[int, ...]) -> int:
        return len(rolls) if board[0] == 15 else len(used)

    best = max(size(b, u) for b, uses in finals.items() for u in uses)
    keep = {b: {u for u in uses if size(b, u) == best} for b, uses in finals.items()}
    keep = {b: uses for b, uses in keep.items() if uses}
    if best == 1 and dice[0] != dice[1]:
        high = max(dice)
        if any((high,) in uses for uses in keep.values()):
            keep = {b: uses for b, uses in keep.items() if (high,) in uses}
    if best == 0:
        return set()
    return set(keep)


def test_perft_file_covers_the_hard_cases() -> None:
    kinds = {kind for row in ROWS for kind in row["kinds"]}
    assert len(ROWS) >= 300
    assert {"bar", "closed-board", "bearoff", "bearoff-gaps", "contact", "race", "larger-die"} <= kinds
    assert any(row["dice"][0] == row["dice"][1] for row in ROWS)
    assert any(row["plays"] == 0 for row in ROWS) and max(row["plays"] for row in ROWS) > 100


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['position_id']}-{r['dice'][0]}{r['dice'][1]}" for r in ROWS])
def test_perft(row: dict[str, object]) -> None:
    position = Position.from_id(str(row["position_id"]))
    dice = tuple(row["dice"])  # type: ignore[arg-type]
    plays = position.legal_plays(dice)
    generated = len(plays) if plays[0].play else 0
    assert generated == row["plays"]
    assert brute_force(position, dice) == row["plays"]  # type: ignore[arg-type]
    assert len({legal.position for legal in plays}) == len(plays)  # one play per resulting position
    assert_each_play_checks(position, dice, plays)


def assert_each_play_checks(position: Position, dice: tuple[int, int], plays: list[LegalPlay]) -> None:
    """Each generated play passes the play check, which finds the same position and hits."""
    for legal in plays:
        error, checked = position.check_play(dice, legal.play)
        assert error is None and checked is not None
        assert (checked.position, checked.hits) == (legal.position, legal.hits)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any position a game can reach, weighted towards the hard cases: checkers on the bar,
    bearing off, few checkers left, blots to hit in passing."""
    home_only = draw(st.booleans())
    sides: list[list[int]] = []
    for side in range(2):
        counts = [0] * 26
        places = list(range(1, 7)) if home_only and side == 0 else list(range(1, 26))
        for _ in range(draw(st.integers(1 if side == 0 else 0, 15))):
            counts[draw(st.sampled_from(places))] += 1
        counts[0] = 15 - sum(counts)
        sides.append(counts)
    me, opp = sides
    for point in range(1, 25):  # a point holds one side: the opponent gives way
        if me[point] and opp[25 - point]:
            opp[0] += opp[25 - point]
            opp[25 - point] = 0
    return Position((tuple(me), tuple(opp)), 0)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 6), st.integers(1, 6))
def test_generated_plays_equal_the_brute_force(position: Position, first: int, second: int) -> None:
    plays = position.legal_plays((first, second))
    reached = {to_board(legal.position.swap_turn()) for legal in plays if legal.play}  # seen by the mover
    assert reached == brute_force_boards(position, (first, second))
    assert_each_play_checks(position, (first, second), plays)
