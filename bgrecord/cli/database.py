"""``bgrecord index`` and ``bgrecord find``: an archive's database, and where a position occurred."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any, Iterable, Iterator

import click

from bgrecord.cli.common import (
    count_range,
    each_file,
    echo_json_object,
    fail,
    jobs_option,
    quiet_option,
    rules_option,
    scheduler_option,
)
from bgrecord.cli.inputs import STDIN, gather
from bgrecord.cli.people import aliases_option
from bgrecord.escapes import one_line
from bgrecord.formats.issues import count


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "target", required=True, metavar="DB",
              help="The database: .duckdb (needs: pip install 'bgrecord[db]') or .sqlite. Updated when it exists.")  # fmt: skip
@click.option("--format", "kind", type=click.Choice(["database", "dataset"]), default="database", show_default=True,
              help="database: one file (DB); dataset: a folder of Parquet files split for Dask and DuckDB to read where they are "
                   "(needs: pip install 'bgrecord[parquet]'), written whole (a dataset there is replaced).")  # fmt: skip
@click.option("--dedupe", is_flag=True, help="The players, matches and dice tables count each match once.")
@click.option("--analysis", "analyses", multiple=True, metavar="FILE",
              help="A table written by bgrecord analyze (decisions, players or matches) to keep in the database, by "
                   "match and plies; find then shows the error made at each occurrence. May be given more than once.")  # fmt: skip
@rules_option()
@aliases_option
@jobs_option
@scheduler_option
@quiet_option
def index(paths: tuple[str, ...], target: str, kind: str, dedupe: bool, analyses: tuple[str, ...], rules: str | None, people: Any,
          jobs: int, scheduler: str | None, quiet: bool) -> None:  # fmt: skip
    """Put match files into a database: the tables of stats, and every position.

    PATHS are files or folders. The database holds the games, players, matches and dice tables
    of bgrecord stats and a positions table (one row per action with the position before it,
    keyed by the position: its identifiers are made again when read). A file is known by its
    resolved path and its content: run again on a grown archive, it reads only the files that
    are new or changed, a copy of an indexed file is listed but not counted again, and the
    files gone from a folder given leave the database. It is written as a copy renamed into
    place: a run that fails leaves the database as it was. Schema: docs/stats.md.
    """
    from bgrecord.extras import require
    from bgrecord.outputs import OutputError, check_outputs
    from bgrecord.tables.archive import failed_rows, index_rows
    from bgrecord.tables.archive import index as update
    from bgrecord.tables.database import engine_of
    from bgrecord.tables.duckdb_engine import duckdb_module

    inputs = gather(paths, lazily=True)  # found as they are read: an archive in flat memory
    if inputs.found.stdin:
        raise click.BadParameter("an index is of files, not of standard input", param_hint="PATHS")
    try:
        if kind == "dataset":
            from bgrecord.tables.dataset import check_target as check_dataset

            require("pyarrow")
            if analyses:
                raise ValueError("--analysis: an analysis is kept in a database (--format database)")
            check_dataset(target)
            check_outputs([(target, "folder")], inputs.files, overwrite=True)
        else:
            if engine_of(target) == "duckdb":
                duckdb_module()  # its compiled core: the package's Python layer would hold back the workers' start
            check_outputs([(target, "database")], itertools.chain(inputs.files, analyses))  # the files looked at only if it exists
    except (ValueError, ImportError, OutputError) as exc:
        fail(str(exc))

    def work(units: Iterator[Any]) -> Any:  # a unit: a file's name, or its name and the content key the index has
        return each_file(index_rows, units, (rules,), jobs, quiet, sized=_name_of, scheduler=scheduler, failed=failed_rows)

    def waiting() -> None:
        click.echo(f"bgrecord: {one_line(target)}: another bgrecord index is writing it: waiting for it to finish", err=True)

    tables = _analysis_tables(analyses, target)
    folders = [path for path in paths if path != STDIN and Path(path).is_dir()]
    files = (str(Path(name)) for name in inputs.files)
    try:
        if kind == "dataset":
            report = _dataset(target, files, work, dedupe, folders, people)
        else:
            report = update(target, files, work, dedupe, waiting, folders, people)
        if tables:
            from bgrecord.analysis.store import rows_of, storing

            with storing(target, waiting) as store:
                for kind, chunks in tables:
                    for chunk in chunks:  # a large table a chunk at a time
                        store.add(kind, rows_of(chunk))
    except (ValueError, OSError) as exc:
        fail(str(exc))
    inputs.report()
    _told(report, target, quiet)
    inputs.exit(any(internal for *_, internal in report.problems), bool(report.problems or report.empty))


def _name_of(unit: Any) -> str:
    return unit if isinstance(unit, str) else str(unit[0])


def _dataset(target: str, files: Iterator[str], work: Any, dedupe: bool, folders: list[str], people: Any) -> Any:
    """The index of ``files`` made in a temporary folder, and written as a dataset at ``target``."""
    import tempfile

    from bgrecord.outputs import atomic_folder
    from bgrecord.tables.archive import index as update
    from bgrecord.tables.dataset import write

    with tempfile.TemporaryDirectory(prefix="bgrecord-index-") as folder:
        report = update(Path(folder) / "index.sqlite", files, work, dedupe, None, folders, people)
        with atomic_folder(target) as written:
            write(Path(folder) / "index.sqlite", written)
    return report


def _told(report: Any, target: str, quiet: bool) -> None:
    """What an index run did: each file's problem, and (but with ``quiet``) the copies and a summary."""
    if report.remade_from is not None:
        missing = f" ({count(len(report.not_found), 'file')} of it no longer found)" if report.not_found else ""
        click.echo(f"bgrecord: {one_line(target)}: an index of an older bgrecord (schema {report.remade_from}): made again from the files "
                   f"it listed{missing}", err=True)  # fmt: skip
    for file, problem, _ in report.problems:
        click.echo(f"bgrecord: {one_line(file)}: {one_line(problem)}", err=True)
    for file, problem in report.empty:
        click.echo(f"bgrecord: {one_line(file)}: warning: {one_line(problem)}", err=True)
    if quiet:
        return
    for file, original in report.copies:
        click.echo(f"bgrecord: {one_line(file)}: the same bytes as {one_line(original)}: a copy, not counted again", err=True)
    again = f", {report.retried:,} read again" if report.retried else ""
    copies = f", {count(len(report.copies), 'copy', 'copies')}" if report.copies else ""
    removed = f", {len(report.removed):,} gone from the disk (taken out)" if report.removed else ""
    left_out = f" ({count(len(report.empty), 'file')} gave no games: read again next time)" if report.empty else ""
    click.echo(f"{count(report.added, 'file')} added, {report.replaced:,} changed, {report.unchanged:,} unchanged{again}{copies}"
               f"{removed}{left_out}: {count(report.games, 'game')}, {count(report.positions, 'position')} -> {one_line(target)}", err=True)  # fmt: skip


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
@click.option("--play", metavar="PLAY", help="Also the play made from it, its moves in any order ('24/18 13/11', 'bar/22*', '6/off').")
@click.option("--player", metavar="NAME", help="Also the player who acted from it (as the record names him).")
@click.option("--limit", type=count_range(), help="At most this many occurrences (the first, in file order; the summary says of how many).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a line an occurrence; json: one document.")  # fmt: skip
def find(database: str, position: str, dice: bool, cube: bool, score: bool, play: str | None, player: str | None, limit: int | None,
         output: str) -> None:  # fmt: skip
    """Every occurrence of a position in a database made by bgrecord index.

    POSITION is a gnubg Position ID, a gnubg ID (PositionID:MatchID), an XGID or an OGID. By
    default the position alone is matched (from the side of the player to act); --dice,
    --cube and --score also match what the identifier says of them, --play and --player what
    was done from it and by whom. Each occurrence: the file and line, the match, game and
    move, the players, and what was done from the position. The occurrences are written as
    they are found. Exit status 1 when it never occurred.

    \b
    Examples:
      bgrecord find archive.duckdb 4HPwATDgc/ABMA
      bgrecord find archive.sqlite 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10' --dice
      bgrecord find archive.sqlite 4HPwATDgc/ABMA --play '13/11 24/23'
    """
    from bgrecord.tables.opening import Opening

    opening = Opening.of(database)  # DuckDB opens the file while the search's modules load
    try:
        from bgrecord.tables.search import Wanted, count_in, find_in, searched

        try:
            wanted = Wanted.of(position, dice, cube, score, play, player)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--play" if play and "play" in str(exc) else "POSITION") from None
        shown = 0
        total = None
        with searched(database, opening) as index:  # opened once: counted and searched
            found = find_in(index, wanted, limit, identifiers=output == "json")  # the text shows no identifier
            if output == "json":
                total = count_in(index, wanted)  # the document's header
                shown = _json_document(wanted.position_id, total, found)
            else:
                shown = _lines_out(_occurrence(row) for row in found)
                if limit and shown == limit:  # counted once the rows are out (the opening's: a million rows at a million games)
                    total = count_in(index, wanted)
    except (ValueError, ImportError) as exc:
        fail(str(exc))
    finally:
        if opening is not None:
            opening.close()
    if output != "json":
        total = shown if total is None else total
        said = f"the first {shown:,} of {count(total, 'occurrence')}" if total > shown else count(total, "occurrence")
        click.echo(f"{said} of {wanted.position_id}", err=True)
    if not shown:
        raise SystemExit(1)


