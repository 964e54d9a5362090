"""A generator of legitimate .mat dialects: a clean match, read and replayed, rewritten as other
producers plausibly write it, one class of variation at a time (``DIALECTS``), or several at once.

The match is first turned into a neutral model (``model``): per game the names, the scores and the
cells in their rows, each roll with the single-die moves the replay found (so that any notation can be
written: ``bar/22``, ``25/22``, ``13/7(2)``, ``24/18/14*``...). ``render`` writes the model in a
:class:`Dialect` and says at which line each cell stands, so that a defect injected into the model
(``tests/test_dialects.py``) can be looked for at its line in every dialect.

Each dialect's evidence is in its ``why`` (the producer's writer source, its published records, or
GNU Backgammon's reader, which every producer writes for); the ones bgrecord should not accept are
not here, and docs/formats.md says why.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Optional

from bgrecord import read_match
from bgrecord.formats.records import CubeAction, Result, Roll
from bgrecord.replay import replay
from bgrecord.show.steps import step_records

Move = tuple[int, int, bool]  # source, target, hit: one checker moved by one die


@dataclass
class Cell:
    player: int
    kind: str  # roll, double, take, drop, beaver, raccoon, win, loss, resign
    row: Optional[int]  # the row number in the source (None: a result line)
    dice: Optional[tuple[int, int]] = None
    moves: list[Move] = field(default_factory=list)
    value: Optional[int] = None  # the cube after a double; the points of a result
    match: bool = False  # "and the match"
    line: int = 0  # where render put it
    column: int = 0  # (SGF) and at which column


@dataclass
class Game:
    number: int
    names: tuple[str, str]
    scores: tuple[int, int]
    cells: list[Cell]
    line: int = 0  # where render put the score line
    column: int = 0  # and its column (SGF: the MI property's)
    resigned: bool = False  # the game ended in a resignation (its Wins line says its level)


def resigned(game: Game, words: str) -> Game:
    """``game`` ended half-way by the loser's resignation, at a roll of theirs that had a play,
    for the same points (when they are 1, 2 or 3 times the cube there); else ``game`` as it is."""
    result = next((cell for cell in game.cells if cell.kind == "win"), None)
    if result is None or not result.value:
        return game
    loser = 1 - result.player
    cube, offered, cuts = 1, False, []
    for index, cell in enumerate(game.cells):
        if cell.kind in ("double", "beaver", "raccoon"):
            cube, offered = cell.value or 2 * cube, True
        elif cell.kind in ("take", "drop"):
            offered = False
        elif cell.kind == "roll" and cell.player == loser and cell.moves and not offered and result.value in (cube, 2 * cube, 3 * cube):
            cuts.append(index)
    if not cuts:
        return game
    at = cuts[len(cuts) // 2]
    roll = game.cells[at]
    assert roll.dice is not None
    text = words.format(dice=f"{roll.dice[0]}{roll.dice[1]}")
    resign = Cell(loser, "resign", roll.row, roll.dice, value=None)
    resign.moves = []
    resign.kind = "resign:" + text
    return replace(game, cells=[*game.cells[:at], resign, result])


@dataclass
class Match:
    length: int
    tags: list[tuple[str, str]]
    games: list[Game]


def model(path: Path) -> Match:
    """A clean record (every play legal) to the neutral model."""
    record = read_match(path)
    plays = {}
    for step in step_records(path, ogids=False):
        if step.action == "move" and step.played is not None:
            moves = step.played.play.moves
            plays[(step.line, step.column)] = [(m.source, m.target, hit) for m, hit in zip(moves, step.played.hits)]
    resigned = {out.game.index for out in replay(read_match(path)) if out.result is not None and out.result.ended_by == "resign"}
    games = []
    for game in record.games:
        cells = []
        for action in game.actions:
            assert action.player is not None
            if isinstance(action, Roll):
                cells.append(Cell(action.player, "roll", action.number, action.dice, plays.get((action.line, action.column), [])))
            elif isinstance(action, CubeAction):
                cells.append(Cell(action.player, action.kind, action.number, value=action.value))
            elif isinstance(action, Result):
                cells.append(Cell(action.player, action.kind, action.number, value=action.points, match=action.match))
        scores = (game.scores[0] or 0, game.scores[1] or 0)
        games.append(Game(game.number or len(games) + 1, game.names, scores, cells, resigned=game.index in resigned))
    return Match(record.length or 0, [(tag.key, tag.value) for tag in record.tags], games)


@dataclass(frozen=True)
class Dialect:
    """How a producer writes a match; the defaults are GNU Backgammon's ``export match mat``."""

    why: str = "GNU Backgammon's export.c"
    newline: str = "\n"
    bom: bool = False
    encoding: str = "utf-8"
    tags: str = "keep"  # keep, none, xg (eXtreme Gammon's tag set)
    head: tuple[str, ...] = ()  # header lines written before the tags
    match_line: str = " {length} point match"
    money_line: str = " 0 point match"
    game_line: str = " Game {number}"
    blank_after_game_line: int = 0
    names: Optional[tuple[str, str]] = None
    score_cell: str = "{name} : {score}"
    score_column: int = 33  # where the second player's name starts; 0: three spaces after the first
    row_number: str = "{number:3d}) "
    right_column: int = 34  # where the right cell starts (1-based); 0: after two spaces
    trailing: str = ""  # after every line
    dice_order: str = "written"  # written, high, low
    bar: str = "bar"
    off: str = "off"
    hits: bool = True
    repeats: bool = False  # 13/7(2)
    chains: str = "none"  # none, chain (24/18/14*), join (24/14*, not across a hit)
    order: str = "high"  # high (highest source first), written, random
    separator: str = " "
    dance: str = ""  # what follows the dice of a dance
    double: str = "Doubles => {value}"
    redouble: Optional[str] = None  # the words for a double of a cube above 1
    take: str = "Takes"
    drop: str = "Drops"
    beaver: str = "Beavers => {value}"
    win: str = "Wins {points} point{s}"
    the_match: str = " and the match"
    match_on_last: bool = False  # "and the match" on the last game of a won match, as the record may not say it
    result_indent: tuple[int, int] = (6, 34)  # the Wins line's indent for the left and right winner
    result_row: bool = False  # Backgammon Studio: the Wins line is a numbered row, then an empty numbered row
    blank_between_games: int = 1
    blank_after_score: int = 0
    comments: tuple[str, ...] = ()  # comment lines put between rows, one each game
    annotations: tuple[str, ...] = ()  # marks put after some plays
    hit_mark: str = "*"
    crawford_note: str = ""  # after the game line of the Crawford game
    losses: bool = False  # eXtreme Gammon: the loser's cell says "Losses N point" on the row of the Wins line
    tab_cells: bool = False  # a tab between the row number and the cells, and between the cells
    money_net: bool = False  # a money session's score lines give each player's running net (the loser's goes down)
    resign: Optional[str] = None  # every other game ends in a resignation written so: "{dice}: " (gnubg), "{dice}: ????" (XG), "Resigns"...
    seed: int = 0


