"""The ``bgrecord`` command: a thin click layer over the library."""

from __future__ import annotations

import gc
import json
import os
import random
import re
import signal
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TypeVar

import click

from bgrecord import __version__
from bgrecord.board import ascii_board
from bgrecord.demo import random_game
from bgrecord.ids import XGID, MatchState
from bgrecord.issues import Severity
from bgrecord.position import Dice, Position
from bgrecord.reader import iter_matches, match_files
from bgrecord.records import MatchRecord

_KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
_NAMES = ("O", "X")
F = TypeVar("F", bound=Callable[..., Any])


def output_format(command: F) -> F:
    """The one output-format option every reporting command shares."""
    return click.option(
        "--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
        help="text for people (path:line:col: severity[code] message), json for programs.",
    )(command)


def jobs_option(command: F) -> F:
    """The worker-process option of the commands that read many files."""
    return click.option(
        "--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
        help="Worker processes; 0: one per CPU core when the input is large enough to gain from them. "
        "The output is the same for any number.",
    )(command)


# A worker pays off when it gets at least this much text (about a quarter of a second's work).
_BYTES_PER_WORKER = 512 * 1024


def worker_count(jobs: int, files: list[str]) -> int:
    """``jobs`` as asked, or for 0 one per core this process may run on, but no more than the
    input's size makes worth starting (a few small files are read faster by one process)."""
    if jobs:
        return jobs
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if cores == 1:
        return 1
    return max(1, min(cores, len(files), sum(map(_size, files)) // _BYTES_PER_WORKER))


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except OSError:  # reported by the reader, file by file
        return 0


def _parse_dice(text: str) -> Dice:
    if not re.fullmatch(r"[1-6]{2}", text):
        raise click.BadParameter(f"dice are two digits from 1 to 6, like 31, not {text!r}")
    return Dice(int(text[0]), int(text[1]))


def _parse_identifier(text: str, turn: int | None) -> tuple[Position, MatchState | None]:
    """A Position ID, a gnubg ID (``PositionID:MatchID``) or an XGID."""
    try:
        if text.upper().startswith("XGID=") or text.count(":") >= 9:
            xgid = XGID.parse(text)
            return xgid.position, xgid.match
        if ":" in text:
            position_id, match_id = text.split(":", 1)
            match = MatchState.from_id(match_id)
            return Position.from_id(position_id, match.player if turn is None else turn), match
        return Position.from_id(text, turn or 0), None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="IDENTIFIER") from None


# A fixed width keeps --help identical everywhere, so docs/cli.md can be checked against it.
@click.group(name="bgrecord", context_settings={"help_option_names": ["-h", "--help"], "terminal_width": 100, "max_content_width": 100})
@click.version_option(__version__, prog_name="bgrecord")
def main() -> None:
    """Read, re-validate, replay and mine backgammon match records."""


@main.command()
@click.argument("identifier")
@click.option("--dice", help="A roll such as 31: also list the legal plays for it.")
@click.option("--turn", type=click.IntRange(0, 1), help="Player on roll (0 = O, 1 = X) for a bare Position ID.")
def board(identifier: str, dice: str | None, turn: int | None) -> None:
    """Draw the board of a Position ID, a gnubg ID or an XGID.

    \b
    Examples:
      bgrecord board 4HPwATDgc/ABMA --dice 31
      bgrecord board 4HPwATDgc/ABMA:cAkAAAAAAAAE
      bgrecord board 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
    """
    position, match = _parse_identifier(identifier, turn)
    click.echo(ascii_board(position, match), nl=False)
    outcome = position.outcome()
    if outcome:
        click.echo(f"Game over: {_NAMES[outcome.winner]} has won {_KINDS[outcome.kind]}.")
    elif dice:
        roll = _parse_dice(dice)
        plays = position.legal_plays(roll)
        if not plays[0].play:
            click.echo(f"{_NAMES[position.turn]} cannot move with {roll}.")
        else:
            click.echo(f"{_count(len(plays), 'legal play')} for {_NAMES[position.turn]} with {roll}:")
            for number, legal in enumerate(plays, 1):
                click.echo(f"{number:4}. {legal}")


@main.command()
@click.option("--seed", default=1, show_default=True, help="Seed of the random game.")
@click.option("--boards/--no-boards", default=False, show_default=True, help="Draw the board after every turn.")
def demo(seed: int, boards: bool) -> None:
    """Replay a built-in sample: a random legal game played by the rules core."""
    rng = random.Random(seed)
    position = None
    for number, turn in enumerate(random_game(rng), 1):
        name = _NAMES[turn.position.turn]
        play = str(turn.chosen) or "cannot move"
        click.echo(f"{number:4}) {name} rolls {turn.dice}: {play}")
        position = turn.chosen.position
        if boards:
            click.echo(ascii_board(position))
    assert position is not None
    click.echo(ascii_board(position), nl=False)
    outcome = position.outcome()
    if outcome:
        click.echo(f"{_NAMES[outcome.winner]} wins {_KINDS[outcome.kind]} ({_count(outcome.kind, 'point')}).")


def _match_json(match: MatchRecord) -> dict[str, Any]:
    return {
        "format": match.format, "encoding": match.encoding, "length": match.length, "players": list(match.players),
        "tags": {tag.key: tag.value for tag in match.tags},
        "games": [
            {"index": g.index, "number": g.number, "line": g.line, "names": list(g.names), "scores": list(g.scores), "actions": len(g.actions)}
            for g in match.games
        ],
    }


def _summary(path: str, match: MatchRecord) -> str:
    length = "money play" if match.length == 0 else f"{match.length} point match" if match.length else "no match length"
    players = " vs ".join(name or "(no name)" for name in match.players)
    actions = sum(len(game.actions) for game in match.games)
    return f"{path}: {match.format} ({match.encoding}), {length}, {players}, {_count(len(match.games), 'game')}, {_count(actions, 'action')}"


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@output_format
def read(paths: tuple[str, ...], output: str) -> None:
    """Read match files and report what could not be read.

    PATHS are files or folders (searched for .mat .txt .gam .sgf). Reading checks the
    format only; the rules are checked by `bgrecord validate`. Exit status: 0 when every
    file reads, 1 when some text could not be read, 2 for a usage or I/O error.
    """
    files = match_files(paths)
    report: list[dict[str, Any]] = []
    errors = 0
    for path in files:
        try:
            matches = list(iter_matches(path))
        except OSError as exc:
            raise click.ClickException(f"{path}: cannot read: {exc.strerror or exc}") from None
        issues = [issue for match in matches for issue in match.all_issues()]
        errors += sum(issue.severity is Severity.ERROR for issue in issues)
        if output == "json":
            report.append({"path": str(path), "matches": [_match_json(m) for m in matches], "issues": [i.to_json() for i in issues]})
            continue
        for match in matches:
            click.echo(_summary(str(path), match))
        for issue in issues:
            click.echo(f"  {issue}")
    if output == "json":
        summary = {"files": len(files), "errors": errors}
        click.echo(json.dumps({"files": report, "summary": summary}, indent=2, ensure_ascii=False))
    elif len(files) > 1:
        click.echo(f"{len(files)} files, {errors} unreadable places")
    if errors:
        raise SystemExit(1)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@output_format
@click.option("--rules", "rules", metavar="SPEC", help="Rules to apply over the files' tags: presets (standard, money, playroom, nackgammon, holland) and flags, e.g. money,jacoby=off,cube-limit=64.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@jobs_option
def validate(paths: tuple[str, ...], output: str, rules: str | None, strict: bool, jobs: int) -> None:
    """Check match files against the rules of backgammon.

    PATHS are files or folders (searched for .mat .txt .gam .sgf). Every move, cube action,
    result and score is checked; each problem is reported where it stands, as
    path:line:column: severity[code] message. Exit status: 0 when no errors, 1 when errors
    (or warnings, with --strict), 2 for a usage or I/O error.
    """
    from bgrecord.rules import RuleSet, apply_spec
    from bgrecord.validate import validate_file

    if rules:
        try:
            apply_spec(RuleSet(), rules)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--rules") from None
    files = [str(path) for path in match_files(paths)]
    reports = list(_run_reports(validate_file, files, rules, jobs))
    failures = [report for report in reports if report.failure]
    totals = {severity: sum(report.count(severity) for report in reports) for severity in Severity}
    games = sum(report.games for report in reports)
    if output == "json":
        summary = {"files": len(files), "games": games, "errors": totals[Severity.ERROR],
                   "warnings": totals[Severity.WARNING], "infos": totals[Severity.INFO]}
        click.echo(json.dumps({"files": [report.to_json() for report in reports], "summary": summary}, indent=2, ensure_ascii=False))
    else:
        for report in reports:
            if report.failure:
                click.echo(f"{report.path}: {report.failure}", err=True)
            for issue in report.issues:
                click.echo(str(issue))
        click.echo(
            f"{_count(len(files), 'file')}, {_count(games, 'game')}: {_count(totals[Severity.ERROR], 'error')}, "
            f"{_count(totals[Severity.WARNING], 'warning')}, {_count(totals[Severity.INFO], 'note')}"
        )
    if failures:
        raise SystemExit(2)
    if totals[Severity.ERROR] or (strict and totals[Severity.WARNING]):
        raise SystemExit(1)


def _run_reports(work: Callable[..., Any], files: list[str], rules: str | None, jobs: int) -> Iterator[Any]:
    """``work(file, rules)`` for every file, yielded in file order (whatever the number of
    workers), in ``jobs`` worker processes when more than one; a progress bar on stderr for
    long runs at a terminal (rich is imported only then: start-up stays fast)."""
    # What is loaded so far (modules, the grammar) lives as long as the process: the collector
    # need not scan it again for every file, and forked workers keep sharing its pages.
    gc.freeze()
    pool = None
    try:
        jobs = worker_count(jobs, files)
        if jobs > 1 and len(files) > 1:
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
            results: Iterable[Any] = pool.map(work, files, [rules] * len(files), chunksize=8)
        else:
            results = (work(path, rules) for path in files)
        if len(files) >= 50 and sys.stderr.isatty():
            from rich.progress import track

            results = track(results, total=len(files), description="reading", transient=True, console=_stderr())
        yield from results
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        gc.unfreeze()


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is for the main process, which stops the workers without a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stderr() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--output", "games_out", required=True, type=click.Path(dir_okay=False), help="Where to write the games table.")
@click.option("--players", "players_out", type=click.Path(dir_okay=False), help="Also write the players table here.")
@click.option("--matches", "matches_out", type=click.Path(dir_okay=False), help="Also write the matches table here.")
@click.option("--dice", "dice_out", type=click.Path(dir_okay=False), help="Also write the dice table (with chi-square tests) here.")
@click.option("--format", "table_format", type=click.Choice(["csv", "parquet", "json"]), default="csv", show_default=True,
              help="csv, parquet (needs pyarrow: pip install 'bgrecord[parquet]') or json (one object per line).")
@click.option("--plot", type=click.Path(dir_okay=False), help="A visual summary, .html or .png (needs matplotlib: pip install 'bgrecord[plot]').")
@click.option("--rules", "rules", metavar="SPEC", help="Rules over the files' tags, as for validate.")
@jobs_option
def stats(paths: tuple[str, ...], games_out: str, players_out: str | None, matches_out: str | None, dice_out: str | None,
          table_format: str, plot: str | None, rules: str | None, jobs: int) -> None:
    """Tables of statistics from match files: games, players, matches, dice.

    Every figure comes from the replay, not from the files' Wins lines (kept apart as
    recorded_points). Games with errors stay in, with valid=false. Columns: docs/stats.md.
    Rows are written file by file: memory stays flat however large the archive.
    """
    from bgrecord import stats as tables
    from bgrecord.export import TableWriter, write_table

    if plot and not plot.lower().endswith((".html", ".png")):
        raise click.BadParameter("the plot is written as .html or .png", param_hint="--plot")
    files = [str(path) for path in match_files(paths)]
    summary = tables.Tables()
    try:
        with TableWriter(games_out, table_format, tables.GAME_COLUMNS) as writer:
            batch: list[dict[str, Any]] = []
            for rows in _run_reports(tables.game_rows, files, rules, jobs):
                summary.add(rows)
                batch.extend(rows)
                if len(batch) >= 5000:  # pandas costs per call: write in batches, memory stays bounded
                    writer.write(batch)
                    batch = []
            writer.write(batch)
        outputs = [(players_out, summary.players), (matches_out, summary.matches), (dice_out, summary.dice)]
        for out, make in outputs:
            if out:
                write_table(make(), out, table_format)
        if plot:
            from bgrecord.plot import report

            report(summary, plot)
    except (ImportError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{_count(len(files), 'file')}, {_count(writer.rows, 'game')} -> {games_out}", err=True)


_SUFFIXES = {"mat": ".mat", "sgf": ".sgf", "json": ".json"}


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--output", required=True, type=click.Path(), help="The file to write, or a folder for several inputs.")
@click.option("--to", "target", type=click.Choice(list(_SUFFIXES)), help="The format; by default from the output's extension.")
@click.option("--rules", "rules", metavar="SPEC", help="Rules over the files' tags, as for validate.")
@click.option("--force", is_flag=True, help="Convert files with errors too (the errors are reported).")
def convert(inputs: tuple[str, ...], output: str, target: str | None, rules: str | None, force: bool) -> None:
    """Convert match files to .mat (GNU Backgammon's layout), SGF or JSON.

    Moves are written in canonical order with hit marks where the replay hits, and each
    game's result as the replay finds it. A file with errors is converted only with --force;
    its errors are reported either way.
    """
    from bgrecord.convert import convert_file

    files = [str(path) for path in match_files(inputs)]
    out = Path(output)
    if len(files) > 1 or out.is_dir():
        if target is None:
            raise click.BadParameter("give --to when converting into a folder", param_hint="--to")
        out.mkdir(parents=True, exist_ok=True)
        stems = Counter(Path(f).stem for f in files)  # a.mat and a.sgf: a.mat.sgf and a.sgf.sgf
        targets = [out / ((Path(f).stem if stems[Path(f).stem] == 1 else Path(f).name) + _SUFFIXES[target]) for f in files]
    else:
        fmt = target or next((k for k, v in _SUFFIXES.items() if out.suffix.lower() == v), None)
        if fmt is None:
            raise click.BadParameter("say --to mat, sgf or json, or end the output with .mat, .sgf or .json", param_hint="--to")
        target, targets = fmt, [out]
    refused = 0
    for source, destination in zip(files, targets):
        try:
            errors = convert_file(source, destination, target, rules, force)
        except OSError as exc:
            raise click.ClickException(f"{source}: cannot convert: {exc.strerror or exc}") from None
        for issue in errors:
            click.echo(str(issue), err=True)
        if errors and not force:
            refused += 1
            click.echo(f"{source}: not converted ({_count(len(errors), 'error')}; --force converts it anyway)", err=True)
        else:
            click.echo(f"{source} -> {destination}", err=True)
    if refused:
        raise SystemExit(1)


@main.command(name="replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", type=click.IntRange(1), help="Only this game (1-based in the file).")
@click.option("--format", "output", type=click.Choice(["text", "jsonl", "html"]), default="text", show_default=True,
              help="text: each step in words and the board after it; jsonl: one JSON object per action; html: one self-contained page.")
@click.option("-o", "--output-file", "target", type=click.Path(dir_okay=False), help="Write here instead of standard output.")
@click.option("--interactive", "-i", is_flag=True, help="Step through the record with the keyboard (Enter, B, C, I, S, T, D, P, V, G, ?, Q).")
@click.option("--rules", "rules", metavar="SPEC", help="Rules over the file's tags, as for validate.")
def replay_command(path: str, game: int | None, output: str, target: str | None, interactive: bool, rules: str | None) -> None:
    """Replay a match file step by step, for people and for programs.

    jsonl gives, for every action, the position and match IDs of the state before it
    (gnubg Position ID and Match ID, XGID), as GNU Backgammon shows them.
    """
    from bgrecord.steps import step_records

    records = list(step_records(path, game, rules))
    if game is not None and not records:
        raise click.BadParameter(f"the file has no game {game}", param_hint="--game")
    if not records:
        # An empty output with exit 0 would look like success to a script.
        raise click.ClickException(f"{path}: no game to replay (bgrecord validate {path} says why)")
    if interactive:
        from bgrecord.viewer import run

        run(records)
        return
    if output == "jsonl":
        text = "".join(json.dumps(record.to_json(), ensure_ascii=False) + "\n" for record in records)
    elif output == "html":
        from bgrecord.htmlpage import page

        text = page(Path(path).name, records)
    else:
        lines = []
        for record in records:
            lines.append(f"Game {record.game}, move {record.move or '-'}: {record.words}.")
            if record.after is not None and record.action in ("move", "take", "drop"):
                state = record.match_state
                lines.append(ascii_board(record.after, names=record.names).rstrip("\n"))
                lines.append(f" Score {record.score[0]}-{record.score[1]}, cube {record.cube}"
                             + (f" owned by {record.name if record.cube_owner == record.player else 'the other side'}" if record.cube_owner is not None else " in the middle")
                             + (f", {state.length} point match" if state.length else ", money play"))
            for issue in record.issues:
                lines.append(f" {issue}")
        text = "\n".join(lines) + ("\n" if lines else "")
    if target:
        Path(target).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
