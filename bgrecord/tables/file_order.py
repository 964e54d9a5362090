"""An index's games in file order, without a sort: the runs of game numbers whose games come
in file order (by the file's name, its number, the match and the game), recorded by every
``index`` run among the index's keys (:mod:`bgrecord.tables.index_keys`; ``game_order``: the
first game of each run after the first, comma-separated, each run holding the games from its
first to the next's; ``many`` past :data:`RUNS_AT_MOST`). A run finds its own games' runs
as it writes them (:class:`Runs`). A new index of files named in order is one run; each
later run that adds files whose names sort before those indexed adds another. A search
(:mod:`bgrecord.tables.search`) reads each run's rows of a position in the positions table's
own order (position, game, step: streamed from its first row, whatever the number of
occurrences) and merges the runs.

What it does not do: follow a change another program makes to the files or games tables
after the run (their rows are found in the order they had when indexed); nor record more
than :data:`RUNS_AT_MOST` runs (a search then sorts its occurrences, as an index that
records none, of an older bgrecord, is searched; the runs are found again only by a new
index).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from bgrecord.tables.database import Database
from bgrecord.tables.index_keys import keys, write_keys

GAME_ORDER = "game_order"  # the key of the runs among the index's keys
RUNS_AT_MOST = 16  # runs recorded at most: a search merges that many streams of rows, each with its cursor
_NO_NUMBER = -(1 << 62)  # a NULL number sorts first (as in the search's SQL)
_NUMBER = re.compile(r"-?\d{1,18}")
_MANY = "many"  # more runs than recorded: searches sort
_GAMES = "SELECT g.game_id, f.file, f.file_id, g.match, g.game FROM game_rows g JOIN files f ON f.file_id = g.file_id"


def file_order(file: Any, file_id: Any, match: Any, game: Any, step: Any) -> tuple[str, int, int, int, int]:
    """A row's place in file order (a NULL, or a value of another type, that another program
    wrote sorts first: never a failure to compare)."""
    numbers = (number if isinstance(number, int) else _NO_NUMBER for number in (file_id, match, game, step))
    return (file if isinstance(file, str) else "", *numbers)  # type: ignore[return-value]


def runs_in_file_order(database: Database) -> list[int] | None:
    """Where the runs of the index's game numbers in file order begin (the first game of each
    run after the first), or None when there are more than :data:`RUNS_AT_MOST` runs: one
    pass over the games in the order of their numbers (a game taken out leaves a run in order)."""
    found = Runs()
    for row in database.tuples(f"{_GAMES} ORDER BY g.game_id"):
        found.add(*row)
    return found.starts([], None)


class Runs:
    """The runs of the games a run writes, found as it writes them (:meth:`add`, in the order
    of their numbers), so that no pass over the games table is made after (at a million games,
    that pass's join and sort were the run's largest use of memory). Where the first of them
    stands against the games before is known only at the end (:func:`record`: games may be
    taken out meanwhile). :meth:`mark` and :meth:`back` forget the games added since a point,
    as a run takes out the rows of files that failed to go in."""

    def __init__(self) -> None:
        self.first: tuple[int, tuple[str, int, int, int, int]] | None = None  # the first game: its number, its place in file order
        self.before: tuple[str, int, int, int, int] | None = None  # the last game's place
        self.found: list[int] | None = []  # the games that begin a run, after the first; None: too many
        self.marked: tuple[Any, ...] = (None, None, [])

    def add(self, game_id: int, file: Any, file_id: Any, match: Any, game: Any) -> None:
        """The next game (a row of :data:`_GAMES`)."""
        here = file_order(file, file_id, match, game, 0)
        if self.before is None:
            self.first = (game_id, here)
        elif self.found is not None and here < self.before:
            self.found = [*self.found, game_id] if len(self.found) < RUNS_AT_MOST else None
        self.before = here

    def mark(self) -> None:
        self.marked = (self.first, self.before, self.found)

    def back(self) -> None:
        self.first, self.before, self.found = self.marked

    def starts(self, earlier: Sequence[int], before: tuple[str, int, int, int, int] | None) -> list[int] | None:
        """The starts of every run: those of the games before (``earlier``; the last of those
        games at ``before`` in file order) and these games'; None past :data:`RUNS_AT_MOST`."""
        if self.found is None:
            return None
        begins = [self.first[0]] if before is not None and self.first is not None and self.first[1] < before else []
        found = [*earlier, *begins, *self.found]
        return found if len(found) < RUNS_AT_MOST else None


def _game_order(row: tuple[Any, ...]) -> tuple[str, int, int, int, int]:
    """A row of :data:`_GAMES` (game number, file, file number, match, game)'s place in file order."""
    return file_order(row[1], row[2], row[3], row[4], 0)


def record(database: Database, first_new: int, written: Runs) -> None:
    """The runs recorded after a run whose games are numbered from ``first_new`` on (their runs
    ``written``, as the run wrote them): the runs recorded before it, and those of its games
    (the index's games all read again where none were recorded and it held games before);
    past :data:`RUNS_AT_MOST`, ``many`` (not read again: a search sorts)."""
    held = keys(database) or {}
    value = held.get(GAME_ORDER)
    if value == _MANY:
        return
    starts = _starts(value) if value is not None else None
    # the last game before found alone, then joined to its file: sorted after the join, every file's name was held
    # in memory (some 50 MB at a million games, a run that adds to the index)
    last = database.query(f"{_GAMES} WHERE g.game_id = (SELECT max(game_id) FROM game_rows WHERE game_id < ?)", [first_new])
    if starts is None and last:
        runs = runs_in_file_order(database)
    else:
        runs = written.starts(starts or [], _game_order(last[0]) if last else None)
    write_keys(database, {**held, GAME_ORDER: _MANY if runs is None else ",".join(map(str, runs))})


def _value(database: Database) -> str | None:
    return (keys(database) or {}).get(GAME_ORDER)


def _starts(value: str) -> list[int] | None:
    """The runs' starts as :func:`record` writes them; None for anything else."""
    parts = value.split(",") if value else []
    if len(parts) >= RUNS_AT_MOST or not all(_NUMBER.fullmatch(part) for part in parts):
        return None
    starts = [int(part) for part in parts]
    return starts if starts == sorted(set(starts)) else None


def recorded(database: Database) -> list[tuple[int | None, int | None]] | None:
    """The runs an index recorded, each the game numbers it holds (from, and up to but not
    including; None: no bound); None when it recorded none, too many, or what is there is not
    what :func:`record` writes (another program's text)."""
    value = _value(database)
    starts = _starts(value) if value is not None else None
    if starts is None:
        return None
    bounds: list[int | None] = [None, *starts, None]
    return list(zip(bounds[:-1], bounds[1:]))
