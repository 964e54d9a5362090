"""Statistics: per-game, per-player, per-match and dice tables, as pandas DataFrames.

Every figure comes from the replay (the file's ``Wins`` lines are kept apart, as
``recorded_points``). Games the replay found defective stay in the tables, with
``valid=False`` and their issue counts. The columns are documented in ``docs/stats.md``.

``game_rows(path)`` gives the rows of one file; :class:`~bgrecord.tables.summing.Tables`
sums rows up into the player, match and dice tables as they come.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, cast

from bgrecord.names import NO_ALIASES, People, named
from bgrecord.extras import require
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.reader import match_files
from bgrecord.formats.records import MatchRecord, Result
from bgrecord.formats.source import Input, failed_name, table_name
from bgrecord.replay import GameReplay
from bgrecord.replay.matchkeys import Duplicates, MatchKeys, content_key
from bgrecord.replay.rules import VARIANT_NAMES
from bgrecord.replay.variants import named_variant
from bgrecord.replay.validate import guarded, internal_issue, replayed
from bgrecord.tables.spool import Oversized, Spool
from bgrecord.tables.summing import Tables, frame
from bgrecord.writing.stated import played_variant
from bgrecord.writing.writers import mat_rows

if TYPE_CHECKING:  # pandas is imported where a table is made: a worker reading files never needs it
    import pandas as pd

RESULTS = {1: "single", 2: "gammon", 3: "backgammon"}
_ROLL_TEXT = {(first, second): f"{max(first, second)}{min(first, second)}" for first in range(1, 7) for second in range(1, 7)}
_CUBE_ACTIONS = {"double": "doubles", "take": "takes", "drop": "drops", "beaver": "beavers", "raccoon": "raccoons"}  # a games row's counts
_PER_PLAYER = ("turns", "dances", "hits", "doubles_rolled", *_CUBE_ACTIONS.values())

GAME_COLUMNS: dict[str, str] = {
    "file": "string", "file_key": "string", "match_key": "string", "duplicate_of": "string", "match": "Int64",
    "game": "Int64", "match_length": "Int64",
    "variant": "string", "player0": "string", "player1": "string", "score0": "Int64", "score1": "Int64",
    "crawford": "boolean", "post_crawford": "boolean", "first_roller": "Int64", "opening_roll": "string",
    "winner": "Int64", "winner_name": "string", "points": "Int64", "recorded_points": "Int64", "result": "string",
    "ended_by": "string", "cube": "Int64", "cube_owner": "Int64", "doubles": "Int64", "takes": "Int64",
    "drops": "Int64", "beavers": "Int64", "raccoons": "Int64", "first_double_move": "Int64", "turns0": "Int64",
    "turns1": "Int64", "dances0": "Int64", "dances1": "Int64", "hits0": "Int64", "hits1": "Int64",
    "pips_lost": "Int64", "loser_off": "Int64", "valid": "boolean", "errors": "Int64", "warnings": "Int64",
    "doubles0": "Int64", "doubles1": "Int64", "takes0": "Int64", "takes1": "Int64", "drops0": "Int64",
    "drops1": "Int64", "beavers0": "Int64", "beavers1": "Int64", "doubles_rolled0": "Int64",
    "doubles_rolled1": "Int64", "dice0": "string", "dice1": "string",
}  # fmt: skip


def game_rows(path: str | Path | Input, rules: str | None = None, each: Callable[[int, MatchRecord, GameReplay], None] | None = None,
              file_key: str | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """The rows of every game of the file at ``path``, in order (the file is read and
    replayed game by game). ``duplicate_of`` is for :class:`Duplicates` to fill, across files.
    ``each(match_number, match, replayed_game)`` sees every game as it is replayed;
    ``file_key``: the file's :func:`content_key`, when the caller has it already."""
    return [row for rows in match_rows(path, rules, each, file_key) for row in rows]


def match_rows(path: str | Path | Input, rules: str | None = None, each: Callable[[int, MatchRecord, GameReplay], None] | None = None,
               file_key: str | None = None, notes: list[Issue] | None = None) -> Iterator[list[dict[str, Any]]]:  # fmt: skip
    """:func:`game_rows`, a match at a time (a match's rows come when it ends: its
    ``match_key`` is then known); the issues of the file's matches (not of their games) put
    in ``notes``."""
    source = path if isinstance(path, Input) else Input.of(Path(path))
    name = table_name(source)
    file_key = file_key if file_key is not None else content_key(source)
    rows: list[dict[str, Any]] = []
    number = 0
    current = None
    keys = MatchKeys()
    unplayed: str | None = None
    for match, game, out in replayed(source, rules, steps=True):
        if match is not current:
            current, number = match, number + 1
            named = named_variant(match)
            unplayed = named.written if named is not None and named.variant is None else None
        if out is not None:
            reader = Counter((game.index if game else None, i.severity) for i in out.game.issues)
            keys.add(number, match.length, out)
            if each is not None:
                each(number, match, out)
            rows.append(_row(name, file_key, number, match.length, unplayed or VARIANT_NAMES[played_variant(out)], out, reader))
        elif game is None:  # the match ends
            if notes is not None:
                notes.extend(match.issues)
            for row in rows:
                row["match_key"] = keys.key(number)
            yield rows
            rows = []
    if rows:
        yield rows


