"""A generator of the mistakes of a record's transcriber, and of records with several defects in one
game, over clean .mat records of every producer at hand (the samples, tests/data/gnubg, and the
shared corpus: GNU Backgammon's self-play, Backgammon Galaxy and Studio, eXtreme Gammon,
OpenGammon, gnubg scripts). Each is a text edit of a clean record that says where it stands, so
that ``validate`` can be judged on it (tests/test_recovery.py; benchmarks/recovery.py prints the
rates over more files):

- ``defects(...)``: 2 or 3 independent defects in one game, rows at least 6 apart, each one of
  dice that do not fit the play, a die left unplayed, a die of 7, a wrong cube value. Every defect
  must be an error at its line, with no other error in the file.
- ``mistake(...)``: one transcriber's mistake: the two names of a later game's score line in the
  other order (the names alone, or the whole cells), a name misspelt in one score line, a row
  written twice (the copy renumbered, or not), a row left out (the rows after renumbered, or not).
  It must be told once (an error or a warning) within one line of it, with no error elsewhere,
  and the statistics must name exactly the two players.
"""

from __future__ import annotations

import random
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from bgrecord.formats.reader import read_match
from bgrecord.core.position import Dice, Position
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import CubeAction, GameRecord, MatchRecord, Roll
from bgrecord.formats.source import Input
from bgrecord.replay import replay
from bgrecord.replay.resolve import resolve
from bgrecord.replay.validate import validate_file

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
# the producers, each a folder (and the files in it that are .mat text)
PRODUCERS = {
    "samples": (ROOT / "samples", "*.mat"),
    "gnubg": (ROOT / "tests" / "data" / "gnubg", "*.mat"),
    "gnubg-selfplay": (CORPUS / "gnubg-selfplay", "*.mat"),
    "galaxy-studio": (CORPUS / "lassehjorthmadsen__bglab", "*.txt"),
    "xg": (CORPUS / "kevung__gbf", "*"),
    "xg-lazybg": (CORPUS / "kevung__lazyBG", "*.txt"),
    "gnubg-parser": (CORPUS / "kevung__gnubgparser", "*.mat"),
    "gnubg-scripts": (CORPUS / "lassehjorthmadsen__gnubg-scripts", "*"),
    "opengammon-studio": (CORPUS / "drewolson__bganalyze", "*.mat"),
}
ROW = re.compile(r"^([ \t]*)([0-9]+)\)")


