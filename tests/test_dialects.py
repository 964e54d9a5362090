"""Producers' dialects of the .mat format, generated from clean GNU Backgammon matches
(``tests/dialects.py``): each legitimate way of writing the same match reads with no error and the
same games, and a defect injected into the match is still told once, at its line, in every dialect.
"""

from __future__ import annotations

import copy
import random
from functools import cache
from pathlib import Path
from typing import Callable, Optional

import pytest
from conftest import DATA
from dialects import DIALECTS, FOUND, REFUSED, Cell, Dialect, Match, mixed, model, write

from bgrecord.formats.issues import Issue, Severity
from bgrecord.replay.validate import validate_file

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
# clean matches kept in the repository: Crawford, money with beavers and raccoons, Jacoby, 1 to 25 points
SOURCES = sorted(SAMPLES.glob("gnubg-*.mat")) + sorted((DATA / "gnubg").glob("*.mat"))


@cache
def models() -> list[tuple[str, Match]]:
    return [(source.stem, model(source)) for source in SOURCES]


def some_models(index: int, count: int = 4) -> list[tuple[str, Match]]:
    """The three samples (Crawford, beavers and raccoons, Jacoby) and matches taken in turn."""
    every = models()
    return every[:3] + [every[3 + (index * count + k) % (len(every) - 3)] for k in range(count - 3)] if count > 3 else every[:count]


def errors(path: Path) -> tuple[list[Issue], int]:
    report = validate_file(path)
    return [issue for issue in report.issues if issue.severity is Severity.ERROR], report.games


def assert_clean(dialect: Dialect, chosen: list[tuple[str, Match]], tmp_path: Path) -> None:
    for stem, match in chosen:
        path = write(tmp_path / f"{stem}.mat", match, dialect)
        found, games = errors(path)
        assert (found, games) == ([], len(match.games)), (dialect.why, path.read_text(encoding=dialect.encoding)[:3000])


NAMES = sorted(DIALECTS)


@pytest.mark.parametrize("name", NAMES)
def test_a_producers_dialect_reads_without_errors(name: str, tmp_path: Path) -> None:
    assert_clean(DIALECTS[name], some_models(NAMES.index(name)), tmp_path)


@pytest.mark.parametrize("seed", range(8))
def test_a_producer_nobody_has_seen_mixes_the_dialects(seed: int, tmp_path: Path) -> None:
    assert_clean(mixed(seed), some_models(seed, 6), tmp_path)


def test_the_generator_varies_what_it_claims() -> None:
    """The dialects really differ from GNU Backgammon's text (a dialect equal to it would test nothing)."""
    plain = [write_text(match, DIALECTS["gnubg"]) for _, match in models()]
    same = [name for name, dialect in DIALECTS.items() if name != "gnubg" and [write_text(m, dialect) for _, m in models()] == plain]
    assert same == []
    assert set(FOUND) <= set(DIALECTS) and not set(REFUSED) & set(DIALECTS)


def write_text(match: Match, dialect: Dialect) -> str:
    from dialects import render

    return render(copy.deepcopy(match), dialect)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_no_producer_writes_is_still_an_error(name: str, tmp_path: Path) -> None:
    """Hit marks as 'x', rows numbered '1.': no producer writes them, gnubg refuses them; told
    (once per file: one unknown convention)."""
    _, match = models()[4]
    found, _ = errors(write(tmp_path / "refused.mat", match, REFUSED[name]))
    assert found and all(issue.code == "unreadable" for issue in found)


# --- recall: a defect injected into the match, in a dialect ---

Injected = tuple[int, Cell | int]  # the game's index, and the cell (or the score line's game) where the error must stand
Mutator = Callable[[Match, random.Random], Optional[Injected]]


def cells(match: Match, test: Callable[[Cell], bool]) -> list[tuple[int, Cell]]:
    return [(index, cell) for index, game in enumerate(match.games) for cell in game.cells if test(cell)]


def wrong_distance(match: Match, rng: random.Random) -> Optional[Injected]:
    found = cells(match, lambda c: c.kind == "roll" and any(0 < m[1] and m[0] < 25 and not m[2] for m in c.moves))
    if not found:
        return None
    index, cell = rng.choice(found)
    assert cell.dice is not None
    at = next(i for i, m in enumerate(cell.moves) if 0 < m[1] and m[0] < 25 and not m[2])
    source, target, _ = cell.moves[at]
    dice = set(cell.dice) | {sum(cell.dice)} | ({cell.dice[0] * k for k in (3, 4)} if cell.dice[0] == cell.dice[1] else set())
    choices = [t for t in range(1, source) if t != target and source - t not in dice]
    if not choices:
        return None
    cell.moves[at] = (source, rng.choice(choices), False)
    return index, cell


def bad_dice(match: Match, rng: random.Random) -> Optional[Injected]:
    index, cell = rng.choice(cells(match, lambda c: c.kind == "roll"))
    assert cell.dice is not None
    cell.dice = (7, cell.dice[1])
    return index, cell


