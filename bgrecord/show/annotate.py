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
from typing import Any, Iterable

from bgrecord.escapes import one_line
from bgrecord.formats.records import MatchRecord
from bgrecord.replay import GameReplay, Step
from bgrecord.show.steps import StepRecord
from bgrecord.show.words import seen_from

SHOWN = ("kind", "play", "best", "equity", "best_equity", "error", "counted", "mark", "category", "luck", "plies")
_DATABASES = (".duckdb", ".sqlite", ".sqlite3")


class Annotations:
    """Decision rows by (game key, step number), ready to annotate step records (the deepest
    plies where a game was analysed more than once)."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        found: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
        deepest: dict[str, int] = {}
        kept = []
        for row in rows:
            key = row.get("game_key")
            if key is None or row.get("step") is None:
                continue
            plies = int(row.get("plies") or 0)
            deepest[key] = max(deepest.get(key, plies), plies)
            kept.append(row)
        seen: set[tuple[Any, ...]] = set()
        for row in kept:
            if int(row.get("plies") or 0) == deepest[row["game_key"]]:
                entry = {name: row.get(name) for name in SHOWN}
                place = (row["game_key"], int(row["step"]))
                same = (*place, *map(repr, entry.values()))
                if same not in seen:  # a copy of the match analysed twice (a set: a table of copies stays linear)
                    seen.add(same)
                    found[place].append(entry)
        self.rows = dict(found)
        self.games = set(deepest)
        self.found = 0  # the games replayed so far that the analysis holds

    def __call__(self, match: MatchRecord, out: GameReplay, records: list[tuple[int, Step, StepRecord]]) -> None:
        from bgrecord.analysis.files import game_key

        key = game_key(match.length or 0, out)
        if key not in self.games:
            return
        self.found += 1
        for number, _, record in records:
            record.analysis = self.rows.get((key, number), [])


def read_annotations(path: str | Path) -> Annotations:
    """The decisions of a table written by ``bgrecord analyze`` or of a database holding them.
    Raises ``ValueError`` (not such a table), ``ImportError`` or ``OSError``."""
    if str(path).lower().endswith(_DATABASES):
        from bgrecord.analysis.store import reading

        with reading(path) as database:
            columns = ("game_key", "step", *SHOWN)
            return Annotations(database.rows(f"SELECT {', '.join(columns)} FROM decisions", columns))
    from bgrecord.analysis.store import load, rows_of

    kind, data = load(path)
    if kind != "decisions":
        raise ValueError(f"{path}: this is analyze's {kind} table; give its decisions table (-o)")
    return Annotations(rows_of(data))


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
