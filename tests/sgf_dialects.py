"""A generator of legitimate SGF (``GM[6]``) dialects: a clean match, read and replayed
(``dialects.model``), written as the programs that write backgammon SGF plausibly do, one class of
variation at a time (``DIALECTS``), or several at once (``mixed``).

The producers, and what each shows (their writers' source, read through the search index; the
reference is the SGF backgammon specification, FF[4] ``GM[6]``, and GNU Backgammon's ``sgf.c``,
whose reader every producer writes for):

- GNU Backgammon 1.07 ``SaveGame``: ``(;FF[4]GM[6]CA[UTF-8]AP[...]MI[length:7][game:0][ws:0][bs:0]
  PW[..]PB[..]DT[..]RU[Crawford]RE[W+2R]`` then ``\\n;W[52mkwr]`` node by node, analysis (``A``,
  ``DA``, ``LU``, ``BM``...) and comments ``C`` on the move nodes, ``;PL[W]AE[a:y]AW..AB..`` for an
  edited board, ``;PL[W]DI[52]`` for dice rolled and not played (rolled, then resigned), ``;CV[2]``,
  ``;CP[w]``; ``save position`` writes a game tree holding one position; ``save game`` one game a file.
- GNU Backgammon 0.x (``sgf.c``, 1998-2000): no ``CA``, ``MI`` only in match play, the nodes of a game
  on one line; ``RU[Crawford:CrawfordGame]`` or ``RU[Jacoby]``.
- Gibbon (libgsgf): ``PB`` before ``PW``, ``B[resign:2]`` then ``W[accept]``, ``RE[W+2Resign]``.
- BackgammonMobile (alcacoop's GnuBackgammon app): ``(`` alone on the first line, one node a line,
  ``)`` on a line of its own.
- "DG Android" (a DailyGammon client's .mat -> SGF): gnubg's layout, comments ``C[...]`` with
  ``\\]`` escapes and line breaks on move nodes.
- "move-dumper" (a TypeScript writer): the root's properties on several lines, a newline before
  ``)``, ``RU[Crawford:CrawfordGame]`` on the Crawford game.
- A C# library (Backgammon.Core ``SgfSerializer``): ``MI`` only in match play, games numbered from 1,
  ``RU[Crawford:CrawfordGame]`` on every game, the nodes on one line, ``RE`` at the end of the last
  node, a position as separate ``;AW..`` ``;AB..`` ``;PL..`` ``;DI..`` ``;CV..`` ``;CP..`` nodes with no
  ``AE`` and borne-off checkers as ``z``; .NET writes a byte-order mark and CRLF.
- BEZMA (C#): more tags in ``MI`` (``[wtime:..][btime:..]``): "unknown tags should be ignored" (spec).
- A Python converter feeding gnubg: no ``RE``, ``CO[c]``/``CO[n]`` (the spec's cube position) in
  the root, ``;W[..]`` and a newline after each node.
- The SGF specification itself: ``MI`` tags in any order and any case, ``game`` counted from 1,
  ``RE[W+2Resign]``, ``CO``, white space anywhere between values, properties, nodes and trees,
  variations (the main line is each node's first child), soft line breaks (``\\`` and a newline)
  and escapes inside values, ``CA`` naming the character set.

``render`` writes the model in a :class:`SgfDialect` and says where each cell's property stands
(line and column), so that a defect injected into the model can be looked for there in every
dialect (``tests/test_sgf_dialects.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from dialects import Cell, Game, Match, resigned

ROOT_ORDER = ("FF", "GM", "CA", "AP", "MI", "PW", "PB", "DT", "RU", "CO", "RE")


def letter(point: int, player: int) -> str:
    """The SGF letter of ``point`` in ``player``'s numbering: a-x the points (absolute: a is
    White's 1-point, Black's 24), y the bar, z off."""
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(96 + point) if player == 0 else chr(97 + 24 - point)


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


@dataclass(frozen=True)
class SgfDialect:
    """How a producer writes a match in SGF; the defaults are GNU Backgammon 1.07's ``save match``."""

    why: str = "GNU Backgammon 1.07 sgf.c SaveGame"
    newline: str = "\n"
    bom: bool = False
    encoding: str = "utf-8"
    charset: Optional[str] = "UTF-8"  # the CA[] value; None: no CA
    file_format: Optional[str] = "4"
    app: str = "GNU Backgammon:1.07.001"
    root_order: tuple[str, ...] = ROOT_ORDER
    root_break: str = ""  # between the root's properties
    value_break: str = ""  # between the values of MI
    info_keys: tuple[str, ...] = ("length", "game", "ws", "bs")  # MI's tags, in order (a tag left out is not written)
    info_case: str = "lower"  # lower, title, upper
    info_extra: tuple[str, ...] = ()  # more MI tags
    info_space: str = ""  # after the colon of MI's values
    first_game: int = 0  # MI's number of the first game
    money_info: bool = True  # MI written in money play
    rules: str = "gnubg"  # gnubg (Crawford, CrawfordGame on that game, Jacoby), always-crawford-game, none
    cube_root: bool = False  # CO[c] (or CO[n] in the Crawford game) in the root: the spec's cube position
    result: str = "root"  # root, last-node (RE at the end of the last node), none, unknown (RE[?])
    resign_mark: str = "R"  # RE[W+2R] or RE[W+2Resign]
    resign_points: bool = True  # False: a resignation's RE names the winner only (RE[W+Resign], as Go writes it)
    date: str = "2024-05-17"
    names: Optional[tuple[str, str]] = None
    node_start: str = "\n;"  # before each node after the root
    node_end: str = ""  # after each node
    node_space: str = ""  # after ';'
    value_space: str = ""  # between a property's name and its value
    open: str = "("  # the start of a tree
    close: str = ")"  # the end of a tree
    tree_end: str = "\n"  # after each tree
    dice_order: str = "written"  # written (the sources, gnubg's .mat exports, write the higher die first), high, low
    move_order: str = "written"  # written, high (highest source first), low, random
    joined: bool = False  # a checker moved by both dice as one letter pair
    comments: tuple[str, ...] = ()  # comment texts (unescaped) put on some nodes
    comment_first: bool = False  # C[] before the move in its node
    analysis: bool = False  # gnubg's analysis properties on the nodes, GS in the root
    times: bool = False  # time left (WL, BL) on the move nodes
    empty_nodes: bool = False  # empty nodes here and there
    variations: str = "none"  # none, alternative (a second line after a move, the main line its first child)
    setup: str = "none"  # none, root (the start position set up in the root), edited (a set-up node giving the position)
    dice_nodes: bool = False  # ;PL[W]DI[52] before each move (gnubg replaces the dice node by the move)
    resign: Optional[str] = None  # every other game ends in a resignation: gnubg, gnubg-dice, gibbon, word
    rejected: bool = False  # a resignation offered and rejected half-way through each game (Gibbon: resign:1, reject)
    per_game: bool = False  # one file per game (gnubg's save game)
    positions: Optional[str] = None  # each game as a position file: gnubg (save position), csharp
    seed: int = 0


