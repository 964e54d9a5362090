"""Finding a position in an index (``bgrecord find``): every occurrence, streamed in file order
from one lookup on the position's hash (:mod:`bgrecord.tables.positions`), with what was done
from it and, where the index holds an analysis, the error made there; and an index opened to
be searched (:func:`searched`). The positions table read back whole is
:mod:`bgrecord.tables.read_back`.

A search may also ask for the identifier's dice, cube or score, a play (written in any order
of its moves, with or without its hit marks) and the player who acted. An index without
positions, of another schema, or whose rows another program changed, is said so; a value
another program made NULL reads as unknown, never as a failure.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from bgrecord.core.ids import MatchState, identify
from bgrecord.core.moves import Dice
from bgrecord.core.position import Position
from bgrecord.tables.database import SCHEMA_VERSION, Database, divided
from bgrecord.tables.opening import Opening
from bgrecord.tables.file_order import file_order, recorded
from bgrecord.tables.identifiers import Identifiers, dice_text, match_state
from bgrecord.tables.index_keys import schema_of
from bgrecord.tables.positions import ACTS, ANSWERS, DICE, KIND_CODES, cube_code, hash_of, occurrence, play_code
from bgrecord.tables.storage import engine_failure, is_engine_error

FOUND_COLUMNS = ("file", "line", "unit", "match", "game", "move", "action", "player", "player0", "player1", "dice", "play",
                 "position_id", "match_id", "xgid", "cube", "cube_owner", "score0", "score1", "match_length", "step")  # fmt: skip
_ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
_MOVE = r"(?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+(?:\(\d\))?"
_PLAY = re.compile(rf"(?i){_MOVE}(?:\s+{_MOVE})*")  # of the stripped text: no run of blanks tried at each start
_ANSWER_CODES = sorted(KIND_CODES[kind] for kind in ANSWERS)
OCCURRENCES_FROM = "FROM positions p JOIN game_rows g ON g.game_id = p.game JOIN files f ON f.file_id = g.file_id"
_ON_GAMES = re.compile(r"\b[gf]\.")  # a condition on a game's or a file's column (Wanted.where's aliases)
OCCURRENCE_COLUMNS = ("f.file, f.unit, g.line, g.match, g.game, g.player0, g.player1, g.score0, g.score1, g.match_length, g.crawford, g.jacoby, "
            "g.match_key, g.game_in_match, p.step, p.place, p.act, p.play")  # fmt: skip


@dataclass(slots=True)
class Wanted:
    """What to look for: a position (its gnubg Position ID, from the side of the player to
    act), and optionally the dice, the cube and the score of the identifier it came from, a
    play made from it (its codes: :func:`~bgrecord.tables.positions.play_code`) and the
    player who acted."""

    position_id: str
    state: MatchState | None
    dice: bool = False
    cube: bool = False
    score: bool = False
    plays: frozenset[int] | None = None
    player: str | None = None
    position: Position = field(default_factory=Position.start)

    @classmethod
    def of(cls, identifier: str, dice: bool = False, cube: bool = False, score: bool = False, play: str | None = None,
           player: str | None = None) -> Wanted:  # fmt: skip
        """From a Position ID, ``PositionID:MatchID``, an XGID or an OGID. Raises ``ValueError``."""
        position, state = identify(identifier)
        if state is None and (dice or cube or score):
            raise ValueError("a bare Position ID says nothing of the dice, cube or score: give a gnubg ID, an XGID or an OGID")
        if dice and state is not None and state.dice == (0, 0):
            raise ValueError("the identifier has no dice rolled")
        rolled = state.dice if dice and state is not None else None
        plays = None if play is None else _play_codes(position, play, rolled)
        return cls(position.id(), state, dice, cube, score, plays, player, position)

    @property
    def key(self) -> int:
        return hash_of(self.position)

    def position_where(self, buckets: int | None = None, table: str = "p.") -> tuple[list[str], list[Any]]:
        """The SQL conditions on the positions table (its columns prefixed ``table``) that
        find the position alone, and their values (with ``buckets``, a dataset's bucket too)."""
        clauses, values = [f"{table}position = ?"], [self.key]
        if buckets:
            clauses.append(f"{table}bucket = ?")
            values.append(self.key & (buckets - 1))
        return clauses, values

    def where(self, engine: str, buckets: int | None = None) -> tuple[str, list[Any]]:
        """The SQL condition on the positions (``p``) and games (``g``) rows, and its values
        (with ``buckets``, those of a dataset: the bucket to read)."""
        clauses, values = self.position_where(buckets)
        state = self.state
        act = f"(p.act % {ACTS})"
        kind = divided(engine, act, 2 * DICE)
        if state is not None and self.dice:
            first, second = state.dice
            clauses.append(f"{divided(engine, act, 2)} % {DICE} IN (?, ?)")
            values += [(first - 1) * 6 + second, (second - 1) * 6 + first]
        if state is not None and self.cube:
            clauses.append(f"{divided(engine, 'p.act', ACTS)} = ?")
            values.append(cube_code(state.cube, state.cube_owner))
        if state is not None and self.score:
            clauses.append("g.score0 = ? AND g.score1 = ? AND g.match_length = ?")
            values += [state.score[0], state.score[1], state.length]
        if self.plays is not None:
            clauses.append(f"{kind} = 0 AND p.play IN ({', '.join('?' * len(self.plays)) or 'NULL'})")
            values += sorted(self.plays)
        if self.player is not None:
            actor = f"CASE WHEN {kind} BETWEEN {_ANSWER_CODES[0]} AND {_ANSWER_CODES[-1]} THEN 1 - p.act % 2 ELSE p.act % 2 END"
            clauses.append(f"CASE {actor} WHEN 0 THEN g.player0 ELSE g.player1 END = ?")
            values.append(self.player)
        return " AND ".join(clauses), values


def _play_codes(position: Position, text: str, rolled: tuple[int, int] | None) -> frozenset[int]:
    """The codes a play written ``text`` has from ``position`` with some roll (``rolled`` if
    given): its moves in any order, hit marks or not. ``ValueError`` when no roll allows it."""
    from bgrecord.formats.mat_grammar import moves_of
    from bgrecord.replay.resolve import resolve

    if not _PLAY.fullmatch(text.strip()):
        raise ValueError(f"{text!r} is not a play (write it as 24/18 13/11, bar/22*, 6/off)")
    moves = moves_of(text.strip().lower())
    codes = set()
    for dice in [rolled] if rolled else _ROLLS:
        try:
            legal = resolve(position, Dice(*dice), moves).play
        except (ValueError, IndexError):
            legal = None
        if legal is not None:
            codes.add(play_code(legal, dice))
    if not codes:
        raise ValueError(f"{text!r} is no legal play from this position" + (f" with {rolled[0]}{rolled[1]}" if rolled else ""))
    return frozenset(codes)


def find(path: str | Path, wanted: Wanted, limit: int | None = None, analysis: bool = True, identifiers: bool = True) -> Iterator[dict[str, Any]]:
    """Every occurrence of the position in the index at ``path`` (:func:`find_in`)."""
    with searched(path) as database:
        yield from find_in(database, wanted, limit, analysis, identifiers)


def find_in(database: Database, wanted: Wanted, limit: int | None = None, analysis: bool = True,
            identifiers: bool = True) -> Iterator[dict[str, Any]]:  # fmt: skip
    """Every occurrence of the position in an index opened by :func:`searched`, in file order,
    as it is read: where (file, line and what it counts, match, game, move), what was done
    from it; with ``identifiers``, its Match ID and XGID (``match_id``, ``xgid``: left out
    without, as by find's text, which shows neither); and with ``analysis``, the decisions
    analysed there (``analysis``, a list, where the index holds an analysis; empty where none
    was made there)."""
    made = Identifiers(wanted.position_id) if identifiers else None
    judged = _Analyses(database) if analysis else None
    for row in _occurrence_rows(database, wanted, limit):
        found = _found(row, wanted.position_id, made)
        if judged is not None and judged.present:
            found["analysis"] = judged.at(row[12], row[13], row[14])
        yield found


PAGE = 100_000  # DuckDB: occurrences sorted by one query (it holds a sorted result whole, in its bounded memory: some 20 MB a page)
_KEYS = ("COALESCE(f.file, '')", *(f"COALESCE({key}, {-(1 << 62)})" for key in ("f.file_id", "g.match", "g.game", "p.step")))
"""File order, an occurrence's key (a NULL another program wrote sorts first, in both engines)."""


def _occurrence_rows(database: Database, wanted: Wanted, limit: int | None) -> Iterator[tuple[Any, ...]]:
    """The rows of the occurrences (:data:`OCCURRENCE_COLUMNS`), in file order: each run of games the
    index recorded in file order (:mod:`bgrecord.tables.file_order`) read in the positions
    table's order, and the runs merged, so that the first rows come at once however many
    follow; in an index that recorded none, sorted (:func:`_sorted_rows`)."""
    condition, values = wanted.where(database.engine, database.buckets)
    runs = recorded(database)
    if runs is None:
        yield from _sorted_rows(database, wanted, condition, values, limit)
        return
    streams = [_run_rows(database.beside() if at else database, condition, values, run, limit) for at, run in enumerate(runs)]
    if len(streams) == 1:
        merged: Iterator[tuple[Any, ...]] = streams[0]
    else:
        merged = heapq.merge(*streams, key=lambda row: file_order(row[0], row[-1], row[3], row[4], row[14]))
    for row in itertools.islice(merged, limit):
        yield row[:-2]


def _run_rows(database: Database, condition: str, values: list[Any], run: tuple[int | None, int | None], limit: int | None) -> Iterator[tuple[Any, ...]]:
    """The occurrences in a run of games (from its first game, up to the next run's), by game
    and step, each row with its game's and its file's numbers last. SQLite reads them in its
    index's order (no sort); DuckDB sorts them a page at a time (:data:`PAGE`, each the rows
    after the last)."""
    first, after_last = run
    bounds = (" AND p.game >= ?" if first is not None else "") + (" AND p.game < ?" if after_last is not None else "")
    values = values + [bound for bound in run if bound is not None]
    sql = f"SELECT {OCCURRENCE_COLUMNS}, p.game, f.file_id {OCCURRENCES_FROM} WHERE {condition}{bounds}"
    if database.engine != "duckdb":
        yield from database.tuples(f"{sql} ORDER BY p.game, p.step" + (f" LIMIT {int(limit)}" if limit else ""), values)
        return
    page = min(PAGE, limit or PAGE)
    if not _ON_GAMES.search(condition):
        yield from _position_pages(database, f"{condition}{bounds}", values, page)
        return
    since: list[Any] = []
    while True:
        after = " AND (p.game, p.step) > (?, ?)" if since else ""
        # the page's last key found first, on the keys alone: the rows' query then joins a page's games, not all of them
        last = database.query(f"SELECT p.game, p.step {OCCURRENCES_FROM} WHERE {condition}{bounds}{after} ORDER BY p.game, p.step LIMIT 1 OFFSET {page - 1}",
                              values + since)  # fmt: skip
        until = " AND (p.game, p.step) <= (?, ?)" if last else ""
        for row in database.tuples(f"{sql}{after}{until} ORDER BY p.game, p.step", values + since + (list(last[0]) if last else [])):
            yield row
        if not last:
            return
        since = list(last[0])


def _position_pages(database: Database, condition: str, values: list[Any], page: int) -> Iterator[tuple[Any, ...]]:
    """:func:`_run_rows` in DuckDB of a condition on the positions alone, one query a page: the
    page's positions found first, then joined to their games and files (a row whose game or
    file another program took out still counts in its page, and is left out)."""
    since: list[Any] = []
    while True:
        after = " AND (p.game, p.step) > (?, ?)" if since else ""
        sql = (f"SELECT {OCCURRENCE_COLUMNS}, p.game, f.file_id FROM (SELECT * FROM positions p WHERE {condition}{after} "
               f"ORDER BY p.game, p.step LIMIT {page}) p LEFT JOIN game_rows g ON g.game_id = p.game LEFT JOIN files f "
               "ON f.file_id = g.file_id ORDER BY p.game, p.step")  # fmt: skip
        count, last = 0, None
        for last in database.tuples(sql, values + since):
            count += 1
            if last[-1] is not None:
                yield last
        if count < page or last is None:
            return
        since = [last[-2], last[14]]  # its game and step


def _sorted_rows(database: Database, wanted: Wanted, condition: str, values: list[Any], limit: int | None) -> Iterator[tuple[Any, ...]]:
    """The occurrences sorted in file order. SQLite sorts them in one query, on disk past its
    cache. DuckDB holds a sorted result whole in its memory, which is bounded: a position of
    more than :data:`PAGE` occurrences (the opening's, a million times in a million games) is
    sorted a page at a time, each the occurrences after the last (its bounds found first,
    sorting their keys alone)."""
    keys, marks = ", ".join(_KEYS), ", ".join("?" * len(_KEYS))
    if database.engine != "duckdb" or not _more_than(database, wanted, PAGE):
        bound = f" LIMIT {int(limit)}" if limit else ""
        yield from database.tuples(f"SELECT {OCCURRENCE_COLUMNS} {OCCURRENCES_FROM} WHERE {condition} ORDER BY {keys}{bound}", values)
        return
    after: list[Any] = []
    left = limit or -1  # -1: no limit
    while left:
        since = f" AND ({keys}) > ({marks})" if after else ""  # strictly after: each page moves on
        page = PAGE if left < 0 else min(PAGE, left)
        last = database.query(f"SELECT {keys} {OCCURRENCES_FROM} WHERE {condition}{since} ORDER BY {keys} LIMIT 1 OFFSET {page - 1}", values + after)
        until = f" AND ({keys}) <= ({marks})" if last else ""
        for row in database.tuples(f"SELECT {OCCURRENCE_COLUMNS} {OCCURRENCES_FROM} WHERE {condition}{since}{until} ORDER BY {keys}",
                                   values + after + (list(last[0]) if last else [])):  # fmt: skip
            yield row
            left -= 1
            if not left:
                return
        if not last:
            return
        after = list(last[0])


def _more_than(database: Database, wanted: Wanted, count: int) -> bool:
    """Whether the position has more than ``count`` rows (counted up to one more, on the
    positions alone: what else is asked only finds fewer)."""
    clauses, values = wanted.position_where(database.buckets, table="")
    return bool(database.query(f"SELECT count(*) FROM (SELECT 1 FROM positions WHERE {' AND '.join(clauses)} LIMIT {count + 1})", values)[0][0] > count)


def count_in(database: Database, wanted: Wanted) -> int:
    """How many times the position occurs in an index opened by :func:`searched` (as
    :func:`find_in` asks)."""
    condition, values = wanted.where(database.engine, database.buckets)
    return int(database.query(f"SELECT count(*) {OCCURRENCES_FROM} WHERE {condition}", values)[0][0])


def _found(row: tuple[Any, ...], position_id: str, identifiers: Identifiers | None) -> dict[str, Any]:
    file, unit, base, match, game, player0, player1, score0, score1, length, crawford, jacoby = row[:12]
    seen = occurrence(row[14:18], base)
    found = {
        "file": file, "line": seen.line, "unit": unit, "match": match, "game": game, "move": seen.move, "action": seen.kind,
        "player": seen.player, "player0": player0, "player1": player1, "dice": dice_text(seen), "play": seen.play,
        "position_id": position_id, "match_id": None, "xgid": None, "cube": seen.cube, "cube_owner": seen.cube_owner,
        "score0": score0, "score1": score1, "match_length": length, "step": seen.step,
    }  # fmt: skip
    if identifiers is None:
        del found["match_id"], found["xgid"]
    else:
        found["match_id"], found["xgid"] = identifiers.of(match_state(seen, score0, score1, length, crawford, jacoby))
    return found


class _Analyses:
    """The decisions analysed at an occurrence (the deepest plies kept for its match), each
    looked up on the decisions table's index: as fast for the millionth occurrence as for the
    first."""

    COLUMNS = ("kind", "play", "best", "error", "mark", "category", "luck", "plies")

    def __init__(self, database: Database) -> None:
        self.database = database.beside()  # asked while the occurrences stream out
        self.present = "decisions" in database.names()
        self.deepest: dict[str, Any] = {}

    def at(self, match_key: Any, game_in_match: Any, step: Any) -> list[dict[str, Any]]:
        if not self.present or match_key is None or game_in_match is None:
            return []
        if match_key not in self.deepest:
            if len(self.deepest) > 100_000:
                self.deepest.clear()
            self.deepest[match_key] = self.database.query("SELECT MAX(plies) FROM decisions WHERE match_key = ?", [match_key])[0][0]
        plies = self.deepest[match_key]
        if plies is None:
            return []
        sql = (f"SELECT {', '.join(self.COLUMNS)} FROM decisions WHERE match_key = ? AND game_in_match = ? AND step = ? AND plies = ? "
               "ORDER BY kind = 'checker'")  # fmt: skip
        return list(self.database.rows(sql, self.COLUMNS, [match_key, game_in_match, step, plies]))


# --- opening an index to search ---


@contextlib.contextmanager
def searched(path: str | Path, opening: Opening | None = None) -> Iterator[Database]:
    """The index at ``path`` opened to be searched (read only; ``opening``: the file's
    :class:`~bgrecord.tables.opening.Opening` already begun); ``ValueError`` saying why it
    cannot be (no such file, not an index, another schema, no positions); an engine's error
    while searching is a :class:`~bgrecord.tables.storage.DatabaseError` naming the file."""
    database = _opened(path, opening)
    try:
        yield database
    except Exception as exc:
        if is_engine_error(exc):
            raise engine_failure(path, exc) from None
        raise
    finally:
        database.close()


def _opened(path: str | Path, opening: Opening | None) -> Database:
    if opening is not None:
        database = opening.database()
    elif Path(path).is_file():
        database = Database(path, read_only=True)
    else:  # a dataset's module only for what is not a file: a file's search starts sooner
        from bgrecord.tables.dataset import is_dataset, opened

        if not is_dataset(path):
            raise ValueError(f"{path}: no such index")
        database = opened(path)
    try:
        schema = schema_of(database)
        if schema is None:
            raise ValueError(f"{path}: not a bgrecord index")
        if schema != str(SCHEMA_VERSION):
            older = schema.isdigit() and int(schema) < SCHEMA_VERSION
            raise ValueError(f"{path}: an index of {'an older' if older else 'another'} bgrecord (schema {schema or 'unknown'}; this one reads "
                             f"{SCHEMA_VERSION})" + (": run bgrecord index on it again to bring it up to date" if older else ""))  # fmt: skip
        if not database.query("SELECT 1 FROM positions LIMIT 1"):
            raise ValueError(f"{path}: holds no positions (bgrecord index puts a folder's match files there)")
    except Exception as exc:
        database.close()
        if is_engine_error(exc):
            raise engine_failure(path, exc) from None
        raise
    return database
