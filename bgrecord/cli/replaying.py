"""``bgrecord replay``: records step by step, for people and for programs."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, TypeVar

import click
from click.core import ParameterSource

from bgrecord.cli.common import STDIN, Nothing, fail, gather, overwrite_option, rules_option, source_of
from bgrecord.escapes import one_line, shown
from bgrecord.issues import Issue, Severity

T = TypeVar("T")


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
    tally = _Tally()
    if interactive:
        from bgrecord.cli.streams import stdin_closed
        from bgrecord.viewer import run

        if stdin_closed():
            fail("standard input is closed: the viewer reads its keys there")

        listed = _held(files[0], _records(files[0], game, rules, tally, False, lambda record: record))
        _no_game(files[0], game, listed)
        run(listed)
        return
    produced = 0
    try:
        with atomic_output(target or "-") as out:
            for name in files:
                if output == "html":
                    produced += _page(out, name, game, rules, tally)
                    continue
                if len(files) > 1 and output == "text":
                    out.write(shown(f"== {one_line(name)} ==\n"))
                said = functools.partial(_said, output=output, board=board, path=name)
                for text in _records(name, game, rules, tally, output == "jsonl", said):
                    out.write(shown(text))  # a file of text is read at a terminal too
                    produced += 1
    except OutputError as exc:
        fail(str(exc))
    if not produced and not found.missing and not tally.unread:
        _no_game(", ".join(files) or "the input", game, [])
    found.exit(tally.internal or tally.unread > 0, tally.errors > 0)


class _Tally:
    """What the files' issues say of the run (kept as counts: a run's issues are not held)."""

    def __init__(self) -> None:
        self.errors = 0
        self.internal = False
        self.unread = 0  # files that could not be read

    def extend(self, issues: Iterable[Issue]) -> None:
        for issue in issues:
            self.errors += issue.severity is Severity.ERROR
            self.internal = self.internal or issue.code == "internal"

    def append(self, issue: Issue) -> None:
        self.extend([issue])


def _records(name: str, game: int | None, rules: str | None, tally: _Tally, ogids: bool, said: Callable[[Any], T]) -> Iterator[T]:
    """Each step of the file, as ``said`` makes it (inside the file's barrier: whatever fails,
    in the replay or in the saying, is that file's ``internal`` issue); a file that cannot be
    read is said in a line, and the run goes on."""
    from bgrecord.steps import step_records
    from bgrecord.validate import guarded_steps

    def failed(issue: Issue) -> None:
        tally.append(issue)
        click.echo(f"bgrecord: {one_line(name)}: {issue.message}", err=True)

    steps = step_records(source_of(name), game, rules, tally, ogids=ogids)
    try:
        yield from guarded_steps(name, (said(record) for record in steps), failed)
    except OSError as exc:
        tally.unread += 1
        click.echo(f"bgrecord: {one_line(name)}: cannot read: {exc.strerror or exc}", err=True)


def _held(name: str, records: Iterator[Any]) -> list[Any]:
    """The steps of a file held whole (the page, the viewer), no more than
    :data:`~bgrecord.limits.MAX_SHOWN_STEPS`."""
    from bgrecord.limits import MAX_SHOWN_STEPS

    listed = list(itertools.islice(records, MAX_SHOWN_STEPS + 1))
    if len(listed) > MAX_SHOWN_STEPS:
        fail(f"{one_line(name)}: more than {MAX_SHOWN_STEPS:,} steps, more than one page or viewer holds: --game N takes one game")
    return listed


def _page(out: IO[str], name: str, game: int | None, rules: str | None, tally: _Tally) -> int:
    """The HTML page of one file; how many steps it shows."""
    from bgrecord.htmlpage import page
    from bgrecord.validate import guarded

    listed = _held(name, _records(name, game, rules, tally, False, lambda record: record))
    if tally.unread:
        return 0
    _no_game(name, game, listed)

    def failed(issue: Issue) -> str:
        tally.append(issue)
        click.echo(f"bgrecord: {one_line(name)}: {issue.message}", err=True)
        return ""

    out.write(shown(guarded(name, lambda: page(Path(name).name if name != STDIN else "stdin", listed), failed)))
    return len(listed)


def _no_game(name: str, game: int | None, records: list[Any]) -> None:
    if records:
        return
    if game:
        raise click.BadParameter(f"{name}: no game {game}", param_hint="--game")
    raise Nothing(f"{name}: no game to replay (bgrecord validate {name} says why)")


def _said(record: Any, output: str, board: str, path: str) -> str:
    """A step as text (its lines) or as a JSON line."""
    if output == "jsonl":
        return json.dumps({"path": path, **record.to_json()}, ensure_ascii=False) + "\n"
    from bgrecord.textreplay import text_lines

    return "\n".join(text_lines(record, board)) + "\n"
