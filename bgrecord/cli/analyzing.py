"""``bgrecord analyze``: every decision's error and every roll's luck, from the analysis a record
holds (eXtreme Gammon's, GNU Backgammon's SGF, OGXM's) or through GNU Backgammon."""

from __future__ import annotations

import contextlib
import functools
import os
from typing import Any

import click

from bgrecord.cli.common import (
    MAX_SECONDS,
    Finite,
    each_file,
    fail,
    jobs_option,
    overwrite_option,
    quiet_option,
    rules_option,
    scheduler_option,
)
from bgrecord.cli.inputs import gather
from bgrecord.cli.people import aliases_option
from bgrecord.escapes import one_line
from bgrecord.formats.issues import count


def plies_option(command: Any) -> Any:
    return click.option("--plies", type=click.IntRange(0, 2), default=0, show_default=True,
                        help="How deep GNU Backgammon looks, for checker play and cube decisions alike (luck: always "
                             "0). 0 is fast (a 7-point match in about a third of a second); 2 is about 30 times slower "
                             "and stronger.")(command)  # fmt: skip


def engine_option(command: Any) -> Any:
    return click.option("--engine", type=click.Choice(["auto", "recorded", "gnubg"]), default="auto", show_default=True,
                        help="Whose analysis: auto (the one the record holds, where it holds one: eXtreme Gammon's in .xg, GNU "
                             "Backgammon's in its SGF, an OGXM producer's; GNU Backgammon's where not), recorded (only those the "
                             "records hold: no engine is run, a match without one is not analysed) or gnubg (GNU Backgammon "
                             "analyses every match).")(command)  # fmt: skip


def timeout_option(command: Any) -> Any:
    return click.option("--timeout", type=Finite(1, MAX_SECONDS), default=600, show_default=True, metavar="SECONDS",
                        help="The longest GNU Backgammon may take over one match; a match that takes longer is not "
                             "analysed (one error), and the run goes on.")(command)  # fmt: skip


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "decisions_out", required=True, metavar="FILE",
              help="Where to write the decisions table (- for standard output), or a database (.duckdb, .sqlite) to "
                   "keep the three tables in, where a match gnubg already analysed under the same settings (plies, "
                   "version, rules) is not analysed again.")  # fmt: skip
@click.option("--players", "players_out", metavar="FILE", help="Where to write the players table (one row a player of a match); "
              "needed unless -o is a database.")  # fmt: skip
@click.option("--matches", "matches_out", metavar="FILE", help="Also write the matches table here.")
@plies_option
@engine_option
@timeout_option
@click.option("--format", "table_format", type=click.Choice(["csv", "parquet", "json", "jsonl", "dataset"]),
              help="csv, parquet (needs pyarrow: pip install 'bgrecord[parquet]'), json (one document: a list of rows), jsonl "
                   "(a row a line) or dataset "
                   "(the decisions table as a folder of Parquet files partitioned by source folder); by default from each "
                   "output's extension (.csv, .parquet, .json, .jsonl; a name ending in / is a dataset), else csv.")  # fmt: skip