def clean_sources(per_producer: int, seed: int = 29) -> list[tuple[str, Path]]:
    """Up to ``per_producer`` clean .mat records of each producer at hand (no error when validated),
    taken evenly through the folder; producers absent are left out."""
    found = []
    for producer, (folder, pattern) in PRODUCERS.items():
        if not folder.exists():
            continue
        files = sorted(path for path in folder.glob(pattern) if path.is_file() and path.suffix in (".mat", ".txt"))
        picked = 0
        step = max(1, len(files) // max(1, per_producer * 2))
        for path in files[::step]:
            if picked >= per_producer:
                break
            try:
                match = read_match(path)
            except Exception:  # noqa: BLE001 - not a record this generator can edit
                continue
            if match.format != "mat" or not match.games or validate_file(path).count(Severity.ERROR):
                continue
            found.append((producer, path))
            picked += 1
    return found


@dataclass
class Edit:
    """A record edited: its new text, the lines where it is wrong (in the new text), what was done,
    and where each line of the clean record now stands (``moved(line)``)."""

    text: str
    lines: list[int]
    kind: str
    moved: Callable[[int], int] = field(default=lambda line: line)
    names: frozenset[str] = frozenset()  # the players of the clean record


def text_of(path: Path) -> str:
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


# --- several defects in one game ---


def _rows(game: GameRecord) -> dict[int, list[int]]:
    """The lines of a game's rows by row number."""
    rows: dict[int, list[int]] = {}
    for action in game.actions:
        if action.number is not None:
            rows.setdefault(action.number, [])
            if action.line not in rows[action.number]:
                rows[action.number].append(action.line)
    return rows


def _replace(lines: list[str], line: int, column: int | None, old: str, new: str) -> bool:
    text = lines[line - 1]
    start = (column or 1) - 1
    if text[start : start + len(old)] != old:
        return False
    lines[line - 1] = text[:start] + new + text[start + len(old) :]
    return True


def _dice_mismatch(lines: list[str], roll: Roll, before: Position, rng: random.Random) -> bool:
    """Dice that do not fit the play: one die changed so that the play is illegal with them."""
    first, second = roll.dice
    options = [(a, second) for a in range(1, 7) if a != first] + [(first, b) for b in range(1, 7) if b != second]
    rng.shuffle(options)
    for dice in options:
        if dice[0] != dice[1] or first == second:
            if resolve(before, Dice(*dice), roll.moves, hints=False).play is None:
                return _replace(lines, roll.line, roll.column, f"{first}{second}", f"{dice[0]}{dice[1]}")
    return False


def _die_unused(lines: list[str], roll: Roll, before: Position, rng: random.Random) -> bool:
    """A die left unplayed: the second of two single moves left out."""
    moves = roll.moves
    if roll.dice[0] == roll.dice[1] or len(moves) != 2 or any(len(t.points) != 2 or t.repeat != 1 for t in moves):
        return False
    kept = roll.text[: moves[0].offset + len(moves[0].text)]
    if resolve(before, Dice(*roll.dice), moves[:1], hints=False).play is not None:
        return False
    return _replace(lines, roll.line, roll.column, roll.text, kept)


def _die_seven(lines: list[str], roll: Roll, before: Position, rng: random.Random) -> bool:
    first, second = roll.dice
    return _replace(lines, roll.line, roll.column, f"{first}{second}", f"7{second}")


DEFECTS: dict[str, Callable[[list[str], Roll, Position, random.Random], bool]] = {
    "dice-mismatch": _dice_mismatch, "die-unused": _die_unused, "die-of-7": _die_seven,
}  # fmt: skip


def defects(path: Path, rng: random.Random) -> Optional[Edit]:
    """2 or 3 defects in one game of the record at ``path``, rows at least 6 apart."""
    match = read_match(path)
    text = text_of(path)
    lines = text.split("\n")
    games = [out for out in replay(match) if len(_rows(out.game)) >= 14]
    if not games:
        return None
    out = rng.choice(games)
    places: list[tuple[int, Roll | CubeAction, Optional[Position]]] = []  # (row, action, position before)
    for step in out.steps:
        action = step.action
        if action.number is None or action.number < 2:
            continue
        if isinstance(action, Roll) and action.moves and step.before is not None:
            places.append((action.number, action, step.before))
        elif isinstance(action, CubeAction) and action.kind == "double" and action.value:
            places.append((action.number, action, None))
    rng.shuffle(places)
    wanted = rng.choice((2, 3))
    chosen: list[int] = []
    done: list[str] = []
    for row, action, before in places:
        if len(chosen) >= wanted or any(abs(row - other) < 6 for other in _rows_of(out.game, chosen)):
            continue
        if isinstance(action, CubeAction):
            ok = _replace(lines, action.line, action.column, action.text, action.text.replace(f"=> {action.value}", f"=> {2 * (action.value or 1)}"))
            kind = "cube-value"
        else:
            assert isinstance(action, Roll) and before is not None
            kind = rng.choice(sorted(DEFECTS))
            ok = DEFECTS[kind](lines, action, before, rng)
        if ok and action.line not in chosen:
            chosen.append(action.line)
            done.append(kind)
    if len(chosen) < 2:
        return None
    return Edit("\n".join(lines), sorted(chosen), "+".join(sorted(done)))


def _rows_of(game: GameRecord, lines: list[int]) -> list[int]:
    return [a.number for a in game.actions if a.line in lines and a.number is not None]


# --- a transcriber's mistakes ---


def _renumber(lines: list[str], start: int, end: int, by: int) -> None:
    """Rows on lines ``start``..``end`` (1-based, inclusive) renumbered by ``by``."""
    for at in range(start - 1, min(end, len(lines))):
        found = ROW.match(lines[at])
        if found:
            number = str(int(found.group(2)) + by)
            lines[at] = found.group(1) + number.rjust(len(found.group(2))) + lines[at][found.end(2) :]


def _game_end(lines: list[str], game: GameRecord) -> int:
    """The last line of a game (before the next Game line)."""
    at = game.line
    while at < len(lines) and not (at > game.line and re.match(r"^\s*Game\s+[0-9]+", lines[at])):
        at += 1
    return at


def _plain_rows(game: GameRecord) -> list[int]:
    """The lines of rows that hold two rolls and nothing else, not the first rows nor the last."""
    by_line: dict[int, list[object]] = {}
    for action in game.actions:
        by_line.setdefault(action.line, []).append(action)
    rows = [line for line, acts in by_line.items() if len(acts) == 2 and all(isinstance(a, Roll) and a.moves for a in acts)]
    numbered = sorted(rows)
    return numbered[2:-3]


def _score_line(lines: list[str], game: GameRecord, names: tuple[str, str], scores: tuple[object, object]) -> str:
    left = f" {names[0]} : {scores[0]}"
    return f"{left:<31}{'' if len(left) < 31 else '   '}{names[1]} : {scores[1]}" + ("\r" if lines[(game.score_line or 1) - 1].endswith("\r") else "")


def _misspelt(name: str, rng: random.Random) -> Optional[str]:
    letters = [i for i, c in enumerate(name) if c.isalpha() and 0 < i]
    if len(name) < 4 or not letters:
        return None
    at = rng.choice(letters)
    other = next(c for c in rng.sample("aeiouyslcnrt", 12) if c != name[at].lower())
    return name[:at] + (other.upper() if name[at].isupper() else other) + name[at + 1 :]


MISTAKES = ("names-swapped", "cells-swapped", "misspelt-name", "duplicated-row", "skipped-row")


def mistake(path: Path, kind: str, rng: random.Random) -> Optional[Edit]:
    """One transcriber's mistake of ``kind`` in the record at ``path``."""
    match = read_match(path)
    text = text_of(path)
    lines = text.split("\n")
    names = frozenset(name for game in match.games for name in game.names)
    later = [g for g in match.games[1:-1] if g.score_line is not None and "" not in g.names and g.names[0] != g.names[1]]
    if kind in ("names-swapped", "cells-swapped", "misspelt-name"):
        if not later:
            return None
        game = rng.choice(later)
        line = game.score_line
        assert line is not None
        if kind == "misspelt-name":
            side = rng.randrange(2)
            wrong = _misspelt(game.names[side], rng)
            if wrong is None:
                return None
            new = (wrong, game.names[1]) if side == 0 else (game.names[0], wrong)
            lines[line - 1] = _score_line(lines, game, new, game.scores)
        elif kind == "names-swapped":
            lines[line - 1] = _score_line(lines, game, (game.names[1], game.names[0]), game.scores)
        else:
            lines[line - 1] = _score_line(lines, game, (game.names[1], game.names[0]), (game.scores[1], game.scores[0]))
        return Edit("\n".join(lines), [line], kind, names=names)
    games = [g for g in match.games if len(_plain_rows(g)) >= 3]
    if not games:
        return None
    game = rng.choice(games)
    line = rng.choice(_plain_rows(game))
    renumbered = rng.random() < 0.5
    end = _game_end(lines, game)
    if kind == "duplicated-row":
        lines.insert(line, lines[line - 1])
        if renumbered:
            _renumber(lines, line + 1, end + 1, 1)
        return Edit("\n".join(lines), [line + 1], kind + ("-renumbered" if renumbered else ""), lambda at: at + (at > line), names)
    del lines[line - 1]
    if renumbered:
        _renumber(lines, line, end - 1, -1)
    return Edit("\n".join(lines), [line], kind + ("-renumbered" if renumbered else ""), lambda at: at - (at > line), names)


# --- judging ---


def new_issues(path: Path, edit: Edit) -> tuple[list[Issue], list[Issue]]:
    """The errors and warnings of the edited record that the clean record has not (at its lines as moved)."""
    clean = {(edit.moved(i.line or 0), i.code) for i in validate_file(path).issues}
    report = validate_file(Input.of(edit.text.encode("utf-8"), path.name))
    told = [i for i in report.issues if i.severity in (Severity.ERROR, Severity.WARNING) and (i.line or 0, i.code) not in clean]
    return [i for i in told if i.severity is Severity.ERROR], told


def judge_defects(path: Path, edit: Edit) -> Optional[str]:
    """None when every defect is an error at its line and there is no other error; else why not."""
    errors, _ = new_issues(path, edit)
    at = sorted(i.line or 0 for i in errors)
    if at != edit.lines:
        return f"{edit.kind} at {edit.lines}: {[str(i) for i in errors]}"
    return None


def judge_mistake(path: Path, edit: Edit) -> Optional[str]:
    """None when the mistake is told once within one line of it, no error stands elsewhere, and the
    statistics name exactly the record's two players; else why not."""
    errors, told = new_issues(path, edit)
    line = edit.lines[0]
    near = [i for i in told if abs((i.line or 0) - line) <= 1]
    far = [i for i in errors if abs((i.line or 0) - line) > 1]
    if len(near) != 1 or far:
        return f"{edit.kind} at {line}: {[str(i) for i in told]}"
    from bgrecord.tables.stats import games

    with tempfile.TemporaryDirectory() as folder:
        edited = Path(folder) / path.name
        edited.write_text(edit.text, encoding="utf-8")
        table = games([edited])
    players = set(table["player0"]) | set(table["player1"])
    if players != set(edit.names):
        return f"{edit.kind} at {line}: the statistics name {sorted(players)}, not {sorted(edit.names)}"
    return None
