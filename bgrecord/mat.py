"""The .mat family reader: text -> header and game chunks -> Lark parse -> records.

A file is first cut into chunks by line shape alone: the header (everything before the
first ``Game N``), then one chunk per game; a new ``N point match`` line after games opens
the next match, taking the comment and tag lines just above it as its header. Each chunk
is parsed with ``grammars/mat.lark`` in one call, each run of rows as one ``ROWS`` token whose
cells are then labelled with the grammar's cell terminals. A game that does not parse is
parsed again line by line with the grammar's cell-by-cell rules, so one bad line costs one
issue that says what was expected, and the rest of the game is read.

What this layer does not check: anything about the rules. Impossible dice, a take with
no double, scores that do not add up: the replay judges those. It reports only what it
could not read (category ``format``) and what it read with a doubt.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterator, NamedTuple, Sequence

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from bgrecord.grammars import grammar_text
from bgrecord.issues import Severity, format_issue
from bgrecord.records import (
    LEFT,
    RIGHT,
    Action,
    Comment,
    CubeAction,
    GameRecord,
    MatchRecord,
    MoveToken,
    Result,
    Roll,
    SetPosition,
    Tag,
    Unreadable,
)
from bgrecord.source import RAW_LINE, Text

# --- cutting a file into chunks, by line shape ---

_GAME = r"[ \t]*game[ \t]+[0-9]+[^\n]*"
_MATCH = r"[ \t]*(?:[0-9]+[ \t]+points?[ \t]+match|match[ \t]+of[ \t]+[0-9]+[ \t]+points?)[^\n]*"
_NAMES = r"[ \t]*[^\s:;#()/]+[ \t]+[^\s:;#()/]+[ \t]*"  # a .gam game's first line: two names
_MATCH_LINE = re.compile(rf"^{_MATCH}$", re.I | re.M)
_BOUNDARIES = re.compile(rf"^(?:(?P<game>{_GAME})|(?P<match>{_MATCH}))$", re.I | re.M)
_GAM_BOUNDARIES = re.compile(rf"^(?:(?P<game>{_GAME})|(?P<gam>{_NAMES}))$", re.I | re.M)
_HEADER_LIKE = re.compile(r"[ \t]*(?:[;#][^\n]*)?")  # comment, tag or blank: may open the next match
_ROW_START = re.compile(r"^[ \t]*([0-9]+)\)", re.M)  # a line that starts like a row: "12)"


class Chunk(NamedTuple):
    kind: str  # header, game or gam
    text: str  # "\n" line ends, ending with "\n"
    raw: str  # as in the file
    line: int  # its first line's number


def chunks(source: Text) -> Iterator[Chunk]:
    """The file's header and game chunks in order. A .gam game (two names on a line)
    is recognised only in a file with no ``N point match`` line, and only when rows follow
    the names (else two words of prose would make a game)."""
    original = source.text
    text = original.replace("\r\n", "\n").replace("\r", "\n") if "\r" in original else original
    raw_lines = RAW_LINE.findall(original) if text is not original else None
    pattern = _BOUNDARIES if _MATCH_LINE.search(text) else _GAM_BOUNDARIES
    cuts: list[tuple[int, str]] = [(0, "header")]
    for found in pattern.finditer(text):
        kind = found.lastgroup or "game"
        start = found.start()
        if kind == "match":
            if cuts[-1][1] == "header":
                continue
            kind, start = "header", _header_start(text, start, cuts[-1][0])
        cuts.append((start, kind))
    cuts.append((len(text), "end"))
    if pattern is _GAM_BOUNDARIES:  # two words on a line open a game only if rows follow
        cuts = [cut for cut, (end, _) in zip(cuts, cuts[1:]) if cut[1] != "gam" or _ROW_START.search(text, cut[0], end)] + cuts[-1:]
    line = 1
    for (start, kind), (end, _) in zip(cuts, cuts[1:]):
        if start == end:
            continue
        piece = text[start:end]
        lines = piece.count("\n") + (not piece.endswith("\n"))
        raw = piece if raw_lines is None else "".join(raw_lines[line - 1 : line - 1 + lines])
        yield Chunk(kind, piece if piece.endswith("\n") else piece + "\n", raw, line)
        line += lines


def _header_start(text: str, start: int, floor: int) -> int:
    """Where the header of a match that starts at ``start`` begins: the comment, tag and
    blank lines just above its match length line belong to it."""
    while start > floor:
        previous = text.rfind("\n", floor, start - 1) + 1
        if previous < floor or not _HEADER_LIKE.fullmatch(text, previous, start - 1):
            break
        start = previous
    return start


# --- the grammar, and what its parse gives ---

_CUBES = {"DOUBLE": "double", "TAKE": "take", "DROP": "drop", "BEAVER": "beaver", "RACCOON": "raccoon"}
_RESULTS = {"WINS": "win", "LOSSES": "loss", "RESIGN": "resign"}
_CELL_TERMINALS = ["ROW_NUMBER", "ROLL", *_CUBES, *_RESULTS]
_NUMBER = re.compile(r"[0-9]+")
_NOTE = re.compile(r"(?i)cannot|can't|\?|illegal")
_WORD = re.compile(r"[^ \t,]+")

Part = tuple[str, str, int]
"""A labelled piece of a line: (terminal name, text, column)."""
Line = tuple[str, int, list[Part]]
"""A parsed line other than a fast-path row: (kind, line in the parsed text, parts)."""


def _line(kind: str, items: Sequence[Token | tuple[str, str, int, int]]) -> Line:
    """Tokens, and cells (already (terminal, text, column, line)), to a Line."""
    parts: list[Part] = []
    line = 0
    for item in items:
        if isinstance(item, Token):
            parts.append((item.type, str(item), item.column or 1))
            line = line or item.line or 1
        else:
            parts.append(item[:3])
            line = line or item[3]
    return (kind, line or 1, parts)


_LINES = {"row", "result_line", "continuation", "set_position", "comment_line", "tag_lines", "match_line", "text_line",
          "game_line", "score_line", "names_line"}  # fmt: skip


class MatTransformer(Transformer[Token, Any]):
    """The parse to plain values, applied while parsing (LALR), so no tree is built.
    A game is its header lines then body items: ROWS tokens as they are (the reader labels
    their cells), and a :data:`Line` (kind = the rule's name) for each other line."""

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        if data in _LINES:
            return _line(data, children)
        return Tree(data, children, meta)  # Lark's own helper rules, spliced by Lark

    def cell(self, items: list[Token]) -> tuple[str, str, int, int]:
        token = items[0]  # a tuple, not the token itself: Lark would splice the token away
        return (token.type, str(token), token.column or 1, token.line or 1)

    roll = cube = win = loss = resign = cell

    def blank_line(self, items: list[Token]) -> None:
        return None

    def body_line(self, items: list[Any]) -> Any:
        return items[0] if items else None

    def preamble(self, items: list[Any]) -> list[Any]:
        return [item for item in items if item is not None]

    game = gam_game = preamble


class Grammar(NamedTuple):
    parser: Lark
    row: re.Pattern[str]  # a ROW token's number and cells, from the grammar's cell terminals
    words: list[tuple[str, re.Pattern[str]]]  # the cube and result terminals


@lru_cache(maxsize=1)
def grammar() -> Grammar:
    """The .mat parser, built once per process (and its tables cached on disk by Lark, for a
    fast start): LALR, contextual lexer, the transformer applied inline."""
    starts = ["preamble", "game", "gam_game", "body_line", "game_line", "score_line", "names_line"]
    parser = Lark(grammar_text("mat.lark"), parser="lalr", start=starts, transformer=MatTransformer(), cache=True)
    pattern = {name: parser.get_terminal(name).pattern.to_regexp() for name in _CELL_TERMINALS}
    cell = "|".join(f"(?:{pattern[name]})" for name in _CELL_TERMINALS[1:])
    row = re.compile(rf"[ \t]*+(?P<number>{pattern['ROW_NUMBER']})[ \t]*+(?P<first>{cell})?+[ \t]*+(?P<second>{cell})?+[ \t]*+\n?")
    words = [(name, re.compile(pattern[name])) for name in _CELL_TERMINALS[2:]]
    return Grammar(parser, row, words)


def parse(text: str, start: str) -> Any:
    return grammar().parser.parse(text, start=start)


_EXPECTED = {
    "ROLL": "dice like 52:",
    "MOVES": "a move like 13/7",
    "ROW_NUMBER": "a row number like 12)",
    **{name: "a cube action" for name in _CUBES},
    **{name: "a result (Wins N points)" for name in _RESULTS},
    "SCORE": "a score like 'Alice : 0'",
    "NAME": "a player's name",
    "GAME": "Game N",
    "_NL": "the end of the line",
}


_BODY_PIECES = {"ROLL", "MOVES", "ROW_NUMBER", *_CUBES, *_RESULTS}


def describe_error(exc: UnexpectedInput, text: str) -> tuple[str, int]:
    """A parse error in words ("cannot read '13/x9' at column 16: expected a move like
    13/7, ..."), and its column."""
    column = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
    lines = text.split("\n")
    line = lines[exc.line - 1] if isinstance(exc.line, int) and 0 < exc.line <= len(lines) else ""
    word = (line[column - 1 :].split() or [""])[0]
    if isinstance(exc, UnexpectedToken) and exc.token.type == "_NL":
        what, names = "unexpected end of line", set(exc.expected or ())
    elif isinstance(exc, UnexpectedToken) and exc.token.type in _BODY_PIECES:  # a known piece, out of place
        what, names = f"unexpected {word!r}", set(exc.expected or ())
    elif isinstance(exc, (UnexpectedToken, UnexpectedCharacters)):
        allowed = exc.expected if isinstance(exc, UnexpectedToken) else exc.allowed
        what, names = f"cannot read {word!r}", set(allowed or ())
    else:
        what, names = "unexpected end of text", set()
    words = {_EXPECTED[name] for name in names if name in _EXPECTED}
    history = getattr(exc, "token_history", None) or [None]
    if getattr(history[-1], "type", None) == "ROLL" and ":" not in word:  # a bad move, not a bad next cell
        words.add("a move like 13/7 (points 1-24, bar, off)")
    if not words:
        return f"{what} at column {column}", column
    ordered = sorted(words)
    listed = ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]
    return f"{what} at column {column}: expected {listed}", column


