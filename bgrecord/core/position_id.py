"""gnubg's Position ID: 80 bits of a position's checkers, packed least significant first into
bytes and written in standard base64 without padding (``match-formats.md`` §4). The packing is
shared with the Match ID (:mod:`bgrecord.core.ids`). Decoders raise ``ValueError`` with a readable
message on malformed input; they do not check that a position could arise in play."""

from __future__ import annotations

import base64
import binascii
import re

from bgrecord.core.moves import CHECKERS, OFF, Side

_B64 = re.compile(r"[A-Za-z0-9+/]+")


def pack(value: int, nbytes: int, nchars: int) -> str:
    return base64.b64encode(value.to_bytes(nbytes, "little")).decode("ascii")[:nchars]


def unpack(text: str, nchars: int, what: str) -> int:
    if len(text) != nchars or not _B64.fullmatch(text):
        raise ValueError(f"a {what} is {nchars} base64 characters, not {text!r}")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error as exc:  # pragma: no cover - the regex already guards
        raise ValueError(f"invalid {what} {text!r}: {exc}") from None
    value = int.from_bytes(raw, "little")
    if pack(value, len(raw), nchars) != text:
        raise ValueError(f"{text!r} is not a {what}: its last character has stray bits")
    return value


_RUNS = tuple("1" * count + "0" for count in range(CHECKERS + 1))  # a point's bits: a 1 a checker, then a 0


def position_value(not_on_roll: Side, on_roll: Side) -> int:
    """The 80 bits a Position ID encodes, of two sides (each in its own numbering), as an integer."""
    bits = "".join(map(_RUNS.__getitem__, not_on_roll[1:26])) + "".join(map(_RUNS.__getitem__, on_roll[1:26]))  # points 1-24, then the bar
    return int(bits[::-1], 2)  # the first bit is the least significant


def encode_position_id(not_on_roll: Side, on_roll: Side) -> str:
    """The 14-character Position ID of two sides (each in its own numbering)."""
    return pack(position_value(not_on_roll, on_roll), 10, 14)


def decode_position_id(position_id: str) -> tuple[Side, Side]:
    """(not on roll, on roll) from a Position ID; borne-off counts are what is missing of 15."""
    value = unpack(position_id, 14, "Position ID")
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    side, slot = 0, 1
    for bit in range(80):
        if side == 2:
            break
        if value >> bit & 1:
            sides[side][slot] += 1
        else:
            slot += 1
            if slot == 26:
                side, slot = side + 1, 1
    for counts in sides:
        total = sum(counts)
        if total > CHECKERS:
            raise ValueError(f"Position ID {position_id!r} has {total} checkers on one side")
        counts[OFF] = CHECKERS - total
    return tuple(sides[0]), tuple(sides[1])