def point(dialect: Dialect, number: int) -> str:
    return dialect.bar if number == 25 else dialect.off if number == 0 else str(number)


def play_text(dialect: Dialect, moves: list[Move], rng: random.Random) -> str:
    if dialect.order == "high":
        moves = sorted(moves, key=lambda m: (-m[0], -m[1]))
    elif dialect.order == "random":
        moves = list(moves)
        rng.shuffle(moves)
    paths: list[list[Move]] = [[m] for m in moves]
    if dialect.chains != "none":  # join a move to the one that carries on from its target
        joined = True
        while joined:
            joined = False
            for a in paths:
                for b in paths:
                    if a is not b and a[-1][1] == b[0][0] and (dialect.chains == "chain" or not a[-1][2]) and b[0][0] != 0:
                        if sum(1 for p in paths if p[0][0] == b[0][0]) > 1 or sum(1 for p in paths if p[-1][1] == a[-1][1]) > 1:
                            continue  # several checkers there: keep them apart
                        a.extend(b)
                        paths.remove(b)
                        joined = True
                        break
                if joined:
                    break
    words: list[str] = []
    for path in paths:
        if dialect.chains == "chain":
            text = point(dialect, path[0][0]) + "".join(f"/{point(dialect, m[1])}{dialect.hit_mark if m[2] and dialect.hits else ''}" for m in path)
        else:
            hit = path[-1][2] and dialect.hits
            text = f"{point(dialect, path[0][0])}/{point(dialect, path[-1][1])}{dialect.hit_mark if hit else ''}"
        words.append(text)
    if dialect.repeats:
        counted: list[str] = []
        for word in words:
            if counted and counted[-1].split("(")[0] == word and dialect.hit_mark not in word:
                base, _, count = counted[-1].partition("(")
                counted[-1] = f"{base}({int(count[:-1] or 1) + 1})"
            else:
                counted.append(word)
        words = counted
    return dialect.separator.join(words)


