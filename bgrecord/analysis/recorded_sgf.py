"""GNU Backgammon's analysis in its SGF, as an engine's facts, read as gnubg itself reads it back
(its sgf.c): a move node's ``A[i][move E ver 3 p1 .. p5 equity plies ...]...`` lists the
candidate plays, best first, with their cubeful equities (EMG), ``i`` being the one played;
``LU[luck]`` is the roll's luck (EMG); ``DA[E ver 3 ... ND(7) DT(7)]`` is the cube decision
before the roll (or the double's, on a double node): the probabilities, cubeless and cubeful
equity of no double and of double/take, cubeful in match winning chances at a match score
(normalised here as gnubg normalises them, :mod:`bgrecord.analysis.met`). Numbers are read as
gnubg reads them (C floats), so that the totals are gnubg's own statistics of the file.

A rollout's numbers are read from its ``Score`` (a play) ; a cube decision rolled out is not read.
"""

from __future__ import annotations

from typing import Any

from bgrecord.analysis.engine import CubeEquities, EngineAction
from bgrecord.analysis.measures import f32
from bgrecord.analysis.recorded import Place
from bgrecord.formats.records import MatchRecord
from bgrecord.formats.sgf import point_of
from bgrecord.replay import Step


_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
_BOUND = 10.0  # an equity beyond this is not one


def _number(text: str) -> float:
    """A number of the analysis, as gnubg reads it (a C float); ValueError when it is none."""
    value = f32(float(text))
    if not abs(value) <= _BOUND:  # NaN fails too
        raise ValueError(text)
    return value


def _candidate(text: str, player: int) -> tuple[tuple[tuple[int, int], ...], float, str | None]:
    """One candidate of ``A``: its play, equity and level. ValueError when it does not read."""
    tokens = text.split()
    letters, kind = tokens[0], tokens[1]
    if len(letters) % 2 or len(letters) > 8 or not set(letters) <= _LETTERS:
        raise ValueError(letters)
    play = tuple((point_of(letters[i], player), point_of(letters[i + 1], player)) for i in range(0, len(letters), 2))
    if kind == "E":
        at = 4 if tokens[2] == "ver" else 2
        return play, _number(tokens[at + 5]), f"{int(tokens[at + 6].rstrip('C')[:3])}ply"
    if kind in ("R", "X"):
        return play, _number(tokens[tokens.index("Score") + 1]), "rollout"
    raise ValueError(kind)


def _cube(values: tuple[str, ...] | None, place: Place) -> tuple[CubeEquities, str | None] | None:
    """``DA``'s no double, double/take and double/pass, normalised (EMG), and their level."""
    if not values:
        return None
    try:
        tokens = values[0].split()
        if tokens[0] != "E":
            return None
        plies = tokens[3] if tokens[1] == "ver" else None
        numbers = [_number(token) for token in tokens[-14:]]
        level = f"{int(plies.rstrip('C')[:3])}ply" if plies else None
    except (ValueError, IndexError):
        return None
    if len(numbers) != 14 or not place.known:
        return None
    return CubeEquities(place.emg(numbers[6]), place.emg(numbers[13]), place.cash(), True), level


class SgfSource:
    counting = "gnubg"

    def engine(self, match: MatchRecord) -> tuple[str, str]:
        return "gnubg", str(match.analysis.get("version", ""))

    def play(self, raw: dict[str, Any] | None, step: Step, place: Place) -> EngineAction:
        action = EngineAction("move", place.player, dice=step.dice, cube_value=place.cube)
        if raw is None:
            return action
        cube = _cube(raw.get("DA"), place)
        if cube is not None:
            action.cube = cube[0]
        try:
            luck = _number(raw["LU"][0]) if raw.get("LU") else None
            found = raw.get("A") or ()
            candidates = [_candidate(text, place.player) for text in found[1:]]
            played = int(found[0]) if found else -1
        except (ValueError, IndexError):
            return action
        action.luck, action.luck_cost = luck, place.cost(luck)
        if candidates:
            action.candidates = len(candidates)
            action.best, action.best_equity, action.level = candidates[0]
            action.played_equity = candidates[played][1] if 0 <= played < len(candidates) else candidates[0][1]
        return action

    def double(self, raw: dict[str, Any] | None, place: Place) -> tuple[CubeEquities, str | None] | None:
        return _cube(raw.get("DA") if raw else None, place)
