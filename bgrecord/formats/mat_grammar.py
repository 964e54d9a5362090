"""The .mat family's grammar (``grammars/mat.lark``) and what its pieces mean.

Builds the Lark parser (LALR, the transformer applied while parsing, so no tree is built),
puts a parse error into words, and reads what a cell says: dice and moves, a cube action or a
result (``read_cell``), each cached because the same cells recur across games.

What this layer does not check: anything about the rules, or where a cell stands.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple, Sequence

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from bgrecord.escapes import quoted
from bgrecord.formats.grammars import grammar_text
from bgrecord.formats.issues import Severity
from bgrecord.formats.numbers import MAX_CUBE, number, too_large
from bgrecord.formats.records import MoveToken

_CUBES = {"DOUBLE": "double", "TAKE": "take", "DROP": "drop", "BEAVER": "beaver", "RACCOON": "raccoon"}
_RESULTS = {"WINS": "win", "LOSSES": "loss", "RESIGN": "resign"}
_CELL_TERMINALS = ["ROW_NUMBER", "ROLL", *_CUBES, *_RESULTS]
_NUMBER = re.compile(r"[0-9]+")
# the words that give a game up, as the grammar's _GIVES_UP spells them
RESIGN_WORDS = r"(?i:resign(?:s|ed)?|concede[sd]?|gives?[ \t]+up|gave[ \t]+up|forfeit(?:s|ed)?|surrender(?:s|ed)?|quits?)(?![A-Za-z])"
_GIVES_UP = re.compile(RESIGN_WORDS)
# what may follow a roll's moves: a dance in words, "???", a set-up or a resignation word (an
# annotator's "?" or "!" is decoration, not a note)
_NOTE = re.compile(rf"(?i)cannot|can't|can[ \t]+not|no[ \t]+(?:legal[ \t]+)?(?:move|play)|dances?(?![A-Za-z])|--?(?![-0-9A-Za-z/])|\?{{3}}|illegal|{RESIGN_WORDS}")
_STANDARD_RESIGN = re.compile(r"(?i)resign")  # the words every reader knows: no notice
# a move; a hit mark may be glued to the next; no annotation ("?", "!"); runs of plain characters
# taken whole (the regex engine's fast loop, not a step of the group per character)
_WORD = re.compile(r"(?:[^ \t,*?!]++|\*(?![0-9bBoO]))++\*?")
# a note needs an ASCII letter, a "?" or a "-" (no other character matches one of its words'
# letters outside i, k and s): a roll without one (no "bar", no "off") needs no search for a note
_NOTE_SIGN = re.compile(r"[A-Za-z?-]")
_PARTING = re.compile(r"[\t,?!]|\*[0-9bBoO]")  # what parts moves besides blanks: a tab, a comma, an annotation, a glued hit mark

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


_LINES = {"row", "result_line", "answer_line", "continuation", "set_position", "comment_line", "tag_lines", "match_line", "text_line",
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

    roll = cube = win = loss = resign = answer = cell

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
    plain_row: re.Pattern[str]  # the usual row, read as ``row`` reads it, for a third of the work


# Most rows hold only dice and plain moves ("12) 52: 13/8 13/11*    64: bar/18 8/4(2)"). They are a
# part of the language of ``row`` that ``row`` reads exactly so: a move followed by a blank or
# by the line's end is the same move for the grammar's MOVES, and neither a move nor dice can
# carry on a cell across blanks. ``plain_row`` tries them first with a simple pattern (the full
# one spends most of its steps on the possessive parts of a move); any other row, or a plain
# row written otherwise, goes to ``row``. tests/test_reader_properties.py checks that the two
# agree on every row the simple one reads.
_PLAIN_MOVE = r"(?:[0-9]{1,2}+|bar)/(?:[0-9]{1,2}+|off)\*?+(?:\([0-9]\))?+(?=[ \t\n]|\Z)"  # (a lookahead for what may follow, not against what may not: a quarter faster)
_PLAIN_CELL = rf"[0-9][0-9]:(?: {_PLAIN_MOVE})*+"
_PLAIN_ROW = rf"[ \t]*+(?P<number>[0-9]+\))[ \t]*+(?P<first>{_PLAIN_CELL})?+[ \t]*+(?P<second>{_PLAIN_CELL})?+[ \t]*+\n?"


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
    return Grammar(parser, row, words, re.compile(_PLAIN_ROW))


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
        what, names = f"unexpected {quoted(word)}", set(exc.expected or ())
    elif isinstance(exc, (UnexpectedToken, UnexpectedCharacters)):
        allowed = exc.expected if isinstance(exc, UnexpectedToken) else exc.allowed
        what, names = f"cannot read {quoted(word)}", set(allowed or ())
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


@lru_cache(maxsize=16384)
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
    read_cell.cache_clear()
    move_token.cache_clear()


def moves_of(text: str, offset: int = 0) -> tuple[MoveToken, ...]:
    """The moves written in ``text`` (a MOVES token), offsets counted from ``-offset``."""
    if _PARTING.search(text):
        return tuple([move_token(found[0], offset + found.start()) for found in _WORD.finditer(text)])
    # blanks alone part the moves: the words between spaces are _WORD's matches, found faster
    tokens = []
    for word in text.split(" "):
        if word:
            tokens.append(move_token(word, offset))
        offset += len(word) + 1
    return tuple(tokens)


def gives_up_notice(text: str) -> str:
    """What a resignation written in other words is read as ("" for ``Resigns`` and XG's
    ``???``, which every reader knows)."""
    if text[0].isdigit():
        if text.startswith("00"):
            return f"{quoted(text)}: placeholder dice and play, read as a resignation before rolling"
        found = _GIVES_UP.search(text)
        return f"{quoted(found.group())} after the dice: read as rolled, then resigned" if found and not _STANDARD_RESIGN.match(found.group()) else ""
    if text.startswith("?"):
        return f"{quoted(text)}: a placeholder play, read as a resignation before rolling"
    return "" if _STANDARD_RESIGN.match(text) else f"{quoted(text)}: read as a resignation"


_GLUED = re.compile(r"\*[0-9bBoO]")  # a hit mark glued to the next move
_WINS_WINS = re.compile(r"(?i)and[ \t]+wins")

Notice = tuple[Severity, str, str]
"""What the reader says of a cell where it stands: (severity, code, message)."""


@lru_cache(maxsize=16384)
def read_cell(text: str) -> tuple[tuple[Any, ...], tuple[Notice, ...]]:
    """:func:`cell_meaning`, and what is said of how the cell was read: a hit mark glued to
    the next move, "and wins the match", a resignation in other words, a cell that does not
    read. Cached as a whole: the same cells recur across games, so most cost one lookup."""
    meaning = cell_meaning(text)
    what = meaning[0]
    notices: list[Notice] = []
    if "*" in text and _GLUED.search(text):
        notices.append((Severity.INFO, "glued-hit-mark", "a hit mark with no space after it: read as the end of a move"))
    elif what == "result" and _WINS_WINS.search(text):
        notices.append((Severity.INFO, "result-spelling", "'and wins the match': read as 'and the match'"))
    elif what in ("result", "roll") and meaning[1 if what == "result" else 3] in ("resign", "unplayed"):
        notice = gives_up_notice(text)
        if notice:
            notices.append((Severity.INFO, "resign-word", notice))
    if what == "bad":
        notices.append((Severity.ERROR, "unreadable", meaning[1]))
    return meaning, tuple(notices)


def cell_meaning(text: str) -> tuple[Any, ...]:
    """("roll", dice, moves, note), ("setup", dice, setup, moves), ("cube", kind, value),
    ("result", kind, points, and the match) or ("bad", why), from the text of a cell the
    grammar read."""
    if text[0].isdigit():
        dice = (int(text[0]), int(text[1]))
        after = text.index(":") + 1
        rest = text[after:]
        note_at = _NOTE.search(rest) if _NOTE_SIGN.search(rest) else None
        moves = moves_of(rest[: note_at.start()] if note_at else rest, after)
        if note_at is None:
            return ("roll", dice, moves, "")
        note = rest[note_at.start() :]
        if note[0] in "iI":
            return ("setup", dice, note[note.index("(") + 1 : note.rindex(")")], moves)
        gives_up = note[0] == "?" or _GIVES_UP.match(note) is not None
        if gives_up and dice == (0, 0) and not moves:  # placeholder dice and play: resigned before rolling
            return ("result", "resign", None, False)
        return ("roll", dice, moves, "unplayed" if gives_up else "cannot move")
    kind = next(name for name, word in grammar().words if word.fullmatch(text))
    numbers = _NUMBER.findall(text)
    written = numbers[-1 if kind in _CUBES else 0] if numbers else None
    value = number(written, MAX_CUBE if kind in _CUBES else None) if written else None
    if written and value is None:
        return ("bad", too_large(written, MAX_CUBE if kind in _CUBES else None))
    if kind in _CUBES:
        return ("cube", _CUBES[kind], value)
    won_match = kind != "LOSSES" and "match" in text.lower()
    return ("result", _RESULTS[kind], value, won_match)


