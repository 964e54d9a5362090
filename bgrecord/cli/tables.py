"""``bgrecord stats``: tables of statistics from match files."""

from __future__ import annotations

import functools
from typing import Any, Iterable

import click

from bgrecord.cli.common import (
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
from bgrecord.extras import require
from bgrecord.formats.issues import count


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "games_out", required=True, metavar="FILE", help="Where to write the games table (- for standard output).")
@click.option("--players", "players_out", metavar="FILE", help="Also write the players table here.")
@click.option("--matches", "matches_out", metavar="FILE", help="Also write the matches table here.")
@click.option("--dice", "dice_out", metavar="FILE", help="Also write the dice table here, with its chi-square tests (needs scipy: pip install 'bgrecord[dice]').")
@click.option("--format", "table_format", type=click.Choice(["csv", "parquet", "json", "jsonl", "dataset"]),
              help="csv, parquet (needs pyarrow: pip install 'bgrecord[parquet]'), json (one document: a list of rows), jsonl "
                   "(a row a line) or dataset "
                   "(the games table as a folder of Parquet files partitioned by source folder); by default from each "
                   "output's extension (.csv, .parquet, .json, .jsonl; a name ending in / is a dataset), else csv.")  # fmt: skip
@click.option("--dedupe", is_flag=True, help="Each match once: copies of a match (by its moves and dice) are left out.")
@click.option("--plot", metavar="FILE", help="A visual summary, .html or .png (needs matplotlib: pip install 'bgrecord[plot]').")
@rules_option()
@aliases_option
@jobs_option
@scheduler_option
@overwrite_option
@quiet_option
def stats(paths: tuple[str, ...], games_out: str, players_out: str | None, matches_out: str | None, dice_out: str | None,
          table_format: str | None, dedupe: bool, plot: str | None, rules: str | None, people: Any, jobs: int,
          scheduler: str | None, overwrite: bool, quiet: bool) -> None:  # fmt: skip
    """Tables of statistics from match files: games, players, matches, dice.

    Every figure comes from the replay, not from the files' Wins lines (kept apart as
    recorded_points). Games with errors stay in, with valid=false. A match found again (the
    same moves and dice: a .mat and its .sgf) has duplicate_of set. Columns: docs/stats.md.
    Rows are written file by file: memory stays flat however large the archive. Each table
    is written to a temporary file and renamed into place when complete.
    """
    from bgrecord.outputs import OutputError, check_outputs
    from bgrecord.replay.matchkeys import Duplicates
    from bgrecord.replay.validate import guarded
    from bgrecord.tables import stats as tables
    from bgrecord.tables.summing import Tables
    from bgrecord.tables.export import DatasetWriter, TableWriter, needs, write_table
    from bgrecord.tables.export import table_format as format_of

    if plot and not plot.lower().endswith((".html", ".png")):
        raise click.BadParameter("the plot is written as .html or .png", param_hint="--plot")
    outputs = [(games_out, None), (players_out, "players"), (matches_out, "matches"), (dice_out, "dice")]
    named = [(path, kind, format_of(path, table_format)) for path, kind in outputs if path]
    inputs = gather(paths, lazily=True)  # found as they are read: an archive in flat memory
    games_format = format_of(games_out, table_format)
    if any(fmt == "dataset" for _, kind, fmt in named if kind):
        raise click.BadParameter("a dataset is for the games table (-o); the other tables are small", param_hint="--format")
    try:
        targets = [(path, "folder" if fmt == "dataset" else "file") for path, _, fmt in named]
        check_outputs(targets + ([(plot, "file")] if plot else []), inputs.files, overwrite)
        for _, _, fmt in named:
            needs(fmt)
        if dice_out:
            require("scipy.stats")  # the dice table's chi-square tests
        if plot:
            require("matplotlib")
    except (OutputError, ImportError) as exc:
        fail(str(exc))
    inputs.report()
    summary = Tables(people, keep_matches=bool(matches_out))
    summed = bool(players_out or matches_out or dice_out or plot)  # else only the games table: nothing summed, nothing held
    duplicates = Duplicates()
    problems = empty = 0
    try:
        if games_format == "dataset":
            writer: Any = DatasetWriter(games_out.rstrip("/\\"), tables.GAME_COLUMNS, _common_folder(inputs.files))
        else:
            writer = TableWriter(games_out, games_format, tables.GAME_COLUMNS)
        with writer:
            batch = _Batch(writer)
            for found in each_file(tables.file_rows, inputs.files, (rules,), jobs, quiet, scheduler=scheduler, failed=tables.failed_rows):
                if found.empty:
                    empty += 1
                    click.echo(f"bgrecord: {one_line(found.path)}: warning: {one_line(found.problem or '')}", err=True)
                    continue
                if found.problem:
                    problems += 1
                    click.echo(f"bgrecord: {one_line(found.path)}: {one_line(found.problem)}", err=True)
                    continue

                def take(found: Any = found) -> bool:
                    for chunk in found.rows.chunks():
                        rows = [row for row in duplicates.mark(chunk) if not (dedupe and row["duplicate_of"])]
                        if summed:
                            summary.add(rows)
                        batch.add(found.path, rows)
                    return True

                if not guarded(found.path, take, _said):
                    problems += 1
            problems += batch.close()
        inputs.report()
        for path, kind, fmt in named[1:]:
            write_table(getattr(summary, str(kind))(), path, fmt)
        if plot:
            from bgrecord.tables.plot import report

            report(summary, plot)
    except (ImportError, OSError) as exc:
        fail(str(exc))
    if not quiet:
        left_out = f" ({empty:,} gave no games)" if empty else ""
        click.echo(f"{count(inputs.count, 'file')}{left_out}, {count(writer.rows, 'game')} -> {one_line(games_out)}", err=True)
        if duplicates.copies and not dedupe:
            copies = f"{duplicates.copies:,} games are copies" if duplicates.copies != 1 else "1 game is a copy"
            click.echo(f"{copies} of others (the same moves and dice): see --dedupe", err=True)
    inputs.exit(problems > 0, empty > 0)