class Text:
    """Text written piece by piece, knowing the line and column it has reached."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.line, self.column = 1, 1

    def put(self, text: str) -> None:
        self.parts.append(text)
        lines = text.count("\n")
        if lines:
            self.line += lines
            self.column = len(text) - text.rfind("\n")
        else:
            self.column += len(text)

    def where(self) -> tuple[int, int]:
        return self.line, self.column


class Board:
    """The checkers of both sides, each in its own numbering (0 off, 25 the bar)."""

    def __init__(self) -> None:
        start = [0] * 26
        for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
            start[point] = count
        self.sides = [list(start), list(start)]

    def play(self, player: int, moves: list[tuple[int, int, bool]]) -> None:
        for source, target, hit in moves:
            self.sides[player][source] -= 1
            self.sides[player][target] += 1
            if hit:
                self.sides[1 - player][25 - target] -= 1
                self.sides[1 - player][25] += 1


@dataclass
class Node:
    props: list[tuple[str, str, Optional[Cell]]]  # name, value as written (escaped, brackets included), the cell it holds


def dice_text(dialect: SgfDialect, dice: tuple[int, int]) -> str:
    a, b = dice
    if dialect.dice_order == "high":
        a, b = max(dice), min(dice)
    elif dialect.dice_order == "low":
        a, b = min(dice), max(dice)
    return f"{a}{b}"


def move_text(dialect: SgfDialect, player: int, moves: list[tuple[int, int, bool]], rng: random.Random) -> str:
    moves = list(moves)
    if dialect.move_order == "high":
        moves.sort(key=lambda m: (-m[0], -m[1]))
    elif dialect.move_order == "low":
        moves.sort(key=lambda m: (m[0], m[1]))
    elif dialect.move_order == "random":
        rng.shuffle(moves)
    pairs = [[source, target, hit] for source, target, hit in moves]
    if dialect.joined:  # one checker moved on: one pair (never across a hit, as gnubg's ApplyMove would not know)
        joined = True
        while joined:
            joined = False
            for a in pairs:
                b = next((b for b in pairs if b is not a and b[0] == a[1] and not a[2] and a[1] != 0), None)
                if b is not None and sum(1 for p in pairs if p[0] == b[0]) == 1 and sum(1 for p in pairs if p[1] == a[1]) == 1:
                    a[1], a[2] = b[1], b[2]
                    pairs.remove(b)
                    joined = True
                    break
    return "".join(letter(source, player) + letter(target, player) for source, target, _ in pairs)


def setup_props(board: Board, turn: int, style: str) -> list[tuple[str, str]]:
    """A position as set-up properties: gnubg's (AE[a:y], each checker a value, the bar y) or the
    C# library's (no AE, borne-off checkers as z)."""
    white = "".join(f"[{letter(p, 0)}]" * board.sides[0][p] for p in range(1 if style == "gnubg" else 0, 26))
    black = "".join(f"[{letter(p, 1)}]" * board.sides[1][p] for p in range(1 if style == "gnubg" else 0, 26))
    props = [("PL", f"[{'WB'[turn]}]")]
    if style == "gnubg":
        props.append(("AE", "[a:y]"))
    return props + [("AW", white), ("AB", black)]