def cell_text(dialect: Dialect, cell: Cell, cube: int, rng: random.Random) -> str:
    if cell.kind == "roll":
        assert cell.dice is not None
        a, b = cell.dice
        if dialect.dice_order == "high":
            a, b = max(a, b), min(a, b)
        elif dialect.dice_order == "low":
            a, b = min(a, b), max(a, b)
        if not cell.moves:
            return f"{a}{b}: {dialect.dance}".rstrip() if dialect.dance else f"{a}{b}: "
        text = f"{a}{b}: {play_text(dialect, cell.moves, rng)}"
        if dialect.annotations and rng.random() < 0.15:
            text += rng.choice(dialect.annotations)
        return text
    if cell.kind == "double":
        words = dialect.redouble if dialect.redouble and cube > 1 else dialect.double
        return words.format(value=cell.value or 2 * cube)
    if cell.kind == "take":
        return dialect.take
    if cell.kind == "drop":
        return dialect.drop
    if cell.kind == "beaver":
        return dialect.beaver.format(value=cell.value or 2 * cube)
    if cell.kind == "raccoon":
        return f"Raccoons => {cell.value}"
    if cell.kind in ("win", "loss"):
        points = cell.value or 0
        word = dialect.win if cell.kind == "win" else "Losses {points} point{s}"
        text = word.format(points=points, s="" if points == 1 else "s")
        return text + (dialect.the_match if cell.match else "")
    return cell.kind.partition(":")[2] or "Resigns"