# --- cells: what a cell's text says (cached: the same cells recur across games) ---


def _point(text: str) -> int:
    name = text.lower()
    return 25 if name in ("bar", "b") else 0 if name in ("off", "o") else int(name)


@lru_cache(maxsize=65536)
def move_token(written: str, offset: int) -> MoveToken:
    """One move as written (``13/7*/4(2)``, ``bar/22*``), already checked by the grammar
    (cached: the same moves recur at the same places of their cells)."""
    body, repeat = written, 1
    if "(" in body:
        open_at, close_at = body.index("("), body.index(")")
        repeat = int(body[open_at + 1 : close_at])
        body = body[:open_at] + body[close_at + 1 :]
    parts = body.split("/")
    return MoveToken(tuple(_point(p.replace("*", "")) for p in parts), tuple("*" in p for p in parts), repeat, written, offset)


def clear_caches() -> None:
    """Forget the cells and moves read so far (the benchmark starts each run cold)."""
    cell_meaning.cache_clear()
    move_token.cache_clear()


def moves_of(text: str, offset: int = 0) -> tuple[MoveToken, ...]:
    """The moves written in ``text`` (a MOVES token), offsets counted from ``-offset``."""
    return tuple([move_token(found[0], offset + found.start()) for found in _WORD.finditer(text)])