def missing_turn(match: Match, rng: random.Random) -> Optional[Injected]:
    """A turn left out: the other player's next roll is out of turn."""
    found = []
    for index, game in enumerate(match.games):
        rolls = [k for k, c in enumerate(game.cells) if c.kind == "roll"]
        for k in rolls[1:]:
            after = game.cells[k + 1] if k + 1 < len(game.cells) else None
            if game.cells[k].moves and after is not None and after.kind == "roll" and after.player != game.cells[k].player:
                found.append((index, k))
    return left_out(match, found, rng)


def take_without_double(match: Match, rng: random.Random) -> Optional[Injected]:
    found = [(i, k) for i, g in enumerate(match.games) for k, c in enumerate(g.cells[:-1]) if c.kind == "double" and g.cells[k + 1].kind == "take"]
    return left_out(match, found, rng)


def left_out(match: Match, found: list[tuple[int, int]], rng: random.Random) -> Optional[Injected]:
    """One of the cells ``found`` (game, index) left out; the error stands at the cell after it."""
    if not found:
        return None
    index, k = rng.choice(found)
    cells_ = match.games[index].cells
    del cells_[k]
    return index, cells_[k]


def wins_value(match: Match, rng: random.Random) -> Optional[Injected]:
    # not the match's last game: the game that wins a match may be credited the points it needed
    found = [(i, c) for i, c in cells(match, lambda c: c.kind == "win" and bool(c.value)) if i < len(match.games) - 1]
    if not found:
        return None
    index, cell = rng.choice(found)
    cell.value = (cell.value or 0) + 1
    return index, cell


def header_score(match: Match, rng: random.Random) -> Optional[Injected]:
    found = [i for i, g in enumerate(match.games) if i > 0 and (match.length == 0 or g.scores[0] + 1 < match.length)]
    if not found:
        return None
    index = rng.choice(found)
    game = match.games[index]
    game.scores = (game.scores[0] + 1, game.scores[1])
    return index, index


def cube_value(match: Match, rng: random.Random) -> Optional[Injected]:
    found = cells(match, lambda c: c.kind == "double" and bool(c.value))
    if not found:
        return None
    index, cell = rng.choice(found)
    cell.value = 3 * (cell.value or 2)
    return index, cell


MUTATORS: dict[str, Mutator] = {
    "wrong-distance": wrong_distance, "bad-dice": bad_dice, "missing-turn": missing_turn, "take-without-double": take_without_double,
    "wins-value": wins_value, "header-score": header_score, "cube-value": cube_value,
}  # fmt: skip
# what each dialect cannot show: a double written without its value cannot have a wrong one
BLIND = {"cube-value": lambda d: "{value}" not in d.double}
# every dialect that changes the body or the score lines, and unseen producers (the header-only ones share one body)
RECALL = [name for name in NAMES if name not in ("cr", "bom", "crlf", "no-tags", "xg-tags", "header-comments", "header-free-text")
          and not name.startswith(("match-line", "money", "names-"))] + [f"mixed{seed}" for seed in range(6)]


@pytest.mark.parametrize("name", RECALL)
def test_a_defect_is_told_once_at_its_line_in_every_dialect(name: str, tmp_path: Path) -> None:
    dialect = DIALECTS[name] if name in DIALECTS else mixed(int(name[5:]))
    rng = random.Random(name)
    tried, missed = 0, []
    every, at = models(), RECALL.index(name)
    for stem, clean in (every[at % 3], every[3 + at % (len(every) - 3)]):  # a sample and a match, taken in turn
        for defect, mutate in MUTATORS.items():
            if defect in BLIND and BLIND[defect](dialect):
                continue
            match = copy.deepcopy(clean)
            injected = mutate(match, rng)
            if injected is None:
                continue
            index, where = injected
            path = write(tmp_path / f"{stem}-{defect}.mat", match, dialect)
            line = match.games[where].line if isinstance(where, int) else where.line
            if not line:
                continue  # left out of this dialect's text (after a resignation)
            lines = [line]
            if defect == "take-without-double" and dialect.comments:
                lines.append(line - 1)  # a note just before the take may have held the lost double: told there, saying why
            if defect == "wins-value" and (match.games[index].resigned or dialect.resign is not None and index % 2 == 0):
                # a resignation may be worth 1, 2 or 3 cubes: the next game tells (its score line, or its Game line: after-match)
                lines += range(match.games[index + 1].line - 1 - dialect.blank_after_game_line, match.games[index + 1].line + 1)
            tried += 1
            found, _ = errors(path)
            in_game = [issue.line for issue in found if issue.game in (index + 1, index + 2) and issue.line in lines]
            if len(in_game) != 1 or len([issue for issue in found if issue.game == index + 1]) > 1:
                missed.append(f"{defect} in {stem} (game {index + 1}, line {line}): {[str(issue) for issue in found]}")
    assert tried >= 5  # the test is not vacuous
    assert not missed, "\n".join(missed)
