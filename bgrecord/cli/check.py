"""``bgrecord read`` and ``bgrecord validate``: what the reader and the replay find in files."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterator

import click

from bgrecord.cli.common import (
    each_file,
    echo_json_object,
    jobs_option,
    output_format,
    quiet_option,
    rules_option,
    scheduler_option,
    source_of,
)
from bgrecord.cli.inputs import gather
from bgrecord.escapes import one_line
from bgrecord.formats.issues import Severity, count

if TYPE_CHECKING:
    from bgrecord.replay.validate import FileReport


@click.command()
@click.argument("paths", nargs=-1, required=True)
@output_format
@quiet_option
def read(paths: tuple[str, ...], output: str, quiet: bool) -> None:
    """Read match files and report what could not be read.

    PATHS are files or folders (searched for match files), or - for standard input. Reading
    checks the format only; the rules are checked by `bgrecord validate`.
    """
    from bgrecord.replay.validate import read_file

    inputs = gather(paths)
    inputs.report()
    reports = [read_file(source_of(name), name) for name in inputs.files]
    errors = sum(report.errors for report in reports)
    failed = any(report.failure or report.internal for report in reports)
    if output == "json":
        summary = {"files": len(inputs.files), "errors": errors}
        document: dict[str, Any] = {"files": [report.to_json() for report in reports], "summary": summary}
        if inputs.problems:
            document["problems"] = inputs.problems
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for report in reports:
            if report.failure:
                click.echo(f"bgrecord: {one_line(report.path)}: {report.failure}", err=True)
            for line in report.lines():
                if not quiet or line.startswith("  "):
                    click.echo(line)
        if len(inputs.files) > 1 and not quiet:
            click.echo(f"{count(len(inputs.files), 'file')}, {count(errors, 'unreadable place')}")
    inputs.exit(failed, errors > 0)


@click.command()
@click.argument("paths", nargs=-1, required=True)
@output_format
@rules_option("Rules to apply over the files' tags: presets (standard, money, playroom, nackgammon, holland) and flags, "
              "e.g. money,jacoby=off,cube-limit=64.")  # fmt: skip
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@jobs_option
@scheduler_option
@quiet_option
def validate(paths: tuple[str, ...], output: str, rules: str | None, strict: bool, jobs: int, scheduler: str | None, quiet: bool) -> None:
    """Check match files against the rules of backgammon.

    PATHS are files or folders (searched for match files), or - for standard input. Every move,
    cube action, result and score is checked; each problem is reported where it stands, as
    path:line:column: severity[code] message.
    """
    from bgrecord.replay.validate import failed_report, validate_file

    inputs = gather(paths, lazily=True)  # found as they are read: an archive in flat memory
    totals = {severity: 0 for severity in Severity}
    games, failed = 0, False
    shown = {Severity.ERROR} | ({Severity.WARNING} if strict else set()) if quiet else set(Severity)

    def reported() -> Iterator[FileReport]:
        """Each file's report as it comes, counted (none held: an archive's run in flat memory)."""
        nonlocal games, failed
        for report in each_file(validate_file, inputs.files, (rules,), jobs, quiet, scheduler=scheduler, failed=failed_report):
            for severity in Severity:
                totals[severity] += report.count(severity)
            games += report.games
            failed = failed or bool(report.failure or report.internal)
            yield report

    if output == "json":

        def fields() -> Iterator[tuple[str, Any]]:
            yield "files", (report.to_json() for report in reported())
            yield "summary", {"files": inputs.count, "games": games, "errors": totals[Severity.ERROR],
                              "warnings": totals[Severity.WARNING], "infos": totals[Severity.INFO]}  # fmt: skip
            if inputs.problems:
                yield "problems", inputs.problems

        echo_json_object(fields())
        inputs.report()
    else:
        for report in reported():
            if report.failure:
                click.echo(f"bgrecord: {one_line(report.path)}: {report.failure}", err=True)
            for issue in report.issues:
                if issue.severity in shown:
                    click.echo(str(issue))
        inputs.report()
        if not quiet:
            click.echo(
                f"{count(inputs.count, 'file')}, {count(games, 'game')}: {count(totals[Severity.ERROR], 'error')}, "
                f"{count(totals[Severity.WARNING], 'warning')}, {count(totals[Severity.INFO], 'info')}"
            )
    inputs.exit(failed, bool(totals[Severity.ERROR] or (strict and totals[Severity.WARNING])))