@lru_cache(maxsize=65536)
def cell_meaning(text: str) -> tuple[Any, ...]:
    """("roll", dice, moves, note), ("setup", dice, setup, moves), ("cube", kind, value) or
    ("result", kind, points, and the match), from the text of a cell the grammar read."""
    if text[0].isdigit():
        dice = (int(text[0]), int(text[1]))
        after = text.index(":") + 1
        rest = text[after:]
        note_at = _NOTE.search(rest)
        moves = moves_of(rest[: note_at.start()] if note_at else rest, after)
        if note_at is None:
            return ("roll", dice, moves, "")
        note = rest[note_at.start() :]
        if note[0] in "iI":
            return ("setup", dice, note[note.index("(") + 1 : note.rindex(")")], moves)
        return ("roll", dice, moves, "unplayed" if note[0] == "?" else "cannot move")
    kind = next(name for name, word in grammar().words if word.fullmatch(text))
    numbers = _NUMBER.findall(text)
    if kind in _CUBES:
        return ("cube", _CUBES[kind], int(numbers[-1]) if numbers else None)
    won_match = kind != "LOSSES" and "match" in text.lower()
    return ("result", _RESULTS[kind], int(numbers[0]) if numbers else None, won_match)


# --- from parsed lines to records ---

# A lone cell further than this from its row number is the right player's; a result line
# indented further than this is the right player's (gnubg: 6 spaces left, 34 right).
_LONE_CELL_GAP = 10
_RESULT_INDENT = 16
_TAG = re.compile(r'[;#][ \t]*\[[ \t]*(.*?)[ \t]+"(.*)"[ \t]*\]')
_RATING = re.compile(r"(.*?),([0-9]+)$")


