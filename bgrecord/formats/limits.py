"""The limits every input is held to, whatever its size or shape, so that a hostile file costs
one clear error, never unbounded memory or time (docs/cli.md, "Limits"). Each is far beyond
what real match records hold (the largest of the shared corpus: 45 games in a match, 160
actions in a game, a name of 27 characters, 1.4 MB).

Bytes are limited where they are read (:mod:`bgrecord.formats.source`, the binary readers); objects
(games, actions, names, comments) where every reader's records pass
(:func:`bgrecord.formats.detect.read`); each reader also bounds what it builds before that (a game's
text, a document's values, its nesting, the digits of its numbers).
"""

from __future__ import annotations

MAX_INPUT = 256 << 20  # bytes of any input: a file, standard input, a pipe, what a compressed file inflates to
MAX_BINARY = 64 << 20  # bytes of a binary record, read whole (.xg, .bgf, an OGXM file)
MAX_MEMBER = 1 << 20  # bytes of one match of an OGXM stream (its codec unpacks it to about 200 times that)
MAX_LINE = 16 << 20  # characters of one line of text
MAX_GAME_TEXT = 4 << 20  # characters of one game's text (a .mat game, an SGF game tree)
MAX_MATCHES = 50_000  # matches in one file (an archive in one stream: split it)
MAX_GAMES = 10_000  # games in one match
MAX_ACTIONS = 10_000  # actions in one game (rolls, cube actions, results, comments)
MAX_UNREADABLE = 1_000  # lines or cells of one game that do not read (each costs a parse to say why)
MAX_LINES = MAX_ACTIONS + 16  # lines of one game read (each gives an action or more; a few, none)
MAX_HEADER_LINES = 2_000  # lines of a match's header read (tags, comments, free text)
MAX_NAME = 256  # characters of a player's name, of a tag's value
MAX_COMMENT = 100_000  # characters of one comment
MAX_ELEMENTS = 2_000_000  # values in one BGBlitz document (Smile or JSON)
MAX_DEPTH = 200  # nesting of a BGBlitz document
MAX_DIGITS = 1_000  # digits of an integer in a BGBlitz document
MAX_ISSUES = 10_000  # issues kept for one file (the others are counted, and said in one line); games listed by read
MAX_SHOWN_STEPS = 100_000  # steps of one file that replay --format html and --interactive hold


class TooLarge(ValueError):
    """An input beyond one of the limits: the message says which, and where when known
    (``line``, in the input's unit)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line