@dataclass(slots=True)
class FileRows:
    """The rows of a file (in a :class:`~bgrecord.tables.spool.Spool`: read them once, chunk by
    chunk), or why there are none: ``problem`` says why; ``empty`` when the file was read and
    holds no game (not a match record, an empty match...), else it could not be read (I/O),
    or bgrecord failed on it (``internal``). ``oversized``: read in a worker process, the file
    had too many rows to send back (the caller reads it itself)."""

    path: str
    rows: Spool[dict[str, Any]]
    problem: str | None = None
    internal: bool = False
    file_key: str = ""  # the file's content_key ("" when it could not be read)
    oversized: bool = False
    empty: bool = False


def file_rows(path: str | Path | Input, rules: str | None = None,
              each: Callable[[int, MatchRecord, GameReplay], None] | None = None, file_key: str | None = None) -> FileRows:  # fmt: skip
    """:func:`game_rows` (``each`` as there) in a :class:`~bgrecord.tables.spool.Spool`, with a
    failure on one file reported, never raised, and a file that gives no rows said why.
    ``file_key``: the file's content key when the caller has it (the file is not hashed again)."""
    name = table_name(path)

    def rows_of(source: Input, key: str) -> FileRows:
        spool: Spool[dict[str, Any]] = Spool()
        notes: list[Issue] = []
        try:
            for rows in match_rows(source, rules, each, key, notes):
                spool.extend(rows)
        except Oversized:
            return FileRows(name, Spool(), file_key=key, oversized=True)
        empty = not len(spool)
        return FileRows(name, spool, no_games(notes) if empty else None, file_key=key, empty=empty)

    try:
        source = path if isinstance(path, Input) else Input.of(Path(path))
        key = file_key or content_key(source)
        return guarded(name, lambda: rows_of(source, key), lambda issue: FileRows(name, Spool(), issue.message, internal=True, file_key=key))
    except OSError as exc:
        return FileRows(name, Spool(), f"cannot read: {exc.strerror or exc}")


def failed_rows(file: Any, exc: BaseException) -> FileRows:
    """What :func:`file_rows` gives for a file whose work failed outside it (a worker that died)."""
    name = failed_name(file)
    return FileRows(name, Spool(), internal_issue(name, exc).message, internal=True)


def no_games(notes: list[Issue]) -> str:
    """Why a file gave no games, from its matches' issues: the first error, else the first
    warning, else that it holds none."""
    for severity in (Severity.ERROR, Severity.WARNING):
        found = next((issue for issue in notes if issue.severity is severity), None)
        if found is not None:
            return f"no games: {found.message}"
    return "no games in the file"


