"""The Jellyfish .mat family (``.mat``, ``.txt``, ``.gam``): text -> header and game chunks ->
records.

The text comes block by block (a large file is never held whole). It is cut into chunks by
line shape alone: the header (everything before the first ``Game N``), then one chunk per
game; a new ``N point match`` line after games opens the next match, taking the comment and
tag lines just above it as its header. A ``.gam`` game starts at a line of two names, but
only before any match length line and only when rows follow (else two words of prose would
make a game). Each game chunk is read by :mod:`bgrecord.formats.mat_game`.

What this layer does not check: anything about the rules (the replay's work). It reports
only what it could not read (category ``format``) and what it read with a doubt.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from lark import UnexpectedInput

from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_GAME_TEXT, MAX_HEADER_LINES, TooLarge
from bgrecord.formats.mat_game import ROW_START, Chunk, read_game
from bgrecord.formats.mat_grammar import parse
from bgrecord.formats.numbers import number, too_large
from bgrecord.formats.records import GameRecord, MatchRecord, Tag
from bgrecord.formats.source import LINE_END, Input

_GAME = r"[ \t]*game[ \t]+(?:#[ \t]*)?[0-9]+[^\n]*"
# the grammar's MATCH_LENGTH: "7 point match", "7-point match", "Match of 7 points", "Match to 7"...
_MATCH = (r"[ \t]*(?:[0-9]+[ \t]*[- \t][ \t]*(?:points?|pts?\.?)[ \t]+match|match[ \t]+(?:of|to)[ \t]+[0-9]+(?:[ \t]+points?)?"
          r"|match[ \t]+length[ \t]*:?[ \t]*[0-9]+)(?![0-9A-Za-z])[^\n]*")
_NAMES = r"[ \t]*[^\s:;#()/]+[ \t]+[^\s:;#()/]+[ \t]*"  # a .gam game's first line: two names
# Searched in the block after a "\n" (each block starts a line): the search jumps from line end to
# line end, and a row ("12) ...", most lines) is passed over at its first characters.
_NOT_ROW = r"(?![ \t]*+[0-9]++\))"
_MAT_CUTS = re.compile(rf"\n{_NOT_ROW}(?:(?P<game>{_GAME})|(?P<match>{_MATCH}))$", re.I | re.M)
_ANY_CUTS = re.compile(rf"\n{_NOT_ROW}(?:(?P<game>{_GAME})|(?P<match>{_MATCH})|(?P<gam>{_NAMES}))$", re.I | re.M)
_HEADER_LIKE = re.compile(r"[ \t]*(?:[;#][^\n]*)?")  # comment, tag or blank: may open the next match
_NUMBER = re.compile(r"[0-9]+")
# a header line that says money play in words, where others write "0 point match"
_MONEY = re.compile(r"(?i)^[;#\s]*(?:(?:money|unlimited)[ \t]+(?:session|game|play|match)|(?:game[ \t]*)?type[ \t]*[:=][ \t]*money)\b")


class _Open:
    """The chunk being read: its kind, first line and text so far (no longer than
    :data:`~bgrecord.formats.limits.MAX_GAME_TEXT`: :class:`~bgrecord.formats.limits.TooLarge` past it)."""

    __slots__ = ("kind", "line", "texts", "raws", "tentative", "size")

    def __init__(self, kind: str, line: int, tentative: bool = False) -> None:
        self.kind, self.line, self.tentative = kind, line, tentative
        self.texts: list[str] = []
        self.raws: list[str] = []
        self.size = 0

    def add(self, text: str, raw: str) -> None:
        if text:
            self.size += len(text)
            if self.size > MAX_GAME_TEXT:
                what = "the text before the first game" if self.kind == "header" else "a game's text"
                raise TooLarge(f"{what} is longer than {MAX_GAME_TEXT:,} characters", self.line)
            self.texts.append(text)
            self.raws.append(raw)

    def chunk(self) -> Chunk | None:
        text = "".join(self.texts)
        if not text:
            return None
        return Chunk(self.kind, text if text.endswith("\n") else text + "\n", "".join(self.raws), self.line)


class Cutter:
    """Cuts blocks of text (each ending at a line end) into chunks, holding only the chunk
    being read (and, while a ``.gam`` game is not yet confirmed by a row, the one before)."""

    def __init__(self) -> None:
        self.open = _Open("header", 1)
        self.held: _Open | None = None  # the chunk before a tentative .gam game
        self.seen_match = False  # a match length line or a "Game N" line was seen: a .mat file, no .gam games
        self.next_line = 1  # the line number of the next block's first line

    def feed(self, text: str, raw: str) -> Iterator[Chunk]:
        """One block: ``text`` with LF line ends, ``raw`` as written (the same object when
        the block has no CR)."""
        pattern = _MAT_CUTS if self.seen_match else _ANY_CUTS
        starts = None if raw is text else [0] + [found.end() for found in LINE_END.finditer(raw)]
        position = index = 0  # an offset in the block, and the index of its line there
        padded = "\n" + text  # each cut starts at a line end: the search passes over a row at its first characters
        found = pattern.search(padded)
        while found is not None:
            kind = found.lastgroup or "game"
            start = found.start(kind) - 1  # in ``text``
            start_index = index + text.count("\n", position, start)
            self.append(text, raw, starts, (position, index), (start, start_index))
            position, index = start, start_index
            yield from self.cut(kind, self.next_line + index)
            if kind in ("match", "game"):  # a .mat file: from here on, two words on a line are no .gam game
                self.seen_match = True
                pattern = _MAT_CUTS
            found = pattern.search(padded, found.end())
        end_index = index + text.count("\n", position)
        self.append(text, raw, starts, (position, index), (len(text), end_index))
        self.next_line += end_index + (bool(text) and not text.endswith("\n"))

    def append(self, text: str, raw: str, starts: list[int] | None, start: tuple[int, int], end: tuple[int, int]) -> None:
        """The block's text from ``start`` to ``end`` (offsets with their line indexes) goes to
        the open chunk, with the same lines as written."""
        if start[0] == end[0]:
            return
        piece = text[start[0] : end[0]]
        if starts is None:
            raw_piece = piece
        else:
            raw_piece = raw[starts[start[1]] : starts[end[1]] if end[0] < len(text) else len(raw)]
        opened = self.open
        opened.add(piece, raw_piece)
        if opened.tentative and ROW_START.search(piece):
            opened.tentative = False  # rows follow the names: a .gam game

    def cut(self, kind: str, line: int) -> Iterator[Chunk]:
        """A boundary at ``line``: close the open chunk (or not, for a match line inside a
        header) and open the next."""
        yield from self.settle()
        if kind == "match":
            self.seen_match = True
            if self.open.kind == "header":
                return
            yield from self.split_header(line)
            return
        yield from self.close_held()
        if kind == "gam":
            self.held, self.open = self.open, _Open("gam", line, tentative=True)
            return
        closed = self.open.chunk()
        if closed is not None:
            yield closed
        self.open = _Open(kind, line)

    def settle(self) -> Iterator[Chunk]:
        """A tentative .gam game ends: without rows it was prose, and joins the chunk before."""
        if self.held is None:
            return
        if self.open.tentative:
            for text, raw in zip(self.open.texts, self.open.raws):
                self.held.add(text, raw)
            self.open, self.held = self.held, None
            return
        yield from self.close_held()

    def close_held(self) -> Iterator[Chunk]:
        if self.held is not None:
            closed = self.held.chunk()
            self.held = None
            if closed is not None:
                yield closed

    def split_header(self, line: int) -> Iterator[Chunk]:
        """A match length line after games: the comment, tag and blank lines just above it
        belong to the next match's header."""
        game = self.open
        text, raw = "".join(game.texts), "".join(game.raws)
        start = len(text)
        while start > 0:
            previous = text.rfind("\n", 0, start - 1) + 1
            if not _HEADER_LIKE.fullmatch(text, previous, start - 1):
                break
            start = previous
        kept_lines = text.count("\n", 0, start)
        raw_start = 0
        for _ in range(kept_lines):
            raw_start = LINE_END.search(raw, raw_start).end()  # type: ignore[union-attr]
        game.texts, game.raws = [text[:start]], [raw[:raw_start]]
        closed = game.chunk()
        if closed is not None:
            yield closed
        self.open = _Open("header", game.line + kept_lines)
        self.open.add(text[start:], raw[raw_start:])

    def close(self) -> Iterator[Chunk]:
        yield from self.settle()
        yield from self.close_held()
        closed = self.open.chunk()
        if closed is not None:
            yield closed


