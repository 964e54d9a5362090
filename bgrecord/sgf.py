"""The SGF reader: backgammon game trees (GM[6]) as GNU Backgammon writes them -> records.

Parsed with ``grammars/sgf.lark``. White (``W``, ``PW``) is player 0, the left column of a
.mat file; Black is player 1. The main line of each game tree is read; variations, analysis
(``A``, ``DA``, ``LU``...), marks and comments are kept only in the raw text. A beaver is
written as a second ``double`` (by the doubled player, before any take): it is read as a
beaver, a third as a raccoon. A resignation has no node: it is read from ``RE[W+2R]``.

Does not check: whether moves are legal, whether scores add up (the replay's work).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

from lark import Lark, Token, Transformer, UnexpectedInput

from bgrecord.grammars import grammar_text
from bgrecord.issues import Severity, format_issue
from bgrecord.mat import describe_error
from bgrecord.records import Action, CubeAction, GameRecord, MatchRecord, MoveToken, Result, Roll, SetPosition, Tag
from bgrecord.source import Text

_SETUP = {"AE", "AW", "AB", "PL", "DI", "CV", "CP", "CO"}
_ROOT = {"FF", "GM", "CA", "AP", "MI", "PW", "PB", "WR", "BR", "DT", "EV", "RO", "PC", "AN", "GC", "RU", "RE", "CV"}
_READ = _SETUP | _ROOT | {"W", "B"}
_VALUE = re.compile(r"\[([^\]\\]*+(?:\\.[^\]\\]*+)*+)\]", re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
_TAGS = {"EV": "Event", "RO": "Round", "PC": "Site", "DT": "EventDate", "AN": "Transcriber", "GC": "Comment"}
_RESULT = re.compile(r"([WB])\+([0-9]+)(R?)$", re.I)
_MOVE = re.compile(r"([1-6])([1-6])((?:[a-z]{2}){0,4})$")


class Property(NamedTuple):
    ident: str
    values: tuple[str, ...]
    token: Token


class SgfTransformer(Transformer[Token, Any]):
    """NODE tokens to lists of properties, game trees to (nodes, subtrees)."""

    def __init__(self, property_pattern: list[re.Pattern[str]]) -> None:
        super().__init__()
        self.property_pattern = property_pattern  # filled in once the grammar is built

    def node(self, token: Token) -> list[Property]:
        """The backgammon properties of a NODE token, each with its line and column in the
        file; the others (analysis, marks, comments) stay only in the raw text."""
        properties = []
        line, line_start = token.line or 1, 1 - (token.column or 1)  # line_start: offset in token
        counted = 0
        for found in self.property_pattern[0].finditer(token, 1):
            text, start = found.group(1), found.start(1)
            ident = text[: text.index("[")].rstrip()
            if ident not in _READ:
                continue
            newlines = token.count("\n", counted, start)
            if newlines:
                line, line_start = line + newlines, token.rfind("\n", counted, start) + 1
            counted = start
            values = tuple(_ESCAPE.sub(r"\1", value) for value in _VALUE.findall(text))
            properties.append(Property(ident, values, Token("PROPERTY", ident, line=line, column=start - line_start + 1)))
        return properties

    def gametree(self, items: list[Any]) -> tuple[list[list[Property]], list[Any]]:
        nodes = [self.node(item) for item in items if isinstance(item, Token)]
        trees = [item for item in items if isinstance(item, tuple)]
        return nodes, trees

    def collection(self, items: list[Any]) -> list[Any]:
        return items


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The SGF parser, built once per process (tables cached on disk by Lark)."""
    pattern: list[re.Pattern[str]] = []
    transformer = SgfTransformer(pattern)
    built = Lark(grammar_text("sgf.lark"), parser="lalr", start=["collection", "properties"], transformer=transformer, cache=True)
    pattern.append(re.compile(rf"\s*+({built.get_terminal('PROPERTY').pattern.to_regexp()})"))
    return built


def point_of(letter: str, player: int) -> int:
    """The point an SGF letter names from ``player``'s side: a-x points, y the bar, z off."""
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    offset = ord(letter) - ord("a")
    return offset + 1 if player == 0 else 24 - offset


def read_sgf(loaded: Text) -> MatchRecord:
    match = MatchRecord(loaded.path, "sgf", loaded.encoding, raw=loaded.text)

    def issue(severity: Severity, code: str, message: str, line: int | None, column: int | None, game: int | None = None) -> None:
        match.issues.append(format_issue(severity, code, message, line, column).at(path=loaded.path, game=game))

    try:
        trees: list[tuple[list[list[Property]], list[Any]]] = parser().parse(loaded.text, start="collection")  # type: ignore[assignment]
    except UnexpectedInput as exc:
        message, column = describe_error(exc, loaded.text)
        issue(Severity.ERROR, "unreadable", f"not a readable SGF file: {message}", exc.line if isinstance(exc.line, int) else None, column)
        return match
    for index, (nodes, variations) in enumerate(trees, 1):
        root = {prop.ident: prop for prop in nodes[0]} if nodes else {}
        game_type = root["GM"].values[0] if "GM" in root else "1"
        if game_type.strip() != "6":
            token = root["GM"].token if "GM" in root else None
            issue(
                Severity.ERROR, "not-backgammon",
                f"an SGF game of type GM[{game_type}], not backgammon (GM[6]): not read",
                token.line if token else 1, token.column if token else 1, index,
            )
            continue
        game = _read_game(match, index, nodes, loaded.path)
        if variations:
            line = variations[0][0][0][0].token.line if variations[0][0] and variations[0][0][0] else None
            issue(Severity.WARNING, "variations", "variations in the game tree: only the main line is read", line, None, index)
        match.games.append(game)
    return match