@rules_option()
@aliases_option
@jobs_option
@scheduler_option
@overwrite_option
@quiet_option
def analyze(paths: tuple[str, ...], decisions_out: str, players_out: str | None, matches_out: str | None, plies: int,
            engine: str, timeout: float, table_format: str | None, rules: str | None, people: Any, jobs: int,
            scheduler: str | None, overwrite: bool, quiet: bool) -> None:  # fmt: skip
    """Every decision's error and every roll's luck, the records' own or gnubg's: tables.

    Each match is read and replayed by bgrecord. Its games without errors are analysed by the
    analysis the record holds (eXtreme Gammon's, GNU Backgammon's SGF, OGXM's: read, no engine
    is run), or by GNU Backgammon (gnubg, run as a program: it must be installed), as gnubg
    itself would: the players' totals are gnubg's own statistics. Decisions are counted as the
    engine that made the analysis counts them (XG's PR for XG's). A game with errors is left out
    (said once); a match gnubg cannot analyse (it crashes, or takes longer than --timeout) is one
    error, and the next match is analysed. Tables: decisions (one row a checker play, close or
    actual cube decision), players (one row a player of a match: errors, error rate, PR, luck,
    rating), matches. Columns and definitions: docs/analysis.md. Each table is written to a
    temporary file and renamed into place when complete.
    """
    from bgrecord.analysis.files import analyse_file, close_engines, failed_analysis
    from bgrecord.analysis.tables import TABLES
    from bgrecord.outputs import OutputError, check_outputs
    from bgrecord.tables.export import DatasetWriter, TableWriter, needs
    from bgrecord.tables.export import table_format as format_of

    from bgrecord.tables.database import DATABASES

    database = decisions_out.lower().endswith(DATABASES)
    if not database and not players_out:
        raise click.UsageError("give --players FILE for the players table (or -o a database, which holds every table)")
    outputs = [(path, kind) for path, kind in ((decisions_out, "decisions"), (players_out, "players"), (matches_out, "matches")) if path]
    inputs = gather(paths)
    try:
        targets = []
        for path, kind in outputs:
            if kind == "decisions" and database:
                _needs_engine(path)
                targets.append((path, "database"))
                continue
            fmt = format_of(path, table_format)
            if fmt == "dataset" and kind != "decisions":
                raise click.BadParameter("a dataset is for the decisions table (-o); the other tables are small", param_hint="--format")
            needs(fmt)
            targets.append((path, "folder" if fmt == "dataset" else "file"))
        check_outputs(targets, inputs.files, overwrite)
    except (OutputError, ImportError, ValueError) as exc:
        fail(str(exc))
    engine, settings, wanted = start_engine(engine, timeout)  # after the outputs: a refused run starts no engine
    inputs.report()
    known: frozenset[str] = frozenset()
    if database:
        from bgrecord.analysis.store import known as stored

        try:
            known = stored(decisions_out, plies)
        except ValueError as exc:
            fail(str(exc))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    workers = jobs or max(1, min(cores, len(inputs.files)))  # gnubg's work outweighs a worker's start from two files
    if workers > 1 or scheduler:
        close_engines()  # the gnubg asked for its settings: the workers run their own
    report = RunReport()
    try:
        with contextlib.ExitStack() as stack:
            writers: list[tuple[str, Any]] = []
            if database:
                from bgrecord.analysis.store import storing

                store = stack.enter_context(storing(decisions_out, functools.partial(_waiting, decisions_out)))
                writers += [(kind, _StoreWriter(store, kind)) for kind in TABLES]
            for path, kind in outputs:
                fmt = format_of(path, table_format)
                if kind == "decisions" and database:
                    continue
                if fmt == "dataset":
                    from bgrecord.cli.tables import _common_folder

                    writers.append((kind, stack.enter_context(DatasetWriter(path.rstrip("/\\"), TABLES[kind], _common_folder(inputs.files)))))
                else:
                    writers.append((kind, stack.enter_context(TableWriter(path, fmt, TABLES[kind]))))
            batches = _Batches(writers, people)
            arguments = (plies, rules, engine, timeout, known, settings)
            for found in each_file(analyse_file, inputs.files, arguments, workers, quiet, scheduler=scheduler, progress=("analysing", 2),
                                   batch=1, failed=failed_analysis):  # fmt: skip
                report.add(found)
                batches.add(found)
            batches.flush()
    except (ImportError, OSError, ValueError) as exc:
        fail(str(exc))
    finally:
        close_engines()  # this process's gnubg (the command ends without the interpreter's exit handlers)
    if not quiet:
        click.echo(report.summary(len(inputs.files), one_line(decisions_out)), err=True)
        for line in report.players.lines():
            click.echo(line, err=True)
    inputs.exit(report.failed or (wanted and report.left_out > 0), report.skipped > 0 or report.left_out > 0)


def start_engine(engine: str, timeout: float) -> tuple[str, tuple[str, dict[str, float]] | None, bool]:
    """The analysis a run makes, and gnubg's version and thresholds for every match of it (None
    for the records' analyses only); True when gnubg was wanted and is not there (a match it
    would have analysed is then a failure). Fails the run when gnubg is asked for alone and
    is missing, or does not start."""
    from bgrecord.analysis.engine import EngineError, EngineMissing
    from bgrecord.analysis.files import gnubg_settings

    if engine == "recorded":
        return engine, None, False
    try:
        return engine, gnubg_settings(timeout), False
    except EngineMissing as exc:
        if engine == "gnubg":
            fail(str(exc))
        click.echo(f"bgrecord: only the analyses the records hold are read: {one_line(str(exc))}", err=True)
        return "recorded", None, True
    except EngineError as exc:
        fail(f"gnubg does not start: {exc}")