class _GameBuilder:
    """Builds one GameRecord from the parse of its chunk, or of its lines one by one."""

    def __init__(self, record: GameRecord, chunk: Chunk, path: str | None) -> None:
        self.record = record
        self.chunk = chunk
        self.path = path
        self.grammar = grammar()
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.chunk.text.split("\n")[:-1]
        return self._lines

    def issue(self, severity: Severity, code: str, message: str, line: int, column: int | None = None) -> None:
        index = line - self.chunk.line
        excerpt = self.lines[index].strip() if 0 <= index < len(self.lines) else ""
        row = _ROW_START.match(excerpt)  # the move (row) number, where the line has one
        found = format_issue(severity, code, message, line, column, excerpt)
        self.record.issues.append(found.at(path=self.path, game=self.record.index, move=int(row.group(1)) if row else None))

    def action(self, text: str, line: int, column: int, player: int | None, number: int | None) -> Action:
        meaning = cell_meaning(text)
        what = meaning[0]
        if what == "roll":
            return Roll(player, number, line, column, text, meaning[1], meaning[2], meaning[3])
        if what == "setup":
            if meaning[3]:
                self.issue(Severity.WARNING, "moves-with-setup", "moves written before 'Illegal play': not read", line, column)
            return SetPosition(player, number, line, column, text, "snowie", meaning[2], meaning[1])
        if what == "cube":
            return CubeAction(player, number, line, column, text, meaning[1], meaning[2])
        return Result(player, number, line, column, text, meaning[1], meaning[2], meaning[3])

    def rows_token(self, token: Token) -> None:
        """The fast path: the number and cells of each row of a ROWS token. (The hot loop of
        the reader: two cells, the usual row, are placed here without ``place``.)"""
        line = self.chunk.line + (token.line or 1) - 1
        indent = (token.column or 1) - 1  # only the first line can start after some blanks
        row = self.grammar.row.fullmatch
        action, actions = self.action, self.record.actions
        for text in token.split("\n")[:-1]:
            found = row(text)
            if found is None:  # not one row of cells: read it cell by cell, or say why not
                self.body_line(text, line, indent)
            else:
                number, first, second = found.group("number", "first", "second")
                if first and second:
                    number = int(number[:-1])
                    actions.append(action(first, line, indent + found.start("first") + 1, LEFT, number))
                    actions.append(action(second, line, indent + found.start("second") + 1, RIGHT, number))
                else:
                    cells = [(found[name], indent + found.start(name) + 1) for name in ("first", "second") if found[name]]
                    self.place(int(number[:-1]), indent + found.end("number") + 1, cells, line)
            line, indent = line + 1, 0

    def row(self, parts: list[Part], line: int) -> None:
        """The rows of a line read cell by cell: a row number, then zero to two cells."""
        rows: list[tuple[int, int, list[tuple[str, int]]]] = []
        for kind, text, column in parts:
            if kind == "ROW_NUMBER":
                rows.append((int(text[:-1]), column + len(text), []))
            else:
                rows[-1][2].append((text, column))
        if len(rows) > 1:
            self.issue(Severity.WARNING, "rows-on-one-line", "two rows on one line: both read", line, None)
        for number, end_column, cells in rows:
            self.place(number, end_column, cells, line)

    def place(self, number: int, end_column: int, cells: list[tuple[str, int]], line: int) -> None:
        """A row's cells to actions: two cells are the left and right player's; a lone cell
        is the right player's when it stands far from the row number."""
        actions = self.record.actions
        if len(cells) == 2:
            actions.append(self.action(cells[0][0], line, cells[0][1], LEFT, number))
            actions.append(self.action(cells[1][0], line, cells[1][1], RIGHT, number))
        elif cells:
            text, column = cells[0]
            actions.append(self.action(text, line, column, LEFT if column - end_column <= _LONE_CELL_GAP else RIGHT, number))

    def add(self, item: Any, first_line: int) -> None:
        """One parsed body line; ``first_line`` is the file line of the text parsed."""
        if item is None:
            return
        if isinstance(item, Token):
            self.rows_token(item)
            return
        kind, relative, parts = item
        line = first_line + relative - 1
        if kind == "row":
            self.row(parts, line)
        elif kind == "result_line":
            players = (LEFT, RIGHT) if len(parts) == 2 else (LEFT if parts[0][2] <= _RESULT_INDENT else RIGHT,)
            for (_, text, column), player in zip(parts, players):
                self.record.actions.append(self.action(text, line, column, player, None))
        elif kind == "continuation":
            self.join_continuation(parts[0][1], line, parts[0][2])
            previous = self.record.actions[-1]
            if len(parts) == 2 and isinstance(previous, Roll) and previous.player == LEFT:
                self.record.actions.append(self.action(parts[1][1], line, parts[1][2], RIGHT, previous.number))
            elif len(parts) == 2:
                self.unreadable(line, parts[1][2], parts[1][1], "a cell after a wrapped line that does not continue a left cell")
        elif kind == "set_position":
            text, column = parts[0][1].strip(), parts[0][2]
            self.record.actions.append(SetPosition(None, None, line, column, text, "xg", text.split("=", 1)[1].strip()))
        elif kind == "comment_line":
            text, column = parts[0][1].strip(), parts[0][2]
            self.record.actions.append(Comment(None, None, line, column, text))
            self.issue(Severity.WARNING, "comment-in-game", "a comment inside a game: kept, not read as a move", line, column)

    def body_line(self, text: str, line: int, indent: int = 0) -> None:
        """One line parsed alone with the cell-by-cell rules; an unreadable line if it fails.
        ``indent``: blanks before ``text`` in the file's line."""
        try:
            item = parse(" " * indent + text + "\n", "body_line")
        except UnexpectedInput as exc:
            message, column = describe_error(exc, " " * indent + text + "\n")
            self.unreadable(line, column, text.strip(), message)
            return
        if isinstance(item, Token):  # a line that only looks like a row
            self.unreadable(line, 1, text.strip(), "not a row")
            return
        self.add(item, line)

    def join_continuation(self, written: str, line: int, column: int) -> None:
        previous = self.record.actions[-1] if self.record.actions else None
        if not isinstance(previous, Roll) or previous.note:
            self.unreadable(line, column, written.strip(), "moves on a line of their own, not after a roll")
            return
        joined = f"{previous.text} {written.strip()}"
        previous.moves = previous.moves + moves_of(written, len(previous.text) + 1)
        previous.text = joined
        self.issue(Severity.WARNING, "wrapped-line", "a wrapped line: its moves are joined to the roll above", line, column)

    def unreadable(self, line: int, column: int, text: str, message: str) -> None:
        self.record.actions.append(Unreadable(None, None, line, column, text))
        self.issue(Severity.ERROR, "unreadable", message, line, column)

    def game_line(self, parts: list[Part]) -> None:
        numbers = _NUMBER.findall(parts[0][1])
        self.record.number = int(numbers[0]) if numbers else None
        self.record.note = parts[1][1].strip() if len(parts) > 1 else ""

    def score_line(self, parsed: Line, first_line: int) -> None:
        kind, relative, parts = parsed
        record = self.record
        if kind == "names_line":
            record.names = (parts[0][1], parts[1][1])
            return
        names: list[str] = []
        scores: list[int | None] = []
        ratings: list[int | None] = []
        for part_kind, text, _ in parts:
            if part_kind != "SCORE":
                continue
            name, _, score = text.rpartition(":")
            name = name.strip()
            rating = _RATING.match(name)
            value = int(rating.group(2)) if rating else 0
            if value > 0:  # GridGammon's "name,1712"
                name = rating.group(1).strip()  # type: ignore[union-attr]
            names.append(name)
            scores.append(int(score))
            ratings.append(value or None)
        line = first_line + relative - 1
        if len(names) == 1:
            names.append("")
            scores.append(None)
            ratings.append(None)
            self.issue(Severity.ERROR, "score-line", "the score line names one player, not two", line, parts[0][2])
        record.names, record.scores, record.ratings = (names[0], names[1]), (scores[0], scores[1]), (ratings[0], ratings[1])
        for part_kind, text, column in parts:
            if part_kind == "TEXT":
                self.issue(Severity.INFO, "score-line-text", f"text after the scores kept as written: {text.strip()!r}", line, column)