def render(match: Match, dialect: Dialect) -> str:
    """The match written in ``dialect``; each cell's ``line`` is set to where it stands."""
    rng = random.Random(dialect.seed)
    for game in match.games:
        for cell in game.cells:
            cell.line = 0  # a cell left out (after a resignation) stands nowhere
    lines: list[str] = list(dialect.head)
    tags = match.tags
    if dialect.tags == "none":
        tags = []
    elif dialect.tags == "xg":
        names = dialect.names or match.games[0].names
        tags = [("Site", "eXtreme Gammon"), ("Match ID", "1234"), ("Player 1", names[0]), ("Player 2", names[1]),
                ("Player 1 Elo", "1600.00/0"), ("Player 2 Elo", "1600.00/0"), ("EventDate", "2024.05.17"), ("EventTime", "16.15"),
                ("Variation", "Backgammon"), ("Unrated", "Off"), ("Crawford", "On" if match.length else "Off"), ("CubeLimit", "1024")]
        if match.length:  # in money play the record's own tags (if any) say Jacoby and beavers
            tags += [("Jacoby", "Off"), ("Beaver", "Off")]
        tags += [(key, value) for key, value in match.tags if key in ("Jacoby", "Beaver", "Raccoon")]  # fmt: skip
    lines += [f'; [{key} "{value}"]' for key, value in tags]
    if tags:
        lines.append("")
    lines.append(dialect.match_line.format(length=match.length) if match.length else dialect.money_line)
    lines.append("")
    last_index = len(match.games) - 1
    crawford_seen = False
    net = [0, 0]
    for index, game in enumerate(match.games):
        written = game
        if dialect.resign is not None and index % 2 == 0:
            game = resigned(game, dialect.resign)
        names = dialect.names or game.names
        crawford = bool(match.length) and not crawford_seen and (match.length - 1 in game.scores) and game.scores[0] != game.scores[1]
        crawford_seen = crawford_seen or crawford
        lines.append(dialect.game_line.format(number=game.number) + (dialect.crawford_note if crawford else ""))
        lines += [""] * dialect.blank_after_game_line
        scores = tuple(net) if dialect.money_net and not match.length else game.scores
        first, second = (dialect.score_cell.format(name=names[i], score=scores[i]) for i in (0, 1))
        won = next((cell for cell in game.cells if cell.kind == "win" and cell.value), None)
        if won is not None:
            net[won.player] += won.value or 0
            net[1 - won.player] -= won.value or 0
        first = " " + first if dialect.score_column else first
        game.line = written.line = len(lines) + 1
        lines.append(first + " " * (max(2, dialect.score_column - 1 - len(first)) if dialect.score_column else 3) + second)
        lines += [""] * dialect.blank_after_score
        rows: dict[int, list[Optional[Cell]]] = {}
        order: list[object] = []
        for cell in game.cells:
            if cell.row is None:
                order.append(cell)
                continue
            if cell.row not in rows:
                rows[cell.row] = [None, None]
                order.append(cell.row)
            rows[cell.row][cell.player] = cell
        cube = 1
        texts: dict[int, str] = {}
        for cell in game.cells:
            texts[id(cell)] = cell_text(dialect, cell, cube, rng)
            if cell.kind in ("double", "beaver", "raccoon"):
                cube = cell.value or 2 * cube
        comment_at = rng.randrange(len(order)) if dialect.comments and order else -1
        last_row = 0
        for position, item in enumerate(order):
            if position == comment_at:
                lines.append(rng.choice(dialect.comments))
            if isinstance(item, Cell):
                cell = item
                if index == last_index and dialect.match_on_last and cell.kind == "win" and match.length:
                    texts[id(cell)] = texts[id(cell)].replace(dialect.the_match, "") + dialect.the_match
                cell.line = len(lines) + 1
                text = texts[id(cell)]
                if dialect.result_row:
                    last_row += 1
                    number = dialect.row_number.format(number=last_row)
                    gap = " " * 6 if cell.player == 0 else " " * max(2, (dialect.right_column or 34) - 1 - len(number))
                    lines.append(number.rstrip() + gap + text)
                    lines.append(dialect.row_number.format(number=last_row + 1).rstrip())
                elif dialect.losses and cell.kind == "win":  # the loser's cell first, on one line
                    loser = f"Losses {cell.value} point"
                    left, right = (text, loser) if cell.player == 0 else (loser, text)
                    lines.append(" " * dialect.result_indent[0] + left + " " * max(2, dialect.right_column - 1 - dialect.result_indent[0] - len(left)) + right)
                else:
                    lines.append(" " * dialect.result_indent[cell.player] + text)
                continue
            assert isinstance(item, int)
            last_row = item
            left, right = rows[item]
            start = dialect.row_number.format(number=item)
            left_text = texts[id(left)] if left else ""
            line = start + left_text
            if right is not None:
                column = dialect.right_column
                column = column or (0 if left else 34)  # with no left cell, only the column tells whose the cell is
                line = line + " " * max(2, column - 1 - len(line)) if column else line.rstrip() + "  "
                line += texts[id(right)]
                right.line = len(lines) + 1
            if left is not None:
                left.line = len(lines) + 1
            lines.append(line.replace("  ", "\t", 1).replace(") ", ")\t", 1) if dialect.tab_cells and right is not None and left is not None else line)
        lines += [""] * dialect.blank_between_games
    body = dialect.newline.join(line + dialect.trailing if line else line for line in lines) + dialect.newline
    return ("\ufeff" if dialect.bom else "") + body


def write(path: Path, match: Match, dialect: Dialect) -> Path:
    text = render(match, dialect)
    path.write_bytes(text.encode(dialect.encoding))
    return path


GNUBG = Dialect()
_XG_BODY = dict(bar="Bar", off="Off", repeats=True, chains="join", dance="Cannot Move", win="Wins {points} point", right_column=39)