def _read_game(match: MatchRecord, index: int, nodes: list[list[Property]], path: str | None) -> GameRecord:
    root = {prop.ident: prop for prop in nodes[0]}
    first_line = nodes[0][0].token.line or 1
    game = GameRecord(index=index, number=index, line=first_line)
    game.properties = {prop.ident: prop.values for prop in nodes[0]}
    info = dict(value.split(":", 1) for value in game.properties.get("MI", ()) if ":" in value)
    if "length" in info and info["length"].strip().isdigit():
        if match.length is None:
            match.length = int(info["length"])
    if "game" in info and info["game"].strip().isdigit():
        game.number = int(info["game"]) + 1  # gnubg counts games from 0
    game.names = (_first(root, "PW"), _first(root, "PB"))
    scores = (info.get("ws", ""), info.get("bs", ""))
    game.scores = (int(scores[0]) if scores[0].isdigit() else None, int(scores[1]) if scores[1].isdigit() else None)
    ratings = (_first(root, "WR"), _first(root, "BR"))
    game.ratings = (int(ratings[0]) if ratings[0].isdigit() else None, int(ratings[1]) if ratings[1].isdigit() else None)
    if index == 1:
        for ident, key in _TAGS.items():
            if ident in root:
                match.tags.append(Tag(key, root[ident].values[0], root[ident].token.line or 1))
    doubles = 0
    for node in nodes:
        props = {prop.ident: prop for prop in node}
        for player, ident in ((0, "W"), (1, "B")):
            if ident in props:
                action, doubles = _action(props[ident], player, doubles, game, path)
                if action is not None:
                    game.actions.append(action)
        setup = [prop for prop in node if prop.ident in _SETUP]
        if setup and node is not nodes[0] or (node is nodes[0] and any(p.ident in ("AE", "AW", "AB") for p in setup)):
            token = setup[0].token
            text = "".join(prop.ident + "".join(f"[{v}]" for v in prop.values) for prop in setup)
            dice = props["DI"].values[0] if "DI" in props else ""
            game.actions.append(
                SetPosition(None, None, token.line or 1, token.column or 1, text, "sgf", text,
                            (int(dice[0]), int(dice[1])) if re.fullmatch(r"[1-6]{2}", dice) else None)
            )
    if "RE" in root:
        prop = root["RE"]
        found = _RESULT.match(prop.values[0].strip())
        if found:
            player = 0 if found.group(1).upper() == "W" else 1
            game.actions.append(
                Result(player, None, prop.token.line or 1, prop.token.column or 1, f"RE[{prop.values[0]}]", "win",
                       int(found.group(2)), False, bool(found.group(3)))
            )
        elif prop.values[0].strip():
            game.issues.append(
                format_issue(Severity.WARNING, "result", f"unreadable result RE[{prop.values[0]}]", prop.token.line, prop.token.column)
                .at(path=path, game=index)
            )
    return game


def _first(root: dict[str, Property], ident: str) -> str:
    return root[ident].values[0] if ident in root else ""


def _action(prop: Property, player: int, doubles: int, game: GameRecord, path: str | None) -> tuple[Action | None, int]:
    value = prop.values[0].strip()
    line, column, text = prop.token.line or 1, prop.token.column or 1, f"{prop.ident}[{prop.values[0]}]"
    word = value.lower()
    if word == "double":
        kind = ("double", "beaver", "raccoon")[min(doubles, 2)]
        return CubeAction(player, None, line, column, text, kind), doubles + 1
    if word in ("take", "drop"):
        return CubeAction(player, None, line, column, text, word), 0
    found = _MOVE.match(value)
    if not found:
        game.issues.append(
            format_issue(Severity.ERROR, "unreadable", f"cannot read the move {text!r}", line, column).at(path=path, game=game.index)
        )
        return None, 0
    dice = (int(found.group(1)), int(found.group(2)))
    letters = found.group(3)
    moves = tuple(
        MoveToken((point_of(letters[i], player), point_of(letters[i + 1], player)), (False, False), 1, letters[i : i + 2], column + 2 + len(prop.ident) + i)
        for i in range(0, len(letters), 2)
    )
    return Roll(player, None, line, column, text, dice, moves), 0