def _waiting(target: str) -> None:
    click.echo(f"bgrecord: {one_line(target)}: another bgrecord run is writing it: waiting for it to finish", err=True)


def _needs_engine(path: str) -> None:
    from bgrecord.tables.database import engine_of
    from bgrecord.tables.duckdb_engine import duckdb_module

    if engine_of(path) == "duckdb":
        duckdb_module()  # its compiled core, as the index opens it


class _StoreWriter:
    """A table's rows into an index (:class:`bgrecord.analysis.store.Store`)."""

    def __init__(self, store: Any, kind: str) -> None:
        self.store, self.kind = store, kind

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.store.add(self.kind, rows)


class _Batches:
    """Rows gathered file by file and written a few thousand at a time (each write has a cost
    of its own); memory stays bounded."""

    def __init__(self, writers: list[tuple[str, Any]], people: Any) -> None:
        self.writers = writers
        self.people = people  # the names made one person (--aliases)
        self.rows: dict[str, list[dict[str, Any]]] = {kind: [] for kind, _ in writers}

    def add(self, found: Any) -> None:
        for kind in self.rows:
            self.rows[kind].extend(_named(getattr(found, kind), self.people))
        if len(self.rows.get("decisions", ())) >= self.SIZE:
            self.flush()

    SIZE = 5000

    def flush(self) -> None:
        for kind, writer in self.writers:
            rows = self.rows[kind]
            for start in range(0, max(len(rows), 1), self.SIZE):  # a long session's rows too, a batch at a time
                writer.write(rows[start : start + self.SIZE])
        for rows in self.rows.values():
            rows.clear()


def _named(rows: list[dict[str, Any]], people: Any) -> list[dict[str, Any]]:
    """The rows with their players' names as persons (:mod:`bgrecord.names`: an empty name
    shown as every table shows it, the aliases applied)."""
    from bgrecord.names import unnamed

    for row in rows:
        for column, side in (("name", row.get("player")), ("opponent", 1 - row["player"] if row.get("player") in (0, 1) else None)):
            if column in row and side in (0, 1):
                row[column] = people.of(row[column] or "") or unnamed(side)
    return rows


class RunReport:
    """What the run did, told as it goes (on standard error) and summed up at the end."""

    def __init__(self) -> None:
        from bgrecord.report.text import RunSummary

        self.matches = self.failures = self.skipped = self.cached = self.decisions = self.left_out = 0
        self.failed = False
        self.players = RunSummary()  # said after the summary: each player, or the archive's players table head

    def add(self, found: Any) -> None:
        if found.problem:
            self.failed = True
            click.echo(f"bgrecord: {one_line(found.path)}: {one_line(found.problem)}", err=True)
        for note in found.notes:
            click.echo(f"bgrecord: {one_line(found.path)}: {one_line(note)}", err=True)
        for failure in found.failures:
            self.failed = True
            click.echo(f"bgrecord: {one_line(found.path)}: {one_line(failure)}", err=True)
        self.failures += len(found.failures)
        self.skipped += found.skipped_games
        self.cached += found.cached
        self.matches += sum(1 for row in found.matches if row["games_analysed"])
        self.left_out += sum(1 for row in found.matches if row["problem"]) - len(found.failures)
        self.decisions += len(found.decisions)
        self.players.add(found.players)

    def summary(self, files: int, target: str) -> str:
        parts = [f"{count(files, 'file')}, {count(self.matches, 'match', 'matches')} analysed"]
        if self.cached:
            parts.append(f"{count(self.cached, 'match', 'matches')} analysed before")
        if self.failures or self.left_out:
            parts.append(f"{count(self.failures + self.left_out, 'match', 'matches')} not analysed")
        if self.skipped:
            parts.append(f"{count(self.skipped, 'game')} with errors left out")
        return f"{', '.join(parts)}: {count(self.decisions, 'decision')} -> {target}"
