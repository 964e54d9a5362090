"""One game of a .mat file: its chunk of text -> a :class:`GameRecord`.

A game chunk (``Game N``, the score line, the rows) is parsed in one call; each run of rows
comes back as one ``ROWS`` token whose cells are labelled with the grammar's cell terminals.
A game that does not parse is parsed again line by line with the grammar's cell-by-cell
rules, so one bad line costs one issue that says what was expected, and the rest is read.

What this layer does not check: anything about the rules. Impossible dice, a take with no
double, scores that do not add up: the replay judges those.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from lark import Token, UnexpectedInput

from bgrecord.escapes import quoted
from bgrecord.formats.cutmark import cut_comment, is_cut_mark
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_ACTIONS, MAX_LINES, MAX_UNREADABLE
from bgrecord.formats.mat_grammar import (
    RESIGN_WORDS,
    Line,
    Part,
    describe_error,
    grammar,
    moves_of,
    parse,
    read_cell,
)
from bgrecord.formats.numbers import number, too_large
from bgrecord.formats.records import (
    LEFT,
    RIGHT,
    Action,
    Comment,
    CubeAction,
    GameRecord,
    Result,
    Roll,
    SetPosition,
    Unreadable,
)

ROW_START = re.compile(r"^[ \t]*([0-9]+)\)", re.M)  # a line that starts like a row: "12)"
_NUMBER = re.compile(r"[0-9]+")
MAX_ROW = 4096  # characters: no row, result or wrapped line of a game is longer
# dice or a move anywhere in a line: it may hold a turn
# (not a time "12:30" nor a date "2024/05/17")
_TURN = re.compile(r"(?<![0-9])[0-6][0-6][ \t]*:(?![0-9])|(?<![0-9/])(?:[0-9]{1,2}|(?i:bar))[ \t]*/[ \t]*(?:[0-9]{1,2}|(?i:off))(?![0-9/])")
# Where a cell starts, for a row read cell by cell: dice, a cube word or a result word.
_CELL_START = re.compile(
    r"(?<![^ \t])(?:[0-9][0-9][ \t]*:|(?i:(?:re)?doubles?|takes?|accepts?|drops?|rejects?|pass(?:es)?|refuses?|declines?|beavers?"
    rf"|raccoons?|wins|won|loses|losses)|{RESIGN_WORDS}|\?{{3,4}})"
)


class Chunk(NamedTuple):
    """A piece of a .mat file: its header, or one game."""

    kind: str  # header, game or gam
    text: str  # "\n" line ends, ending with "\n"
    raw: str  # as in the file
    line: int  # its first line's number


_ROW_NUMBERS = {f"{row})": row for row in range(1, 1000)}  # the usual row numbers, read at once

# A lone cell further than this from its row number is the right player's; a result line
# indented further than this is the right player's (gnubg: 6 spaces left, 34 right).
_LONE_CELL_GAP = 10
_RESULT_INDENT = 16


class GameBuilder:
    """Builds one GameRecord from the parse of its chunk, or of its lines one by one."""

    def __init__(self, record: GameRecord, chunk: Chunk, path: str | None) -> None:
        self.record = record
        self.chunk = chunk
        self.path = path
        self.grammar = grammar()
        self._lines: list[str] | None = None
        self.unread = 0  # places that did not read

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.chunk.text.split("\n")[:-1]
        return self._lines

    def issue(self, severity: Severity, code: str, message: str, line: int, column: int | None = None) -> None:
        index = line - self.chunk.line
        excerpt = self.lines[index].strip() if 0 <= index < len(self.lines) else ""
        row = ROW_START.match(excerpt)  # the move (row) number, where the line has one
        found = format_issue(severity, code, message, line, column, excerpt)
        self.record.issues.append(found.at(path=self.path, game=self.record.index, move=number(row.group(1)) if row else None))

    def action(self, text: str, line: int, column: int, player: int | None, number: int | None) -> Action:
        meaning, notices = read_cell(text)
        for severity, code, message in notices:
            self.issue(severity, code, message, line, column)
        what = meaning[0]
        if what == "roll":
            return Roll(player, number, line, column, text, meaning[1], meaning[2], meaning[3])
        if what == "bad":
            return Unreadable(player, number, line, column, text)
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
        plain, row = self.grammar.plain_row.fullmatch, self.grammar.row.fullmatch
        action, actions = self.action, self.record.actions
        for text in token.split("\n")[:-1]:
            self.enough()
            found = plain(text) or row(text)
            if found is None:  # not one row of cells: read it cell by cell, or say why not
                self.body_line(text, line, indent)
            else:
                written, first, second = found.group("number", "first", "second")
                row_number = self.row_number(written, line, indent + found.start("number") + 1)
                if first and second:
                    actions.append(action(first, line, indent + found.start("first") + 1, LEFT, row_number))
                    actions.append(action(second, line, indent + found.start("second") + 1, RIGHT, row_number))
                else:
                    cells = [(found[name], indent + found.start(name) + 1) for name in ("first", "second") if found[name]]
                    self.place(row_number, indent + found.end("number") + 1, cells, line)
            line, indent = line + 1, 0

    def row_number(self, written: str, line: int, column: int) -> int | None:
        """A row number as written ("12)"); None, with an error, beyond any game's length."""
        value = _ROW_NUMBERS.get(written)
        if value is None:
            value = number(written[:-1])
            if value is None:
                self.issue(Severity.ERROR, "unreadable", too_large(written[:-1]), line, column)
        return value

    def row(self, parts: list[Part], line: int) -> None:
        """The rows of a line read cell by cell: a row number, then zero to two cells."""
        rows: list[tuple[int | None, int, list[tuple[str, int]]]] = []
        for kind, text, column in parts:
            if kind == "ROW_NUMBER":
                rows.append((self.row_number(text, line, column), column + len(text), []))
            else:
                rows[-1][2].append((text, column))
        if len(rows) > 1:
            self.issue(Severity.WARNING, "rows-on-one-line", "two rows on one line: both read", line, None)
        for number, end_column, cells in rows:
            self.place(number, end_column, cells, line)

    def place(self, number: int | None, end_column: int, cells: list[tuple[str, int]], line: int) -> None:
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
        elif kind == "answer_line":  # "Drops   Wins 1 point" without its row number
            answerer = LEFT if parts[0][2] <= _RESULT_INDENT else RIGHT
            self.issue(Severity.INFO, "row-without-number", "the answer to a double without its row number: read by its cells", line, parts[0][2])
            for (_, text, column), player in zip(parts, (answerer, 1 - answerer)):
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
            if is_cut_mark(text):  # where a forced conversion cut the game (bgrecord.formats.cutmark)
                mark = cut_comment(text, line, column)[1]
                self.issue(mark.severity, mark.code, mark.message, line, column)
            else:
                self.issue(Severity.WARNING, "comment-in-game", "a comment inside a game: kept, not read as a move", line, column)

    def body_line(self, text: str, line: int, indent: int = 0) -> None:
        """One line parsed alone with the cell-by-cell rules; an unreadable line if it fails.
        ``indent``: blanks before ``text`` in the file's line."""
        if len(text) > MAX_ROW:
            self.unreadable(line, 1, text.strip()[:40] + "...", f"a line of {len(text):,} characters, longer than any line of a game")
            return
        try:
            item = parse(" " * indent + text + "\n", "body_line")
        except UnexpectedInput as exc:
            if not self.cells_alone(text, line, indent):
                message, column = describe_error(exc, " " * indent + text + "\n")
                loose = ROW_START.match(text) is None and _TURN.search(text) is None
                self.unreadable(line, column, text.strip(), message, loose)
            return
        if isinstance(item, Token):  # a line that only looks like a row
            self.unreadable(line, 1, text.strip(), "not a row")
            return
        self.add(item, line)

    def cells_alone(self, text: str, line: int, indent: int) -> bool:
        """A row that does not read whole, read cell by cell: one unreadable cell costs one
        error, and the other cell of its line is read. False when the line is not a row of
        two cells."""
        row = ROW_START.match(text)
        if row is None:
            return False
        starts = [found.start() for found in _CELL_START.finditer(text, row.end())]
        if len(starts) != 2:
            return False
        number = self.row_number(row.group(1) + ")", line, indent + row.start(1) + 1)
        for player, (start, end) in enumerate(zip(starts, starts[1:] + [len(text)])):
            cell = text[start:end].rstrip()
            column = indent + start + 1
            found = self.grammar.row.fullmatch(f"1) {cell}\n")
            if found is not None and found.group("first") and not found.group("second"):
                self.record.actions.append(self.action(cell, line, column, player, number))
                continue
            alone = " " * max(0, column - 4) + "1) " + cell + "\n"  # the cell at its own column
            try:
                parse(alone, "body_line")
                message, where = f"cannot read {quoted(cell)}", column
            except UnexpectedInput as exc:
                message, where = describe_error(exc, alone)
            self.unreadable(line, where, cell, message)
        return True

    def join_continuation(self, written: str, line: int, column: int) -> None:
        previous = self.record.actions[-1] if self.record.actions else None
        if not isinstance(previous, Roll) or previous.note:
            self.unreadable(line, column, written.strip(), "moves on a line of their own, not after a roll")
            return
        joined = f"{previous.text} {written.strip()}"
        previous.moves = previous.moves + moves_of(written, len(previous.text) + 1)
        previous.text = joined
        self.issue(Severity.WARNING, "wrapped-line", "a wrapped line: its moves are joined to the roll above", line, column)

    def enough(self) -> None:
        """Stop reading the game once it holds more actions than any game may (the limit is
        said where every reader's records pass: :func:`bgrecord.formats.detect.bounded`)."""
        if len(self.record.actions) > MAX_ACTIONS:
            raise _Enough

    def unreadable(self, line: int, column: int, text: str, message: str, loose: bool = False) -> None:
        self.unread += 1
        if self.unread > MAX_UNREADABLE:  # each costs a parse to say why: past the limit, the game stops here
            self.issue(Severity.ERROR, "too-large", f"more than {MAX_UNREADABLE:,} places of this game do not read: the rest of "
                       "the game is not read", line, column)  # fmt: skip
            raise _Enough
        self.record.actions.append(Unreadable(None, None, line, column, text, loose))
        self.issue(Severity.ERROR, "unreadable", message, line, column)

    def game_line(self, parts: list[Part], line: int) -> None:
        numbers = _NUMBER.findall(parts[0][1])
        self.record.number = number(numbers[0]) if numbers else None
        if numbers and self.record.number is None:
            self.issue(Severity.ERROR, "game-number", too_large(numbers[0]), line, parts[0][2])
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
        line = first_line + relative - 1
        record.score_line = line
        columns: list[int | None] = []
        for part_kind, text, column in parts:
            if part_kind != "SCORE":
                continue
            columns.append(column + len(text) - len(text.rpartition(":")[2].lstrip()))
            name, _, written = text.rpartition(":")
            name = name.strip()
            if names and name.startswith("(") and ")" in name:  # "Alice : 1 (1612)   Bob : 0": a note after the first score
                note, _, name = name[1:].partition(")")
                name = name.strip()
                if note.strip().isdigit() and not ratings[0]:
                    ratings[0] = number(note.strip())
            before, comma, after = name.rpartition(",")
            rating = number(after) if comma else None
            if rating:  # GridGammon's "name,1712"
                name = before.strip()
            negative = written.strip().startswith("-")  # a money session's net total
            score = number(written.strip().lstrip("-"))
            if negative and score is not None:
                score = -score
            if score is None:
                self.issue(Severity.ERROR, "score-line", too_large(written.strip()), line, columns[-1])
            names.append(name)
            scores.append(score)
            ratings.append(rating or None)
        if len(names) == 1:
            names.append("")
            scores.append(None)
            ratings.append(None)
            self.issue(Severity.ERROR, "score-line", "the score line names one player, not two", line, parts[0][2])
        record.names, record.scores, record.ratings = (names[0], names[1]), (scores[0], scores[1]), (ratings[0], ratings[1])
        columns += [None, None]
        record.score_columns = (columns[0], columns[1])
        for part_kind, text, column in parts:
            if part_kind == "TEXT":
                after = text.strip()
                if after.startswith("(") and after.endswith(")") and after[1:-1].strip().isdigit() and record.ratings[1] is None:
                    record.ratings = (record.ratings[0], number(after[1:-1].strip()))  # "Bob : 0 (1580)": his rating
                    continue
                self.issue(Severity.INFO, "score-line-text", f"text after the scores kept as written: {quoted(after)}", line, column)


