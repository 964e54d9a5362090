"""Producers' dialects of backgammon SGF, generated from clean GNU Backgammon matches
(``tests/sgf_dialects.py``): each legitimate way of writing the same match reads with no error and
every game, and a defect injected into the match is still told once, at its property, in every
dialect that can show it.

``BGRECORD_DIALECT_MATCHES`` (a number) sets how many matches each dialect is tried on (default 2,
taken in turn from the samples and tests/data/gnubg); more for a longer run.
"""

from __future__ import annotations

import copy
import os
import random
from functools import cache
from pathlib import Path

import pytest
from dialects import Match
from sgf_dialects import DIALECTS, GNUBG, SgfDialect, mixed, render_trees, write
from test_dialects import BLIND, MUTATORS, models

from bgrecord.formats.issues import Issue, Severity
from bgrecord.replay.validate import validate_file

MATCHES = int(os.environ.get("BGRECORD_DIALECT_MATCHES", "2"))
NAMES = sorted(DIALECTS)


def chosen(index: int, count: int = MATCHES) -> list:
    every = models()
    return [every[(index + k * 5) % len(every)] for k in range(count)]


def errors(paths: list[Path]) -> tuple[list[Issue], int]:
    found: list[Issue] = []
    games = 0
    for path in paths:
        report = validate_file(path)
        found += [issue for issue in report.issues if issue.severity is Severity.ERROR]
        games += report.games
    return found, games


def assert_clean(dialect: SgfDialect, matches: list, tmp_path: Path) -> None:
    for stem, match in matches:
        match = copy.deepcopy(match)
        paths = write(tmp_path / f"{stem}.sgf", match, dialect)
        found, games = errors(paths)
        assert (found, games) == ([], len(match.games)), (dialect.why, [str(issue) for issue in found], paths[0].read_bytes()[:2000])


@pytest.mark.parametrize("name", NAMES)
def test_a_producers_sgf_dialect_reads_without_errors(name: str, tmp_path: Path) -> None:
    assert_clean(DIALECTS[name], chosen(NAMES.index(name)), tmp_path)


@pytest.mark.parametrize("seed", range(8))
def test_an_sgf_producer_nobody_has_seen_mixes_the_dialects(seed: int, tmp_path: Path) -> None:
    assert_clean(mixed(seed), chosen(seed, MATCHES + 1), tmp_path)


def test_the_generator_varies_what_it_claims() -> None:
    """Each dialect's text differs from GNU Backgammon's (a dialect equal to it would test nothing)."""
    every = models()
    plain = [render_trees(copy.deepcopy(match), GNUBG) for _, match in every]
    same = [name for name, dialect in DIALECTS.items() if name != "gnubg" and [render_trees(copy.deepcopy(m), dialect) for _, m in every] == plain]
    assert same == []


# --- recall: a defect injected into the match, in a dialect ---

# what a dialect cannot show: SGF writes no cube values; a dialect with no RE has no result to get wrong
SGF_BLIND = {"cube-value": lambda d: True, "wins-value": lambda d: d.result in ("none", "unknown")}
# the dialects that write the games' course (a position file holds none; a file a game is gnubg's body)
RECALL = [name for name in NAMES if not name.startswith("positions") and name != "per-game-files"] + [f"mixed{seed}" for seed in range(4)]


def unscored_before(match: Match, index: int, dialect: SgfDialect) -> bool:
    """Whether the game before game ``index`` ended in a resignation whose points the dialect does not write."""
    before = match.games[index - 1] if index else None
    resigned = before is not None and (before.resigned or dialect.resign is not None and (index - 1) % 2 == 0)
    return resigned and (dialect.result in ("none", "unknown") or not dialect.resign_points)


@cache
def rich() -> list:
    """The matches every defect can be injected into (several games, doubles taken)."""
    return [(stem, match) for stem, match in models()
            if all(mutate(copy.deepcopy(match), random.Random(0)) is not None for mutate in MUTATORS.values())]


@pytest.mark.parametrize("name", RECALL)
def test_a_defect_is_told_once_at_its_property_in_every_sgf_dialect(name: str, tmp_path: Path) -> None:
    dialect = DIALECTS[name] if name in DIALECTS else mixed(int(name[5:]))
    rng = random.Random(name)
    tried, missed = 0, []
    at, every = RECALL.index(name), rich()
    for stem, clean in [every[(at + k * 3) % len(every)] for k in range(2 if name.startswith("mixed") else 1)]:
        for defect, mutate in MUTATORS.items():
            if defect in SGF_BLIND and SGF_BLIND[defect](dialect) or defect in BLIND and defect != "cube-value":
                continue
            if defect == "header-score" and not clean.length and not dialect.money_info:
                continue  # no MI, no scores
            match = copy.deepcopy(clean)
            injected = mutate(match, rng)
            if injected is None:
                continue
            index, where = injected
            if defect == "header-score" and unscored_before(match, index, dialect):
                continue  # the points of the resignation before are not written: a wrong score after it cannot be told from them
            path = write(tmp_path / f"{stem}-{defect}.sgf", match, dialect)[0]
            place = (match.games[where].line, match.games[where].column) if isinstance(where, int) else (where.line, where.column)
            if not place[0]:
                continue  # left out of this dialect's text (after a resignation)
            places = {place}
            resigned = match.games[index].resigned or dialect.resign is not None and index % 2 == 0
            if defect == "wins-value" and resigned and index + 1 < len(match.games):
                # a resignation may be worth 1, 2 or 3 cubes: the next game's score tells
                places.add((match.games[index + 1].line, match.games[index + 1].column))
            tried += 1
            found, _ = errors([path])
            told = [issue for issue in found if issue.game in (index + 1, index + 2) and (issue.line, issue.column) in places
                    or resigned and issue.game == index + 2 and issue.code == "after-match"]  # (the points a resignation claims end the match)
            if len(told) != 1 or len([issue for issue in found if issue.game == index + 1]) > 1:
                missed.append(f"{defect} in {stem} (game {index + 1}, at {place}): {[str(issue) for issue in found]}")
    assert tried >= 3  # the test is not vacuous (a dialect without results shows fewer defects)
    assert not missed, "\n".join(missed)
