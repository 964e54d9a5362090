"""The SGF reader: backgammon game trees (GM[6]) as GNU Backgammon writes them -> records.

Parsed with ``grammars/sgf.lark``. White (``W``, ``PW``) is player 0, the left column of a
.mat file; Black is player 1. The main line of each game tree is read (its nodes, then its
first variation's, and so on); the other variations, marks and comments are kept only in the raw
text. GNU Backgammon's analysis of a move or a cube action (``A``, ``DA``, ``LU``) is kept beside
the game as written (``game.analysis``; the analysis layer reads it). ``MI``'s tags are read in any case; ``RE`` in any
node of the main line (some writers put it last). A beaver is
written as a second ``double`` (by the doubled player, before any take): it is read as a
beaver, a third as a raccoon. The first game's ``RU[Crawford:Jacoby:Nackgammon]`` is given as the
match's tags (:func:`rule_tags`: ``Crawford`` or ``Jacoby``, ``Beaver``, ``CubeLimit``, and the part that
is no rule as ``Variation``), as a .mat header states its rules. A resignation has no node in GNU Backgammon's SGF: it is read
from ``RE[W+2R]``; Gibbon (libgsgf) writes ``B[resign:2]`` (an offer, by level) and the
other's ``W[accept]`` or ``W[reject]``, and ``RE[W+2Resign]``. A last node holding only
``PL`` and ``DI`` is dice rolled and not played (before a resignation), as a .mat's ``???``;
``CV`` and ``CP`` before the first action are the cube the game starts with.

Does not check: whether moves are legal, whether scores add up (the replay's work).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, NamedTuple

from lark import Lark, Token, Transformer, UnexpectedInput

from bgrecord.escapes import quoted
from bgrecord.formats.cutmark import PREFIX, cut_comment, is_cut_mark
from bgrecord.formats.grammars import grammar_text
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_ACTIONS, MAX_DEPTH, MAX_GAME_TEXT, TooLarge
from bgrecord.formats.mat_grammar import describe_error
from bgrecord.formats.numbers import MAX_CUBE, number
from bgrecord.formats.records import (
    Action,
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
from bgrecord.formats.source import LINE_END, Input

_SETUP = {"AE", "AW", "AB", "PL", "DI", "CV", "CP", "CO"}
_ROOT = {"FF", "GM", "CA", "AP", "MI", "PW", "PB", "WR", "BR", "DT", "EV", "RO", "PC", "AN", "GC", "RU", "RE", "CV"}
_ANALYSIS = ("A", "DA", "LU")  # GNU Backgammon's analysis of the node's action: kept as written
_READ = _SETUP | _ROOT | {"W", "B", *_ANALYSIS}
_VALUE = re.compile(r"\[([^\]\\]*+(?:\\.[^\]\\]*+)*+)\]", re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
_BOARD_SETUP = re.compile(r"A[EWB]\[")
_PLAYER_ON_ROLL = re.compile(r"PL\[([^\]]*)\]")
_RULES = {"crawford", "crawfordgame", "jacoby", "nocube", "beaver", "beavers", "nobeaver", "nobeavers", "holland"}  # RU's rules (gnubg's sgf.c; bgrecord's beavers)
_CUBE_LIMIT = re.compile(r"cubelimit=([0-9]{1,6})$")  # bgrecord's: a cube limit other than NoCube's
_TAGS = {"EV": "Event", "RO": "Round", "PC": "Site", "DT": "EventDate", "AN": "Transcriber", "GC": "Comment"}
_RESULT = re.compile(r"([WB])\+([0-9]+)(R|Resign)?$", re.I)
_UNSCORED = re.compile(r"(?:([WB])\+(?:R|Resign)?|\?|Void)$", re.I)  # a winner without points (W+R, W+Resign), unknown (?), none (Void)
_RESIGN = re.compile(r"resign(?::([0-9]{1,6}))?$", re.I)
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
        self.line_offset = 0  # the line of the file where the parsed text starts, less one

    def node(self, token: Token) -> list[Property]:
        """The backgammon properties of a NODE token, each with its line and column in the
        file; the others (analysis, marks, comments) stay only in the raw text."""
        properties = []
        line, line_start = (token.line or 1) + self.line_offset, 1 - (token.column or 1)  # line_start: offset in token
        counted = 0
        for found in self.property_pattern[0].finditer(token, 1):
            text, start = found.group(1), found.start(1)
            ident = text[: text.index("[")].rstrip()
            if ident not in _READ and not (ident == "C" and PREFIX in text):  # a cut mark: bgrecord.formats.cutmark
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


# A parenthesis, or a run of everything else (text and whole values, which may hold
# parentheses; a backslash and a line end is a soft line break): a game tree's nodes are one
# run, so the splitter loops per tree, not per value.
_MAX_NODES = 4 * MAX_ACTIONS  # nodes of a game tree (an action is a node; set-ups and notes are more)
# Matched at one place at a time (never searched for): a value left open fails once, at its
# start, where a search would try again from every later "[" (quadratic in a run of them).
_TREE_TOKENS = re.compile(r"[()]|(?:[^()\[]++|\[[^\]\\]*+(?:\\.[^\]\\]*+)*+\])++", re.S)


def trees(blocks: Iterable[tuple[str, str]]) -> Iterator[tuple[bool, str, int, int]]:
    """The pieces of a collection given block by block, as written: (True, text, line,
    column) for each top-level game tree, (False, text, line, column) for what stands between
    them. A value may hold brackets and parentheses; one left open at the end of a block
    waits for the next. A piece longer than :data:`~bgrecord.formats.limits.MAX_GAME_TEXT`, or trees
    nested deeper than :data:`~bgrecord.formats.limits.MAX_DEPTH`, are :class:`~bgrecord.formats.limits.TooLarge`."""
    depth = 0
    size = nodes = 0  # characters and nodes of the piece being gathered
    line, column = 1, 1  # where the text not yet consumed starts
    piece_start = (1, 1)
    pieces: list[str] = []
    carry = ""
    for _, raw in blocks:
        text = carry + raw
        carry = ""
        position = 0
        match_at = _TREE_TOKENS.match
        while (found := match_at(text, position)) is not None:  # none: a value left open, wait for more text
            token = found.group()
            if token == "(" and depth == 0:
                if pieces:
                    yield False, "".join(pieces), piece_start[0], piece_start[1]
                pieces, piece_start, size, nodes = [], (line, column), 0, 0
            if token == "(":
                depth += 1
                if depth > MAX_DEPTH:  # variations inside variations: no record nests so deep
                    raise TooLarge(f"game trees nested more than {MAX_DEPTH} deep", piece_start[0])
            pieces.append(token)
            size += len(token)
            nodes += token.count(";")  # and the semicolons of values: a bound, which is all it needs to be
            if size > MAX_GAME_TEXT:
                raise TooLarge(f"a game tree longer than {MAX_GAME_TEXT:,} characters", piece_start[0])
            if nodes > _MAX_NODES:
                raise TooLarge(f"a game tree of more than {_MAX_NODES:,} nodes", piece_start[0])
            if token == ")" and depth:
                depth -= 1
                if depth == 0:
                    yield True, "".join(pieces), piece_start[0], piece_start[1]
                    pieces, size, nodes = [], 0, 0
            ends = len(LINE_END.findall(token)) if "\r" in token else token.count("\n")
            if ends:
                last = max(token.rfind("\n"), token.rfind("\r"))
                line, column = line + ends, len(token) - last
            else:
                column += len(token)
            if not pieces and depth == 0:
                piece_start = (line, column)
            position = found.end()
        carry = text[position:]
        if size + len(carry) > MAX_GAME_TEXT:  # a bracket never closed: the rest is one bad tree
            raise TooLarge(f"a game tree longer than {MAX_GAME_TEXT:,} characters (a value left open?)", piece_start[0])
    pieces.append(carry)
    rest = "".join(pieces)
    if rest:
        yield depth > 0 or rest.lstrip().startswith("("), rest, piece_start[0], piece_start[1]


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """The games of an SGF collection, each as soon as its tree is read (one parse per game
    tree: a tree that does not parse costs one error, the others are read). The text between
    trees stays with the game before it (or the match, before the first), so that the
    records give the file back. A tree whose ``MI`` says game 0 after other games starts
    another match (a file of several matches, as bgrecord writes one)."""
    encoding, blocks = source.text_blocks()
    match = MatchRecord(source.name, "sgf", encoding)
    path = source.name

    foreign: list[int] = []  # the issue saying the file is not backgammon, and how many trees say so

    def issue(severity: Severity, code: str, message: str, line: int | None, column: int | None, game: int | None = None) -> None:
        if code == "not-backgammon" and foreign:  # a file that is not backgammon is one error, not one per tree
            foreign[1] += 1
            return
        if code == "not-backgammon":
            foreign[:] = [len(match.issues), 1]
        match.issues.append(format_issue(severity, code, message, line, column).at(path=path, game=game))

    index = 0
    held: GameRecord | None = None
    outside = False
    for is_tree, text, line, column in trees(blocks):
        if not is_tree:
            if held is not None:
                held.raw += text
            else:
                match.raw += text
            if text.strip() and not outside:
                issue(Severity.WARNING, "outside-trees", "text outside the game trees: not read", line, column)
                outside = True
            continue
        index += 1
        game = _read_tree(match, index, text, line, column, issue)
        if game is not None and index > 1 and game.number == 1 and held is not None:  # MI[game:0] again: a new match
            yield match, held
            held, index = None, 1
            match = MatchRecord(source.name, "sgf", encoding)
            game = _read_tree(match, index, text, line, column, issue)
        if game is None:
            (held if held is not None else match).raw += text
            continue
        if held is not None:
            yield match, held
        held = game
    if foreign and foreign[1] > 1:
        first = match.issues[foreign[0]]
        match.issues[foreign[0]] = first.at(message=f"{first.message} (and {foreign[1] - 1} more game tree{'s' if foreign[1] > 2 else ''} of this file, none read)")
    if held is not None:
        yield match, held
    elif match.issues or match.raw.strip() or index:
        yield match, None


def _read_tree(match: MatchRecord, index: int, text: str, line: int, column: int, issue: Callable[..., None]) -> GameRecord | None:
    """One game tree (``text`` as written, starting at ``line``, ``column``) to a game; None,
    with an error, when it does not parse or is not backgammon."""
    built = parser()
    built.options.transformer.line_offset = line - 1  # type: ignore[union-attr]
    parsed_text = " " * (column - 1) + (text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text)
    try:
        parsed: list[Any] = built.parse(parsed_text, start="collection")  # type: ignore[assignment]
    except UnexpectedInput as exc:
        message, where = describe_error(exc, parsed_text)
        at = exc.line + line - 1 if isinstance(exc.line, int) else line
        issue(Severity.ERROR, "unreadable", f"not a readable SGF file (game tree {index}): {message}", at, where, index)
        return None
    nodes, variations = parsed[0]
    root = {prop.ident: prop for prop in nodes[0]} if nodes else {}
    game_type = root["GM"].values[0] if "GM" in root else "1"
    if game_type.strip() != "6":
        token = root["GM"].token if "GM" in root else None
        issue(
            Severity.ERROR, "not-backgammon",
            f"an SGF game of type GM[{game_type[:20]}], not backgammon (GM[6]): not read",
            token.line if token else line, token.column if token else column, index,
        )
        return None
    nodes, others = _main_line(nodes, variations)
    game = _read_game(match, index, nodes, match.path, issue)
    game.raw = text
    if others:
        first = others[0][0][0][0].token.line if others[0][0] and others[0][0][0] else None
        count = f"{len(others)} other line{'s' if len(others) > 1 else ''}"
        issue(Severity.INFO, "variations", f"variations in the game tree: the main line (each node's first variation) is read, not the {count}", first, None, index)
    return game


def _main_line(nodes: list[list[Property]], variations: list[Any]) -> tuple[list[list[Property]], list[Any]]:
    """The game's course, as SGF says: the tree's nodes, then its first variation's, and so
    on; and the other variations (analysis lines, not read)."""
    main, others = list(nodes), []
    while variations:
        (child, variations), *rest = variations
        main += child
        others += rest
    return main, others


def _read_game(match: MatchRecord, index: int, nodes: list[list[Property]], path: str | None, issue: Callable[..., None]) -> GameRecord:
    root = {prop.ident: prop for prop in nodes[0]}
    first_line = nodes[0][0].token.line or 1
    game = GameRecord(index=index, number=index, line=first_line)
    game.properties = {prop.ident: prop.values for prop in nodes[0]}
    # MI's tags are case-insensitive (the backgammon SGF specification); unknown tags are ignored
    info = {key.strip().lower(): value for key, value in (value.split(":", 1) for value in game.properties.get("MI", ()) if ":" in value)}
    for key in ("length", "game", "ws", "bs"):
        if key in info and number(info[key]) is None:
            game.issues.append(format_issue(Severity.ERROR, "match-info", f"MI[{key}:{info[key][:20]}] is not a number backgammon can mean",
                                            root["MI"].token.line, root["MI"].token.column).at(path=path, game=index))
    length = number(info.get("length", ""))
    if length is not None and match.length is None:
        match.length = length
    elif "length" not in info and match.length is None:  # as GNU Backgammon reads it (and writers leave MI out of money play)
        match.length = 0
        issue(Severity.INFO, "money-by-default", "no match length (MI[length:N]): read as money play, as GNU Backgammon does", first_line, None, index)
    game_number = number(info.get("game", ""))
    if game_number is not None:
        game.number = game_number + 1  # gnubg counts games from 0
    game.names = (_first(root, "PW"), _first(root, "PB"))
    game.scores = (number(info.get("ws", "")), number(info.get("bs", "")))
    if "MI" in root:  # the scores' place: the MI property
        game.score_line, game.score_columns = root["MI"].token.line, (root["MI"].token.column, root["MI"].token.column)
    game.ratings = (number(_first(root, "WR")), number(_first(root, "BR")))
    if index == 1:
        application = _first(root, "AP")
        if application.startswith("GNU Backgammon"):  # whose analysis the nodes hold, where they hold one
            match.analysis = {"engine": "gnubg", "version": application.partition(":")[2].strip()[:40]}
        for ident, key in _TAGS.items():
            if ident in root:
                match.tags.append(Tag(key, root[ident].values[0], root[ident].token.line or 1))
        if "RU" in root:
            match.tags += [Tag(key, value, root["RU"].token.line or 1) for key, value in rule_tags(_first(root, "RU"), match.length)]
    doubles = 0
    acted = -1  # the count of actions after a node that only set up the board
    for at, node in enumerate(nodes):
        props = {prop.ident: prop for prop in node}
        if not any(isinstance(action, (Roll, CubeAction)) for action in game.actions):
            _starting_cube(game, props)
        for player, ident in ((0, "W"), (1, "B")):
            if ident in props:
                action, doubles = _action(props[ident], player, doubles, game, path)
                if action is not None:
                    analysis = {name: props[name].values for name in _ANALYSIS if name in props}
                    if analysis:
                        game.analysis[len(game.actions)] = analysis
                    game.actions.append(action)
        if "C" in props and is_cut_mark(props["C"].values[0]):
            mark, warning = cut_comment(props["C"].values[0], props["C"].token.line or 1, props["C"].token.column)
            game.actions.append(mark)
            game.issues.append(warning.at(path=path, game=index))
        setup = [prop for prop in node if prop.ident in _SETUP]
        rolled = _rolled(node, setup) if node is not nodes[0] else None
        if rolled is not None and node is not nodes[-1] and _played(rolled, nodes[at + 1]):
            continue  # GNU Backgammon's dice set (MOVE_SETDICE), said again by the move after it
        if rolled is not None and node is nodes[-1]:
            game.actions.append(rolled)
        elif setup and node is not nodes[0] or (node is nodes[0] and any(p.ident in ("AE", "AW", "AB") for p in setup)):
            token = setup[0].token
            text = "".join(prop.ident + "".join(f"[{v}]" for v in prop.values) for prop in setup)
            dice = props["DI"].values[0] if "DI" in props else ""
            to_play = (int(dice[0]), int(dice[1])) if re.fullmatch(r"[1-6]{2}", dice) else None
            before = game.actions[-1] if game.actions and acted == len(game.actions) else None
            if isinstance(before, SetPosition) and before.kind == "sgf":  # a set-up spread over several nodes is one set-up
                text = before.setup + text
                token, to_play = Token("PROPERTY", "", line=before.line, column=before.column), to_play or before.dice
                game.actions.pop()
            game.actions.append(SetPosition(None, None, token.line or 1, token.column or 1, text, "sgf", text, to_play, _on_roll(text)))
        acted = len(game.actions) if setup and not any(ident in props for ident in ("W", "B")) else -1
    results = [prop for node in nodes for prop in node if prop.ident == "RE"]  # a game-info property: the root, or any node
    if results:
        prop = results[-1]
        found = _RESULT.match(prop.values[0].strip())
        if found and number(found.group(2), MAX_CUBE * 3) is None:
            found = None
        if found:
            player = 0 if found.group(1).upper() == "W" else 1
            game.actions.append(
                Result(player, None, prop.token.line or 1, prop.token.column or 1, f"RE[{prop.values[0]}]", "win",
                       int(found.group(2)), False, bool(found.group(3)))
            )
        elif _UNSCORED.match(prop.values[0].strip()):
            game.properties["RE"] = prop.values  # no points written: the next game's score may tell them (replay)
        elif prop.values[0].strip():
            game.issues.append(
                format_issue(Severity.WARNING, "result", f"unreadable result RE[{prop.values[0]}]", prop.token.line, prop.token.column)
                .at(path=path, game=index)
            )
    return game


def _on_roll(setup: str) -> int | None:
    """Who acts after a set-up that places checkers (its last ``PL``). A node of ``PL`` and
    ``DI`` alone (GNU Backgammon's dice set before a move) says nothing the turn order does not:
    it is checked against it, never taken over it."""
    if not _BOARD_SETUP.search(setup):
        return None
    found = _PLAYER_ON_ROLL.findall(setup)
    return {"W": 0, "B": 1}.get(found[-1].strip()[:1].upper()) if found else None


def _starting_cube(game: GameRecord, props: dict[str, Property]) -> None:
    """The cube set before the game's first action: ``CV[4]`` its value, ``CP[w]``, ``CP[b]``
    or ``CP[c]`` its owner (White, Black, centred)."""
    if "CV" in props:
        value = number(props["CV"].values[0].strip(), MAX_CUBE)
        game.initial_cube = value if value and value & (value - 1) == 0 else game.initial_cube
    if "CP" in props:
        game.initial_cube_owner = {"w": 0, "b": 1}.get(props["CP"].values[0].strip()[:1].lower())


def _rolled(node: list[Property], setup: list[Property]) -> Roll | None:
    """The last node of a game that only says who is on roll and the dice (``PL[B]DI[33]``):
    GNU Backgammon's record of dice rolled and not played (the game ended: a resignation),
    read as a roll without a play, as a .mat's ``33: ???``."""
    props = {prop.ident: prop for prop in setup}
    if len(setup) != sum(prop.ident not in _ANALYSIS for prop in node) or set(props) != {"PL", "DI"}:  # its luck may be said
        return None
    player = {"W": 0, "B": 1}.get(props["PL"].values[0].strip().upper())
    dice = props["DI"].values[0].strip()
    if player is None or not re.fullmatch(r"[1-6]{2}", dice):
        return None
    token = props["DI"].token
    text = "".join(prop.ident + "".join(f"[{v}]" for v in prop.values) for prop in setup)
    return Roll(player, None, token.line or 1, token.column or 1, text, (int(dice[0]), int(dice[1])), (), "unplayed")


def _played(rolled: Roll, node: list[Property]) -> bool:
    """Whether ``node`` is a move of the player and dice ``rolled`` says (in either order)."""
    ident = "WB"[rolled.player or 0]
    move = next((prop for prop in node if prop.ident == ident), None)
    dice = move.values[0].strip()[:2] if move is not None else ""
    return sorted(dice) == sorted(f"{rolled.dice[0]}{rolled.dice[1]}")


def unscored_result(value: str) -> tuple[bool, int | None]:
    """Whether an ``RE`` value writes no points (``W+R``, ``W+Resign``, ``?``, ``Void``, or
    nothing), and the winner it names (0 White, 1 Black, None: not named)."""
    found = _UNSCORED.match(value.strip())
    if not value.strip() or found is None:
        return not value.strip(), None
    return True, None if found.group(1) is None else "WB".index(found.group(1).upper())


def rule_tags(rules: str, length: int | None) -> list[tuple[str, str]]:
    """The tags a game's ``RU`` states (GNU Backgammon's reading: a rule listed is on, one
    not listed off): in match play Crawford, in money play Jacoby; ``NoCube`` a cube limit
    of 1; the part that is no rule the variant. bgrecord adds what gnubg's list has no word
    for (gnubg ignores it): ``Beaver`` or ``NoBeaver``, ``CubeLimit=64``. Beavers go unsaid
    where the list does not name them (gnubg never does)."""
    words = [part.strip() for part in rules.split(":") if part.strip()]
    said = {word.lower() for word in words}
    tags = []
    if length:
        tags.append(("Crawford", "On" if "crawford" in said else "Off"))
    elif length == 0:
        tags.append(("Jacoby", "On" if "jacoby" in said else "Off"))
    if said & {"beaver", "beavers", "nobeaver", "nobeavers"}:
        tags.append(("Beaver", "On" if said & {"beaver", "beavers"} else "Off"))
    limits = [found.group(1) for found in map(_CUBE_LIMIT.match, said) if found]
    if "nocube" in said or limits:
        tags.append(("CubeLimit", "1" if "nocube" in said else limits[0]))
    variant = [word for word in words if word.lower() not in _RULES and not _CUBE_LIMIT.match(word.lower())]
    if variant:  # RU[Crawford:Jacoby:Nackgammon]: the part that is not a rule names the variant
        tags.append(("Variation", variant[0]))
    return tags


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
    resign = _RESIGN.match(word)
    if resign:  # Gibbon/libgsgf: an offer to resign (N: the level, 1-3, or the points), its answer below
        level = number(resign.group(1)) if resign.group(1) else None
        return Result(player, None, line, column, text, "resign", level), doubles
    if word in ("accept", "reject"):
        return Result(player, None, line, column, text, word), doubles
    found = _MOVE.match(value)
    if not found:  # an error, and the game is not checked past it (the replay stops at an Unreadable)
        game.issues.append(
            format_issue(Severity.ERROR, "unreadable", f"cannot read the move {quoted(text)}", line, column).at(path=path, game=game.index)
        )
        return Unreadable(player, None, line, column, text), 0
    dice = (int(found.group(1)), int(found.group(2)))
    letters = found.group(3)
    moves = tuple(
        MoveToken((point_of(letters[i], player), point_of(letters[i + 1], player)), (False, False), 1, letters[i : i + 2], column + 2 + len(prop.ident) + i)
        for i in range(0, len(letters), 2)
    )
    return Roll(player, None, line, column, text, dice, moves), 0
