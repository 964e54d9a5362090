"""The ``bgrecord`` console script (and ``python -m bgrecord``): :func:`bgrecord.cli.entry`,
with a search's DuckDB index opened first in a thread of its own, while the command line's
modules load (``bgrecord find``: DuckDB's some 30 ms of opening a file, beside the 50 of
loading the commands). Nothing else is read from the arguments here: click parses them."""

from __future__ import annotations

import sys

FIND_VALUED = frozenset({"--play", "--player", "--limit", "--format"})  # find's options that take a value (a test holds them to find's)


def entry() -> None:
    begin_search(sys.argv[1:])
    from bgrecord.cli import entry as command_line

    command_line()


def begin_search(arguments: list[str]) -> None:
    """For ``find DB ...`` with a DuckDB file, begin opening it
    (:meth:`bgrecord.tables.opening.Opening.begin`); anything else, nothing."""
    if not arguments or arguments[0] != "find":
        return
    rest = iter(arguments[1:])
    for argument in rest:
        if argument in FIND_VALUED:
            next(rest, None)
        elif argument == "--":
            database = next(rest, None)
            break
        elif not argument.startswith("-"):
            database = argument
            break
    else:
        return
    if database is not None and database.lower().endswith(".duckdb"):
        from bgrecord.tables.opening import Opening

        Opening.begin(database)
