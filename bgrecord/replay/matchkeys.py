"""What a match is, whatever the file that holds it: the key of a file's content
(:func:`content_key`), the key of a match as played (:class:`MatchKeys`), and copies of a
match found by it (:class:`Duplicates`).

A match's key hashes its length (0 where the file does not say) and, game by game, what was played: each roll (its player,
dice and the position it leads to), each cube action (kind, player, cube), each board set up
(the position it sets) and the result (winner, points, how it ended). Notation is left out,
and so is what formats say differently of the same game: how a resignation is recorded (a
"Wins" line, an offer and its acceptance, RE[W+2R]), the take a beaver implies, who "made" a
set-up and the dice of a play it replaced, set-ups in a row (the board the last one sets
counts), a set-up of a starting layout before the first roll (a game that starts there). A .mat, its SGF, an .xg and their conversions have
the same key.
"""

from __future__ import annotations

import hashlib
from array import array
from typing import TYPE_CHECKING, Any

from bgrecord.core.position import Variant
from bgrecord.formats.source import Input
from bgrecord.replay import GameReplay

if TYPE_CHECKING:
    import sqlite3

_KIND_CODES = {"move": 1, "double": 2, "take": 3, "drop": 4, "beaver": 5, "raccoon": 6, "setup": 12}
_STARTS = {(variant.start, variant.start) for variant in Variant}  # a game set up at a start is that start


def content_key(source: Input) -> str:
    """A stable key of a file's content (its bytes, not its name)."""
    whole = source.read_already()
    if whole is not None:  # a small file: not opened again
        return hashlib.sha256(whole).hexdigest()[:16]
    digest = hashlib.sha256()
    with source.open() as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()[:16]


def game_fingerprint(out: GameReplay) -> bytes:
    """What a game is, as replayed (the module's docstring); not the bytes, the names or the
    notation of the file."""
    # Python's hash of a tuple of ints is the same in every process (strings' and None's are
    # not: they are left out), so each step is eight bytes.
    hashes = array("q")
    previous = ""
    board: tuple[Any, ...] | None = None  # a run of set-ups: the board the last one sets
    started = False  # a roll or cube action seen: a set-up is no longer the game's start
    for step in out.steps:
        kind = step.kind
        if kind not in _KIND_CODES or kind == "take" and previous in ("beaver", "raccoon"):
            continue  # a result's steps (the result is below), or the take a beaver implies
        previous = kind
        after = step.after.sides if step.after is not None else ()
        if kind == "setup":
            board = (step.cube, after)
            continue
        if board is not None and (started or board[1] not in _STARTS):
            hashes.append(hash((_KIND_CODES["setup"], -1, 0, 0, *board)))
        board, started = None, True
        dice = step.dice
        player = -1 if step.player is None else step.player
        cube = step.offered or step.cube if kind == "move" else step.cube  # a beaver taken by the roll: the cube it plays for
        hashes.append(hash((_KIND_CODES[kind], player, min(dice) if dice else 0, max(dice) if dice else 0, cube, after)))
    if board is not None and (started or board[1] not in _STARTS):
        hashes.append(hash((_KIND_CODES["setup"], -1, 0, 0, *board)))
    result = out.result
    return hashes.tobytes() + (f"={result.winner},{result.points},{result.ended_by}".encode() if result else b"=")


class MatchKeys:
    """The key of each match of a file (a hash of its games' fingerprints), made as the games
    are replayed; None for a match with no action (nothing to tell it apart)."""

    def __init__(self) -> None:
        self.hashes: dict[int, Any] = {}
        self.acted: set[int] = set()

    def add(self, match: int, length: int | None, out: GameReplay) -> None:
        # a length the file does not say (.gam, an SGF without MI) is written 0 by every writer
        started = self.hashes.setdefault(match, hashlib.sha256(f"length {length or 0}\n".encode()))
        started.update(game_fingerprint(out) + b"\n")
        if out.steps:
            self.acted.add(match)

    def key(self, match: int) -> str | None:
        return self.hashes[match].hexdigest()[:16] if match in self.acted else None


class Duplicates:
    """Marks the rows of a match already seen (by its key) with ``duplicate_of``: the file and
    match index of its first copy, in the order the rows come. The first copy of each key is
    held in a private temporary SQLite database (on disk past SQLite's page cache): an
    archive's matches are many, and a run's memory does not grow with them."""

    def __init__(self) -> None:
        self.copies = 0  # rows marked so far: games of a match seen before
        self._first: sqlite3.Connection | None = None  # made at the first key
        self._last: tuple[str, str] | None = None  # the last key and its first copy: a match's games come together

    def mark(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for row in rows:
            key = row["match_key"]
            if key is None:
                continue
            here = f"{row['file']}#{row['match']}"
            original = self._last[1] if self._last is not None and self._last[0] == key else self._original(key, here)
            self._last = key, original
            row["duplicate_of"] = original if original != here else None
            self.copies += original != here
        return rows

    def _original(self, key: str, here: str) -> str:
        """The first copy of ``key`` (``here`` when it is the first)."""
        if self._first is None:
            import sqlite3

            self._first = sqlite3.connect("")  # "": a private temporary database, deleted when closed
            self._first.execute("CREATE TABLE first (key TEXT PRIMARY KEY, original TEXT) WITHOUT ROWID")
        found = self._first.execute("SELECT original FROM first WHERE key = ?", (key,)).fetchone()
        if found is not None:
            return str(found[0])
        self._first.execute("INSERT INTO first VALUES (?, ?)", (key, here))
        return here
