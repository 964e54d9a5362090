"""Summing games rows up into the players, matches and dice tables (:class:`Tables`), one row at a
time as they come: an archive is summed in the memory of its players (a few hundred bytes each)
and of the matches not yet ended; and the tables' columns. It reads the rows of the games table
(:data:`SUMMED_COLUMNS`) and does not check them: a value another program wrote there is summed
as it reads (a dice word that is not a roll is left out).
"""

from __future__ import annotations

from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from bgrecord.extras import require
from bgrecord.names import NO_ALIASES, People, unnamed

if TYPE_CHECKING:
    import pandas as pd

ROLLS = [f"{high}{low}" for high in range(1, 7) for low in range(1, high + 1)]


def frame(rows: Iterable[dict[str, Any]], columns: dict[str, str]) -> pd.DataFrame:
    """Rows to a DataFrame with the documented columns and types."""
    import pandas as pd

    data = pd.DataFrame(list(rows), columns=list(columns))
    return data.astype(columns)


_PLAYER_SUMS = ["games", "invalid_games", "wins", "points_won", "points_lost", "gammons_won", "backgammons_won",
                "gammons_lost", "backgammons_lost", "doubles", "takes", "drops", "beavers", "cube_total", "dances",
                "hits", "doubles_rolled"]  # fmt: skip

PLAYER_COLUMNS: dict[str, str] = {
    "player": "string", **{name: "Int64" for name in _PLAYER_SUMS if name != "cube_total"}, "win_rate": "Float64",
    "gammon_rate": "Float64", "gammon_loss_rate": "Float64", "take_rate": "Float64", "drop_rate": "Float64",
    "average_cube": "Float64",
}  # fmt: skip

MATCH_COLUMNS: dict[str, str] = {
    "file": "string", "match_key": "string", "duplicate_of": "string", "match": "Int64", "player0": "string", "player1": "string",
    "match_length": "Int64", "final_score0": "Int64", "final_score1": "Int64", "winner": "string", "games": "Int64",
    "crawford_game": "Int64", "valid": "boolean",
}  # fmt: skip

DICE_COLUMNS: dict[str, str] = {
    "player": "string", "rolls": "Int64", **{f"face{face}": "Int64" for face in range(1, 7)},
    **{f"roll{roll}": "Int64" for roll in ROLLS}, "doubles": "Int64", "doubles_rate": "Float64",
    "chi2_faces": "Float64", "p_faces": "Float64", "chi2_doubles": "Float64", "p_doubles": "Float64",
}  # fmt: skip


_COUNTED = ("doubles", "takes", "drops", "beavers", "dances", "hits", "doubles_rolled")  # a player's counts in a games row
SUMMED_COLUMNS = ("file", "match", "game", "match_key", "duplicate_of", "match_length", "player0", "player1", "score0", "score1", "crawford",
                  "winner", "points", "result", "cube", "valid", "dice0", "dice1", *(f"{name}{side}" for name in _COUNTED for side in (0, 1)))  # fmt: skip
"""The games table's columns :class:`Tables` reads."""
_SUMMED = (*_PLAYER_SUMS, "decided")  # a person's sums, in its list
_SUM_AT = {name: at for at, name in enumerate(_SUMMED)}
_GAMES, _INVALID, _WINS, _DECIDED, _CUBE_TOTAL = (_SUM_AT[name] for name in ("games", "invalid_games", "wins", "decided", "cube_total"))
_POINTS_WON, _POINTS_LOST = _SUM_AT["points_won"], _SUM_AT["points_lost"]
_SIDE_COLUMNS = tuple((f"player{side}", f"dice{side}", tuple((_SUM_AT[name], f"{name}{side}") for name in _COUNTED)) for side in (0, 1))
_ROLL_AT = {roll: at for at, roll in enumerate(ROLLS)}
_ROLL_FACES = [(int(roll[0]), int(roll[1])) for roll in ROLLS]
_DOUBLES_AT = [at for at, roll in enumerate(ROLLS) if roll[0] == roll[1]]
_FACE_COLUMNS = [f"face{face}" for face in range(1, 7)]
_ROLL_COLUMNS = [f"roll{roll}" for roll in ROLLS]


