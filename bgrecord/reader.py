"""Read match files: ``read_match``, ``iter_matches`` and ``iter_games``.

Accepts a path, text or bytes; recognises SGF by content, anything else is read as the
.mat family. Never raises on content: what cannot be read becomes an :class:`Issue` and
an ``Unreadable`` action at its place. Raises ``OSError`` only when a path cannot be read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from bgrecord import mat, sgf
from bgrecord.issues import Severity, format_issue
from bgrecord.records import GameRecord, MatchRecord
from bgrecord.source import Source, Text, load


def _is_sgf(text: str) -> bool:
    return text.lstrip()[:1] == "(" and ";" in text.lstrip()[:40]


def iter_games(source: Source, path: str | None = None) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each game as soon as it is read, with its match (whose ``games`` list stays empty):
    memory holds one game at a time. A match without games comes once, with None."""
    loaded = load(source, path)
    if _is_sgf(loaded.text):
        match = sgf.read_sgf(loaded)
        games, match.games = match.games, []
        if not games:
            yield match, None
        for game in games:
            yield match, game
        return
    produced = False
    for read in mat.read_matches(loaded):
        produced = True
        yield read
    if not produced:
        yield _empty(loaded), None


def _empty(loaded: Text) -> MatchRecord:
    match = MatchRecord(loaded.path, "mat", loaded.encoding, raw=loaded.text)
    what = "the file is empty" if not loaded.text.strip() else "no match and no game in the file"
    match.issues.append(format_issue(Severity.ERROR, "no-match", what, 1, 1).at(path=loaded.path))
    return match


def iter_matches(source: Source, path: str | None = None) -> Iterator[MatchRecord]:
    """Each match of the file, with its games and issues (paths filled in)."""
    current: MatchRecord | None = None
    for match, game in iter_games(source, path):
        if match is not current:
            if current is not None:
                yield _finish(current)
            current = match
        if game is not None:
            match.games.append(game)
    if current is not None:
        yield _finish(current)


def _finish(match: MatchRecord) -> MatchRecord:
    if not match.games and not any(issue.severity is Severity.ERROR for issue in match.issues):
        line = match.raw.count("\n") or 1
        if match.length is None:
            found = format_issue(Severity.ERROR, "no-match", "no 'N point match' line and no game: not a match record", 1, 1)
        else:
            found = format_issue(Severity.WARNING, "no-games", "the match has no games", line, None)
        match.issues.append(found.at(path=match.path))
    return match


def read_match(source: Source, path: str | None = None) -> MatchRecord:
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


MATCH_SUFFIXES = (".mat", ".txt", ".gam", ".sgf")


def match_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, and the match files (.mat .txt .gam .sgf) below the folders named,
    sorted, each once."""
    found: dict[Path, None] = {}
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.suffix.lower() in MATCH_SUFFIXES:
                    found.setdefault(child, None)
        else:
            found.setdefault(path, None)
    return list(found)
