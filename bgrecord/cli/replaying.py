"""``bgrecord replay``: records step by step, for people and for programs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import click
from click.core import ParameterSource

from bgrecord.cli.common import STDIN, Nothing, fail, gather, overwrite_option, rules_option, source_of
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
@rules_option()
def replay_command(paths: tuple[str, ...], game: int | None, output: str, board: str, no_board: bool, target: str | None,
                   overwrite: bool, interactive: bool, rules: str | None) -> None:
    """Replay match files step by step, for people and for programs.

    PATHS are files or folders (searched for match files), or - for standard input; records are
    written as they are read. jsonl gives, for every action, the position and match IDs of the
    state before it (gnubg Position ID and Match ID, XGID, OGID). Exit status 1 when a record
    has errors (they are told at their step, and the output is still complete).
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
    if not interactive:
        try:
            check_target(target or "-", files, overwrite)
        except OutputError as exc:
            fail(str(exc))
    issues: list[Issue] = []
    produced = 0
    if interactive:
        from bgrecord.viewer import run

        listed = list(guarded_steps(files[0], step_records(source_of(files[0]), game, rules, issues, ogids=False), failed))
        _no_game(files[0], game, listed)
        run(listed)
        return
    try:
        with atomic_output(target or "-") as out:
            for name in files:
                records = guarded_steps(name, step_records(source_of(name), game, rules, issues, ogids=output == "jsonl"), failed)
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
