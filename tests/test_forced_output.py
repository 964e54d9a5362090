"""Forced output says what it lost: ``convert --force`` writes a game with an error up to the
error with a mark every format keeps, read back as the warning ``cut-at-error`` naming the
original's place, so that the output never reads as a clean record (bgrecord.formats.cutmark)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrecord.cli import main
from bgrecord.formats.issues import Severity
from bgrecord.replay.validate import validate_file
from bgrecord.tables.stats import game_rows

BAD = (" 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
       "  2) 61: 13/7 8/7                 55: 13/3(2)\n  3) 65: 24/18 18/12             21: 13/11 6/5\n"
       "  4) 21: 13/11 24/23             33: 8/5(2) 6/3(2)\n      Wins 1 point\n\n"
       " Game 2\n Alice : 1                      Bob : 0\n  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops\n"
       "                                  Wins 1 point\n")  # fmt: skip


def convert(source: Path, target: Path, *options: str) -> None:
    result = CliRunner().invoke(main, ["convert", str(source), "-o", str(target), "--force", "-q", *options])
    assert result.exit_code == 0 and "written" not in result.output, result.output


@pytest.mark.parametrize("suffix", [".sgf", ".json", ".ogxm"])
def test_a_forced_conversion_is_marked_where_it_cut_and_reads_back_so(tmp_path: Path, suffix: str) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BAD)
    out = tmp_path / f"out{suffix}"
    convert(bad, out)
    report = validate_file(out)
    marks = [issue for issue in report.issues if issue.code == "cut-at-error"]
    assert len(marks) == 1 and marks[0].severity is Severity.WARNING and marks[0].game == 1
    assert "(bad.mat, line 7): wrong-distance: 18/12" in marks[0].message and "not in this file" in marks[0].message
    assert report.games == 2  # (a game with no result before another: an error in JSON, where a result is no option)
    rows = game_rows(out)
    assert [row["warnings"] for row in rows] == [1, 0] and rows[1]["points"] == 1
    # the mark outlives a conversion of the conversion, into every format
    for again in (".mat", ".sgf", ".json", ".ogxm"):
        second = tmp_path / f"again{again}"
        result = CliRunner().invoke(main, ["convert", str(out), "-o", str(second), "-q", "--overwrite", "--force"])
        assert result.exit_code == 0, result.output
        said = [issue.message for issue in validate_file(second).issues if issue.code == "cut-at-error"]
        assert said == [marks[0].message], (again, said)


def test_a_forced_mat_keeps_the_rest_as_written_and_its_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BAD)
    convert(bad, tmp_path / "out.mat")
    errors = [issue for issue in validate_file(tmp_path / "out.mat").issues if issue.severity is Severity.ERROR]
    assert [(issue.code, issue.line) for issue in errors] == [("wrong-distance", 7)]


def test_a_mark_in_a_hostile_file_is_bounded_and_a_comment_like_it_elsewhere_is_no_mark(tmp_path: Path) -> None:
    long = tmp_path / "long.sgf"
    long.write_text("(;FF[4]GM[6]MI[length:0]PW[a]PB[b];W[31hefe]C[bgrecord: cut at an error" + "x" * 50_000 + "])\n")
    (mark,) = [issue for issue in validate_file(long).issues if issue.code == "cut-at-error"]
    assert len(mark.message) < 1_000
    plain = tmp_path / "plain.sgf"
    plain.write_text("(;FF[4]GM[6]MI[length:0]PW[a]PB[b];W[31hefe]C[cut at an error, said a kibitzer])\n")
    assert not [issue for issue in validate_file(plain).issues if issue.code == "cut-at-error"]