def _said(issue: Any) -> bool:
    click.echo(f"bgrecord: {one_line(str(issue.path))}: {one_line(issue.message)}", err=True)
    return False


class _Batch:
    """Games rows written in batches (pandas costs per call; memory stays bounded), each
    file's rows its own: a batch that fails to be written is written again file by file, and
    a file whose rows fail is said and left out (an ``internal`` failure), not the table."""

    SIZE = 5000

    def __init__(self, writer: Any) -> None:
        self.writer = writer
        self.files: list[tuple[str, list[dict[str, Any]]]] = []
        self.rows = 0
        self.failed = 0
        self.wrote = False

    def add(self, path: str, rows: list[dict[str, Any]]) -> None:
        self.files.append((path, rows))
        self.rows += len(rows)
        if self.rows >= self.SIZE:
            self.flush()

    def flush(self) -> None:
        files, self.files, self.rows = self.files, [], 0
        if not files:
            return
        self.wrote = True
        try:
            self.writer.write([row for _, rows in files for row in rows])
        except Exception:  # noqa: BLE001 - one file's rows do not write: find which, the others are written
            from bgrecord.replay.validate import guarded

            for path, rows in files:
                guarded(path, functools.partial(self.writer.write, rows), self.fail)

    def fail(self, issue: Any) -> None:
        self.failed += 1
        _said(issue)

    def close(self) -> int:
        """The last batch written; how many files failed to be written."""
        self.flush()
        if not self.wrote:
            self.writer.write([])  # an empty table still has its columns
        return self.failed


def _common_folder(files: Iterable[str]) -> str:
    """The folder all ``files`` stand in (a dataset's partitions are named below it), found
    file by file (an archive's names are many)."""
    import os.path

    common: str | None = None
    last = ""
    for file in files:
        folder = os.path.dirname(os.path.abspath(file)) if file != "-" else None
        if folder is not None and folder != last:  # a folder's files come together
            last = folder
            common = folder if common is None else os.path.commonpath([common, folder])
    return common if common is not None else "."
