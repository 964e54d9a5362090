"""``bgrecord report``: the report a player reads, from match files analysed here and analyses
written before."""

from __future__ import annotations

import os
from pathlib import Path

import click

from bgrecord.cli.analyzing import engine_option, plies_option, start_engine, timeout_option
from bgrecord.cli.common import Nothing, each_file, fail, jobs_option, overwrite_option, quiet_option, rules_option
from bgrecord.cli.inputs import STDIN, gather
from bgrecord.escapes import one_line, shown

TITLE = "Backgammon analysis report"


@click.command()
@click.argument("paths", nargs=-1)
@click.option("-o", "--output", "target", default="-", show_default=True, metavar="FILE",
              help="Where to write the report (- for standard output).")  # fmt: skip
@click.option("--format", "output", type=click.Choice(["html", "text"]),
              help="html: one static page (no script, nothing fetched); text: the same for a terminal. By default html "
                   "for an output ending in .html or .htm, else text.")  # fmt: skip
@click.option("--analysis", "analyses", multiple=True, metavar="FILE",
              help="An analysis made before (repeatable): a database bgrecord analyze wrote, or its tables (the "
                   "decisions and players tables, and the matches table if at hand). A match these hold at --plies or "
                   "deeper is not analysed again.")  # fmt: skip
@click.option("--worst", type=click.IntRange(0, 20), default=3, show_default=True,
              help="For each player of a match, this many of their worst decisions (checker plays and cube "
                   "decisions alike, of those marked doubtful or worse), each with its board.")  # fmt: skip
@plies_option
@engine_option
@timeout_option
@rules_option()
@jobs_option
@overwrite_option
@quiet_option
def report(paths: tuple[str, ...], target: str, output: str | None, analyses: tuple[str, ...], worst: int, plies: int,
           engine: str, timeout: float, rules: str | None, jobs: int, overwrite: bool, quiet: bool) -> None:  # fmt: skip
    """The report a player reads: PR, errors, luck and rating, per game, match and player.

    PATHS are match files or folders, analysed as bgrecord analyze analyses them (GNU
    Backgammon must be installed), and/or --analysis gives analyses made before. The report
    tells each player of the archive (their PR match after match, by the records' dates, as a
    chart), then each match: the figures of gnubg's statistics, each game's, the luck of each
    game as a chart, and each player's worst decisions with the board, the play made and the
    best. Exit status as analyze's.
    """
    from bgrecord.analysis.files import close_engines
    from bgrecord.cli.analyzing import RunReport
    from bgrecord.outputs import OutputError, atomic_output, check_outputs
    from bgrecord.report.figures import Collector
    from bgrecord.report.sources import add_findings, failed_findings, file_findings, read_analysis

    if not paths and not analyses:
        raise click.UsageError("give match files to analyse, or --analysis with an analysis made before")
    html = output == "html" if output else target.lower().endswith((".html", ".htm"))
    inputs = gather(paths)
    try:
        check_outputs([(target, "file")], [*inputs.files, *analyses], overwrite)
    except OutputError as exc:
        fail(str(exc))
    inputs.report()
    collector = Collector(worst)
    read: set[str] = set()
    for analysis in analyses:
        try:
            read |= read_analysis(analysis, collector)
        except (ValueError, ImportError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{one_line(analysis)}: cannot read: {exc.strerror or exc}")
    if analyses and not inputs.files and not {"decisions", "players"} <= read:
        fail("a report needs analyze's decisions and players tables: give both (or a database analyze wrote)")
    analysed = RunReport()
    if inputs.files:
        engine, settings, _ = start_engine(engine, timeout)
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        workers = jobs or max(1, min(cores, len(inputs.files)))
        if workers > 1:
            close_engines()  # the gnubg asked for its settings: the workers run their own
        arguments = (plies, rules, engine, timeout, collector.known(plies), settings)
        try:
            for found in each_file(file_findings, inputs.files, arguments, workers, quiet, progress=("analysing", 2), batch=1,
                                   failed=failed_findings):  # fmt: skip
                analysed.add(found.analysis)
                add_findings(collector, found)
        finally:
            close_engines()
    told = collector.report()
    if told.without_players:
        click.echo(f"bgrecord: {told.without_players} matches of the decisions table have no players rows: not told", err=True)
    if not told.matches:
        if inputs.missing or analysed.failed:
            inputs.exit(True)
        raise Nothing("no match analysed: nothing to report")
    title = TITLE if len(inputs.files) + len(analyses) != 1 else f"{TITLE}: {Path((inputs.files or analyses)[0]).name}"
    title = one_line(title if STDIN not in inputs.files else TITLE)
    try:
        with atomic_output(target) as out:
            if html:
                from bgrecord.report.page import page

                out.write(shown(page(told, title)))
            else:
                from bgrecord.report.text import report_text

                out.write(shown(report_text(told, title)))
    except OutputError as exc:
        fail(str(exc))
    if not quiet:
        from bgrecord.formats.issues import count

        click.echo(f"{count(len(told.matches), 'match', 'matches')}, {count(len(told.players), 'player')} -> {one_line(target)}", err=True)
    if paths:  # else what was read is the tables given, all read
        inputs.exit(analysed.failed, analysed.skipped > 0)