def _is_score(item: Any) -> bool:
    """A score line, not a row that the score terminal happened to read ("1) 52: 13")."""
    return isinstance(item, tuple) and (item[0] == "names_line" or (item[0] == "score_line" and not _ROW_START.match(item[2][0][1])))


def read_game(chunk: Chunk, index: int, path: str | None) -> GameRecord:
    """A game chunk to a GameRecord: one parse, or line by line when that fails."""
    record = GameRecord(index=index, number=None, line=chunk.line, raw=chunk.raw)
    builder = _GameBuilder(record, chunk, path)
    try:
        items = parse(chunk.text, "gam_game" if chunk.kind == "gam" else "game")
    except UnexpectedInput:
        items = None
    if items is not None and chunk.kind == "game" and _is_score(items[1]):
        builder.game_line(items[0][2])
        builder.score_line(items[1], chunk.line)
        body = items[2:]
    elif items is not None and chunk.kind == "gam":
        builder.score_line(items[0], chunk.line)
        body = items[1:]
    else:
        _read_lines(builder)
        return record
    for item in body:
        builder.add(item, chunk.line)
    return record


def _read_lines(builder: _GameBuilder) -> None:
    """Line by line: every line that parses is kept, every other is an unreadable line."""
    numbered = list(enumerate(builder.lines, builder.chunk.line))
    first_number, first = numbered[0]
    rest = numbered[1:]
    if builder.chunk.kind == "game":
        game_line = _parse_line(first, "game_line")
        if game_line is not None:
            builder.game_line(game_line[2])
        blanks = 0
        while blanks < len(rest) and not rest[blanks][1].strip():
            blanks += 1
        score = _parse_line(rest[blanks][1], "score_line") if blanks < len(rest) else None
        if score is not None and _is_score(score):
            builder.score_line(score, rest[blanks][0])
            rest = rest[blanks + 1 :]
        else:
            where = rest[blanks][0] if blanks < len(rest) else first_number
            builder.issue(Severity.ERROR, "missing-score-line", "no score line ('Alice : 0   Bob : 0') after the Game line", where, 1)
    else:
        names = _parse_line(first, "names_line")
        if names is not None:
            builder.score_line(names, first_number)
    for number, text in rest:
        builder.body_line(text, number)


