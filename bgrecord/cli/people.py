"""``bgrecord players``: the names an archive gives its players, and those that may be one
person; and the ``--aliases`` option of ``stats``, ``index`` and ``analyze``, which makes the
names a user confirmed one person (:mod:`bgrecord.names`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click

from bgrecord.cli.common import each_file, fail, jobs_option, overwrite_option, quiet_option
from bgrecord.cli.inputs import STDIN, gather
from bgrecord.escapes import one_line
from bgrecord.formats.issues import count

if TYPE_CHECKING:
    from bgrecord.names import People

F = TypeVar("F", bound=Callable[..., Any])


def _read_aliases(context: click.Context, parameter: click.Parameter, path: str | None) -> People:
    from bgrecord.names import NO_ALIASES, AliasError, read_aliases

    if path is None:
        return NO_ALIASES
    from bgrecord.names import People

    try:
        with open(path, encoding="utf-8-sig", errors="replace") as table:
            text = table.read(16 << 20)
    except OSError as exc:
        raise click.BadParameter(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return People(read_aliases(text, path))
    except AliasError as exc:
        raise click.BadParameter(str(exc)) from None


def aliases_option(command: F) -> F:
    """``--aliases FILE``: names made one person (CSV rows of name,person)."""
    return click.option("--aliases", "people", metavar="FILE", callback=_read_aliases,
                        help="A CSV file of name,person rows: each name counted as that person (bgrecord players "
                             "lists the names that may be one person).")(command)  # fmt: skip


@click.command()
@click.argument("paths", nargs=-1, required=True)
@aliases_option
@click.option("-o", "--output", "target", metavar="FILE",
              help="Also write the names that may be one person as an aliases file (name,person rows) to check and "
                   "give to --aliases.")  # fmt: skip
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a line a group of names; json: one document.")
@jobs_option
@overwrite_option
@quiet_option
def players(paths: tuple[str, ...], people: People, target: str | None, output: str, jobs: int, overwrite: bool, quiet: bool) -> None:
    """The names of the players, and those that may be one person, for you to confirm.

    PATHS are files or folders (searched for match files). Names are compared in Unicode NFC
    with invisible characters left out (those are read as one name, and listed); listed to
    confirm: one name in different cases (Alice, alice), and a name of one word with the longer
    names that start with it (Masayuki, Masayuki Mochizuki). Confirmed names go in an aliases
    file (-o writes a draft) given to stats, index and analyze with --aliases.
    """
    from bgrecord.names import alias_file, alias_rows
    from bgrecord.outputs import OutputError, atomic_output, check_outputs
    from bgrecord.tables.players import Listing, failed_names, file_names

    inputs = gather(paths)
    if target:
        try:
            check_outputs([(target, "file")], inputs.files, overwrite)
        except OutputError as exc:
            fail(str(exc))
    inputs.report()
    listing = Listing(people)
    problems = 0
    for found in each_file(file_names, inputs.files, (), jobs, quiet, failed=failed_names):
        if found.problem:
            problems += 1
            click.echo(f"bgrecord: {one_line(found.path)}: warning: {one_line(found.problem)}", err=True)
        listing.add(found.names)
    merged, alike = listing.merged(), listing.look_alike()
    if output == "json":
        document = {
            "players": [{"name": name, "games": games} for name, games in sorted(listing.games.items())],
            "read_as_one": [{"name": name, "spellings": [spelling for spelling, _ in ways]} for name, ways in merged],
            "may_be_one": [{"why": each.why, "person": each.person, "names": [{"name": n, "games": g} for n, g in each.names]}
                           for each in alike],
        }  # fmt: skip
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        why = {"case": "one name in different cases", "short": "a name and longer ones that start with it"}
        for name, ways in merged:
            click.echo(f"{', '.join(one_line(spelling) for spelling, _ in ways)}: read as one name, {one_line(name)} "
                       "(Unicode forms, invisible characters)")  # fmt: skip
        for each in alike:
            names = ", ".join(f"{one_line(name)} ({count(games, 'game')})" for name, games in each.names)
            click.echo(f"{names}: {why[each.why]}")
    if target:
        try:
            with atomic_output(target) as out:
                out.write(alias_file(alias_rows(alike)))
        except OutputError as exc:
            fail(str(exc))
    if not quiet:
        said = f"{count(len(listing.games), 'name')} in {count(len(inputs.files), 'file')}: {count(len(alike), 'group')} of names that may be one person"
        click.echo(said + (f" -> {one_line(target)}" if target and target != STDIN else ""), err=True)
    inputs.exit(False, problems > 0)