def _row(path: str, key: str, number: int, length: int | None, variant: str, g: GameReplay, reader: Counter[Any]) -> dict[str, Any]:
    game = g.game
    per: dict[str, list[int]] = {name: [0, 0] for name in _PER_PLAYER}
    turns, dances, hits, doubles_rolled = per["turns"], per["dances"], per["hits"], per["doubles_rolled"]  # a roll's counts, at hand
    dice: list[list[str]] = [[], []]
    first_roller = opening = first_double = None
    final = None
    cube_before = ""  # the kind of the step before
    steps = g.steps
    for index, step in enumerate(steps):
        player, after = step.player, step.after
        if after is not None:
            final = after
        if player is None:
            continue
        kind = step.kind
        rolled = step.dice
        if kind == "move" and rolled is not None:
            roll = _ROLL_TEXT.get(rolled) or f"{max(rolled)}{min(rolled)}"
            if first_roller is None:
                first_roller, opening = player, roll
            else:
                dice[player].append(roll)
                doubles_rolled[player] += rolled[0] == rolled[1]
            turns[player] += 1
            legal = step.play
            if legal is not None:
                dances[player] += not legal.play.moves
                if True in legal.hits:
                    hits[player] += sum(legal.hits)
        elif kind in _CUBE_ACTIONS:
            if kind == "take" and cube_before in ("beaver", "raccoon"):
                continue  # a beaver's acceptance, which a .mat leaves to the doubler's roll and SGF writes out
            per[_CUBE_ACTIONS[kind]][player] += 1
            if kind == "double" and first_double is None:
                first_double = mat_rows(steps)[index]  # the .mat layout's rows, made only for a game with a double
        cube_before = kind
    issues = Counter(i.severity for i in g.issues)
    errors = issues[Severity.ERROR] + reader[(game.index, Severity.ERROR)]
    warnings = issues[Severity.WARNING] + reader[(game.index, Severity.WARNING)]
    result = g.result
    winner = result.winner if result else None
    loser_side = final.sides[1 - winner] if final is not None and winner is not None else None
    recorded = next((a.points for a in game.actions if isinstance(a, Result) and a.kind == "win"), None)
    row: dict[str, Any] = {
        "file": path, "file_key": key, "match_key": None, "duplicate_of": None, "match": number, "game": game.index, "match_length": length, "variant": variant,
        "player0": named(game.names[0], 0), "player1": named(game.names[1], 1), "score0": g.score[0], "score1": g.score[1],
        "crawford": g.crawford, "post_crawford": g.post_crawford, "first_roller": first_roller, "opening_roll": opening,
        "winner": winner, "winner_name": named(game.names[winner], winner) if winner is not None else None,
        "points": result.points if result else None, "recorded_points": recorded,
        "result": RESULTS[result.kind] if result else None, "ended_by": result.ended_by if result else "unfinished",
        "cube": g.cube, "cube_owner": g.cube_owner, "doubles": sum(per["doubles"]), "takes": sum(per["takes"]),
        "drops": sum(per["drops"]), "beavers": sum(per["beavers"]), "raccoons": sum(per["raccoons"]),
        "first_double_move": first_double, "pips_lost": None, "loser_off": None,
        "valid": errors == 0 and g.checked, "errors": errors, "warnings": warnings,
        "dice0": " ".join(dice[0]), "dice1": " ".join(dice[1]),
    }  # fmt: skip
    if loser_side is not None:
        row["pips_lost"] = sum(i * n for i, n in enumerate(loser_side))
        row["loser_off"] = loser_side[0]
    for name in ("turns", "dances", "hits", "doubles", "takes", "drops", "beavers", "doubles_rolled"):
        row[f"{name}0"], row[f"{name}1"] = per[name]
    return row


def iter_rows(paths: Iterable[str | Path], rules: str | None = None, dedupe: bool = False) -> Iterator[dict[str, Any]]:
    """The games rows of the files, with ``duplicate_of`` marked; ``dedupe`` leaves the
    duplicates out."""
    duplicates = Duplicates()
    for path in match_files(paths):
        for row in duplicates.mark(game_rows(path, rules)):
            if not (dedupe and row["duplicate_of"]):
                yield row


def games(paths: Iterable[str | Path] | str | Path, rules: str | None = None, dedupe: bool = False) -> pd.DataFrame:
    """The games table of the files and folders ``paths`` (``dedupe``: each match once)."""
    return frame(iter_rows(_paths(paths), rules, dedupe), GAME_COLUMNS)


def _paths(paths: Iterable[str | Path] | str | Path) -> list[str | Path]:
    return [paths] if isinstance(paths, (str, Path)) else list(paths)


def _rows_of(source: Iterable[str | Path] | str | Path | pd.DataFrame) -> Iterable[dict[str, Any]]:
    pandas = sys.modules.get("pandas")  # not imported: not a DataFrame
    if pandas is not None and isinstance(source, pandas.DataFrame):
        return ({str(k): v for k, v in row.items()} for row in source.astype(object).where(source.notna(), None).to_dict("records"))
    return iter_rows(_paths(cast("Iterable[str | Path] | str | Path", source)))


def _summed(source: Iterable[str | Path] | str | Path | pd.DataFrame, people: People) -> Tables:
    tables = Tables(people)
    tables.add(_rows_of(source))
    return tables


def players(source: Iterable[str | Path] | str | Path | pd.DataFrame, people: People = NO_ALIASES) -> pd.DataFrame:
    """The players table, from paths or from a games table (``people``: the names made one
    person, :func:`bgrecord.names.read_aliases`)."""
    return _summed(source, people).players()


def matches(source: Iterable[str | Path] | str | Path | pd.DataFrame, people: People = NO_ALIASES) -> pd.DataFrame:
    """The matches table, from paths or from a games table."""
    return _summed(source, people).matches()


def dice(source: Iterable[str | Path] | str | Path | pd.DataFrame, tests: bool = True, people: People = NO_ALIASES) -> pd.DataFrame:
    """The dice table, from paths or from a games table; ``tests``: with its chi-square tests
    (scipy: ``bgrecord[dice]``), else those columns are empty."""
    return _summed(source, people).dice(tests)
