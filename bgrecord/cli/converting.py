"""``bgrecord convert``: match files to .mat, SGF, JSON or OGXM."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bgrecord.cli.common import each_file, fail, jobs_option, overwrite_option, quiet_option, rules_option
from bgrecord.cli.inputs import STDIN, gather
from bgrecord.escapes import one_line
from bgrecord.formats.issues import count
from bgrecord.outputs import distinct

if TYPE_CHECKING:
    from bgrecord.writing.convert import Conversion

_BY_SUFFIX = {".mat": "mat", ".sgf": "sgf", ".json": "json", ".ogxm": "ogxm", ".ogxms": "ogxms"}


def destinations(files: list[str], folder: Path, suffix: str) -> list[str]:
    """Where each input goes in ``folder``: its place below the folder the inputs share,
    mirrored (two files of one name in different folders stay apart); a name that two inputs
    would share (``a.mat`` and ``a.sgf``, or ``a.mat.gz`` and ``a.mat``) keeps its old
    extensions too. ``OutputError`` when two inputs would still go to one file."""
    real = [Path(f).resolve() for f in files if f != STDIN]
    root = Path(os.path.commonpath([str(p.parent) for p in real])) if real else Path(".")
    planned = [Path("stdin") if name == STDIN else Path(name).resolve().relative_to(root) for name in files]
    stems = Counter(os.path.normcase(str(relative.with_suffix(""))) for relative in planned)
    bases = [relative.with_suffix("") if stems[os.path.normcase(str(relative.with_suffix("")))] == 1 else relative for relative in planned]
    found = [os.path.normcase(str(base) + suffix) for base in bases]
    shared = Counter(found)
    bases = [relative if shared[target] > 1 else base for relative, base, target in zip(planned, bases, found)]
    targets = [str(folder / (str(base) + suffix)) for base in bases]
    distinct(targets)
    return targets


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", required=True, metavar="PATH",
              help="The file to write (- for standard output), or a folder for several inputs (their folder tree is mirrored there).")  # fmt: skip
@click.option("--to", "target", type=click.Choice(sorted(_BY_SUFFIX.values())),
              help="The format; by default from the output's extension.")
@rules_option()
@click.option("--force", is_flag=True, help="Convert files with errors too (the errors are reported).")
@overwrite_option
@jobs_option
@quiet_option
def convert(inputs: tuple[str, ...], output: str, target: str | None, rules: str | None, force: bool, overwrite: bool,
            jobs: int, quiet: bool) -> None:
    """Convert match files to .mat (GNU Backgammon's layout), SGF, JSON or OGXM.

    Moves are written in canonical order with hit marks where the replay hits, and each game's
    result as the replay finds it. A file with errors is converted only with --force; its
    errors are reported either way. An input is never written over, an existing output only
    with --overwrite, and each output is written to a temporary file renamed into place.
    """
    from bgrecord.outputs import OutputError, check_outputs
    from bgrecord.writing.convert import TARGETS, convert_pair, failed_conversion

    found = gather(inputs)
    found.report()
    files = found.files
    out = Path(output)
    stream = (target or _BY_SUFFIX.get(out.suffix.lower())) == "ogxms" and output != STDIN and not out.is_dir()
    into_folder = not stream and (len(files) > 1 or out.is_dir() or any(Path(p).is_dir() for p in inputs if p != STDIN))
    if into_folder:
        if target is None:
            raise click.BadParameter("give --to when converting into a folder", param_hint="--to")
        if output == STDIN:
            raise click.BadParameter("several inputs go into a folder, not to standard output", param_hint="-o")
        try:
            targets = destinations(files, out, TARGETS[target])
        except OutputError as exc:
            fail(str(exc))
        for folder in sorted({Path(t).parent for t in targets}):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                fail(f"{folder}: cannot make the folder: {exc.strerror or exc}")
    else:
        target = target or _BY_SUFFIX.get(out.suffix.lower())
        if target is None:
            raise click.BadParameter("say --to mat, sgf, json, ogxm or ogxms, or end the output with one of those extensions", param_hint="--to")
        targets = [output] * len(files)
    if stream:
        try:
            check_outputs([(output, "file")], files, overwrite)
        except OutputError as exc:
            fail(str(exc))
    pairs = list(zip(files, targets))
    results = list(each_file(convert_pair, pairs, (target, rules, force, overwrite, tuple(files)), jobs, quiet, sized=lambda pair: pair[0],
                             failed=failed_conversion))  # fmt: skip
    counts = {"written": 0, "refused": 0, "errors": 0, "failed": 0}
    for result in results:
        counts[result.status] += 1
        for issue in result.errors:
            if not quiet or not force:
                click.echo(str(issue), err=True)
        if result.more_errors and (not quiet or not force):
            click.echo(f"{one_line(result.source)}: {count(result.more_errors, 'more error')} not listed", err=True)
        if result.status == "written" and not stream and not quiet:
            click.echo(f"{one_line(result.source)} -> {one_line(result.destination)}", err=True)
        elif result.status == "errors":
            errors = count(len(result.errors) + result.more_errors, "error")
            click.echo(one_line(result.message or f"{result.source}: not converted ({errors}; --force converts it anyway)"), err=True)
        elif result.message:
            click.echo(f"bgrecord: {one_line(result.message)}", err=True)
    if stream:
        _write_stream(output, results, inputs=tuple(files), overwrite=overwrite, counts=counts)
    if not quiet:
        summary = f"{counts['written']:,} written, {counts['refused']:,} refused"
        if counts["errors"]:
            summary += f", {counts['errors']:,} not converted (errors)"
        if counts["failed"]:
            summary += f", {counts['failed']:,} failed"
        click.echo(summary, err=True)
    found.exit(bool(counts["failed"] or counts["refused"]), counts["errors"] > 0)


def _write_stream(output: str, results: list[Conversion], inputs: tuple[str, ...], overwrite: bool, counts: dict[str, int]) -> None:
    """Every match converted, as one OGXM stream."""
    from bgrecord.outputs import OutputError, check_target, write_output
    from bgrecord.writing.ogxm import write_stream

    members = [member for result in results if result.status == "written" for member in result.members]
    try:
        check_target(output, inputs, overwrite)  # again, as it is written: the conversions took time
        write_output(output, write_stream(members))
    except (OutputError, ImportError, ValueError) as exc:
        fail(str(exc))
    click.echo(f"{count(len(members), 'match', 'matches')} -> {one_line(output)}", err=True)