# One class of variation each; the producer or reader that shows it legitimate in ``why``.
DIALECTS: dict[str, Dialect] = {
    "gnubg": GNUBG,
    # --- the whole file ---
    "crlf": replace(GNUBG, newline="\r\n", why="eXtreme Gammon writes CRLF (corpus, held-out records)"),
    "cr": replace(GNUBG, newline="\r", why="old Mac programs end lines with CR alone"),
    "bom": replace(GNUBG, bom=True, why="XG's UTF-8 byte-order mark (gnubg import.c: 'UTF junk at the start of XG mat files')"),
    "cp1252-names": replace(GNUBG, encoding="cp1252", names=("Jürgen Müller", "José Çelik"), why="Windows programs write names in the ANSI code page"),
    "utf-16": replace(GNUBG, encoding="utf-16", names=("Jürgen Müller", "望月正行"), why="Windows programs may save text as UTF-16 with its byte-order mark"),
    "trailing-spaces": replace(GNUBG, trailing="   ", why="gnubg writes bare dice with a trailing space; Studio pads its lines"),
    "no-blank-lines": replace(GNUBG, blank_between_games=0, why="gnubg's reader skips blank lines (GetMatLine): none are needed"),
    "many-blank-lines": replace(GNUBG, blank_between_games=3, blank_after_score=1, blank_after_game_line=1, why="Studio writes 2-3 blank lines; gnubg skips them"),
    # --- the header ---
    "no-tags": replace(GNUBG, tags="none", why="Jellyfish and older writers write no tags"),
    "xg-tags": replace(GNUBG, tags="xg", why="eXtreme Gammon's tag set (held-out records)"),
    "match-line-no-space": replace(GNUBG, match_line="{length} point match", why="Galaxy, the XG->mat writer found by search (matWriter.js)"),
    "match-line-capitals": replace(GNUBG, match_line=" {length} Point Match", why="real archives write ' 5 Point Match' (corpus)"),
    "match-line-points": replace(GNUBG, match_line=" {length} points match", why="gnubg reads '%d %*1[Pp]oint' so 'points' reads"),
    "header-free-text": replace(GNUBG, head=("Match exported by SomeProgram 2.1", "Date: 2024-05-17"), why="free text before the match length (kept as comments)"),
    "header-comments": replace(GNUBG, head=("; This match was played on the club server", "; Annotated by Bob"), why="gnubg writes free comment lines after its tags"),
    "money-words": replace(GNUBG, money_line="Money session", why="issue 20 §3 (Backgammon Studio)"),
    "money-unlimited": replace(GNUBG, money_line="Unlimited game", why="the XG->mat writer found by search (matWriter.js) writes 'Unlimited game' for money"),
    "money-game": replace(GNUBG, money_line=" money game", why="GammonView's writer"),
    "money-net": replace(GNUBG, money_net=True, why="a money session's running net in the score lines ('Bob : -3'): gnubg's reader takes any integer (atoi)"),
    # --- game lines and score lines ---
    "game-line-no-space": replace(GNUBG, game_line="Game {number}", why="the XG->mat writer, hand transcriptions"),
    "game-line-upper": replace(GNUBG, game_line=" GAME {number}", why="hand transcriptions; gnubg finds 'Game ' anywhere in a line (case matters to it)"),
    "score-no-space": replace(GNUBG, score_cell="{name}: {score}", score_column=42, why="OpenGammon, the XG->mat writer: 'name: 0'"),
    "score-narrow": replace(GNUBG, score_column=0, why="hand transcriptions"),
    "names-with-spaces": replace(GNUBG, names=("Jan van der Berg", "Mary Ann O'Brien-Smith"), why="tournament records name players in full"),
    "names-with-digits": replace(GNUBG, names=("player123", "2Fast4U"), why="site nicks"),
    "names-with-country": replace(GNUBG, names=("joe joe(JPN)", "John Doe(ITA)"), why="nationality after the name (Jellyfish format notes found by search)"),
    "names-with-rating": replace(GNUBG, names=("goldbach7808,1673", "fairytails,1544"), why="GridGammon (gnubg import.c: ratings after a comma)"),
    "ratings-after-scores": replace(GNUBG, score_cell="{name} : {score} (1612)", why="ratings in the score lines (the brief's list; GridGammon puts them after a comma)"),
    "names-teams": replace(GNUBG, names=("Torsten & Rainer", "A. Smith / B. Jones"), why="Backgammon Studio team matches (held-out)"),
    "names-unicode": replace(GNUBG, names=("Jürgen Müller", "望月正行"), why="UTF-8 names (XG, Galaxy)"),
    "names-long": replace(GNUBG, names=("Alexandra Konstantinopoulou-Papadimitriou", "Bob"), why="a name longer than the column pushes the second along"),
    # --- rows and columns ---
    "rows-2-wide": replace(GNUBG, row_number="{number:2d}) ", why="XG Mobile, Backgammon Studio: '%2d)'"),
    "rows-unpadded": replace(GNUBG, row_number="{number}) ", why="hand transcriptions"),
    "rows-indented": replace(GNUBG, row_number=" {number:3d})  ", why="Studio's re-exports"),
    "right-col-39": replace(GNUBG, right_column=39, why="eXtreme Gammon after 2012: the right cell at column 39"),
    "right-col-42": replace(GNUBG, right_column=42, why="the XG->mat writer found by search: LEFT_COL_WIDTH 42"),
    "right-col-tight": replace(GNUBG, right_column=0, why="bgsage and hand transcriptions: two spaces between the cells"),
    "result-indent-xg": replace(GNUBG, result_indent=(3, 39), why="the XG->mat writer: '   Wins' left"),
    "result-rows": replace(GNUBG, result_row=True, row_number="{number:2d}) ", why="Backgammon Studio: the Wins line as a numbered row, then an empty numbered row (held-out)"),
    # --- dice and moves ---
    "dice-low-first": replace(GNUBG, dice_order="low", why="Dueller and PlayOK files keep the roll order (held-out, corpus)"),
    "points-numeric": replace(GNUBG, bar="25", off="0", why="Jellyfish, gnubg's .mat: 25 for the bar, 0 for off"),
    "points-xg": replace(GNUBG, bar="Bar", off="Off", why="eXtreme Gammon"),
    "points-short": replace(GNUBG, bar="b", off="o", why="gnubg's move parser reads b and o"),
    "no-hit-marks": replace(GNUBG, hits=False, why="the XG->mat writer found by search writes no '*'; Jellyfish files without marks"),
    "repeats": replace(GNUBG, repeats=True, why="eXtreme Gammon: 13/7(2)"),
    "chains": replace(GNUBG, chains="chain", why="eXtreme Gammon: 24/18*/14"),
    "joined": replace(GNUBG, chains="join", why="eXtreme Gammon, Galaxy: 24/14 for one checker moved by both dice"),
    "moves-random-order": replace(GNUBG, order="random", why="hand transcriptions: the order of the moves is free"),
    "moves-commas": replace(GNUBG, separator=", ", why="commas between moves (hand transcriptions)"),
    "moves-commas-glued": replace(GNUBG, separator=",", why="gnubg's ParseMove ignores ',': '24/18,13/11' reads"),
    # --- cube and result words ---
    "dance-cannot-move": replace(GNUBG, dance="Cannot Move", why="eXtreme Gammon, Studio (gnubg import.c reads it)"),
    "dance-cant-move": replace(GNUBG, dance="Can't move", why="FIBS clients"),
    "double-no-value": replace(GNUBG, double="Doubles", why="Jellyfish and hand transcriptions write the double without its value"),
    "double-singular": replace(GNUBG, double="Double => {value}", why="corpus: 'Double => 2'"),
    "redoubles": replace(GNUBG, redouble="Redoubles => {value}", why="hand transcriptions write a redouble so"),
    "comments-semicolon": replace(GNUBG, comments=("; a fine play",), why="gnubg writes ';' comment lines; kept, with a warning"),
    "rows-tabs": replace(GNUBG, tab_cells=True, why="tabs between the cells: gnubg splits a row at its second colon, whatever the blanks"),
    "game-line-crawford": replace(GNUBG, crawford_note=" (Crawford)", why="'Game 5 (Crawford)': text after the game number (kept)"),
    "xg-losses": replace(GNUBG, losses=True, win="Wins {points} point", right_column=39, why="eXtreme Gammon: 'Losses N point' in the loser's cell, then 'Wins' (corpus)"),
    "cube-lower-case": replace(GNUBG, double="doubles => {value}", take="takes", drop="drops", why="corpus: lower-case cube words"),
    "take-accepts": replace(GNUBG, take="Accepts", why="BGBlitz, FIBS 'accepts the double'"),
    "drop-passes": replace(GNUBG, drop="Passes", why="'pass' is the usual word in English (XG's analysis says 'Pass')"),
    "drop-rejects": replace(GNUBG, drop="Rejects", why="FIBS 'rejects the double'"),
    "drop-refuses": replace(GNUBG, drop="Refuses", why="hand transcriptions"),
    "wins-singular": replace(GNUBG, win="Wins {points} point", why="eXtreme Gammon, Galaxy, Studio write 'point' for every N"),
    "wins-lower": replace(GNUBG, win="wins {points} points", why="FIBS: 'wins 2 points'"),
    "and-the-match": replace(GNUBG, match_on_last=True, why="XG, Galaxy, DailyGammon write 'and the match' on the deciding game"),
    # --- resignations (every other game ends in one) ---
    "resign-gnubg": replace(GNUBG, resign="{dice}: ", why="gnubg export.c: rolled, then resigned, is the bare dice (MOVE_SETDICE)"),
    "resign-xg": replace(GNUBG, resign="{dice}: ????", why="eXtreme Gammon: '31: ????' (gnubg import.c:644)"),
    "resign-resigns": replace(GNUBG, resign="Resigns", why="bgsage, GammonView"),
    "resign-concedes": replace(GNUBG, resign="Concedes", why="Backgammon Studio (issue 20)"),
    "resign-dice-concedes": replace(GNUBG, resign="{dice}: concedes", why="Backgammon Studio (issue 20)"),
    "resign-placeholder": replace(GNUBG, resign="00: ????", why="Backgammon Studio's placeholder (issue 20)"),
    "resign-bare-placeholder": replace(GNUBG, resign="????", why="Backgammon Studio's placeholder (issue 20)"),
    "resign-game": replace(GNUBG, resign="Resigned Game", why="OpenGammon"),
    # --- whole producers ---
    "xg": replace(GNUBG, tags="xg", newline="\r\n", bom=True, match_line=" {length} point match", row_number="{number:3d}) ",
                  match_on_last=True, dice_order="high", why="eXtreme Gammon desktop, as a whole", **_XG_BODY),  # type: ignore[arg-type]
    "studio": replace(GNUBG, tags="xg", result_row=True, row_number="{number:2d}) ", blank_between_games=2, dance="Cannot Move",
                      win="Wins {points} point", bar="bar", off="off", repeats=True, why="Backgammon Studio, as a whole"),
    "matwriter-js": replace(GNUBG, tags="none", match_line="{length} point match", money_line="Unlimited game", score_cell="{name}: {score}", score_column=42,
                            right_column=42, bar="25", off="0", hits=False, match_on_last=True, result_indent=(3, 42),
                            dice_order="high", why="the XG->mat writer found by search (matWriter.js)"),
}

