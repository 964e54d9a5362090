"""Generators of the other text formats bgrecord reads, from clean matches (``dialects.model``):
FIBS ``oldmoves`` logs, Jellyfish ``.gam`` single games and Snowie's text positions, each in the
variations its producers and GNU Backgammon's importers (``import.c``, the reader every producer
writes for) show. Each renderer sets the ``line`` of every cell it writes (and of each game's
score), so that a defect injected into the model can be looked for there.

- FIBS ``oldmoves`` (``ImportOldmoves``): ``Score is 3-1 in a 5 point match.`` (``Score is 3-1.``:
  money), ``alice is X - bob is O``, ``X: (6 2) 24-18 13-11`` in FIBS's fixed frame (X's points
  counted from O's side), ``can't move`` in any case, ``X: doubles``, ``O: accepts the double.``,
  ``rejects``, ``wants to resign...``, ``wins 2 points.``; the sides swap between games (the names
  decide); "the score is swapped (due to fibs oldmoves bug)": the two scores of a ``Score is`` line
  the other way round; plays written up the board for both players ("Joseph's fibs2html is one such
  program": gnubg inverts any ascending play); free text between games (``FindScoreIs`` skips to
  the next ``Score is``).
- Jellyfish ``.gam`` (``ImportGAM``): a line of two names (no spaces in them) starts each game, no
  match length, no score lines, ``win`` lines skipped; otherwise the ``.mat`` rows.
- Snowie text positions (``ParseSnowieTxt``): 40 fields separated by ``;`` read with ``atoi``
  (blanks before a number), a trailing ``;`` or none, empty names (``Player 0``), the bar counts
  with either sign (``abs``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Optional

from dialects import GNUBG as MAT
from dialects import Cell, Match, render
from sgf_dialects import halfway


# --- FIBS oldmoves ---


@dataclass(frozen=True)
class FibsDialect:
    why: str = "GNU Backgammon import.c ImportOldmoves"
    newline: str = "\n"
    swap_sides: bool = False  # the other player is X in every other game
    swap_scores: bool = False  # FIBS's bug: a Score line's scores the other way round (every other game after the first)
    ascending: bool = False  # fibs2html: both players' plays written up the board
    resign_words: bool = False  # 'wants to resign...' before the 'wins' line of a resignation
    cant_move: str = "can't move"
    money: str = "Score is {x}-{o}."
    between: tuple[str, ...] = ()  # free text between games
    seed: int = 0


def fibs_point(point: int, ascending: bool) -> str:
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(25 - point if ascending else point)


def render_fibs(match: Match, dialect: FibsDialect) -> str:
    """The match as a FIBS oldmoves log; each cell's and game's ``line`` set."""
    rng = random.Random(dialect.seed)
    lines: list[str] = []
    for index, game in enumerate(match.games):
        for cell in game.cells:
            cell.line = 0
        x = 1 if dialect.swap_sides and index % 2 else 0  # the player who is X in this game
        if dialect.between and index:
            lines.append(rng.choice(dialect.between))
        scores = (game.scores[x], game.scores[1 - x])
        if dialect.swap_scores and index % 2:
            scores = scores[::-1]
        game.line = len(lines) + 1
        if match.length:
            lines.append(f"Score is {scores[0]}-{scores[1]} in a {match.length} point match.")
        else:
            lines.append(dialect.money.format(x=scores[0], o=scores[1]))
        lines.append(f"{game.names[x]} is X - {game.names[1 - x]} is O")
        for cell in game.cells:
            side = "X" if cell.player == x else "O"
            ascending = cell.player == x or dialect.ascending
            if cell.kind == "roll":
                assert cell.dice is not None
                if cell.moves:
                    body = " ".join(f"{fibs_point(s, ascending)}-{fibs_point(t, ascending)}" for s, t, _ in cell.moves)
                else:
                    body = dialect.cant_move
                text = f"{side}: ({cell.dice[0]} {cell.dice[1]}) {body}"
            elif cell.kind == "double":
                text = f"{side}: doubles"
            elif cell.kind == "take":
                text = f"{side}: accepts the double."
            elif cell.kind == "drop":
                text = f"{side}: rejects the double."
            elif cell.kind == "win":
                if dialect.resign_words and game.resigned:
                    lines.append(f"{'O' if side == 'X' else 'X'}: wants to resign...")
                points = cell.value or 0
                text = f"{side}: wins {points} point{'s' if points != 1 else ''}."
            else:
                continue  # FIBS has no beavers
            cell.line = len(lines) + 1
            lines.append(text)
        lines.append("")
    return dialect.newline.join(lines) + dialect.newline


FIBS = FibsDialect()
FIBS_DIALECTS: dict[str, FibsDialect] = {
    "fibs": FIBS,
    "crlf": replace(FIBS, newline="\r\n", why="logs saved on Windows"),
    "sides-swap": replace(FIBS, swap_sides=True, why="FIBS names X the player to move first in each game; gnubg's NewPlayers lets the names decide"),
    "scores-swapped": replace(FIBS, swap_scores=True, why="gnubg import.c: 'check if score is swapped (due to fibs oldmoves bug)'"),
    "both-swapped": replace(FIBS, swap_sides=True, swap_scores=True, why="both at once"),
    "fibs2html": replace(FIBS, ascending=True, why="gnubg import.c: 'some programs may write incompatible files. Joseph's fibs2html is one such program'"),
    "resign-words": replace(FIBS, resign_words=True, why="'X: wants to resign...' before the 'wins' line (gnubg ignores it)"),
    "cant-move-case": replace(FIBS, cant_move="Can't move", why="gnubg compares 'can't move' without case"),
    "money-unlimited": replace(FIBS, money="Score is {x}-{o} in an unlimited match.", why="FIBS's unlimited matches are money play"),
    "free-text": replace(FIBS, between=("> oldmoves alice", "Game over.", "alice and bob start a 5 point match."),
                         why="a client's log: prompts and messages between games (gnubg's FindScoreIs skips them)"),
}


# --- Jellyfish .gam ---


def render_gam(match: Match, seed: int = 0) -> str:
    """The match as Jellyfish single games: each game's match, game and score lines replaced by
    a line of the two names (blanked lines keep the cells' lines)."""
    names = [tuple(name.replace(" ", "_") or f"Player{side}" for side, name in enumerate(game.names)) for game in match.games]
    text = render(match, replace(MAT, tags="none", seed=seed))
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.endswith("point match") or stripped.startswith("Game "):
            lines[index] = ""
    for game, pair in zip(match.games, names):
        lines[game.line - 1] = f" {pair[0]}    {pair[1]}"
        game.line = 0  # no score to get wrong
    return "\n".join(lines)


# --- Snowie text positions ---


@dataclass(frozen=True)
class SnowieDialect:
    why: str = "GNU Backgammon import.c ParseSnowieTxt"
    trailing: str = ";"
    space: str = ""  # before each number (atoi skips it)
    names: Optional[tuple[str, str]] = None
    bar_sign: int = 1  # the sign the bar counts are written with (abs)
    newline: str = "\n"


def render_snowie(match: Match, game_index: int, dialect: SnowieDialect, cut: Optional[int] = None) -> tuple[str, Cell]:
    """A position of ``match``'s game half-way (before a roll), as Snowie's 40 fields; and the roll."""
    board, cube, owner, roll = halfway(match.games[game_index], cut)
    assert roll.dice is not None
    me, other = roll.player, 1 - roll.player
    names = dialect.names or match.games[game_index].names
    scores = match.games[game_index].scores
    fields = [match.length, 0, 0, 0, 0, names[me], names[other], 0, scores[me], scores[other], cube,
              0 if owner is None else 1 if owner == me else -1, dialect.bar_sign * board.sides[other][25]]
    for point in range(1, 25):  # positive: the player on roll's checkers; negative: the other's, counted from 25
        fields.append(board.sides[me][point] or -board.sides[other][25 - point])
    fields += [dialect.bar_sign * board.sides[me][25], roll.dice[0], roll.dice[1]]
    text = ";".join(f"{dialect.space}{value}" if isinstance(value, int) else value for value in fields)
    return text + dialect.trailing + dialect.newline, roll


SNOWIE = SnowieDialect()
SNOWIE_DIALECTS: dict[str, SnowieDialect] = {
    "snowie": SNOWIE,
    "no-trailing": replace(SNOWIE, trailing="", why="the last field without its ';' (gnubg stops at the 40th)"),
    "spaces": replace(SNOWIE, space=" ", why="blanks before the numbers (atoi skips them)"),
    "empty-names": replace(SNOWIE, names=("", ""), why="no names (gnubg names them 'Player 0', 'Player 1')"),
    "bar-negative": replace(SNOWIE, bar_sign=-1, why="bar counts written negative (gnubg takes abs)"),
    "crlf": replace(SNOWIE, newline="\r\n", why="written on Windows"),
}