def _is_score(item: Any) -> bool:
    """A score line, not a row that the score terminal happened to read ("1) 52: 13")."""
    return isinstance(item, tuple) and (item[0] == "names_line" or (item[0] == "score_line" and not ROW_START.match(item[2][0][1])))


class _Enough(Exception):
    """Too many places of a game did not read (:data:`~bgrecord.formats.limits.MAX_UNREADABLE`): stop it."""


def read_game(chunk: Chunk, index: int, path: str | None) -> GameRecord:
    """A game chunk to a GameRecord: one parse, or line by line when that fails. A game of
    more lines than it may have actions is read to there (its parse would cost time and
    memory for what is not kept)."""
    record = GameRecord(index=index, number=None, line=chunk.line, raw=chunk.raw)
    text = chunk.text
    if text.count("\n") > MAX_LINES:
        cut = -1
        for _ in range(MAX_LINES):
            cut = text.find("\n", cut + 1)
        chunk = chunk._replace(text=text[: cut + 1])
        record.issues.append(format_issue(Severity.ERROR, "too-many-actions", f"a game of more than {MAX_LINES:,} lines: the rest of "
                                          "the game is not read", chunk.line + MAX_LINES, None).at(path=path, game=index))  # fmt: skip
    try:
        _read_game(record, chunk, path)
    except _Enough:
        pass
    return record