ANALYSIS_MOVE = "A[0][{m} E ver 3 0.501888 0.138939 0.007028 0.133683 0.006167 0.012882 1C 0 1 0.000000 1]LU[0.045120]"
ANALYSIS_CUBE = "DA[E ver 3 2C 1 0.000000 1 0.089574 0.002436 0.000000 0.190694 0.003661 -1.007969 0.257876 0.089574 0.002436]"
GAME_STATS = "GS[M:25 15 28 27 0 0 0 0 0 0 28 27 0.000000 0.000000 0.000000 0.000000][D:0 0 0 0 0 0 0 0 0 0 0.000000 0.000000 0.000000 0.000000]"


def game_nodes(dialect: SgfDialect, game: Game, rng: random.Random) -> tuple[list[Node], Board, int]:
    """The nodes after the root: each cell's property, with what the dialect adds around it."""
    nodes: list[Node] = []
    board = Board()
    redoubler: Optional[int] = None  # a beaver or raccoon stands: the doubler's roll accepts it
    moved = 0
    turn = 0
    rolls = [cell for cell in game.cells if cell.kind == "roll"]
    offer_at = rolls[len(rolls) // 3] if dialect.rejected and len(rolls) > 3 else None
    for cell in game.cells:
        colour = "WB"[cell.player]
        if cell is offer_at and redoubler is None:
            nodes.append(Node([(colour, "[resign:1]", None)]))
            nodes.append(Node([("WB"[1 - cell.player], "[reject]", None)]))
        if cell.kind == "roll":
            assert cell.dice is not None
            if redoubler is not None:
                nodes.append(Node([("WB"[1 - redoubler], "[take]", None)]))
                redoubler = None
            if dialect.setup == "edited" and moved and moved % 9 == 0:
                nodes.append(Node([(name, value, None) for name, value in setup_props(board, cell.player, "gnubg")]))
            if dialect.dice_nodes:
                nodes.append(Node([("PL", f"[{colour}]", None), ("DI", f"[{dice_text(dialect, cell.dice)}]", None)]))
            value = dice_text(dialect, cell.dice) + move_text(dialect, cell.player, cell.moves, rng)
            node = Node([(colour, f"[{value}]", cell)])
            if dialect.analysis:
                node.props.append(("", ANALYSIS_MOVE.format(m=value[2:6] or "aa") + ("BM[1]" if moved % 5 == 4 else ""), None))
            if dialect.times:
                node.props.append(("WL" if cell.player == 0 else "BL", f"[{600 - 7 * moved}.5]", None))
            nodes.append(node)
            board.play(cell.player, cell.moves)
            moved += 1
            turn = 1 - cell.player
        elif cell.kind in ("double", "beaver", "raccoon", "take", "drop"):
            word = "double" if cell.kind in ("beaver", "raccoon") else cell.kind
            if cell.kind in ("beaver", "raccoon"):
                redoubler = cell.player
            elif cell.kind != "double":
                redoubler = None
            node = Node([(colour, f"[{word}]", cell)])
            if dialect.analysis:
                node.props.append(("", ANALYSIS_CUBE, None))
            nodes.append(node)
        elif cell.kind.startswith("resign"):
            if dialect.resign == "gnubg-dice" and cell.dice is not None:
                nodes.append(Node([("PL", f"[{colour}]", cell), ("DI", f"[{dice_text(dialect, cell.dice)}]", None)]))
            elif dialect.resign == "gibbon":
                nodes.append(Node([(colour, f"[resign:{game_points(game)}]", cell)]))
                nodes.append(Node([("WB"[1 - cell.player], "[accept]", None)]))
            elif dialect.resign == "word":
                nodes.append(Node([(colour, "[resign]", cell)]))
            else:
                cell.line = 0  # gnubg writes no node for a resignation before rolling
        if dialect.empty_nodes and rng.random() < 0.05:
            nodes.append(Node([]))
    for node in nodes:
        if dialect.comments and node.props and rng.random() < 0.2:
            chosen = rng.choice(dialect.comments)
            comment = ("C", f"[{chosen[4:] if chosen.startswith('raw:') else escape(chosen)}]", None)
            node.props.insert(0, comment) if dialect.comment_first else node.props.append(comment)
    return nodes, board, turn


def game_points(game: Game) -> int:
    return next((cell.value or 0 for cell in game.cells if cell.kind == "win"), 0)


def root_props(dialect: SgfDialect, match: Match, game: Game, crawford: bool) -> list[tuple[str, str, Optional[Cell]]]:
    names = dialect.names or game.names
    won = next((cell for cell in game.cells if cell.kind == "win" and cell.value), None)
    props: dict[str, str] = {}
    cells: dict[str, Optional[Cell]] = {}
    if dialect.file_format:
        props["FF"] = f"[{dialect.file_format}]"
    props["GM"] = "[6]"
    if dialect.charset:
        props["CA"] = f"[{dialect.charset}]"
    props["AP"] = f"[{escape(dialect.app)}]"
    if match.length or dialect.money_info:
        values = {"length": match.length, "game": game.number - 1 + dialect.first_game, "ws": game.scores[0], "bs": game.scores[1]}
        cased = {"lower": str.lower, "title": str.title, "upper": str.upper}[dialect.info_case]
        tags = [f"[{cased(key)}:{dialect.info_space}{values[key]}]" for key in dialect.info_keys] + [f"[{extra}]" for extra in dialect.info_extra]
        props["MI"] = dialect.value_break.join(tags)
        cells["MI"] = Cell(-1, "info", None)  # where the scores stand
    props["PW"], props["PB"] = f"[{escape(names[0])}]", f"[{escape(names[1])}]"
    if game.number == 1 or dialect.app.startswith("BackgammonMobile"):
        props["DT"] = f"[{dialect.date}]"
    jacoby = not match.length and any(key == "Jacoby" and value.lower() in ("on", "yes", "true") for key, value in match.tags)
    rules = []
    if dialect.rules == "gnubg":
        rules = [rule for rule, on in (("Crawford", bool(match.length)), ("CrawfordGame", crawford), ("Jacoby", jacoby)) if on]
    elif dialect.rules == "always-crawford-game" and match.length:
        rules = ["Crawford", "CrawfordGame"]
    if rules:
        props["RU"] = f"[{':'.join(rules)}]"
    if dialect.cube_root:
        props["CO"] = "[n]" if crawford else "[c]"
    if won is not None and dialect.result == "root":
        points = "" if game.resigned and not dialect.resign_points else won.value
        props["RE"] = f"[{'WB'[won.player]}+{points}{dialect.resign_mark if game.resigned else ''}]"
        cells["RE"] = won if points else None
    elif dialect.result == "unknown":
        props["RE"] = "[?]"
    ordered = [(name, props[name], cells.get(name)) for name in dialect.root_order if name in props]
    if dialect.analysis:
        ordered.append(("", GAME_STATS, None))
    return ordered


def put_node(text: Text, dialect: SgfDialect, props: list[tuple[str, str, Optional[Cell]]], first: bool = False) -> None:
    text.put((";" if first else dialect.node_start) + dialect.node_space)
    for index, (name, value, cell) in enumerate(props):
        if index and first and dialect.root_break and name:
            text.put(dialect.root_break)
        if cell is not None:
            cell.line, cell.column = text.where()
        text.put(name + (dialect.value_space if name else "") + value)


def crawford_games(match: Match) -> set[int]:
    """The index of the Crawford game (the first game one player starts needing one point)."""
    for index, game in enumerate(match.games):
        if match.length and match.length - 1 in game.scores and game.scores[0] != game.scores[1]:
            return {index}
    return set()


def render_trees(match: Match, dialect: SgfDialect) -> list[str]:
    """The match written in ``dialect``: the text of each file (one, or one per game); each
    cell's ``line`` and ``column`` say where its property stands in its file, each game's
    ``line`` where its tree starts."""
    rng = random.Random(dialect.seed)
    crawford = crawford_games(match)
    files: list[Text] = [Text()]
    for index, written in enumerate(match.games):
        for cell in written.cells:
            cell.line = 0
        game = resigned(written, "resign:") if dialect.resign is not None and index % 2 == 0 else written
        if game is not written:
            game = replace(game, resigned=True)
        if (dialect.per_game or dialect.positions) and index:
            files.append(Text())
        text = files[-1]
        written.line = game.line = text.line
        text.put(dialect.open)
        if dialect.open.endswith("\n"):
            written.line = game.line = text.line
        root = root_props(dialect, match, game, index in crawford)
        nodes, board, turn = game_nodes(dialect, game, rng)
        if dialect.positions:
            nodes, root = position_nodes(dialect, game, rng), [prop for prop in root if prop[0] != "RE"]
        if dialect.setup == "root":
            start = Board()
            first = next((cell.player for cell in game.cells if cell.kind == "roll"), 0)
            root += [(name, value, None) for name, value in setup_props(start, first, "gnubg")]
        last = nodes[-1] if nodes else None
        won = next((cell for cell in game.cells if cell.kind == "win" and cell.value), None)
        if won is not None and dialect.result == "last-node" and not dialect.positions:
            mark = dialect.resign_mark if game.resigned else ""
            target = last.props if last is not None else root
            target.append(("RE", f"[{'WB'[won.player]}+{won.value}{mark}]", won))
        put_node(text, dialect, root, first=True)
        scores = next((cell for name, _, cell in root if name == "MI"), None)
        if scores is not None:
            written.line, written.column = scores.line, scores.column
        split = -1
        if dialect.variations == "alternative":
            rolls = [k for k, node in enumerate(nodes[:-1]) if any(cell is not None and cell.kind == "roll" for _, _, cell in node.props)]
            split = rolls[len(rolls) // 2] if len(rolls) > 2 else -1
        for position, node in enumerate(nodes):
            if position == split + 1 and split >= 0:
                text.put(dialect.node_start.replace(";", "") + "(")  # the main line goes on in the first variation
            put_node(text, dialect, node.props)
            text.put(dialect.node_end)
        if split >= 0:  # another play the annotator looked at, and a comment
            held = [(name, value) for name, value, cell in nodes[split + 1].props if cell is not None and cell.kind == "roll"]
            text.put(")" + dialect.node_start.replace(";", "") + "(")
            if held:
                text.put(f";{held[0][0]}[{held[0][1][1:3]}]C[{escape('what if he had danced? (an analysis line)')}]")
            text.put(";C[analysis])")
        text.put(dialect.close + dialect.tree_end)
    return [("\ufeff" if dialect.bom else "") + "".join(text.parts).replace("\n", dialect.newline) for text in files]


def halfway(game: Game, cut: Optional[int] = None) -> tuple[Board, int, Optional[int], Cell]:
    """The board, the cube's value and owner before a roll half-way through ``game`` (or the
    cell at ``cut``), and that roll."""
    board = Board()
    rolls = [k for k, cell in enumerate(game.cells) if cell.kind == "roll"]
    at = (rolls[len(rolls) // 2] if rolls else 0) if cut is None else cut
    cube, owner = 1, None
    for cell in game.cells[:at]:
        if cell.kind == "roll":
            board.play(cell.player, cell.moves)
        elif cell.kind in ("double", "beaver", "raccoon"):
            cube = cell.value or 2 * cube
            if cell.kind != "double":
                owner = cell.player
        elif cell.kind == "take":
            owner = cell.player
    return board, cube, owner, game.cells[at]


def position_nodes(dialect: SgfDialect, game: Game, rng: random.Random) -> list[Node]:
    """The game cut before a roll half-way, written as a position: gnubg's ``save position``
    (the board, the cube's value and owner, the dice) or the C# library's separate nodes."""
    board, cube, owner, roll = halfway(game)
    assert roll.dice is not None
    for cell in game.cells:
        cell.line = 0
    holder = "c" if owner is None else "wb"[owner]
    dice = dice_text(dialect, roll.dice)
    if dialect.positions == "gnubg":
        return [Node([(name, value, None) for name, value in setup_props(board, roll.player, "gnubg")]),
                Node([("CV", f"[{cube}]", None)]), Node([("CP", f"[{holder}]", None)]),
                Node([("PL", f"[{'WB'[roll.player]}]", None), ("DI", f"[{dice}]", None)])]
    return [Node([(name, value, None)]) for name, value in setup_props(board, roll.player, "csharp")[1:]] + [
        Node([("PL", f"[{'WB'[roll.player]}]", None)]), Node([("DI", f"[{dice}]", None)]),
        Node([("CV", f"[{cube}]", None)]), Node([("CP", f"[{holder}]", None)])]


def render(match: Match, dialect: SgfDialect) -> str:
    return "".join(render_trees(match, dialect))


def write(path: Path, match: Match, dialect: SgfDialect) -> list[Path]:
    """The match written at ``path`` (``path-1.sgf``, ``path-2.sgf``... one per game where the
    dialect writes a file per game); each game's ``file`` index is set."""
    texts = render_trees(match, dialect)
    if len(texts) == 1:
        path.write_bytes(texts[0].encode(dialect.encoding))
        return [path]
    paths = []
    for number, text in enumerate(texts, 1):
        paths.append(path.with_name(f"{path.stem}-{number}{path.suffix}"))
        paths[-1].write_bytes(text.encode(dialect.encoding))
    return paths


GNUBG = SgfDialect()
OLD_GNUBG = replace(GNUBG, charset=None, money_info=False, node_start=";", root_order=ROOT_ORDER, app="GNU Backgammon:0.10",
                    why="GNU Backgammon 0.x sgf.c: no CA, MI only in match play, the nodes on one line after the root's newline")
COMMENTS = ("a fine play (I think); yes", "take ] or drop?", "line one\nline two", "back\\slash", "W[31ab] is not a move here",
            "(;B[double])", "raw:a soft\\\nline break", "raw:an escaped \\] bracket")  # fmt: skip

# One class of variation each; the producer or the specification that shows it legitimate in ``why``.
DIALECTS: dict[str, SgfDialect] = {
    "gnubg": GNUBG,
    # --- the whole file ---
    "crlf": replace(GNUBG, newline="\r\n", why=".NET writers (Backgammon.Core, BEZMA) end lines with CRLF on Windows"),
    "cr": replace(GNUBG, newline="\r", why="old Mac programs end lines with CR alone"),
    "bom": replace(GNUBG, bom=True, why=".NET's UTF-8 encoder writes a byte-order mark"),
    "no-charset": replace(GNUBG, charset=None, why="GNU Backgammon 0.x writes no CA (FF[4] default: ISO-8859-1; ASCII names read the same)"),
    "latin-1": replace(GNUBG, charset="ISO-8859-1", encoding="latin-1", names=("Jürgen Müller", "José Çelik"), why="CA[ISO-8859-1], the FF[4] default character set"),
    "utf-8-names": replace(GNUBG, names=("Jürgen Müller", "望月正行"), why="gnubg writes CA[UTF-8] and UTF-8 names"),
    "ff3": replace(GNUBG, file_format="3", why="FF[3] files (the backgammon properties date from FF[3])"),
    "no-ff": replace(GNUBG, file_format=None, why="FF is optional (FF[1] by default); gnubg ignores it"),
    "one-line-games": replace(GNUBG, node_start=";", why="GNU Backgammon 0.x, the C# library: every node of a game on one line"),
    "node-per-line-after": replace(GNUBG, node_start=";", node_end="\n", root_break="", why="the Python converter feeding gnubg: ';W[..]' and a newline"),
    "open-alone": replace(GNUBG, open="(\n", close="\n)", why="BackgammonMobile (alcacoop): '(' and ')' on lines of their own"),
    "root-on-lines": replace(GNUBG, root_break="\n", close="\n)", why="move-dumper: the root's properties on several lines, a newline before ')'"),
    "spaces": replace(GNUBG, node_start="\n ; ", value_space=" ", value_break=" ", close=" )", why="the spec: white space between values, properties, nodes and trees"),
    "indented": replace(GNUBG, node_start="\n    ;", tree_end="\n\n", why="pretty-printing SGF editors indent the nodes and leave blank lines between trees"),
    "trees-glued": replace(GNUBG, tree_end="", why="trees written one after the other with nothing between"),
    "per-game-files": replace(GNUBG, per_game=True, why="gnubg's save game: one game a file (later games start at their score)"),
    # --- the root ---
    "gibbon-root": replace(GNUBG, root_order=("FF", "GM", "CA", "AP", "MI", "PB", "PW", "RE", "RU"), app="gibbon (libgsgf):0.2.0 (0.2.0)",
                           why="Gibbon (libgsgf): PB before PW, RE before RU"),
    "root-order-reversed": replace(GNUBG, root_order=tuple(reversed(ROOT_ORDER)), why="the spec: the order of properties in a node is free"),
    "info-order": replace(GNUBG, info_keys=("game", "length", "bs", "ws"), why="the spec: 'the order of tags in the list is not significant' (bgdb writes bs before ws)"),
    "info-case": replace(GNUBG, info_case="title", why="the spec: MI's tags are case-insensitive"),
    "info-extra": replace(GNUBG, info_extra=("wtime:300", "btime:285"), why="BEZMA: more MI tags; the spec: unknown tags are ignored"),
    "info-space": replace(GNUBG, info_space=" ", why="gnubg reads MI's numbers with atoi, which skips blanks"),
    "info-lines": replace(GNUBG, value_break="\n", why="the spec: white space between values"),
    "games-from-1": replace(GNUBG, first_game=1, why="the spec: 'the first game is 1' (the C# library; gnubg counts from 0)"),
    "money-no-info": replace(GNUBG, money_info=False, why="GNU Backgammon 0.x and the C# library write MI only in match play"),
    "no-rules": replace(GNUBG, rules="none", why="RU is optional (gnubg writes it only when a rule is on)"),
    "crawford-game-always": replace(GNUBG, rules="always-crawford-game", why="the C# library writes RU[Crawford:CrawfordGame] on every game"),
    "cube-root": replace(GNUBG, cube_root=True, why="the Python converter: CO[c] (CO[n] where the cube is dead), the spec's cube position"),
    "result-last-node": replace(GNUBG, result="last-node", why="the C# library appends RE at the end of the game"),
    "no-result": replace(GNUBG, result="none", why="the Python converter and move-dumper write no RE"),
    "resign-word-mark": replace(GNUBG, resign_mark="Resign", why="the spec and Gibbon: RE[W+2Resign]"),
    "resign-no-points": replace(GNUBG, resign_mark="Resign", resign_points=False, why="SGF's general RE: W+Resign (W+R) names the winner of a resignation, no points (gnubg reads 1)"),
    "result-unknown": replace(GNUBG, result="unknown", why="SGF's general RE: '?' an unknown result"),
    "escaped-names": replace(GNUBG, names=("Anne [the] Marie", "C:\\Users\\bob"), why="gnubg escapes ']' and '\\' in names"),
    "empty-names": replace(GNUBG, names=("", ""), why="a game saved before the names were set"),
    # --- the nodes ---
    "dice-low-first": replace(GNUBG, dice_order="low", why="Gibbon writes the dice as FIBS rolled them (B[13qrsv])"),
    "moves-low-first": replace(GNUBG, move_order="low", why="the order of the letter pairs is free (gnubg applies them in turn)"),
    "moves-random": replace(GNUBG, move_order="random", why="the order of the letter pairs is free"),
    "moves-joined": replace(GNUBG, joined=True, why="gnubg's reader applies a pair of any distance: one checker moved by both dice as one pair"),
    "comments": replace(GNUBG, comments=COMMENTS, why="DG Android and gnubg: C[...] on move nodes, ']' and '\\' escaped, line breaks"),
    "comments-first": replace(GNUBG, comments=COMMENTS, comment_first=True, why="the spec: the order of properties in a node is free"),
    "analysis": replace(GNUBG, analysis=True, why="gnubg's analysed matches: A, DA, LU, BM and GS"),
    "tabs": replace(GNUBG, node_start="\n\t;", value_space="\t", why="the spec: any white space (tabs) between properties and values"),
    "resign-rejected": replace(GNUBG, rejected=True, why="Gibbon: B[resign:1] then W[reject], and the game goes on"),
    "times": replace(GNUBG, times=True, why="the spec's time-left properties WL and BL"),
    "empty-nodes": replace(GNUBG, empty_nodes=True, why="empty nodes are legal SGF (gnubg skips them)"),
    "variations": replace(GNUBG, variations="alternative", why="SGF editors keep analysis lines as variations; the main line is each node's first child"),
    "setup-root": replace(GNUBG, setup="root", why="the start position set up in the root (AE[a:y]AW..AB..PL)"),
    "setup-edited": replace(GNUBG, setup="edited", why="gnubg writes an edited board as ;PL[W]AE[a:y]AW..AB.. (here the same position)"),
    "dice-nodes": replace(GNUBG, dice_nodes=True, why="gnubg's MOVE_SETDICE ;PL[W]DI[52] before the move that replaces it"),
    # --- resignations (every other game ends in one) ---
    "resign-gnubg": replace(GNUBG, resign="gnubg", why="gnubg: no node for a resignation, RE[W+2R]"),
    "resign-gnubg-dice": replace(GNUBG, resign="gnubg-dice", why="gnubg: rolled, then resigned: ;PL[W]DI[52], then RE[B+2R]"),
    "resign-gibbon": replace(GNUBG, resign="gibbon", resign_mark="Resign", root_order=("FF", "GM", "CA", "AP", "MI", "PB", "PW", "RE", "RU"),
                             why="Gibbon: B[resign:2], W[accept], RE[W+2Resign]"),
    "resign-word": replace(GNUBG, resign="word", why="the C# library: W[resign]"),
    # --- positions ---
    "positions-gnubg": replace(GNUBG, positions="gnubg", why="gnubg's save position: ;PL AE AW AB, ;CV, ;CP, ;PL DI"),
    "positions-csharp": replace(GNUBG, positions="csharp", why="the C# library: ;AW, ;AB (z: borne off), ;PL, ;DI, ;CV, ;CP, no AE"),
    # --- whole producers ---
    "old-gnubg": OLD_GNUBG,
    "gibbon": replace(GNUBG, root_order=("FF", "GM", "CA", "AP", "MI", "PB", "PW", "RE", "RU"), app="gibbon (libgsgf):0.2.0 (0.2.0)",
                      dice_order="written", resign="gibbon", resign_mark="Resign", why="Gibbon as a whole"),
    "csharp": replace(GNUBG, bom=True, newline="\r\n", charset="UTF-8", money_info=False, first_game=1, rules="always-crawford-game",
                      node_start=";", result="last-node", resign="word", root_order=("FF", "GM", "CA", "PW", "PB", "MI", "RU"),
                      why="the C# library (Backgammon.Core) as a whole"),
    "python-converter": replace(GNUBG, app="GNU Backgammon", charset=None, cube_root=True, result="none", node_start=";", node_end="\n",
                                rules="none", why="the Python converter feeding gnubg as a whole"),
}


def mixed(seed: int) -> SgfDialect:
    """A producer nobody has seen: one choice drawn for each class at once."""
    rng = random.Random(seed)
    pick = {name: rng.choice(values) for name, values in {
        "newline": ["\n", "\r\n"], "bom": [False, True], "charset": ["UTF-8", None], "file_format": ["4", "3", None],
        "root_order": [ROOT_ORDER, ("FF", "GM", "CA", "AP", "MI", "PB", "PW", "RE", "RU"), tuple(reversed(ROOT_ORDER))],
        "root_break": ["", "\n"], "info_keys": [("length", "game", "ws", "bs"), ("game", "length", "bs", "ws")],
        "info_case": ["lower", "title"], "first_game": [0, 1], "money_info": [True, False],
        "rules": ["gnubg", "none", "always-crawford-game"], "cube_root": [False, True], "result": ["root", "root", "last-node", "unknown"], "resign_points": [True, True, False],
        "resign_mark": ["R", "Resign"], "node_start": ["\n;", ";", "\n  ;"], "close": [")", "\n)"], "tree_end": ["\n", "\n\n", ""],
        "dice_order": ["written", "high", "low"], "move_order": ["written", "high", "random"], "joined": [False, True],
        "comments": [(), COMMENTS], "analysis": [False, True], "times": [False, True], "empty_nodes": [False, True],
        "variations": ["none", "alternative"], "setup": ["none", "root", "edited"], "dice_nodes": [False, True],
        "resign": [None, "gnubg", "gnubg-dice", "gibbon", "word"], "rejected": [False, True],
    }.items()}  # fmt: skip
    return replace(GNUBG, seed=seed, why=f"mixed {seed}", **pick)
