"""``bgrecord replay``: records step by step, for people and for programs."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, TypeVar

import click
from click.core import ParameterSource

from bgrecord.cli.analyzing import plies_option
from bgrecord.cli.common import Nothing, count_range, fail, overwrite_option, rules_option, source_of
from bgrecord.cli.inputs import STDIN, gather
from bgrecord.escapes import one_line, shown
from bgrecord.formats.issues import Issue, Severity

T = TypeVar("T")


@click.command(name="replay")
@click.argument("paths", nargs=-1, required=True)
@click.option("--game", type=count_range(), help="Only this game (1-based in each file).")
@click.option("--format", "output", type=click.Choice(["text", "json", "jsonl", "html"]),
              help="text: each step in words and the board after it; json: one document, the list of the steps' objects; "
                   "jsonl: one JSON object per action; html: one self-contained page (of one file). By default from -o's "
                   "extension (.json, .jsonl, .html), else text.")  # fmt: skip
@click.option("--board", "board", type=click.Choice(["ascii", "words", "none"]), default="ascii", show_default=True,
              help="text: the board after each step as GNU Backgammon draws it, in words (for a screen reader), or none.")
@click.option("--no-board", is_flag=True, help="The same as --board none.")
@click.option("--points-from", "points_from", type=click.Choice(["roll", "left", "right"]), default="roll", show_default=True,
              help="Whose side the points are numbered from in words (each play, the board in words, one point, the "
                   "best play): the player on roll (each play its mover's, as records write them), or the left or right "
                   "player's, kept fixed. The HTML page starts from it.")  # fmt: skip
@click.option("-o", "--output", "target", metavar="FILE", help="Write here instead of standard output.")
@click.option("--output-file", "old_target", metavar="FILE", hidden=True)  # the old spelling of -o, still read
@overwrite_option
@click.option("--interactive", "-i", is_flag=True, help="Step through one record with the keyboard (the keys: docs/cli.md, or ? in the viewer).")
@click.option("--analysis", "analysis", metavar="FILE",
              help="Show each step's error and luck from this analysis: the decisions table of bgrecord analyze, or a "
                   "database it wrote (steps are found by their game's moves and score, not by file name).")  # fmt: skip
@click.option("--analyze", "analyze", is_flag=True, help="Analyse the files with GNU Backgammon first (as bgrecord analyze) "
              "and show each step's error and luck.")  # fmt: skip
@plies_option
@rules_option()
def replay_command(paths: tuple[str, ...], game: int | None, output: str | None, board: str, no_board: bool, points_from: str,
                   target: str | None, old_target: str | None, overwrite: bool, interactive: bool, analysis: str | None,
                   analyze: bool, plies: int,
                   rules: str | None) -> None:  # fmt: skip
    """Replay match files step by step, for people and for programs.

    PATHS are files or folders (searched for match files), or - for standard input; records are
    written as they are read. json and jsonl give, for every action, the position and match IDs
    of the state before it (gnubg Position ID and Match ID, XGID, OGID). Exit status 1 when a record
    has errors (they are told at their step, and the output is still complete). With
    --analysis or --analyze, each step also says its error and luck (json: an "analysis" list).
    """
    from bgrecord.outputs import OutputError, atomic_output, check_outputs

    source = click.get_current_context().get_parameter_source
    if target and old_target:
        raise click.UsageError("give -o once (--output-file is its old spelling)")
    target = target or old_target
    if interactive and (target or output or no_board or source("board") is not ParameterSource.DEFAULT):
        raise click.UsageError("--interactive reads the keyboard: it takes neither --format, --board, --no-board nor -o")
    output = _output_format(output, target)
    board = "none" if no_board else board
    found = gather(paths)
    found.report()
    files = found.files
    if (interactive or output == "html") and len(files) != 1:
        raise click.UsageError(f"{'--interactive' if interactive else 'html'} replays one file, not {len(files)}")
    if not interactive:
        try:
            check_outputs([(target or "-", "file")], files + ([analysis] if analysis else []), overwrite)
        except OutputError as exc:
            fail(str(exc))
    if analysis and analyze:
        raise click.UsageError("--analysis reads an analysis, --analyze makes one: give one of them")
    annotate = _annotations(analysis, analyze, files, plies, rules)
    viewpoint = {"roll": None, "left": 0, "right": 1}[points_from]
    tally = _Tally()
    if interactive:
        from bgrecord.cli.streams import stdin_closed
        from bgrecord.show.viewer import run

        if files[0] != STDIN and stdin_closed():
            fail("standard input is closed: the viewer reads its keys there")
        listed = _held(files[0], _records(files[0], game, rules, tally, False, lambda record: record, annotate, viewpoint))
        _no_game(files[0], game, listed)
        if files[0] != STDIN:
            run(listed, viewpoint=viewpoint)
            return
        try:  # the record came on standard input: the keys come from the terminal
            keys = open("/dev/tty", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
        except OSError as exc:
            fail(f"the record came on standard input, and there is no terminal to read the keys from (/dev/tty: {exc.strerror or exc})")
        with keys:
            run(listed, keys, viewpoint=viewpoint)
        return
    produced = 0
    try:
        with atomic_output(target or "-") as out:
            for name in files:
                before, annotated = produced, getattr(annotate, "found", 0)
                if output == "html":
                    produced += _page(out, name, game, rules, tally, annotate, viewpoint)
                else:
                    if len(files) > 1 and output == "text":
                        out.write(shown(f"== {one_line(name)} ==\n"))
                    said = functools.partial(_said, output=output, board=board, path=name, viewpoint=viewpoint)
                    for text in _records(name, game, rules, tally, output in ("json", "jsonl"), said, annotate, viewpoint):
                        if output == "json":  # one document: the steps' objects in one list
                            text = ("[\n" if not produced else ",\n") + text
                        out.write(shown(text))  # a file of text is read at a terminal too
                        produced += 1
                if analysis and produced > before and getattr(annotate, "found", 0) == annotated:
                    click.echo(f"bgrecord: {one_line(name)}: warning: {one_line(analysis)} holds no analysis of its games (steps "
                               "are found by their game's moves and score: another match's analysis?)", err=True)  # fmt: skip
            if output == "json":
                out.write("\n]\n" if produced else "[]\n")
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


def _records(name: str, game: int | None, rules: str | None, tally: _Tally, ogids: bool, said: Callable[[Any], T],
             annotate: Any = None, viewpoint: int | None = None) -> Iterator[T]:  # fmt: skip
    """Each step of the file, as ``said`` makes it (inside the file's barrier: whatever fails,
    in the replay or in the saying, is that file's ``internal`` issue); a file that cannot be
    read is said in a line, and the run goes on."""
    from bgrecord.replay.validate import guarded_steps
    from bgrecord.show.steps import step_records

    def failed(issue: Issue) -> None:
        tally.append(issue)
        click.echo(f"bgrecord: {one_line(name)}: {issue.message}", err=True)

    steps = step_records(source_of(name), game, rules, tally, ogids=ogids, annotate=annotate, viewpoint=viewpoint)
    try:
        yield from guarded_steps(name, (said(record) for record in steps), failed)
    except OSError as exc:
        tally.unread += 1
        click.echo(f"bgrecord: {one_line(name)}: cannot read: {exc.strerror or exc}", err=True)


def _held(name: str, records: Iterator[Any]) -> list[Any]:
    """The steps of a file held whole (the page, the viewer), no more than
    :data:`~bgrecord.formats.limits.MAX_SHOWN_STEPS`."""
    from bgrecord.formats.limits import MAX_SHOWN_STEPS

    listed = list(itertools.islice(records, MAX_SHOWN_STEPS + 1))
    if len(listed) > MAX_SHOWN_STEPS:
        fail(f"{one_line(name)}: more than {MAX_SHOWN_STEPS:,} steps, more than one page or viewer holds: --game N takes one game")
    return listed


def _page(out: IO[str], name: str, game: int | None, rules: str | None, tally: _Tally, annotate: Any, viewpoint: int | None) -> int:
    """The HTML page of one file; how many steps it shows."""
    from bgrecord.replay.validate import guarded
    from bgrecord.show.htmlpage import page

    listed = _held(name, _records(name, game, rules, tally, False, lambda record: record, annotate, viewpoint))
    if tally.unread:
        return 0
    _no_game(name, game, listed)

    def failed(issue: Issue) -> str:
        tally.append(issue)
        click.echo(f"bgrecord: {one_line(name)}: {issue.message}", err=True)
        return ""

    out.write(shown(guarded(name, lambda: page(Path(name).name if name != STDIN else "stdin", listed, viewpoint), failed)))
    return len(listed)


def _annotations(table: str | None, analyze: bool, files: list[str], plies: int, rules: str | None) -> Any:
    """What gives each step its analysis: a table read, or the files analysed here (None: no analysis)."""
    if not table and not analyze:
        return None
    from bgrecord.show.annotate import Annotations, read_annotations

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
                click.echo(f"bgrecord: {one_line(name)}: {one_line(said)}", err=True)
            rows += found.decisions
    finally:
        close_engines()
    return Annotations.of_rows(rows)


def _no_game(name: str, game: int | None, records: list[Any]) -> None:
    if records:
        return
    if game:
        raise click.BadParameter(f"{name}: no game {game}", param_hint="--game")
    raise Nothing(f"{name}: no game to replay (bgrecord validate {name} says why)")


def _output_format(given: str | None, target: str | None) -> str:
    """The format asked, else the one ``-o``'s extension names (.json, .jsonl, .html), else
    text; a usage error where they disagree on JSON (a .json output holds one document)."""
    suffix = Path(target).suffix.lower() if target and target != STDIN else ""
    named = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".html": "html", ".htm": "html"}.get(suffix)
    if given in ("json", "jsonl") and named in ("json", "jsonl") and given != named:
        raise click.UsageError(f"a {suffix} output holds {'one JSON document' if named == 'json' else 'JSON Lines'}: "
                               f"give --format {named}, or name it {'.jsonl' if named == 'json' else '.json'}")  # fmt: skip
    return given or named or "text"


def _said(record: Any, output: str, board: str, path: str, viewpoint: int | None = None) -> str:
    """A step as text (its lines), as a JSON line, or as an object of a JSON list."""
    if output in ("json", "jsonl"):
        return json.dumps({"path": path, **record.to_json()}, ensure_ascii=False) + ("\n" if output == "jsonl" else "")
    from bgrecord.show.textreplay import text_lines

    return "\n".join(text_lines(record, board, viewpoint)) + "\n"