# Classes the second pass of issue 20 found bgrecord did not accept, now read (each also in DIALECTS).
FOUND: dict[str, Dialect] = {
    "match-line-hyphen": replace(GNUBG, match_line=" {length}-point match", why="real archives write '; 5-point match' comments (corpus)"),
    "match-line-to": replace(GNUBG, match_line="Match to {length}", why="plain English, no other reading"),
    "match-line-pt": replace(GNUBG, match_line=" {length} pt match", why="plain English abbreviation, no other reading"),
    "match-line-length": replace(GNUBG, match_line="Match length: {length}", why="plain English, no other reading"),
    "game-line-hash": replace(GNUBG, game_line=" Game #{number}", why="gnubg starts a game at any line holding 'Game ' (import.c GetMatLine/g_strrstr)"),
    "dance-no-move": replace(GNUBG, dance="No move", why="a dance in words; gnubg takes any dice without a play it can read as no play"),
    "dance-dashes": replace(GNUBG, dance="--", why="'-' for no move (Jellyfish format notes found by search)"),
    "dance-dances": replace(GNUBG, dance="Dances", why="'Dances' for no move (Jellyfish format notes found by search)"),
    "dance-can-not": replace(GNUBG, dance="Can not move", why="a dance in words"),
    "double-to": replace(GNUBG, double="Doubles to {value}", why="hand transcriptions: the cube's value in words"),
    "double-arrow": replace(GNUBG, double="Doubles -> {value}", why="an ASCII arrow for '=>'"),
    "double-bare-value": replace(GNUBG, double="Doubles {value}", why="the value without an arrow"),
    "redoubles-to": replace(GNUBG, redouble="Redoubles to {value}", why="hand transcriptions"),
    "drop-declines": replace(GNUBG, drop="Declines", why="'declines the double': English for a drop"),
    "wins-pts": replace(GNUBG, win="Wins {points} pts", why="gnubg reads any line starting 'win' (import.c:829)"),
    "wins-bare": replace(GNUBG, win="Wins {points}", why="gnubg reads any line starting 'win' (import.c:829)"),
    "won": replace(GNUBG, win="Won {points} point{s}", why="the past tense, no other reading"),
    "annotations": replace(GNUBG, annotations=("?", "!", "??", "?!", "!!", " ?", " !"), why="annotators' marks after a play (backgammon books, annotated records)"),
    "comments-braces": replace(GNUBG, comments=("{the cube was late}",), why="a note between turns that reads as nothing (item 3: kept as a comment)"),
    "comments-brackets": replace(GNUBG, comments=("[the cube was late]",), why="a note between turns that reads as nothing (item 3)"),
    "footer-text": replace(GNUBG, comments=("Exported by SomeProgram 2.1, www.example.org",), why="a producer's line between or after the turns"),
    "notes-times-dates": replace(GNUBG, comments=("Time: 12:34:56", "{played 2024/05/17 at 20:15}", "Alice wins the toss"),
                                 why="notes with a time, a date, words of a result: no dice, no move"),
}
DIALECTS.update(FOUND)

