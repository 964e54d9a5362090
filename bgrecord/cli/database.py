"""``bgrecord index`` and ``bgrecord find``: an archive's database, and where a position occurred."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from bgrecord.cli.common import STDIN, count_range, each_file, fail, gather, jobs_option, quiet_option, rules_option, scheduler_option
from bgrecord.cli.people import aliases_option
from bgrecord.escapes import one_line
from bgrecord.formats.issues import count


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "target", required=True, metavar="DB",
              help="The database: .duckdb (needs: pip install 'bgrecord[db]') or .sqlite. Updated when it exists.")  # fmt: skip
@click.option("--dedupe", is_flag=True, help="The players, matches and dice tables count each match once.")
@click.option("--analysis", "analyses", multiple=True, metavar="FILE",
              help="A table written by bgrecord analyze (decisions, players or matches) to keep in the database, by "
                   "match and plies; find then shows the error made at each occurrence. May be given more than once.")  # fmt: skip
@rules_option()
@aliases_option
@jobs_option
@scheduler_option
@quiet_option
def index(paths: tuple[str, ...], target: str, dedupe: bool, analyses: tuple[str, ...], rules: str | None, people: Any, jobs: int,
          scheduler: str | None, quiet: bool) -> None:  # fmt: skip
    """Put match files into a database: the tables of stats, and every position.

    PATHS are files or folders. The database holds the games, players, matches and dice tables
    of bgrecord stats and a positions table (one row per action, with the gnubg Position ID,
    Match ID, XGID and OGID of the position before it), indexed by position. Run again on a
    grown archive, it reads only the files that are new or changed (by content). It is written
    as a copy renamed into place: a run that fails leaves the database as it was. Schema:
    docs/stats.md.
    """
    from bgrecord.extras import require
    from bgrecord.outputs import OutputError, check_outputs
    from bgrecord.tables.archive import failed_rows, index_rows
    from bgrecord.tables.archive import index as update
    from bgrecord.tables.database import engine_of

    inputs = gather(paths)
    if STDIN in inputs.files:
        raise click.BadParameter("an index is of files, not of standard input", param_hint="PATHS")
    try:
        if engine_of(target) == "duckdb":
            require("duckdb")
        check_outputs([(target, "database")], [*inputs.files, *analyses])
    except (ValueError, ImportError, OutputError) as exc:
        fail(str(exc))
    inputs.report()

    def work(names: list[str]) -> Any:
        return each_file(index_rows, names, (rules,), jobs, quiet, scheduler=scheduler, failed=failed_rows)

    def waiting() -> None:
        click.echo(f"bgrecord: {one_line(target)}: another bgrecord index is writing it: waiting for it to finish", err=True)

    tables = _analysis_tables(analyses, target)
    try:
        report = update(target, [str(Path(name)) for name in inputs.files], work, dedupe, waiting, people)
        if tables:
            from bgrecord.analysis.store import rows_of, storing

            with storing(target, waiting) as store:
                for kind, chunks in tables:
                    for chunk in chunks:  # a large table a chunk at a time
                        store.add(kind, rows_of(chunk))
    except (ValueError, OSError) as exc:
        fail(str(exc))
    if report.remade:
        click.echo(f"bgrecord: {one_line(target)}: an index of another version of bgrecord: made again from every file", err=True)
    for file, problem, _ in report.problems:
        click.echo(f"bgrecord: {one_line(file)}: {one_line(problem)}", err=True)
    for file, problem in report.empty:
        click.echo(f"bgrecord: {one_line(file)}: warning: {one_line(problem)}", err=True)
    if not quiet:
        again = f", {len(report.retried):,} read again" if report.retried else ""
        left_out = f" ({count(len(report.empty), 'file')} gave no games: read again next time)" if report.empty else ""
        click.echo(f"{count(len(report.added), 'file')} added, {len(report.replaced):,} changed, {len(report.unchanged):,} unchanged{again}"
                   f"{left_out}: {count(report.games, 'game')}, {count(report.positions, 'position')} -> {one_line(target)}", err=True)  # fmt: skip
    inputs.exit(any(internal for *_, internal in report.problems), bool(report.problems or report.empty))


def _analysis_tables(paths: tuple[str, ...], target: str) -> list[tuple[str, Any]]:
    """The tables of ``--analysis``, read before the database is touched."""
    if not paths:
        return []
    from bgrecord.analysis.store import load

    tables = []
    for path in paths:
        try:
            if Path(path).resolve() == Path(target).resolve():
                raise ValueError(f"{path}: this is the database")
            tables.append(load(path))
        except (ValueError, ImportError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{path}: cannot read: {exc.strerror or exc}")
    return tables


@click.command()
@click.argument("database", metavar="DB")
@click.argument("position")
@click.option("--dice", is_flag=True, help="Also the dice (of a gnubg ID, an XGID or an OGID).")
@click.option("--cube", is_flag=True, help="Also the cube's value and owner.")
@click.option("--score", is_flag=True, help="Also the score and the match length.")
@click.option("--limit", type=count_range(), help="At most this many occurrences (the first, in file order; the summary says of how many).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a line an occurrence; json: one document.")  # fmt: skip
def find(database: str, position: str, dice: bool, cube: bool, score: bool, limit: int | None, output: str) -> None:
    """Every occurrence of a position in a database made by bgrecord index.

    POSITION is a gnubg Position ID, a gnubg ID (PositionID:MatchID), an XGID or an OGID. By
    default the position alone is matched (from the side of the player to act); --dice,
    --cube and --score also match what the identifier says of them. Each occurrence: the file
    and line, the match, game and move, the players, and what was done from the position.
    Exit status 1 when it never occurred.

    \b
    Examples:
      bgrecord find archive.duckdb 4HPwATDgc/ABMA
      bgrecord find archive.sqlite 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10' --dice
    """
    from bgrecord.tables.archive import Wanted, occurrences
    from bgrecord.tables.archive import find as search

    try:
        wanted = Wanted.of(position, dice, cube, score)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="POSITION") from None
    try:
        found = search(database, wanted, limit)
        total = occurrences(database, wanted) if limit and len(found) == limit else len(found)
        if found:
            from bgrecord.analysis.store import errors_at

            errors_at(database, found)
    except (ValueError, ImportError) as exc:
        fail(str(exc))
    if output == "json":
        document = {"position_id": wanted.position_id, "total": total, "occurrences": found}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        for row in found:
            click.echo(_occurrence(row))
        shown = f"the first {len(found):,} of {count(total, 'occurrence')}" if total > len(found) else count(total, "occurrence")
        click.echo(f"{shown} of {wanted.position_id}", err=True)
    if not found:
        raise SystemExit(1)


def _occurrence(row: dict[str, Any]) -> str:
    """``file:line: game 2, move 5 (Alice - Bob): Alice to play 52: 13/11 13/8``; in a file
    without lines, the unit its place counts (``file.xg:record 4: ...``), as validate says it."""
    from bgrecord.names import named

    names = (one_line(named(row["player0"] or "", 0)), one_line(named(row["player1"] or "", 1)))
    actor = names[row["player"]] if row["player"] in (0, 1) else "?"
    move = f", move {row['move']}" if row["move"] else ""
    match = f"match {row['match']}, " if row["match"] and row["match"] > 1 else ""
    done = {"move": f"{actor} to play {row['dice']}: {row['play'] or 'no move'}" if row["dice"] else f"{actor} to roll",
            "double": f"{actor} doubles", "take": f"{actor} doubled: taken", "drop": f"{actor} doubled: dropped",
            "setup": f"set up, {actor} to act"}.get(row["action"], f"{actor}: {row['action']}")  # fmt: skip
    where = row["line"] if row["unit"] in (None, "line") else f"{row['unit']} {row['line']}"
    said = f"{one_line(str(row['file']))}:{where}: {match}game {row['game']}{move} ({names[0]} - {names[1]}): {one_line(done)}"
    return said + "".join(f"; {one_line(_judged(decision))}" for decision in row.get("analysis") or ())


def _judged(decision: dict[str, Any]) -> str:
    """``error 0.083 (bad), best 13/7 8/7`` (a cube decision: ``no double: error 0.101 (missed double below CP)...``)."""
    kind = "" if decision["kind"] == "checker" else f"{decision['kind']}: "
    error = decision["error"] or 0.0
    why = ", ".join(str(part) for part in (decision["mark"], decision["category"]) if part)
    best = f", best {decision['best']}" if error and decision["best"] is not None else ""
    return f"{kind}error {error:.3f}{f' ({why})' if why else ''}{best} [{decision['plies']} ply]"
