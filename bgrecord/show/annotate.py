"""An analysis beside the replay: each step's decisions (from ``bgrecord analyze``'s decisions
table, a database that holds one, or an analysis made on the spot) given to the step records
of ``bgrecord replay``, and said in words.

Steps are found by their game's key (:func:`bgrecord.analysis.files.game_key`: the game's
moves, dice and score, not the file's name) and their number in the game, so a table made
from another copy of the match, or from a folder, serves as well.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable

from bgrecord.escapes import one_line
from bgrecord.formats.records import MatchRecord
from bgrecord.replay import GameReplay, Step
from bgrecord.show.steps import StepRecord
from bgrecord.show.words import seen_from

SHOWN = ("kind", "play", "best", "equity", "best_equity", "error", "counted", "mark", "category", "luck", "plies")


class Annotations:
    """Decision rows found a game at a time by its key (``games(key)``: that game's rows), ready
    to annotate step records: each step's rows at the deepest plies the game was analysed
    at, a copy of the match analysed twice shown once."""

    def __init__(self, games: Callable[[str], Iterable[dict[str, Any]]]) -> None:
        self._games = games
        self.found = 0  # the games replayed so far that the analysis holds

    @classmethod
    def of_rows(cls, rows: Iterable[dict[str, Any]]) -> Annotations:
        """The annotations of rows held in memory (an analysis made on the spot)."""
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            if row.get("game_key") is not None:
                found[row["game_key"]].append(row)
        return cls(lambda key: found.get(key, ()))

    def __call__(self, match: MatchRecord, out: GameReplay, records: list[tuple[int, Step, StepRecord]]) -> None:
        from bgrecord.analysis.files import game_key

        steps = _by_step(self._games(game_key(match.length or 0, out)))
        if steps is None:
            return
        self.found += 1
        for number, _, record in records:
            record.analysis = steps.get(number, [])


def _by_step(rows: Iterable[dict[str, Any]]) -> dict[int, list[dict[str, Any]]] | None:
    """One game's rows by step number, at the deepest plies found; None when there are none."""
    kept = [row for row in rows if row.get("step") is not None]
    if not kept:
        return None
    deepest = max(int(row.get("plies") or 0) for row in kept)
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    seen: set[tuple[Any, ...]] = set()
    for row in kept:
        if int(row.get("plies") or 0) == deepest:
            entry = {name: row.get(name) for name in SHOWN}
            same = (int(row["step"]), *map(repr, entry.values()))
            if same not in seen:  # a copy of the match analysed twice (a set: a table of copies stays linear)
                seen.add(same)
                found[int(row["step"])].append(entry)
    return dict(found)


def read_annotations(path: str | Path) -> Annotations:
    """The decisions of a table written by ``bgrecord analyze`` or of a database holding them,
    read a game at a time (:class:`bgrecord.analysis.store.GameDecisions`: the table is never
    held whole). Raises ``ValueError`` (not such a table), ``ImportError`` or ``OSError``."""
    from bgrecord.analysis.store import GameDecisions

    return Annotations(GameDecisions(path).game)  # its copy goes with the process (SQLite removes its temporary database)


def analysis_words(rows: list[dict[str, Any]], mover: int | None = None, viewpoint: int | None = None) -> str:
    """A step's decisions in a sentence: ``Analysis at 0 ply: play error 0.083 (bad), best
    13/7 8/7, luck +0.321.`` ("" for none). The best play is said from ``viewpoint``'s side
    when one is kept (``mover``: who decided)."""
    said = []
    for row in rows:
        error = float(row.get("error") or 0.0)
        why = ", ".join(str(part) for part in (row.get("mark"), row.get("category")) if part)
        judged = f"error {error:.3f}{f' ({why})' if why else ''}, best {_best(row, mover, viewpoint)}" if error else "right"
        if row.get("kind") == "checker":
            judged = judged if error else "the best" if row.get("counted") else "forced"
            luck = row.get("luck")
            said.append(f"play {judged}" + (f", luck {float(luck):+.3f}" if luck is not None else ""))
        else:
            said.append(f"{row.get('kind')} {judged}")
    return one_line(f"Analysis at {rows[0].get('plies')} ply: {'; '.join(said)}.") if said else ""  # a table's text, one line


def mistake_words(rows: list[dict[str, Any]], mover: int | None = None, viewpoint: int | None = None) -> str:
    """A step's decisions marked doubtful or worse, in words: ``A bad play: it loses 0.083;
    the best play is 13/7 8/7.`` ("" for none)."""
    said = []
    for row in rows:
        if not row.get("mark"):
            continue
        kind = "play" if row.get("kind") == "checker" else str(row.get("kind"))
        category = f" ({row['category']})" if row.get("category") else ""
        best = f"the best play is {_best(row, mover, viewpoint)}" if kind == "play" else f"the best is {row.get('best')}"
        said.append(f"A {row['mark']} {kind}{category}: it loses {float(row.get('error') or 0.0):.3f}; {best}.")
    return one_line(" ".join(said))


def _best(row: dict[str, Any], mover: int | None, viewpoint: int | None) -> str:
    best = str(row.get("best"))
    return seen_from(best, mover, viewpoint) if row.get("kind") == "checker" else best
