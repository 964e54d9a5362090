"""Recovery after an error (issue 29): every defect of a game told at its own line in one run, each
cause named by its own code, nobody credited wrongly; and, over clean records of every producer at
hand, the acceptance rates of tests/mistakes.py (benchmarks/recovery.py prints them over more)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Callable, Iterable, Optional

import pytest
from mistakes import CORPUS, MISTAKES, Edit, clean_sources, defects, judge_defects, judge_mistake, mistake

from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.source import Input
from bgrecord.replay import replay
from bgrecord.replay.repairs import MAX_REPAIRS
from bgrecord.replay.validate import validate_file
from bgrecord.show.steps import step_records

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "gnubg-5pt-crawford.mat"
LINES = SAMPLE.read_text(encoding="utf-8").split("\n")


def edited(*changes: tuple[int, str, str]) -> str:
    """The sample with, on each (line, old, new), ``old`` replaced by ``new`` once."""
    lines = list(LINES)
    for line, old, new in changes:
        assert old in lines[line - 1], (line, old)
        lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return "\n".join(lines)


def issues(text: str) -> list[Issue]:
    return [i for i in validate_file(Input.of(text.encode(), "t.mat")).issues if i.severity is not Severity.INFO or i.code == "not-checked"]


def told(text: str) -> list[tuple[str, str, int | None]]:
    return [(i.severity.value, i.code, i.line) for i in issues(text)]


def test_two_typos_in_one_game_are_two_errors_in_one_run_each_at_its_line() -> None:
    text = edited((9, "32: 18/15 15/13", "32: 18/15 15/12"), (15, "61: 6/5 7/1", "61: 6/5 7/2"))
    assert told(text) == [("error", "wrong-distance", 9), ("error", "wrong-distance", 15)]
    first, second = [i.message for i in issues(text)]
    assert first.endswith("replayed as 18/15 15/13") and second.endswith("replayed as 7/1 6/5")  # the play meant, found by what follows


def test_several_defects_of_a_game_are_each_told_and_nothing_else() -> None:
    text = edited((8, "32: 25/22 25/23", "72: 25/22 25/23"), (14, "54: 13/9 7/2", "54: 13/9"), (21, "43: 7/3 7/4", "43: 7/3 7/4 4/1"))
    assert told(text) == [("error", "bad-dice", 8), ("error", "more-dice-could-be-used", 14), ("error", "too-many-moves", 21)]
    text = edited((9, "32: 18/15 15/13", "52: 18/15 15/13"), (17, "Doubles => 2", "Doubles => 4"), (24, "41: 4/0 1/0", "41: 4/0 2/0"))
    assert told(text) == [("error", "wrong-dice", 9), ("error", "cube-value", 17), ("error", "too-many-moves", 24)]


def test_a_row_written_twice_is_told_as_such_whether_renumbered_or_not() -> None:
    copy = LINES[11]  # row 6
    for row in (copy, copy.replace("  6)", "  7)")):
        lines = LINES[:12] + [row] + (LINES[12:] if row == copy else [line.replace(f"{n})", f"{n + 1})", 1) for n, line in
                                                                       ((int(l.split(")")[0]), l) if l.strip()[:1].isdigit() and ")" in l[:5] else (0, l) for l in LINES[12:])])  # fmt: skip
        found = told("\n".join(lines))
        assert found == [("error", "duplicate-row", 13)], found


def test_a_row_left_out_is_told_where_it_is_missing() -> None:
    lines = LINES[:9] + LINES[10:]  # row 4 left out: row 5 follows row 3
    found = told("\n".join(lines))
    assert found == [("error", "skipped-row", 10)], found  # the numbers say it: no row-number warning beside it
    message = issues("\n".join(lines))[0].message
    assert "61: 11/5 23/22" in message or "61: 23/22 11/5" in message  # the two plays it held, found by the plays after it


def test_a_row_number_that_skips_where_the_game_replays_is_a_warning() -> None:
    text = edited((13, "  7) 65:", " 17) 65:"))
    assert told(text) == [("warning", "row-number", 13), ("warning", "row-number", 14)]  # row 17 after 6, then 8 after 17


def test_names_in_the_other_order_are_read_by_the_columns_and_nobody_is_credited_wrongly() -> None:
    names_only = edited((51, " gnubg : 4                      root : 0", " root : 4                       gnubg : 0"))
    whole_cells = edited((33, " gnubg : 2                      root : 0", " root : 0                       gnubg : 2"))
    for text, line in ((names_only, 51), (whole_cells, 33)):
        assert told(text) == [("warning", "names-order", line)]
        games = list(replay(__import__("bgrecord").read_match_text(text, "t.mat")))
        assert [g.game.names for g in games] == [("gnubg", "root")] * 3
        assert [(g.result.winner, g.score) for g in games if g.result] == [(0, (0, 0)), (0, (2, 0)), (0, (4, 0))]


def test_a_name_spelt_otherwise_in_one_score_line_is_the_same_player() -> None:
    text = edited((33, "root : 0", "roat : 0"))
    assert told(text) == [("warning", "name-spelling", 33)]
    assert {name for g in replay(__import__("bgrecord").read_match_text(text, "t.mat")) for name in g.game.names} == {"gnubg", "root"}


def test_dice_typed_for_other_dice_and_the_opponents_numbering_are_named() -> None:
    assert told(edited((12, "55: 13/8 8/3 8/3 7/2", "44: 13/8 8/3 8/3 7/2"))) == [("error", "wrong-dice", 12)]
    found = issues(edited((9, "31: 8/5 6/5", "31: 17/20 19/20")))
    assert [(i.code, i.line) for i in found] == [("opponent-numbering", 9)] and "8/5 6/5" in found[0].message


def test_a_match_length_the_scores_contradict_is_one_error() -> None:
    assert told(edited((3, " 5 point match", " 3 point match"))) == [
        ("error", "match-length", 3), ("warning", "crawford-double", 36), ("warning", "crawford-double", 47)]


def test_a_passage_no_reading_replays_is_said_once_and_the_next_game_is_checked() -> None:
    text = edited((8, "32: 25/22 25/23", "32: 12/9 11/9"), (9, "31: 8/5 6/5", "31: 12/9 10/9"), (10, "61: 23/22 11/5", "61: 12/6 9/8"))
    text = text.replace("  1) 51: 13/8 24/23 ", "  1) 51: 13/8 24/22 ")  # game 3: its own error, checked again
    found = told(text)
    assert [(severity, line) for severity, _, line in found[:2]] == [("error", 8), ("info", 8)] and ("error", "wrong-distance", 52) in found
    assert "checking resumes with the next game" in issues(text)[1].message


def test_the_board_at_an_error_step_is_the_one_before_the_play_that_failed() -> None:
    text = edited((9, "32: 18/15 15/13", "32: 18/15 15/12"))
    record = next(r for r in step_records(text) if any(i.code == "wrong-distance" for i in r.issues))
    assert record.board is record.position and record.written == "32: 18/15 15/12" and record.repair == "as 18/15 15/13"
    assert record.words == "root rolls 3-2 and plays 18/15 15/12, as written; replayed as 18/15 15/13"


def test_recovery_is_bounded_on_a_record_of_nothing_but_errors() -> None:
    rows = "".join(f" {n:2d}) 66: 24/18 24/18 13/7 13/7   55: 13/8 13/8 6/1 6/1\n" for n in range(1, 200))
    text = " 5 point match\n\n Game 1\n a : 0                      b : 0\n" + rows
    start = time.perf_counter()
    found = issues(text)
    assert time.perf_counter() - start < 60  # bounded work: a few repairs, then the game is not checked
    assert len([i for i in found if i.severity is Severity.ERROR]) <= MAX_REPAIRS + 1 and found[-1].code == "not-checked"


# --- the acceptance rates, over clean records of every producer at hand ---


@pytest.fixture(scope="module")
def sources() -> list[tuple[str, Path]]:
    return clean_sources(3)


def judged(edits: Iterable[tuple[Path, Optional[Edit]]], judge: Callable[[Path, Edit], Optional[str]]) -> tuple[int, list[str]]:
    """How many records were edited, and why each that fails its judge does."""
    tried, missed = 0, []
    for path, edit in edits:
        if edit is not None:
            tried += 1
            why = judge(path, edit)
            if why:
                missed.append(f"{path.name}: {why}")
    return tried, missed


def test_several_defects_in_a_game_are_each_an_error_at_its_line(sources: list[tuple[str, Path]]) -> None:
    rng = random.Random(2029)
    tried, missed = judged(((path, defects(path, rng)) for _, path in sources), judge_defects)
    least = 15 if CORPUS.exists() else 3  # without the corpus: the samples' and the repository's gnubg records, each right
    assert tried >= least and len(missed) <= tried * 0.05, "\n".join(missed)


def test_a_transcribers_mistakes_are_told_once_where_they_stand(sources: list[tuple[str, Path]]) -> None:
    rng = random.Random(2029)
    tried, missed = judged(((path, mistake(path, kind, rng)) for _, path in sources for kind in MISTAKES), judge_mistake)
    least = 40 if CORPUS.exists() else 12  # without the corpus: the samples' and the repository's gnubg records, each right
    assert tried >= least and len(missed) <= tried * 0.05, "\n".join(missed)
