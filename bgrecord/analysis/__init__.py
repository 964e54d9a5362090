"""Analysis: every decision's error and every roll's luck, from the analysis a record holds or
through an engine run as a program (GNU Backgammon: :mod:`bgrecord.analysis.gnubg`).

:func:`analyze` gives the three tables of ``bgrecord analyze`` as pandas DataFrames.

The parts: :mod:`~bgrecord.analysis.engine` (what an engine is given and gives back),
:mod:`~bgrecord.analysis.gnubg` (the gnubg process; its script,
``gnubg_script.py``, runs inside gnubg and is never imported), :mod:`~bgrecord.analysis.recorded`
(the analyses records hold: eXtreme Gammon's, GNU Backgammon's SGF, OGXM's),
:mod:`~bgrecord.analysis.measures` and :mod:`~bgrecord.analysis.counting` (errors, luck, totals
and ratings, and which decisions count, as each engine defines them), :mod:`~bgrecord.analysis.met`
(match winning chances), :mod:`~bgrecord.analysis.settings` (the rules and settings an analysis
is made under), :mod:`~bgrecord.analysis.files` (a file's matches analysed) and
:mod:`~bgrecord.analysis.rows` (the rows of the tables), :mod:`~bgrecord.analysis.tables`
(their columns).

Importing this package imports nothing: the commands that do not analyse never load it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Union

if TYPE_CHECKING:
    import pandas as pd

    from bgrecord.formats.records import MatchRecord

    Analysable = Union[str, Path, MatchRecord]


@dataclass
class Analysis:
    """The tables of an analysis (columns: docs/analysis.md), and what was said on the way:
    ``notes`` (games or matches left out, and why) and ``problems`` (files or matches that
    could not be analysed), each ``path: message``."""

    decisions: pd.DataFrame
    players: pd.DataFrame
    matches: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def analyze(paths: Analysable | Iterable[Analysable], plies: int = 0, engine: str = "auto", rules: str | None = None,
            timeout: float | None = None) -> Analysis:  # fmt: skip
    """The analysis of ``paths`` (a file, a folder of match files, a match already read, or
    several) as ``bgrecord analyze`` makes it: ``engine`` ``auto`` (the analysis a record holds,
    GNU Backgammon's where it holds none), ``recorded`` (only those records hold: no engine is
    run) or ``gnubg``; ``plies``: GNU Backgammon's depth; ``rules``: as ``--rules``. Raises
    :class:`~bgrecord.analysis.engine.EngineMissing` when ``engine`` is ``gnubg`` and GNU
    Backgammon is not installed (``auto`` then reads what the records hold, and says the other
    matches in ``problems``); never on a file's content."""
    import pandas as pd

    from bgrecord.analysis.engine import EngineMissing
    from bgrecord.analysis.files import MODES, analyse_file, close_engines, gnubg_settings
    from bgrecord.analysis.tables import TABLES
    from bgrecord.formats.records import MatchRecord

    if engine not in MODES:
        raise ValueError(f"unknown analysis {engine!r}: one of {', '.join(MODES)}")
    items = [paths] if isinstance(paths, (str, Path, MatchRecord)) else list(paths)
    rows: dict[str, list[dict[str, Any]]] = {kind: [] for kind in TABLES}
    found = Analysis(pd.DataFrame(), pd.DataFrame(), pd.DataFrame())
    wanted = False  # gnubg was wanted and is not there: the matches it would have analysed are problems
    try:
        settings = None
        if engine != "recorded":
            try:
                settings = gnubg_settings(timeout)
            except EngineMissing as exc:
                if engine == "gnubg":
                    raise
                engine, wanted = "recorded", True
                found.problems.append(str(exc))
        for item in _files(items):
            done = analyse_file(item, plies, rules, engine, timeout, frozenset(), settings)
            for kind in TABLES:
                rows[kind].extend(getattr(done, kind))
            found.notes += [f"{done.path}: {note}" for note in done.notes]
            found.problems += [f"{done.path}: {said}" for said in ([done.problem] if done.problem else []) + done.failures]
            if wanted:
                found.problems += [f"{done.path}: match {row['match']}: {row['problem']}" for row in done.matches if row["problem"]]
    finally:
        close_engines()
    found.decisions, found.players, found.matches = (
        pd.DataFrame(rows[kind], columns=list(columns)).astype(columns) for kind, columns in TABLES.items())  # fmt: skip
    return found


def _files(items: list[Any]) -> Iterable[Any]:
    """Each item, a folder as the match files it holds (as the commands find them)."""
    from bgrecord.formats.reader import match_files

    for item in items:
        if isinstance(item, (str, Path)) and Path(item).is_dir():
            yield from match_files([item])
        else:
            yield item