# Looked at and not accepted: no producer writes them, and gnubg's reader refuses them (docs/formats.md).
REFUSED: dict[str, Dialect] = {
    "hit-x": replace(GNUBG, hit_mark="x", why="no producer found; gnubg's ParseMove refuses any letter but b, o"),
    "rows-dot": replace(GNUBG, row_number="{number:3d}. ", why="no producer found; gnubg finds a row's cells after ')'"),
}

Transform = Callable[[Dialect], Dialect]


def mixed(seed: int) -> Dialect:
    """A producer nobody has seen: one choice drawn for each class at once."""
    rng = random.Random(seed)
    pick = {name: rng.choice(values) for name, values in {
        "newline": ["\n", "\r\n"], "bom": [False, True], "tags": ["keep", "none", "xg"],
        "match_line": [" {length} point match", "{length} point match", " {length} Point Match", " {length}-point match", "Match to {length}"],
        "money_line": [" 0 point match", "Money session", "Unlimited game"],
        "game_line": [" Game {number}", "Game {number}", " Game #{number}"],
        "score_cell": ["{name} : {score}", "{name}: {score}", "{name} : {score} (1612)"], "score_column": [33, 42, 0],
        "row_number": ["{number:3d}) ", "{number:2d}) ", "{number}) "], "right_column": [34, 39, 42, 0],
        "trailing": ["", " "], "dice_order": ["written", "high", "low"], "bar": ["bar", "25", "Bar", "b"], "off": ["off", "0", "Off"],
        "hits": [True, False], "repeats": [False, True], "chains": ["none", "chain", "join"], "order": ["high", "random"],
        "dance": ["", "Cannot Move", "Can't move", "No move", "--"],
        "double": ["Doubles => {value}", "Doubles", "doubles => {value}", "Doubles to {value}"],
        "take": ["Takes", "Accepts", "takes"], "drop": ["Drops", "Passes", "Rejects", "drops", "Declines"],
        "win": ["Wins {points} point{s}", "Wins {points} point", "wins {points} points", "Wins {points}"], "match_on_last": [False, True],
        "result_row": [False, True], "blank_between_games": [0, 1, 2],
        "resign": [None, None, "{dice}: ", "{dice}: ????", "Resigns", "Concedes", "00: ????"],
        "annotations": [(), ("?", "!")], "comments": [(), ("; kibitz",), ("{a note}",)],
    }.items()}  # fmt: skip
    return replace(GNUBG, seed=seed, why=f"mixed {seed}", **pick)