def _json_document(position_id: str, total: int, found: Any) -> int:
    """``{"position_id", "total", "occurrences": [...]}``, each occurrence written as it comes; how many."""
    shown = 0

    def each() -> Iterator[dict[str, Any]]:
        nonlocal shown
        for row in found:
            shown += 1
            yield row

    echo_json_object([("position_id", position_id), ("total", total), ("occurrences", each())])
    return shown


LINES_AT_ONCE = 256  # occurrences written at a time: a write (and flush) a line cost the opening's 4,403 a third of find's time


def _lines_out(lines: Iterable[str]) -> int:
    """``lines`` written to standard output :data:`LINES_AT_ONCE` at a time (the last as soon as
    they end); how many."""
    count, lines = 0, iter(lines)
    while block := list(itertools.islice(lines, LINES_AT_ONCE)):
        click.echo("\n".join(block))
        count += len(block)
    return count


_DONE = {"double": "{} doubles", "take": "{} doubled: taken", "drop": "{} doubled: dropped", "setup": "set up, {} to act"}


def _occurrence(row: dict[str, Any]) -> str:
    """``file:line: game 2, move 5 (Alice - Bob): Alice to play 52: 13/11 13/8``; in a file
    without lines, the unit its place counts (``file.xg:record 4: ...``), as validate says it."""
    names = _names(row["player0"], row["player1"])
    actor = names[row["player"]] if row["player"] in (0, 1) else "?"
    move = f", move {row['move']}" if row["move"] else ""
    match = f"match {row['match']}, " if row["match"] and row["match"] > 1 else ""
    action = row["action"]
    if action == "move":
        done = f"{actor} to play {row['dice']}: {row['play'] or 'no move'}" if row["dice"] else f"{actor} to roll"
    else:
        done = _DONE[action].format(actor) if action in _DONE else f"{actor}: {action}"
    where = row["line"] if row["unit"] in (None, "line") else f"{row['unit']} {row['line']}"
    said = f"{_file(row['file'])}:{where}: {match}game {row['game']}{move} ({names[0]} - {names[1]}): {done}"
    return said + "".join(f"; {one_line(_judged(decision))}" for decision in row.get("analysis") or ())


@functools.lru_cache(maxsize=4096)  # a position's occurrences are in a few files, between a few players: each shown once
def _names(player0: str | None, player1: str | None) -> tuple[str, str]:
    from bgrecord.names import named

    return one_line(named(player0 or "", 0)), one_line(named(player1 or "", 1))


@functools.lru_cache(maxsize=4096)
def _file(name: Any) -> str:
    return one_line(str(name))


def _judged(decision: dict[str, Any]) -> str:
    """``error 0.083 (bad), best 13/7 8/7`` (a cube decision: ``no double: error 0.101 (missed double below CP)...``)."""
    kind = "" if decision["kind"] == "checker" else f"{decision['kind']}: "
    error = decision["error"] or 0.0
    why = ", ".join(str(part) for part in (decision["mark"], decision["category"]) if part)
    best = f", best {decision['best']}" if error and decision["best"] is not None else ""
    return f"{kind}error {error:.3f}{f' ({why})' if why else ''}{best} [{decision['plies']} ply]"
