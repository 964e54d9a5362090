"""Players' names as people: one person however a record writes the name.

A name from a record is compared as :func:`person` makes it: Unicode NFC (a name typed on one
system in composed form, ``é``, and read from another in decomposed form, ``e`` and a combining
accent, is one name), with the characters that show nothing removed (a zero-width space or
joiner, a soft hyphen, a byte-order mark, a bidirectional mark: :data:`INVISIBLE`) and white
space run together. The tables count by that form; text outputs show the invisible characters
as escapes (:mod:`bgrecord.escapes`: ``Ann\u200b``), so that two names that look the same can be
told apart.

What the user confirms is theirs to say: an aliases table (:func:`read_aliases`, a CSV file
of ``name,person`` rows) makes names one person (a nickname and a full name), and
:func:`look_alike` lists the names that may be one person (one name in two cases, a name and a
longer one starting with it) for the user to confirm. An empty name is :func:`unnamed`, the
same in every output.

Imports nothing of bgrecord: every layer may use it.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping

# Format characters that show nothing in a name (Unicode category Cf, and the fillers and
# variation selectors that render as nothing): zero-width space, joiners, marks, isolates,
# the byte-order mark, the soft hyphen, the Mongolian vowel separator, the Hangul fillers.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)
_SPACES = re.compile(r"\s+")
MAX_ALIASES = 100_000  # rows of an aliases file (a person a row: far beyond any archive's players)
MAX_NAME = 256  # characters of a name in it, as a record's (bgrecord.formats.limits)
_FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what starts a spreadsheet formula (bgrecord.tables.export)


def person(name: str) -> str:
    """``name`` as compared: NFC, the invisible characters removed, white space run together
    and stripped. The same for every spelling of one name that looks the same."""
    text = unicodedata.normalize("NFC", INVISIBLE.sub("", name))
    return _SPACES.sub(" ", text).strip()


def unnamed(side: int) -> str:
    """What an empty name is shown as, in every table and text: ``(no name, left)`` or
    ``(no name, right)``, the side of the record it stands on."""
    return f"(no name, {'left' if side == 0 else 'right'})"


def named(name: str, side: int) -> str:
    """``name`` as written, or :func:`unnamed` where it is empty (or only white space and
    invisible characters)."""
    return name if person(name) else unnamed(side)


class AliasError(ValueError):
    """An aliases file that does not read (the message names the file and the line)."""


def read_aliases(text: str, name: str = "aliases") -> dict[str, str]:
    """An aliases table: CSV rows ``name,person`` (a first row ``name,person`` is a header;
    blank rows and rows starting with ``#`` are left out), each name made one person. Both
    sides are compared as :func:`person` makes them; a person's own name needs no row.
    Raises :class:`AliasError` for a row that is not two non-empty cells, a name given two
    persons, or a file past :data:`MAX_ALIASES` rows."""
    import csv  # here: most commands read no aliases

    table: dict[str, str] = {}
    where: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        for number, row in enumerate(reader, 1):
            if number > MAX_ALIASES:
                raise AliasError(f"{name}: more than {MAX_ALIASES:,} rows")
            if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                continue
            if number == 1 and [cell.strip().lower() for cell in row] == ["name", "person"]:
                continue
            if len(row) != 2 or not person(row[0]) or not person(row[1]) or max(map(len, row)) > MAX_NAME:
                raise AliasError(f"{name}:{number}: a row is a name and the person it is (two cells, neither empty, "
                                 f"at most {MAX_NAME} characters each)")  # fmt: skip
            alias, who = (person(cell[1:] if cell.startswith("'") and cell[1:].startswith(_FORMULA) else cell) for cell in row)
            if table.get(alias, who) != who:
                raise AliasError(f"{name}:{number}: {alias!r} is already {table[alias]!r} (line {where[alias]})")
            table[alias], where[alias] = who, number
    except csv.Error as exc:
        raise AliasError(f"{name}:{reader.line_num}: {exc}") from None
    return _resolved(table)


def _resolved(table: Mapping[str, str]) -> dict[str, str]:
    """Each alias to where its chain ends (``Al -> Alice -> Alice Smith``); the names of a loop
    stay themselves, and a chain into a loop ends where it meets it. Linear in the table."""
    done: dict[str, str] = {}
    for start in table:
        path: list[str] = []
        on_path: dict[str, int] = {}
        name = start
        while name in table and name not in done and name not in on_path:
            on_path[name] = len(path)
            path.append(name)
            name = table[name]
        end = done.get(name, name)
        if name in on_path:  # a loop
            done.update((member, member) for member in path[on_path[name] :])
            path = path[: on_path[name]]
        done.update((member, end) for member in path)
    return done


@dataclass(frozen=True)
class People:
    """Names to persons: :func:`person`, then the aliases table."""

    aliases: Mapping[str, str]

    def of(self, name: str) -> str:
        key = person(name)
        return self.aliases.get(key, key)


NO_ALIASES = People({})


@dataclass(frozen=True, slots=True)
class LookAlike:
    """Names that may be one person: ``names`` (each with its games), ``why`` (``case``: one
    name in different cases; ``short``: a name and the longer names that start with it as a
    word), and the person they would be (the most played of them, the longest for ``short``)."""

    names: tuple[tuple[str, int], ...]
    why: str
    person: str


def look_alike(games: Mapping[str, int]) -> list[LookAlike]:
    """The names of ``games`` (name -> games played, names already as :func:`person` makes
    them) that may be one person, for the user to confirm: names equal but for their case;
    a name of one word and the names of several words that start with it (``Masayuki`` and
    ``Masayuki Mochizuki``), each such short name with all the full names it may be. In the
    order of the names; linear in their number."""
    by_case: dict[str, list[str]] = defaultdict(list)
    by_first: dict[str, list[str]] = defaultdict(list)
    for name in games:
        by_case[name.casefold()].append(name)
        words = name.split(" ")
        if len(words) > 1:
            by_first[words[0].casefold()].append(name)
    found: list[LookAlike] = []
    for folded, names in sorted(by_case.items()):
        if len(names) > 1:
            ordered = sorted(names, key=lambda n: (-games[n], n))
            found.append(LookAlike(tuple((n, games[n]) for n in ordered), "case", ordered[0]))
        longer = sorted(set(by_first.get(folded, ())), key=lambda n: (-games[n], n))
        if " " not in folded and longer:
            short = sorted(names, key=lambda n: (-games[n], n))
            found.append(LookAlike(tuple((n, games[n]) for n in short + longer), "short", longer[0]))
    return found


def alias_file(rows: Iterable[tuple[str, str]]) -> str:
    """An aliases file's text: a header, then the rows, as :func:`read_aliases` reads them (a
    cell a spreadsheet would run as a formula written with a leading ``'``, read back without)."""
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", "person"])
    writer.writerows([["'" + cell if cell.startswith(_FORMULA) else cell for cell in row] for row in rows])
    return out.getvalue()


def alias_rows(found: Iterable[LookAlike]) -> list[tuple[str, str]]:
    """The rows of an aliases file for ``found`` (the user's to check): each name that is not
    the person itself, to the person; a short name with several full names it may be is left
    out (only the user can tell which)."""
    rows: dict[str, str] = {}
    for each in found:
        if each.why == "short" and len({n.casefold() for n, _ in each.names if " " in n}) > 1:
            continue
        rows.update((name, each.person) for name, _ in each.names if name != each.person and name not in rows)
    return list(rows.items())
