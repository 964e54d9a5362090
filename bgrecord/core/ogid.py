"""OGID, the OpenGammon position text: encode and decode.

``11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0`` is, field by field:

1. White's checkers, 2. Black's checkers: one character a checker, its point in one fixed
   frame (``0``-``9`` then ``a``-``p`` for 0-25): 0 is White's bar, 25 Black's, White moves up
   from 1 to 24 and off past 24, Black down from 24 to 1 and off below 1. Sorted; a checker
   borne off is not written.
3. The cube: its owner (``N`` centred, ``W``, ``B``), log2 of its value, and the cube action
   (``N`` none, ``O`` offered, ``T`` taken, ``P`` passed).
4. The dice, smaller first (empty before the roll).
5. The player who *reached* the position: the player to act next is the other one.
6. The state of the game: ``IB`` before the opening play, ``R`` dice rolled, ``C`` a play
   made (the next player may double or roll), ``D`` a double offered, ``A`` taken,
   ``G`` the game over by a pass.
7, 8. White's and Black's scores. 9. The match length (0 for money play), ``C`` added in
the Crawford game, ``L`` after it. 10. The number of plays made in the game. 11. The
checkers a side, only when not 15.

White is bgrecord's player 0 (the left column of a .mat file), Black player 1, as in SGF.
(The layout as OpenGammon and the OGXM reference codec write it; checked against the OGXM
fixtures' texts before and after every ply.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bgrecord.core.position import BAR, CHECKERS, OFF, Position

_PIPS = "0123456789abcdefghijklmnop"
_SHAPE = re.compile(r"[0-9a-p]{0,16}:[0-9a-p]{0,16}:[NWBD?][0-9]{1,2}[NOTP](?::.*)?$")
_LENGTH = re.compile(r"([0-9]{1,5})([CLG]?)([0-9]{0,5})$")
STATES = ("IB", "IW", "R", "C", "D", "A", "G", "")


def looks_like_ogid(text: str) -> bool:
    body = text.strip()
    return bool(_SHAPE.match(body[5:] if body.upper().startswith("OGID=") else body))


@dataclass(frozen=True, slots=True)
class OGID:
    """An OGID's fields. ``position.turn`` is the player to act next (the complement of
    field 5); ``cube_owner`` is 0 (White), 1 (Black) or None; ``dice`` is (0, 0) before the
    roll."""

    position: Position
    cube: int = 1
    cube_owner: int | None = None
    cube_action: str = "N"
    dice: tuple[int, int] = (0, 0)
    state: str = ""
    score: tuple[int, int] = (0, 0)
    length: int = 0
    crawford: bool = False
    post_crawford: bool = False
    move_id: int = 0

    def __str__(self) -> str:
        white, black = self.position.sides
        white_pips = "".join([_PIPS[BAR - point] * white[point] for point in range(BAR, 0, -1) if white[point]])
        black_pips = "".join([_PIPS[point] * black[point] for point in range(1, BAR + 1) if black[point]])
        owner = "N" if self.cube_owner is None else "WB"[self.cube_owner]
        cube = f"{owner}{self.cube.bit_length() - 1}{self.cube_action}"
        dice = f"{min(self.dice)}{max(self.dice)}" if self.dice != (0, 0) else ""
        reached = "WB"[1 - self.position.turn]
        length = str(self.length) + ("C" if self.crawford and self.length else "L" if self.post_crawford and self.length else "")
        fields = [white_pips, black_pips, cube, dice, reached, self.state, str(self.score[0]), str(self.score[1]), length,
                  str(self.move_id)]  # fmt: skip
        return ":".join(fields)

    @classmethod
    def parse(cls, text: str) -> OGID:
        """Raises ``ValueError`` with the reason for a malformed OGID."""
        body = text.strip()
        if body.upper().startswith("OGID="):
            body = body[5:]
        if not _SHAPE.match(body):
            raise ValueError(f"an OGID starts with White's and Black's checkers and the cube, like 11ccccchhhjjjjj:66666888dddddoo:N0N: {text[:60]!r}")
        fields = body.split(":")
        fields += [""] * (11 - len(fields))
        sides = [[0] * 26, [0] * 26]
        for player, pips in enumerate(fields[:2]):
            for char in pips:
                pip = _PIPS.index(char)
                point = BAR - pip if player == 0 else pip
                if player == 0 and pip == 25 or player == 1 and pip == 0:
                    raise ValueError(f"{'White' if player == 0 else 'Black'} cannot stand on point {pip} (the other's bar)")
                sides[player][point] += 1
        for side in sides:
            side[OFF] = CHECKERS - sum(side)
            if side[OFF] < 0:
                raise ValueError(f"more than {CHECKERS} checkers a side in {text[:60]!r}")
        cube_field = fields[2]
        exponent = int(cube_field[1:-1])
        if exponent > 15:
            raise ValueError(f"a cube of 2**{exponent}: beyond 32768")
        reached = fields[4].upper()
        turn = 0 if reached == "B" else 1 if reached == "W" else 0
        position = Position((tuple(sides[0]), tuple(sides[1])), turn)
        if not position.is_valid():
            raise ValueError(f"OGID position {body.split(':')[0]}:{body.split(':')[1]} has a point held by both sides")
        dice_field = fields[3]
        if dice_field and not re.fullmatch(r"[1-6][1-6]", dice_field):
            raise ValueError(f"OGID dice are two digits from 1 to 6, or nothing: {dice_field!r}")
        dice = (int(dice_field[0]), int(dice_field[1])) if dice_field else (0, 0)
        if fields[5] not in STATES:
            raise ValueError(f"an OGID's game state is one of {', '.join(s for s in STATES if s)} or nothing: {fields[5][:20]!r}")
        scores = []
        for field in fields[6:8]:
            if field and not re.fullmatch(r"[0-9]{1,5}", field) or field and int(field) > 32767:
                raise ValueError(f"an OGID score is a number from 0 to 32767: {field[:20]!r}")
            scores.append(int(field) if field else 0)
        length = 0
        crawford = post = False
        if fields[8]:
            found = _LENGTH.match(fields[8])
            if not found:
                raise ValueError(f"an OGID match length is a number with C, L or G after it: {fields[8]!r}")
            length, crawford, post = int(found.group(1)), found.group(2) == "C", found.group(2) == "L"
            if length > 32767:
                raise ValueError(f"an OGID match length is at most 32767: {fields[8][:20]!r}")
        move_id = int(fields[9]) if re.fullmatch(r"[0-9]{1,6}", fields[9]) else 0
        owner = {"W": 0, "B": 1}.get(cube_field[0])
        return cls(position, 1 << exponent, owner, cube_field[-1], dice, fields[5], (scores[0], scores[1]), length, crawford,
                   post, move_id)  # fmt: skip