def _read_game(record: GameRecord, chunk: Chunk, path: str | None) -> GameRecord:
    builder = GameBuilder(record, chunk, path)
    items = None
    if len(chunk.text) <= MAX_ROW or max(map(len, builder.lines)) <= MAX_ROW:  # else line by line, the long ones refused
        try:
            items = parse(chunk.text, "gam_game" if chunk.kind == "gam" else "game")
        except UnexpectedInput:
            pass
    if items is not None and chunk.kind == "game" and _is_score(items[1]):
        builder.game_line(items[0][2], chunk.line)
        builder.score_line(items[1], chunk.line)
        body = items[2:]
    elif items is not None and chunk.kind == "gam":
        builder.score_line(items[0], chunk.line)
        body = items[1:]
    else:
        _read_lines(builder)
        return record
    for item in body:
        builder.enough()
        builder.add(item, chunk.line)
    return record


def _read_lines(builder: GameBuilder) -> None:
    """Line by line: every line that parses is kept, every other is an unreadable line."""
    numbered = list(enumerate(builder.lines, builder.chunk.line))
    first_number, first = numbered[0]
    rest = numbered[1:]
    if builder.chunk.kind == "game":
        game_line = _parse_line(first, "game_line")
        if game_line is not None:
            builder.game_line(game_line[2], first_number)
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
    for line_number, text in rest:
        builder.enough()
        builder.body_line(text, line_number)


def _parse_line(text: str, start: str) -> Line | None:
    try:
        parsed: Line = parse(text + "\n", start)
    except UnexpectedInput:
        return None
    return parsed


