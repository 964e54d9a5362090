"""What a report says, computed from the rows of analyze's tables (docs/analysis.md): each
match's figures (the players table's own), each game's (the decisions table's rows summed as
gnubg sums a game, so that the games of a match add up to its totals to the last bit), the
worst decisions of each player of a match, and each player over the archive.

The rows come in any order of tables and sources (:class:`Collector`); a match is known by its
key, and where it was analysed more than once, the deepest analysis is told, from the first
file it was found in (a copy of a match is one match). The collector holds each match's sums
and its few worst decisions, never a table's rows (a table file is read whole, as replay
--analysis reads it; a database a few thousand rows at a time). Rows no analyze writes (a
player but 0 or 1, a Match ID that is none) are passed over.

What it does not do: read tables or files (:mod:`bgrecord.report.sources` does), or say
anything (:mod:`bgrecord.report.page`, :mod:`bgrecord.report.text`).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Iterable

from bgrecord.analysis.measures import Judged, Sums, derived, per_decision, rating
from bgrecord.core.ids import MatchState

# what is kept of a decision told among the worst (the decisions table's columns)
KEPT = ("game_in_match", "move", "step", "player", "name", "kind", "dice", "play", "best", "equity", "best_equity",
        "error", "mark", "category", "cube", "position_id", "match_id")  # fmt: skip


@dataclass(slots=True)
class GameFigures:
    """One game of a match: its score before it (from its first decision's Match ID) and
    each player's sums (gnubg's arithmetic, in the decisions' order)."""

    game: int  # in its match, 1-based
    score: tuple[int, int] | None = None
    crawford: bool = False
    sums: tuple[Sums, Sums] = field(default_factory=lambda: (Sums(), Sums()))

    def figures(self, side: int) -> dict[str, Any]:
        """``side``'s figures over the game, named as the players table names them."""
        sums = self.sums[side]
        return {"moves": sums.moves, "decisions": sums.decisions, "checker_decisions": sums.checker_decisions,
                "cube_decisions": sums.cube_decisions, "error": sums.error, "luck": sums.luck,
                **derived(sums, self.sums[0].moves + self.sums[1].moves)}  # fmt: skip


class _MatchDecisions:
    """The decisions of one analysis of one match (one file's copy): each game's sums and
    each player's worst marked decisions (checker plays and cube decisions alike)."""

    def __init__(self, origin: tuple[str, int], worst: int) -> None:
        self.origin, self.worst = origin, worst
        self.games: dict[int, GameFigures] = {}
        self.length: int | None = None
        self.kept: tuple[list[tuple[float, int, dict[str, Any]]], ...] = ([], [])  # each player's worst: a heap
        self.seen = 0

    def add(self, row: dict[str, Any]) -> None:
        number = int(row["game_in_match"])
        game = self.games.get(number)
        if game is None:
            game = self.games[number] = GameFigures(number)
            state = _state(row.get("match_id"))
            if state is not None:
                game.score, game.crawford, self.length = state.score, state.crawford, state.length
        side = int(row["player"])
        error = float(row["error"] or 0.0)
        judged = Judged(error, bool(row["counted"]), row.get("category") or None, mark=row.get("mark") or None)
        sums = game.sums[side]
        if row["kind"] == "checker":
            sums.add_checker(judged)
            if row.get("luck") is not None:
                sums.add_luck(float(row["luck"]), float(row.get("luck_cost") or 0.0))
        else:
            sums.add_cube(judged)
        self.seen += 1
        if row.get("mark") and self.worst:
            heap = self.kept[side]
            entry = (error, -self.seen, {name: row.get(name) for name in KEPT})
            (heapq.heappush if len(heap) < self.worst else heapq.heappushpop)(heap, entry)

    def worst_of(self, side: int) -> list[dict[str, Any]]:
        """``side``'s worst decisions, the worst first (of two alike, the earlier)."""
        return [row for _, _, row in sorted(self.kept[side], reverse=True)]


def _state(match_id: Any) -> MatchState | None:
    if not match_id:
        return None
    try:
        return MatchState.from_id(str(match_id))
    except ValueError:  # a table changed by hand: the game is told without its score
        return None


@dataclass(slots=True)
class MatchFigures:
    """One match as the report tells it."""

    key: str
    plies: int
    file: str
    match: int  # in its file
    names: tuple[str, str]
    players: tuple[dict[str, Any], dict[str, Any]]  # the players table's rows, player 0 and 1
    length: int | None = None  # None where no table says
    date: str | None = None  # from the record, where it has one
    games: list[GameFigures] = field(default_factory=list)
    worst: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    skipped: int = 0  # games left out (errors, set-ups...), from the matches table
    order: int = 0  # where it was first found

    @property
    def engine(self) -> str:
        return str(self.players[0].get("engine") or "gnubg")


# the totals of a player over an archive: the players table's columns summed
SUMMED = ("games", "moves", "checker_decisions", "cube_decisions", "checker_error", "cube_error", "error", "luck",
          "doubtful", "bad", "very_bad")  # fmt: skip


class PlayerTotals:
    """One player (by name) over the matches of an archive: the players table's rows summed,
    and the rates of the sums (PR and error rate over every decision of every match, as
    eXtreme Gammon and gnubg rate a set of matches)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.matches = 0
        self.sums: dict[str, float] = dict.fromkeys(SUMMED, 0)

    def add(self, row: dict[str, Any]) -> None:
        self.matches += 1
        for column in SUMMED:
            self.sums[column] += row.get(column) or 0

    def figures(self) -> dict[str, Any]:
        sums = self.sums
        decisions = int(sums["checker_decisions"] + sums["cube_decisions"])
        error, moves = sums["error"], int(sums["moves"])
        return {
            "name": self.name, "matches": self.matches, **{column: sums[column] for column in SUMMED}, "decisions": decisions,
            "error_rate": 1000 * error / decisions if decisions else None, "pr": 500 * error / decisions if decisions else None,
            "luck_rate": 1000 * sums["luck"] / moves if moves else None, "rating": rating(per_decision(error, decisions)),
        }  # fmt: skip


class ArchivePlayers:
    """Each player (by name) of an archive, as players table rows come."""

    def __init__(self) -> None:
        self.totals: dict[str, PlayerTotals] = {}

    def add(self, row: dict[str, Any]) -> None:
        name = str(row.get("name") or "")
        self.totals.setdefault(name, PlayerTotals(name)).add(row)

    def figures(self) -> list[dict[str, Any]]:
        """Each player's :meth:`PlayerTotals.figures`: the most matches first, then the most
        decisions, then by name."""
        return sorted((player.figures() for player in self.totals.values()), key=lambda f: (-f["matches"], -f["decisions"], f["name"]))


@dataclass(slots=True)
class Report:
    """Everything a report says: the matches (by date where the records have one, else in the
    order found) and the players of the archive."""

    matches: list[MatchFigures]
    players: list[dict[str, Any]]  # :meth:`PlayerTotals.figures`, each with ``played``: [(match, side)]
    without_players: int = 0  # matches of the decisions table with no players rows: not told
    worst: int = 3  # the worst decisions told of each player of a match (0: none, and no such part)


class Collector:
    """Rows of the three tables, from any number of sources, into a :class:`Report`."""

    def __init__(self, worst: int = 3) -> None:
        self.worst = worst
        self.decisions: dict[tuple[str, int], _MatchDecisions] = {}
        self.players: dict[tuple[str, int], tuple[tuple[str, int], dict[int, dict[str, Any]]]] = {}
        self.matches: dict[tuple[str, int], dict[str, Any]] = {}
        self.dates: dict[str, str] = {}
        self.order: dict[str, int] = {}

    def _place(self, row: dict[str, Any]) -> tuple[tuple[str, int], tuple[str, int]] | None:
        """(the match's key and plies, the copy's file and number), None for a row of no match."""
        key = row.get("match_key")
        if key is None or row.get("plies") is None:
            return None
        self.order.setdefault(str(key), len(self.order))
        return (str(key), int(row["plies"])), (str(row.get("file") or ""), int(row.get("match") or 0))

    def add_decisions(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            place = self._place(row)
            if place is None or row.get("game_in_match") is None or row.get("player") not in (0, 1):
                continue
            found = self.decisions.get(place[0])
            if found is None:
                found = self.decisions[place[0]] = _MatchDecisions(place[1], self.worst)
            if found.origin == place[1]:  # a copy of the match found again is the same match
                found.add(row)

    def add_players(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            place = self._place(row)
            if place is None or row.get("player") not in (0, 1):
                continue
            origin, sides = self.players.setdefault(place[0], (place[1], {}))
            if origin == place[1]:
                sides[int(row["player"])] = row

    def add_matches(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            place = self._place(row)
            if place is not None:
                self.matches.setdefault(place[0], row)

    def add_dates(self, dates: dict[str, str]) -> None:
        """Dates of matches by key (from their records); the first found stands."""
        for key, date in dates.items():
            self.dates.setdefault(key, date)

    def known(self, plies: int) -> frozenset[str]:
        """The keys of the matches analysed at ``plies`` or deeper, players and decisions alike."""
        return frozenset(key for key, depth in self.players if depth >= plies and (key, depth) in self.decisions)

    def report(self) -> Report:
        deepest: dict[str, int] = {}
        for key, plies in self.players:
            if len(self.players[key, plies][1]) == 2:
                deepest[key] = max(deepest.get(key, plies), plies)
        matches = [self._match(key, plies) for key, plies in deepest.items()]
        matches.sort(key=lambda m: (m.date is None, m.date or "", m.order))
        archive = ArchivePlayers()
        played: dict[str, list[tuple[MatchFigures, int]]] = {}
        for match in matches:
            for side in (0, 1):
                archive.add(match.players[side])
                played.setdefault(str(match.players[side].get("name") or ""), []).append((match, side))
        players = archive.figures()
        for player in players:
            player["played"] = played[player["name"]]
        told = set(deepest)
        without = len({key for key, _ in self.decisions if key not in told})
        return Report(matches, players, without, self.worst)

    def _match(self, key: str, plies: int) -> MatchFigures:
        (file, number), sides = self.players[key, plies]
        rows = (sides[0], sides[1])
        names = (str(rows[0].get("name") or ""), str(rows[1].get("name") or ""))
        found = MatchFigures(key, plies, file, number, names, rows, date=self.dates.get(key), order=self.order[key])
        decisions = self.decisions.get((key, plies))
        if decisions is not None:
            found.games = [decisions.games[game] for game in sorted(decisions.games)]
            found.worst = (decisions.worst_of(0), decisions.worst_of(1))
            found.length = decisions.length
        row = self.matches.get((key, plies))
        if row is not None:
            found.length = row.get("match_length") if row.get("match_length") is not None else found.length
            found.skipped = int(row.get("games_skipped") or 0)
        return found