def _parse_line(text: str, start: str) -> Line | None:
    try:
        parsed: Line = parse(text + "\n", start)
    except UnexpectedInput:
        return None
    return parsed


# --- the header ---


def read_header(match: MatchRecord, chunk: Chunk) -> None:
    """Tags, comments and the match length from the lines before the first game."""
    match.raw = chunk.raw
    try:
        items = [(chunk.line, item) for item in parse(chunk.text, "preamble")]
    except UnexpectedInput:  # read line by line; a line that does not read is free text
        items = []
        for number, text in enumerate(chunk.text.split("\n")[:-1], chunk.line):
            try:
                items.extend((number, item) for item in parse(text + "\n", "preamble"))
            except UnexpectedInput:
                items.append((number, ("text_line", 1, [("TEXT", text, 1)])))
    for first, (kind, relative, parts) in items:
        text, column = parts[0][1].strip(), parts[0][2]
        line = first + relative - 1

        def note(severity: Severity, code: str, message: str) -> None:
            match.issues.append(format_issue(severity, code, message, line, column, text).at(path=match.path))

        if kind == "tag_lines":
            for number, tag in enumerate(parts[0][1].split("\n")[:-1], line):
                found = _TAG.match(tag.strip())
                if found:
                    match.tags.append(Tag(found.group(1), found.group(2), number))
        elif kind == "comment_line":
            match.comments.append(text[1:].strip())
        elif kind == "match_line":
            if match.length is not None:
                note(Severity.WARNING, "match-length-twice", "a second match length line: this one is used")
            match.length = int(_NUMBER.findall(text)[0])
        else:
            match.comments.append(text)
            after = match.length is not None
            note(Severity.INFO, "text-after-header" if after else "text-before-header", "free text kept as a comment")


def read_matches(source: Text) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """Each game with its match, as soon as it is read; a match with no game comes once
    with None. Memory holds one match header and one game at a time, beside the text."""
    match: MatchRecord | None = None
    games = 0
    for chunk in chunks(source):
        if chunk.kind == "header":
            if match is not None and games == 0:
                yield match, None
            match, games = MatchRecord(source.path, "mat", source.encoding), 0
            read_header(match, chunk)
            continue
        if match is None:
            match, games = MatchRecord(source.path, "mat", source.encoding), 0
        if chunk.kind == "gam":
            match.format = "gam"
        games += 1
        if games == 1 and chunk.kind == "game" and match.length is None:
            missing = format_issue(Severity.ERROR, "missing-match-length", "no 'N point match' line before the first game", chunk.line, 1)
            match.issues.append(missing.at(path=source.path))
        yield match, read_game(chunk, games, source.path)
    if match is not None and games == 0:
        yield match, None