def chunks(blocks: Iterable[tuple[str, str]]) -> Iterator[Chunk]:
    """The header and game chunks of a text given as (LF text, raw text) blocks."""
    cutter = Cutter()
    for text, raw in blocks:
        yield from cutter.feed(text, raw)
    yield from cutter.close()


# --- the header ---


def parse_tag(line: str) -> tuple[str, str] | None:
    """``; [Key "Value"]`` -> (key, value); None for a line that is not a tag. (String
    methods, not a regex: a tag line with long runs of blanks stays linear.)"""
    body = line.strip()
    if len(body) < 2 or body[0] not in ";#":
        return None
    body = body[1:].strip()
    if not body.startswith("[") or not body.endswith("]"):
        return None
    body = body[1:-1].strip()
    quote = body.find('"')
    if quote <= 0 or not body.endswith('"') or len(body) - 1 == quote:
        return None
    key, value = body[:quote].strip(), body[quote + 1 : -1]
    return (key, value) if key else None


def read_header(match: MatchRecord, chunk: Chunk) -> None:
    """Tags, comments and the match length from the lines before the first game (the first
    :data:`~bgrecord.formats.limits.MAX_HEADER_LINES` of them: a header of prose is not a header)."""
    match.raw = chunk.raw
    if chunk.text.count("\n") > MAX_HEADER_LINES:
        cut = -1
        for _ in range(MAX_HEADER_LINES):
            cut = chunk.text.find("\n", cut + 1)
        chunk = chunk._replace(text=chunk.text[: cut + 1])
        match.issues.append(format_issue(Severity.ERROR, "too-large", f"more than {MAX_HEADER_LINES:,} lines before the first game: "
                                         "the rest of them is not read", chunk.line + MAX_HEADER_LINES, None).at(path=match.path))  # fmt: skip
    try:
        items = [(chunk.line, item) for item in parse(chunk.text, "preamble")]
    except UnexpectedInput:  # read line by line; a line that does not read is free text
        items = []
        for line_number, text in enumerate(chunk.text.split("\n")[:-1], chunk.line):
            try:
                items.extend((line_number, item) for item in parse(text + "\n", "preamble"))
            except UnexpectedInput:
                items.append((line_number, ("text_line", 1, [("TEXT", text, 1)])))
    money: tuple[int, int, str] | None = None  # where the header says money play in words
    for first, (kind, relative, parts) in items:
        text, column = parts[0][1].strip(), parts[0][2]
        line = first + relative - 1
        if kind in ("comment_line", "text_line") and money is None and _MONEY.match(text):
            money = (line, column, text)

        def note(severity: Severity, code: str, message: str) -> None:
            match.issues.append(format_issue(severity, code, message, line, column, text).at(path=match.path))

        if kind == "tag_lines":
            for line_number, tag in enumerate(parts[0][1].split("\n")[:-1], line):
                found = parse_tag(tag)
                if found:
                    match.tags.append(Tag(found[0], found[1], line_number))
        elif kind == "comment_line":
            match.comments.append(text[1:].strip())
        elif kind == "match_line":
            if match.length is not None:
                note(Severity.WARNING, "match-length-twice", "a second match length line: this one is used")
            written = _NUMBER.findall(text)[0]
            match.length = number(written)
            if match.length is None:
                note(Severity.ERROR, "match-length", too_large(written))
        else:
            match.comments.append(text)
            after = match.length is not None
            note(Severity.INFO, "text-after-header" if after else "text-before-header", "free text kept as a comment")
    if money is not None and match.length is None:
        match.length = 0
        said = format_issue(Severity.INFO, "money-session", f"{money[2][:60]!r}: read as money play (a 0 point match)", money[0], money[1], money[2])
        match.issues.append(said.at(path=match.path))


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each game with its match, as soon as it is read; a match with no game comes once
    with None. Memory holds one match header and one game at a time, and a block of text."""
    encoding, blocks = source.text_blocks()
    match: MatchRecord | None = None
    games = 0
    for chunk in chunks(blocks):
        if chunk.kind == "header":
            if match is not None and games == 0:
                yield match, None
            match, games = MatchRecord(source.name, "mat", encoding), 0
            read_header(match, chunk)
            continue
        if match is None:
            match, games = MatchRecord(source.name, "mat", encoding), 0
        if chunk.kind == "gam":
            match.format = "gam"
            if match.length is None:
                match.length = 0  # single games: money play, as GNU Backgammon's import reads them
        games += 1
        if games == 1 and chunk.kind == "game" and match.length is None and not any(i.code == "match-length" for i in match.issues):
            missing = format_issue(Severity.ERROR, "missing-match-length", "no 'N point match' line before the first game", chunk.line, 1)
            match.issues.append(missing.at(path=source.name))
        yield match, read_game(chunk, games, source.name)
    if match is not None and games == 0:
        yield match, None
