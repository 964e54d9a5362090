"""Where a report's rows come from: analyze's tables and databases written before
(:func:`read_analysis`), and match files analysed here as ``bgrecord analyze`` analyses them
(:func:`file_findings`, each file in a worker process when asked), with the date of each match
from its record (:func:`match_dates`). Everything goes into a
:class:`~bgrecord.report.figures.Collector`, a few thousand rows at a time.

What it does not do: compute (:mod:`~bgrecord.report.figures`) or analyse
(:mod:`bgrecord.analysis.files`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from bgrecord.analysis.files import FileAnalysis, analyse_file, failed_analysis
from bgrecord.formats.records import MatchRecord
from bgrecord.formats.source import Input
from bgrecord.replay.matchkeys import MatchKeys
from bgrecord.replay.validate import guarded, replayed
from bgrecord.report.figures import Collector
from bgrecord.tables.database import DATABASES

_DATE = re.compile(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})")
_TIME = re.compile(r"(\d{1,2})[.:](\d{2})")


def record_date(match: MatchRecord) -> str | None:
    """The match's date as ``2024-07-08`` (``2024-07-08 10:26`` with a time), from its
    ``EventDate`` and ``EventTime`` tags: .mat tags, SGF's ``DT``, eXtreme Gammon's and
    BGBlitz's dates are read into those. None where the record has none."""
    found = _DATE.search(match.tag("EventDate") or "")
    if found is None:
        return None
    year, month, day = (int(part) for part in found.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    date = f"{year:04d}-{month:02d}-{day:02d}"
    time = _TIME.fullmatch((match.tag("EventTime") or "").strip())
    if time is not None and int(time.group(1)) < 24 and int(time.group(2)) < 60:
        date += f" {int(time.group(1)):02d}:{time.group(2)}"
    return date


def match_dates(source: Input, rules: str | None = None) -> dict[str, str]:
    """The date of each match of the file that has one, by its key (the tables' ``match_key``)."""
    keys = MatchKeys()
    dated: dict[int, str] = {}
    current: MatchRecord | None = None
    number = 0
    for match, _, out in replayed(source, rules, steps=True):
        if match is not current:
            current, number = match, number + 1
            date = record_date(match)
            if date is not None:
                dated[number] = date
        if out is not None:
            keys.add(number, match.length, out)
    return {key: date for number, date in dated.items() if (key := keys.key(number)) is not None}


@dataclass(slots=True)
class FileFindings:
    """One file analysed for a report: analyze's rows, and its matches' dates by key."""

    analysis: FileAnalysis
    dates: dict[str, str] = field(default_factory=dict)


def file_findings(path: Input, plies: int, rules: str | None, engine: str, timeout: float | None, known: frozenset[str],
                  gnubg: tuple[str, dict[str, float]] | None) -> FileFindings:  # fmt: skip
    """The file's matches analysed as :func:`~bgrecord.analysis.files.analyse_file` analyses
    them (those of ``known`` keys left out: the tables hold them) and dated. Never raises on a
    file: the analysis says what failed, and a date that cannot be read is no date."""
    analysis = analyse_file(path, plies, rules, engine, timeout, known, gnubg)
    if analysis.problem is not None:
        return FileFindings(analysis)
    try:
        dates = guarded(analysis.path, lambda: match_dates(path, rules), lambda issue: {})
    except OSError:
        dates = {}
    return FileFindings(analysis, dates)


def failed_findings(file: Any, exc: BaseException) -> FileFindings:
    """What :func:`file_findings` gives for a file whose work failed outside it (a worker that died)."""
    return FileFindings(failed_analysis(file, exc))


def add_findings(collector: Collector, found: FileFindings) -> None:
    analysis = found.analysis
    collector.add_matches(analysis.matches)
    collector.add_players(analysis.players)
    collector.add_decisions(analysis.decisions)
    collector.add_dates(found.dates)


def read_analysis(path: str | Path, collector: Collector) -> set[str]:
    """The rows of an analysis written before into ``collector``: a database analyze wrote (its
    three tables) or one of its tables (CSV, Parquet, JSON lines; which one by its columns).
    Returns the kinds of table read. Raises ``ValueError`` (not such a table or database),
    ``ImportError`` (an extra it needs) or ``OSError``."""
    if str(path).lower().endswith(DATABASES):
        return _read_database(path, collector)
    from bgrecord.analysis.store import load

    kind, chunks = load(path)
    _add(collector, kind, _rows(chunks))
    return {kind}


def _add(collector: Collector, kind: str, rows: Iterator[dict[str, Any]]) -> None:
    adders = {"decisions": collector.add_decisions, "players": collector.add_players, "matches": collector.add_matches}
    adders[kind](rows)


def _rows(chunks: Iterator[Any]) -> Iterator[dict[str, Any]]:
    """The rows of a table's chunks (DataFrames of a few thousand rows) as plain values."""
    from bgrecord.analysis.store import rows_of

    for chunk in chunks:
        yield from rows_of(chunk)


def _read_database(path: str | Path, collector: Collector) -> set[str]:
    from bgrecord.analysis.store import FROM_TABLE, STORED, reading

    with reading(path, ("decisions", "analysis_players")) as database:
        names = database.names()
        read = set()
        for kind, table in FROM_TABLE.items():
            if table in names:
                columns = list(STORED[table])  # in the order written (a game's decisions are summed in it)
                _add(collector, kind, database.rows(f"SELECT {', '.join(columns)} FROM {table}", columns))
                read.add(kind)
        return read
