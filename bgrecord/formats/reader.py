"""Read match files: ``read_match``, ``iter_matches`` and ``iter_games``; a record's text:
``read_match_text``.

Each takes a path (a ``str`` or ``PathLike``: ``read_match("typo.mat")`` raises
``FileNotFoundError``), ``"-"`` for standard input, or bytes (a file's content), in any
format bgrecord reads (recognised by content: :mod:`bgrecord.formats.detect`). Text is read with
``read_match_text`` (or ``Input.text``); a ``str`` holding a line break, which no file name
does, is taken as text too. Never raises on content: what cannot be read becomes an
:class:`Issue` and, inside a game, an ``Unreadable`` action at its place. Raises ``OSError``
only when a path cannot be read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable, Iterator

from bgrecord.formats import detect
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.records import GameRecord, MatchRecord
from bgrecord.formats.source import STDIN, Input, Source


def iter_games(source: Source | Input, path: str | None = None) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each game as soon as it is read, with its match (whose ``games`` list stays empty):
    memory holds one game at a time. A match without games comes once, with None."""
    opened = Input.of(source, path)
    produced = games = 0
    held: MatchRecord | None = None  # a match without games, said when what follows it is known
    for match, game in detect.read(opened):
        if held is not None:
            _finish(held)
            yield held, None
            held = None
        produced += 1
        if game is None and not match.games:
            held = match
            continue
        games += game is not None
        yield match, game
    if held is not None:
        _finish(held, whole_file=not games)
        yield held, None
    if not produced:
        yield _empty(opened), None


def _empty(source: Input) -> MatchRecord:
    match = MatchRecord(source.name, "mat", "utf-8")
    what = "the file is empty" if source.size == 0 else "no match and no game in the file"
    match.issues.append(format_issue(Severity.ERROR, "no-match", what, 1, 1).at(path=source.name))
    return match


def iter_matches(source: Source | Input, path: str | None = None) -> Iterator[MatchRecord]:
    """Each match of the file, with its games and issues (paths filled in)."""
    current: MatchRecord | None = None
    for match, game in iter_games(source, path):
        if match is not current:
            if current is not None:
                yield current
            current = match
        if game is not None:
            match.games.append(game)
    if current is not None:
        yield current


def _finish(match: MatchRecord, whole_file: bool = False) -> None:
    """A match with no game: say why, once. ``whole_file``: no match of the file has a game,
    an error naming the format the file was read as (a file recognised as one format that
    holds none of its games is not a record of it)."""
    if any(issue.severity is Severity.ERROR for issue in match.issues) or any(i.code == "no-games" for i in match.issues):
        return
    line = match.raw.count("\n") or 1
    if match.length is None and match.format == "mat":
        what = "the file is empty" if not match.raw.strip() else "no 'N point match' line and no game: not a match record"
        found = format_issue(Severity.ERROR, "no-match", what, 1, 1)
    elif whole_file:
        what = detect.FORMATS[match.format].what if match.format in detect.FORMATS else match.format
        found = format_issue(Severity.ERROR, "no-games", f"no game in the file (read as {what})", line, None)
    else:
        found = format_issue(Severity.WARNING, "no-games", "the match has no games", line, None)
    match.issues.append(found.at(path=match.path))


def read_match(source: Source | Input, path: str | None = None) -> MatchRecord:
    """The first match of the file (most files hold one); see ``iter_matches`` for the rest.
    When there are more, an info issue says so."""
    matches = iter_matches(source, path)
    first = next(matches)
    rest = sum(1 for _ in matches)
    if rest:
        first.issues.append(
            format_issue(Severity.INFO, "more-matches", f"the file holds {rest + 1} matches; read_match gives the first", None)
            .at(path=first.path)
        )
    return first


def read_match_text(text: str, name: str | None = None) -> MatchRecord:
    """The first match of a record's text, as :func:`read_match` reads a file's (``name``:
    the path its issues give, None for ``<text>``)."""
    return read_match(Input.text(text, name))


MATCH_SUFFIXES = detect.SUFFIXES


def match_files(paths: Iterable[str | Path], unreadable: Callable[[OSError], None] | None = None) -> list[Path]:
    """The files named, and the match files below the folders named (by their endings:
    :data:`MATCH_SUFFIXES`; a folder linked to is not followed), sorted, each once. ``-``
    stands for standard input. ``unreadable(error)``: for a folder below that cannot be
    listed (else it is passed over)."""
    found: dict[Path, None] = {}
    for name in paths:
        path = Path(name)
        if str(name) == STDIN:
            found.setdefault(Path(STDIN), None)
        elif path.is_dir():
            for child in walk_match_files(str(name), unreadable):
                found.setdefault(Path(child), None)
        else:
            found.setdefault(path, None)
    return list(found)


def walk_match_files(folder: str, unreadable: Callable[[OSError], None] | None = None) -> Iterator[str]:
    """The match files below ``folder`` as they are found, in the order of their sorted paths
    (each folder's entries by name, a folder's files where its name sorts): what is held is
    the folders being listed, not the files found, so an archive of any size is walked in
    flat memory. Names start with ``folder`` as :class:`~pathlib.Path` spells it (``./a/``
    as ``a``); a folder linked to is not followed (as :func:`os.walk`), a folder that cannot be
    listed is ``unreadable(error)`` and passed over."""
    top = str(Path(folder))
    pending: list[Iterator[tuple[str, str, os.DirEntry[str]]]] = [_listed(top, "" if top == "." else top, unreadable)]
    while pending:
        entry = next(pending[-1], None)
        if entry is None:
            pending.pop()
            continue
        name, path, found = entry
        if _is_folder(found):
            if not found.is_symlink():
                pending.append(_listed(found.path, path, unreadable))
        elif _is_match_name(name) and _is_file(found):
            yield path


def _listed(folder: str, spelled: str, unreadable: Callable[[OSError], None] | None) -> Iterator[tuple[str, str, os.DirEntry[str]]]:
    """A folder's entries sorted by name: ``(name, path as spelled, entry)``."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted((entry.name, entry) for entry in listing)
    except OSError as error:
        if unreadable is not None:
            unreadable(error)
        return
    for name, entry in entries:
        yield name, os.path.join(spelled, name) if spelled else name, entry


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def is_match_file(name: str) -> bool:
    """Whether a file's name is a match file's (its ending), as a folder's walk finds them."""
    return _is_match_name(os.path.basename(name))


def _is_match_name(name: str) -> bool:
    name = name.lower()
    return name.endswith(MATCH_SUFFIXES) and not name.startswith(".")

