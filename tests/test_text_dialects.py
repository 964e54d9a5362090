"""The other text formats, generated from clean GNU Backgammon matches (``tests/text_dialects.py``):
FIBS ``oldmoves`` logs, Jellyfish ``.gam`` single games and Snowie text positions, in each
variation their producers and GNU Backgammon's importers show, read with no error and every game;
a defect injected into the match is told once, at its line."""

from __future__ import annotations

import copy
import random
from functools import cache
from pathlib import Path

import pytest
from dialects import Match
from test_dialects import MUTATORS, models
from text_dialects import FIBS_DIALECTS, SNOWIE_DIALECTS, render_fibs, render_gam, render_snowie

from bgrecord.formats.issues import Issue, Severity
from bgrecord.replay.validate import validate_file


def errors(path: Path) -> tuple[list[Issue], int]:
    report = validate_file(path)
    return [issue for issue in report.issues if issue.severity is Severity.ERROR], report.games


@cache
def fibs_models() -> list[tuple[str, Match]]:
    """FIBS has no beavers: the matches without them."""
    return [(stem, match) for stem, match in models() if not any(cell.kind in ("beaver", "raccoon") for game in match.games for cell in game.cells)]


@pytest.mark.parametrize("name", sorted(FIBS_DIALECTS))
def test_a_fibs_log_reads_without_errors(name: str, tmp_path: Path) -> None:
    every = fibs_models()
    at = sorted(FIBS_DIALECTS).index(name)
    for stem, clean in [every[(at + k * 4) % len(every)] for k in range(3)]:
        match = copy.deepcopy(clean)
        path = tmp_path / f"{stem}.txt"
        path.write_text(render_fibs(match, FIBS_DIALECTS[name]), encoding="utf-8", newline="")
        found, games = errors(path)
        assert (found, games) == ([], len(match.games)), (FIBS_DIALECTS[name].why, [str(i) for i in found])


def test_jellyfish_single_games_read_without_errors(tmp_path: Path) -> None:
    for stem, clean in models():
        match = copy.deepcopy(clean)
        path = tmp_path / f"{stem}.gam"
        path.write_text(render_gam(match), encoding="utf-8")
        found, games = errors(path)
        assert (found, games) == ([], len(match.games)), [str(i) for i in found]


@pytest.mark.parametrize("name", sorted(SNOWIE_DIALECTS))
def test_a_snowie_position_reads_without_errors(name: str, tmp_path: Path) -> None:
    for stem, match in models()[:6]:
        for index in range(len(match.games)):
            if sum(1 for cell in match.games[index].cells if cell.kind == "roll") < 2:
                continue
            text, _ = render_snowie(match, index, SNOWIE_DIALECTS[name])
            path = tmp_path / f"{stem}-{index}.txt"
            path.write_text(text, encoding="utf-8", newline="")
            found, games = errors(path)
            assert (found, games) == ([], 1), (SNOWIE_DIALECTS[name].why, text, [str(i) for i in found])


def test_a_snowie_position_that_is_no_position_is_an_error(tmp_path: Path) -> None:
    _, match = models()[3]
    text, _ = render_snowie(match, 0, SNOWIE_DIALECTS["snowie"])
    fields = text.split(";")
    fields[20] = str(int(fields[20]) + 1 if int(fields[20]) >= 0 else 1)  # a sixteenth checker, or a point held by both
    path = tmp_path / "bad.txt"
    path.write_text(";".join(fields), encoding="utf-8")
    found, _ = errors(path)
    assert [issue.code for issue in found] in (["set-position"], ["unreadable"])


# --- recall ---

FIBS_BLIND = {"cube-value"}  # FIBS writes no cube values


def recall(render: object, blind: set[str], name: str, tmp_path: Path, every: list[tuple[str, Match]], suffix: str = ".txt") -> None:
    rng = random.Random(name)
    tried, missed = 0, []
    for stem, clean in every:
        for defect, mutate in MUTATORS.items():
            if defect in blind:
                continue
            match = copy.deepcopy(clean)
            injected = mutate(match, rng)
            if injected is None:
                continue
            index, where = injected
            path = tmp_path / f"{stem}-{defect}{suffix}"
            path.write_text(render(match), encoding="utf-8", newline="")  # type: ignore[operator]
            line = match.games[where].line if isinstance(where, int) else where.line
            if not line:
                continue
            lines = {line}
            if defect == "wins-value" and index + 1 < len(match.games):
                lines |= {match.games[index + 1].line, match.games[index + 1].line + 1}  # a resignation's worth: the next score tells
            tried += 1
            found, _ = errors(path)
            told = [issue for issue in found if issue.game in (index + 1, index + 2) and issue.line in lines
                    or issue.game == index + 2 and issue.code == "after-match"]
            if len(told) != 1 or len([issue for issue in found if issue.game == index + 1]) > 1:
                missed.append(f"{defect} in {stem} (game {index + 1}, line {line}): {[str(issue) for issue in found]}")
    assert tried >= 5
    assert not missed, "\n".join(missed)


@pytest.mark.parametrize("name", sorted(FIBS_DIALECTS))
def test_a_defect_is_told_once_at_its_line_in_a_fibs_log(name: str, tmp_path: Path) -> None:
    every = fibs_models()
    at = sorted(FIBS_DIALECTS).index(name)
    recall(lambda match: render_fibs(match, FIBS_DIALECTS[name]), FIBS_BLIND, name, tmp_path, [every[at % len(every)], every[(at + 5) % len(every)]])


def test_a_defect_is_told_once_at_its_line_in_single_games(tmp_path: Path) -> None:
    every = models()
    recall(render_gam, {"header-score"}, "gam", tmp_path, every[3:6], ".gam")


def test_a_fibs_score_line_the_other_way_round_is_read_as_the_games_before_say(tmp_path: Path) -> None:
    game = "{x} is X - {o} is O\n{a}: (3 1) 8-5 6-5\n{b}: (4 2) 8-4 6-4\n{a}: doubles\n{b}: rejects the double.\n{a}: wins 1 point.\n\n"
    first = "Score is 0-0 in a 5 point match.\n" + game.format(x="alice", o="bob", a="X", b="O")
    # game 2: bob is X, and the score is bob 0, alice 1
    for second, codes, note in (("Score is 0-1", [], None), ("Score is 1-0", [], "score-swapped"), ("Score is 0-2", ["header-score"], None)):
        path = tmp_path / "swap.txt"
        path.write_text(first + second + " in a 5 point match.\n" + game.format(x="bob", o="alice", a="O", b="X"), encoding="utf-8")
        report = validate_file(path)
        assert [i.code for i in report.issues if i.severity is Severity.ERROR] == codes
        assert (note in [i.code for i in report.issues]) if note else "score-swapped" not in [i.code for i in report.issues]