@dataclass
class Tables:
    """Sums games rows up, one at a time, into the player, match and dice tables. A player is
    a person (:mod:`bgrecord.names`): a name however a record writes it (NFC, invisible
    characters left out), and the names ``names`` makes one person (an aliases table)."""

    names: People = NO_ALIASES
    # a person's sums, by _SUMMED, and rolls, by ROLLS ("": everybody's): 64-bit integers in place (an archive's players
    # in memory; in a list, each count past 256 was an object of its own: some 4 MB more at a million games)
    people: dict[str, array[int]] = field(default_factory=dict)
    rolls: dict[str, array[int]] = field(default_factory=dict)
    match_rows: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    cubes: Counter[int] = field(default_factory=Counter)  # games by final cube value
    persons: dict[str, str] = field(default_factory=dict)  # each name met, as its person (names recur game after game)
    keep_matches: bool = True  # False: no matches table asked for (a row a match held to the end: an archive's memory)

    def add(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self.add_row(row)

    def person(self, name: str | None, side: int) -> str:
        """The person a games row's name is (:mod:`bgrecord.names`)."""
        found = self.persons.get(name or "")
        if found is None:
            found = self.persons[name or ""] = self.names.of(name or "")
        return found or unnamed(side)

    def add_row(self, row: dict[str, Any]) -> None:
        winner, result, cube = row["winner"], row["result"], row["cube"] or 1
        self.cubes[cube] += 1
        for side, (player, dice, counted) in enumerate(_SIDE_COLUMNS):
            name = self.person(row[player], side)
            person = _sums(self.people, name, len(_SUMMED))
            person[_GAMES] += 1
            person[_INVALID] += not row["valid"]
            for at, column in counted:
                person[at] += row[column] or 0
            person[_CUBE_TOTAL] += cube
            if winner is not None:
                won = winner == side
                person[_DECIDED] += 1
                person[_WINS] += won
                person[_POINTS_WON if won else _POINTS_LOST] += row["points"] or 0
                if result in ("gammon", "backgammon"):
                    person[_SUM_AT[f"{result}s_{'won' if won else 'lost'}"]] += 1
            rolls = [_ROLL_AT[roll] for roll in (row[dice] or "").split() if roll in _ROLL_AT]  # another program's text: what is a roll
            if rolls:  # a player who never rolled has no row in the dice table
                for counts in (_sums(self.rolls, name, len(ROLLS)), _sums(self.rolls, "", len(ROLLS))):
                    for at in rolls:
                        counts[at] += 1
        if self.keep_matches:
            self._match(row)

    def _match(self, row: dict[str, Any]) -> None:
        key = (row["file"], row["match"])
        match = self.match_rows.setdefault(key, {
            "file": row["file"], "match_key": row["match_key"], "duplicate_of": row["duplicate_of"], "match": row["match"], "player0": row["player0"],
            "player1": row["player1"], "match_length": row["match_length"], "games": 0, "crawford_game": None,
            "valid": True, "scores": [0, 0],
        })  # fmt: skip
        match["games"] += 1
        match["valid"] = match["valid"] and bool(row["valid"])
        if row["crawford"] and match["crawford_game"] is None:
            match["crawford_game"] = row["game"]
        scores = [row["score0"] or 0, row["score1"] or 0]
        if row["winner"] is not None and row["points"] is not None:
            scores[row["winner"]] += row["points"]
        # the first game's players, in the columns of this one: swapped where its names are the
        # first game's the other way round, else the same (a name spelt otherwise is still its column's)
        first, here = [self.person(match[f"player{side}"], side) for side in (0, 1)], [self.person(row[f"player{side}"], side) for side in (0, 1)]
        match["scores"] = scores[::-1] if first != here and first == here[::-1] else scores

    def players(self) -> pd.DataFrame:
        return frame(self.player_rows(), PLAYER_COLUMNS)

    def player_rows(self) -> Iterator[dict[str, Any]]:
        """The players table's rows, by name, made as they are read (an archive's players: a
        row a player held at once would be tens of MB)."""
        for name in sorted(self.people):
            p = dict(zip(_SUMMED, self.people[name]))
            lost = p["decided"] - p["wins"]
            answered = p["takes"] + p["drops"]
            yield {
                "player": name, **{k: p[k] for k in _PLAYER_SUMS if k != "cube_total"},
                "win_rate": p["wins"] / p["games"] if p["games"] else None,
                "gammon_rate": (p["gammons_won"] + p["backgammons_won"]) / p["wins"] if p["wins"] else None,
                "gammon_loss_rate": (p["gammons_lost"] + p["backgammons_lost"]) / lost if lost else None,
                "take_rate": p["takes"] / answered if answered else None,
                "drop_rate": p["drops"] / answered if answered else None,
                "average_cube": p["cube_total"] / p["games"] if p["games"] else None,
            }  # fmt: skip

    def matches(self) -> pd.DataFrame:
        return frame(self.match_table_rows(), MATCH_COLUMNS)

    def match_table_rows(self) -> list[dict[str, Any]]:
        """The matches table's rows, by file and match."""
        rows = []
        for key in sorted(self.match_rows):
            match = dict(self.match_rows[key])
            scores = match.pop("scores")
            match["final_score0"], match["final_score1"] = scores
            length = match["match_length"]
            won = next((side for side in (0, 1) if length and scores[side] >= length), None)
            match["winner"] = None if won is None else self.person(match[f"player{won}"], won)
            rows.append(match)
        return rows

    def dice(self, tests: bool = True) -> pd.DataFrame:
        """The dice table; ``tests``: with its chi-square tests (scipy: ``bgrecord[dice]``),
        else those four columns are empty."""
        return frame(self.dice_rows(tests), DICE_COLUMNS)

    def dice_rows(self, tests: bool = True) -> Iterator[dict[str, Any]]:
        """The dice table's rows, each player's then all players' (``tests`` as :meth:`dice`),
        made as they are read."""
        chisquare = require("scipy.stats").chisquare if tests else None
        for name in sorted(self.rolls, key=lambda n: (n == "", n)):
            counts = self.rolls[name]
            total = sum(counts)
            faces = [0] * 7
            for (high, low), n in zip(_ROLL_FACES, counts):
                faces[high] += n
                faces[low] += n
            doubles = sum(counts[at] for at in _DOUBLES_AT)
            row: dict[str, Any] = {"player": name or "all", "rolls": total, "doubles": doubles}
            del faces[0]  # no face 0: the list is indexed by face only to count them
            row.update(zip(_FACE_COLUMNS, faces))
            row.update(zip(_ROLL_COLUMNS, counts))
            row["doubles_rate"] = doubles / total if total else None
            if total and chisquare is not None:
                face_test = chisquare(faces)
                double_test = chisquare([doubles, total - doubles], [total / 6, total * 5 / 6])
                row.update(chi2_faces=float(face_test.statistic), p_faces=float(face_test.pvalue),
                           chi2_doubles=float(double_test.statistic), p_doubles=float(double_test.pvalue))
            yield row


def _sums(table: dict[str, array[int]], name: str, size: int) -> array[int]:
    """``name``'s sums in ``table``, zeros when first met."""
    found = table.get(name)
    if found is None:
        found = table[name] = array("q", bytes(8 * size))
    return found
