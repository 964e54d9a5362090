"""``bgrecord replay``: records step by step, for people and for programs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import click
from click.core import ParameterSource

from bgrecord.cli.common import STDIN, Nothing, fail, gather, overwrite_option, rules_option, source_of
from bgrecord.cli.analyzing import plies_option
from bgrecord.issues import Issue, Severity


@click.command(name="replay")
@click.argument("paths", nargs=-1, required=True)
@click.option("--game", type=click.IntRange(1), help="Only this game (1-based in each file).")
@click.option("--format", "output", type=click.Choice(["text", "jsonl", "html"]), default="text", show_default=True,
              help="text: each step in words and the board after it; jsonl: one JSON object per action; html: one "
                   "self-contained page (of one file).")  # fmt: skip
@click.option("--board", "board", type=click.Choice(["ascii", "words", "none"]), default="ascii", show_default=True,
              help="text: the board after each step as GNU Backgammon draws it, in words (for a screen reader), or none.")
@click.option("--no-board", is_flag=True, help="The same as --board none.")
@click.option("-o", "--output-file", "target", metavar="FILE", help="Write here instead of standard output.")
@overwrite_option
@click.option("--interactive", "-i", is_flag=True, help="Step through one record with the keyboard (the keys: docs/cli.md, or ? in the viewer).")
@click.option("--analysis", "analysis", metavar="FILE",
              help="Show each step's error and luck from this analysis: the decisions table of bgrecord analyze, or a "
                   "database it wrote (steps are found by their game's moves and score, not by file name).")  # fmt: skip
@click.option("--analyze", "analyze", is_flag=True, help="Analyse the files with GNU Backgammon first (as bgrecord analyze) "
              "and show each step's error and luck.")  # fmt: skip
@plies_option
@rules_option()
def replay_command(paths: tuple[str, ...], game: int | None, output: str, board: str, no_board: bool, target: str | None,
                   overwrite: bool, interactive: bool, analysis: str | None, analyze: bool, plies: int, rules: str | None) -> None:
    """Replay match files step by step, for people and for programs.

    PATHS are files or folders (searched for match files), or - for standard input; records are
    written as they are read. jsonl gives, for every action, the position and match IDs of the
    state before it (gnubg Position ID and Match ID, XGID, OGID). Exit status 1 when a record
    has errors (they are told at their step, and the output is still complete). With
    --analysis or --analyze, each step also says its error and luck (jsonl: an "analysis" list).
    """
    from bgrecord.outputs import OutputError, atomic_output, check_target
    from bgrecord.steps import step_records
    from bgrecord.validate import guarded_steps

    def failed(issue: Issue) -> None:
        issues.append(issue)
        click.echo(f"bgrecord: {issue.path}: {issue.message}", err=True)

    source = click.get_current_context().get_parameter_source
    if interactive and (target or source("output") is not ParameterSource.DEFAULT or no_board or source("board") is not ParameterSource.DEFAULT):
        raise click.UsageError("--interactive reads the keyboard: it takes neither --format, --board, --no-board nor -o")
    board = "none" if no_board else board
    found = gather(paths)
    found.report()
    files = found.files
    if (interactive or output == "html") and len(files) != 1:
        raise click.UsageError(f"{'--interactive' if interactive else 'html'} replays one file, not {len(files)}")
    if target:
        try:
            check_target(target, files, overwrite)
        except OutputError as exc:
            fail(str(exc))
    if analysis and analyze:
        raise click.UsageError("--analysis reads an analysis, --analyze makes one: give one of them")
    annotate = _annotations(analysis, analyze, files, plies, rules)
    issues: list[Issue] = []
    produced = 0
    if interactive:
        from bgrecord.viewer import run

        listed = list(guarded_steps(files[0], step_records(source_of(files[0]), game, rules, issues, ogids=False, annotate=annotate), failed))
        _no_game(files[0], game, listed)
        run(listed)
        return
    try:
        with atomic_output(target or "-") as out:
            for name in files:
                records = guarded_steps(name, step_records(source_of(name), game, rules, issues, ogids=output == "jsonl", annotate=annotate), failed)
                if output == "html":
                    from bgrecord.htmlpage import page

                    listed = list(records)
                    _no_game(name, game, listed)
                    out.write(page(Path(name).name if name != STDIN else "stdin", listed))
                    produced += len(listed)
                    continue
                if len(files) > 1 and output == "text":
                    out.write(f"== {name} ==\n")
                produced += _write(out, records, output, board, name)
    except OutputError as exc:
        fail(str(exc))
    if not produced and not found.missing:
        _no_game(", ".join(files) or "the input", game, [])
    found.exit(any(i.code == "internal" for i in issues), any(issue.severity is Severity.ERROR for issue in issues))


def _annotations(table: str | None, analyze: bool, files: list[str], plies: int, rules: str | None) -> Any:
    """What gives each step its analysis: a table read, or the files analysed here (None: no analysis)."""
    if not table and not analyze:
        return None
    from bgrecord.analysis.annotate import Annotations, read_annotations

    if table:
        try:
            return read_annotations(table)
        except (ValueError, ImportError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{table}: cannot read: {exc.strerror or exc}")
    from bgrecord.analysis.engine import EngineMissing
    from bgrecord.analysis.files import analyse_file, close_engines
    from bgrecord.analysis.gnubg import find_gnubg

    if STDIN in files:
        raise click.BadParameter("--analyze reads files, not standard input (bgrecord analyze - -o ... then --analysis)", param_hint="PATHS")
    try:
        find_gnubg()
    except EngineMissing as exc:
        fail(str(exc))
    rows: list[dict[str, Any]] = []
    try:
        for name in files:
            found = analyse_file(name, plies, rules)
            for said in ([found.problem] if found.problem else []) + found.notes + found.failures:
                click.echo(f"bgrecord: {name}: {said}", err=True)
            rows += found.decisions
    finally:
        close_engines()
    return Annotations(rows)


def _no_game(name: str, game: int | None, records: list[Any]) -> None:
    if records:
        return
    if game:
        raise click.BadParameter(f"{name}: no game {game}", param_hint="--game")
    raise Nothing(f"{name}: no game to replay (bgrecord validate {name} says why)")


def _write(out: IO[str], records: Any, output: str, board: str, path: str) -> int:
    """The records as text or JSON lines, each as soon as it is made; how many."""
    from bgrecord.textreplay import text_lines

    written = 0
    for record in records:
        written += 1
        if output == "jsonl":
            out.write(json.dumps({"path": path, **record.to_json()}, ensure_ascii=False) + "\n")
        else:
            out.write("\n".join(text_lines(record, board)) + "\n")
    return written
