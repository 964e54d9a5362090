"""Match winning chances, as GNU Backgammon computes them from its default match equity table
(:mod:`bgrecord.analysis.met_table`), in its C float arithmetic: what an analysis stored in a
record needs to be read without running an engine (gnubg's SGF keeps its cube equities in match
winning chances; every analysis's luck and result are told in them too).

The functions follow gnubg's ``getME``, ``getMEAtScore``, ``mwc2eq`` and ``eq2mwc``: the same
results to the last bit (the tests compare them with gnubg's statistics). Beyond 64 points, or
with another table set in gnubg, they are not gnubg's: match play that long is left to gnubg.
"""

from __future__ import annotations

import base64
import struct
from functools import lru_cache

from bgrecord.analysis.measures import f32

LONGEST = 64  # the longest match the table covers


@lru_cache(maxsize=1)
def _tables() -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], tuple[float, ...]]]:
    from bgrecord.analysis.met_table import DATA, SIZE

    raw = base64.b64decode("".join(DATA))
    values = struct.unpack(f"<{len(raw) // 4}f", raw)
    rows = tuple(values[i * SIZE : (i + 1) * SIZE] for i in range(SIZE))
    post = values[SIZE * SIZE :]
    return rows, (post[:SIZE], post[SIZE : 2 * SIZE])


def covers(length: int) -> bool:
    """Whether the table holds a match of ``length`` points."""
    return 0 < length <= LONGEST


def _away(pre: bool, away0: int, away1: int, player: int) -> float:
    """The equity of ``player`` with the players ``away0``/``away1`` points (less one) from
    winning: ``pre``: a game before the Crawford game, else a post-Crawford one."""
    table, post = _tables()
    if pre:
        return f32(1.0 - table[away0][away1]) if player else table[away0][away1]
    if not away0:  # player 0 leads: player 1 trails post-Crawford
        return post[1][away1] if player else f32(1.0 - post[1][away1])
    return f32(1.0 - post[0][away0]) if player else post[0][away0]


def equity_after(length: int, score: tuple[int, int], player: int, points: int, winner: int, crawford: bool) -> float:
    """``player``'s match winning chances once ``winner`` wins ``points`` (gnubg's getME;
    ``crawford``: the game being played is the Crawford game)."""
    away0 = length - (score[0] + (winner == 0) * points) - 1
    away1 = length - (score[1] + (winner == 1) * points) - 1
    if away0 < 0:
        return 0.0 if player else 1.0
    if away1 < 0:
        return 1.0 if player else 0.0
    post = crawford or length - score[0] == 1 or length - score[1] == 1  # the next game is post-Crawford
    return _away(not post, away0, away1, player)


def equity_at(length: int, score: tuple[int, int], player: int, crawford: bool) -> float:
    """``player``'s match winning chances at ``score``, before the game (gnubg's getMEAtScore)."""
    away0, away1 = length - score[0] - 1, length - score[1] - 1
    if away0 < 0:
        return 0.0 if player else 1.0
    if away1 < 0:
        return 1.0 if player else 0.0
    post = not crawford and (length - score[0] == 1 or length - score[1] == 1)
    return _away(not post, away0, away1, player)


def _anchors(length: int, score: tuple[int, int], mover: int, cube: int, crawford: bool) -> tuple[float, float]:
    """The mover's match winning chances when winning and losing ``cube`` points."""
    return (equity_after(length, score, mover, cube, mover, crawford),
            equity_after(length, score, mover, cube, 1 - mover, crawford))  # fmt: skip


def mwc_to_emg(mwc: float, length: int, score: tuple[int, int], mover: int, cube: int, crawford: bool) -> float:
    """Match winning chances as an equity normalised to money (gnubg's mwc2eq)."""
    win, lose = _anchors(length, score, mover, cube, crawford)
    return f32(f32(f32(2.0 * mwc) - f32(win + lose)) / f32(win - lose))


def emg_to_mwc(equity: float, length: int, score: tuple[int, int], mover: int, cube: int, crawford: bool) -> float:
    """An equity normalised to money as match winning chances (gnubg's eq2mwc)."""
    win, lose = _anchors(length, score, mover, cube, crawford)
    return f32(0.5 * f32(f32(equity * f32(win - lose)) + f32(win + lose)))


def cost(equity: float, length: int, score: tuple[int, int], mover: int, cube: int, crawford: bool) -> float:
    """A difference of equity (EMG) in match winning chances, gnubg's way (money play: in
    points, at the cube's value)."""
    if not length:
        return f32(cube * equity)
    return f32(emg_to_mwc(equity, length, score, mover, cube, crawford) - emg_to_mwc(0.0, length, score, mover, cube, crawford))


def game_result(length: int, score: tuple[int, int], winner: int, points: int, crawford: bool) -> tuple[float, float]:
    """Each player's result of a game won by ``winner`` for ``points``: in match winning
    chances (money play: points), as gnubg's statistics count it."""
    if not length:
        return (float(points), float(-points)) if winner == 0 else (float(-points), float(points))
    gained = f32(equity_after(length, score, winner, points, winner, crawford) - equity_at(length, score, winner, crawford))
    return (gained, -gained) if winner == 0 else (-gained, gained)
