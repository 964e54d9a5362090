"""eXtreme Gammon's analysis in its game file: what a move record and a cube record store of
XG's evaluation, read as the file says it (the analysis layer gives it a meaning:
:mod:`bgrecord.analysis.recorded_xg`).

A move record holds up to 32 candidate plays of the roll, each with its resulting position
(in the mover's frame), its moves, its evaluation level and its equities (cubeful, normalised to
money: EMG, from the mover's side); the record's own position after the play tells which one
was made. It holds the luck of the roll (XG's ``ErrLuck``) and the level of the whole analysis.
A cube record holds the no double, double/take and double/pass equities of the doubler's
decision (EMG; double/pass is 1.0 once normalised) and the level they were found at. A record
XG did not analyse says so (a luck of -1000, a double/pass of 0). (Offsets from the layouts
published by eXtreme Gammon's author and in xgdatatools; this is bgrecord's own code.)

Every number read is checked finite and within what an equity can be: a record whose numbers
are not is read without its analysis.
"""

from __future__ import annotations

import math
import struct
from typing import Any

_CANDIDATES = 32  # the most a move record holds
_NOT_ANALYSED = -999.0  # XG writes -1000 where it did not analyse
_EQUITY_BOUND = 10.0  # a cubeful equity, normalised, is within ±3 (a backgammon at a doubled cube, and more): this is generous

# XG's evaluation levels, by its code: the n-ply levels as XG names them (XG's 1-ply is a static
# evaluation, gnubg's 0-ply), its opening book, its XG Roller levels (short rollouts) and a rollout
LEVELS = {0: "1ply", 1: "2ply", 2: "3ply", 3: "4ply", 4: "5ply", 5: "6ply", 6: "7ply", 12: "3ply", 100: "rollout",
          998: "book", 999: "book", 1000: "roller", 1001: "roller+", 1002: "roller++"}  # fmt: skip


def _equity(value: float) -> float | None:
    return value if math.isfinite(value) and abs(value) <= _EQUITY_BOUND else None


def move_analysis(record: bytes) -> dict[str, Any] | None:
    """A move record's analysis: ``candidates`` (each ``equity``, ``level``, ``moves``: XG's
    eight bytes, and ``played``), the record's ``level``, the roll's ``luck`` (None when not
    analysed), ``analysed`` (XG's error field is not its 'not analysed' mark) and ``illegal``
    (XG's mark of a play against the rules). None when the record holds no candidate."""
    count = struct.unpack_from("<l", record, 120)[0]
    if not 0 < count <= _CANDIDATES:
        return None
    after = record[35:61]
    candidates = []
    for index in range(count):
        equity = _equity(struct.unpack_from("<f", record, 1408 + 28 * index + 24)[0])
        if equity is None:
            return None
        candidates.append({
            "equity": equity, "level": struct.unpack_from("<h", record, 1280 + 4 * index)[0],
            "moves": struct.unpack_from("<8b", record, 1024 + 8 * index),
            "played": record[192 + 26 * index : 218 + 26 * index] == after,
        })  # fmt: skip
    error, luck = struct.unpack_from("<2d", record, 2312)
    return {
        "kind": "move", "level": struct.unpack_from("<l", record, 2472)[0], "candidates": candidates,
        "analysed": math.isfinite(error) and error > _NOT_ANALYSED,
        "luck": luck if math.isfinite(luck) and _NOT_ANALYSED < luck and abs(luck) <= _EQUITY_BOUND else None,
        "illegal": struct.unpack_from("<l", record, 2480)[0] == 2,
    }  # fmt: skip


def cube_analysis(record: bytes) -> dict[str, Any] | None:
    """A cube record's analysis: ``nd``, ``dt``, ``dp`` (EMG, the doubler's side) and its
    ``level``; None when XG did not analyse the decision."""
    level = struct.unpack_from("<l", record, 92)[0]
    nd, dt, dp = (_equity(value) for value in struct.unpack_from("<3f", record, 152))
    if nd is None or dt is None or dp is None or dp == 0.0:
        return None
    return {"kind": "cube", "level": level, "nd": nd, "dt": dt, "dp": dp}
