"""Bad input: every defect is one located issue with a message in words; the rest is read."""

from __future__ import annotations

import pytest

from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.reader import iter_matches, read_match
from bgrecord.formats.records import CubeAction, Roll, Unreadable
from bgrecord.formats.source import Input

HEADER = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"


def issues(text: str | bytes) -> list[Issue]:
    return [issue for match in iter_matches(Input.text(text) if isinstance(text, str) else text) for issue in match.all_issues()]


def errors(text: str | bytes) -> list[Issue]:
    return [issue for issue in issues(text) if issue.severity is Severity.ERROR]


def test_a_bad_move_costs_one_error_and_the_rest_is_read() -> None:
    text = HEADER + (
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2) 64: 24/18 13/x9              53: 13/8 13/10\n"
        "  3) 62: 24/18 13/11             Doubles => 2\n"
    )
    match = read_match(text, path="bad.mat")
    (error,) = errors(text)
    assert (error.code, error.category, error.line, error.column, error.game, error.move) == ("unreadable", "format", 6, 16, 1, 2)
    assert error.message.startswith("cannot read '13/x9' at column 16: expected ")
    assert "a move like 13/7" in error.message and "dice like 52:" in error.message
    assert str(match.all_issues()[0]).startswith("bad.mat:6:16: error[unreadable] cannot read '13/x9'")
    assert match.all_issues()[0].excerpt == "2) 64: 24/18 13/x9              53: 13/8 13/10"
    actions = match.games[0].actions
    # one unreadable cell costs one error: the other cell of its line is read
    assert [type(a).__name__ for a in actions] == ["Roll", "Roll", "Unreadable", "Roll", "Roll", "CubeAction"]
    assert actions[3].text == "53: 13/8 13/10" and actions[3].player == 1
    assert isinstance(actions[2], Unreadable) and actions[2].line == 6


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("  2) 52: 13/8 13/11 44: 8/4 8/4  31: 8/5 6/5", "unexpected '31:' at column 34: expected a row number like 12) or the end of the line"),
        ("  2) Doubles => 2  Takes  Drops", "unexpected 'Drops' at column 27: expected a row number like 12) or the end of the line"),
        ("  2) 5x: 13/8", "cannot read '5x:' at column 6: expected"),
        ("  2) 52 13/8", "cannot read '52' at column 6: expected"),
        ("Alice plays 52", "cannot read 'Alice' at column 1: expected"),
    ],
)
def test_parse_errors_say_what_was_expected_in_words(row: str, expected: str) -> None:
    (error,) = errors(HEADER + row + "\n")
    assert error.message.startswith(expected), error.message
    assert "ROLL" not in error.message and "_NL" not in error.message


def test_missing_score_line_and_missing_match_length() -> None:
    text = " Game 1\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    found = errors(text)
    assert [e.code for e in found] == ["missing-match-length", "missing-score-line"]
    assert [(e.line, e.column) for e in found] == [(1, 1), (2, 1)]
    assert len(read_match(text).games[0].actions) == 2


def test_score_line_with_one_player() -> None:
    (error,) = errors(" 3 point match\n\n Game 1\n Alice : 0\n  1) 31: 8/5 6/5\n")
    assert error.code == "score-line" and error.line == 4


def test_a_comment_inside_a_game_is_a_warning_and_kept() -> None:
    text = HEADER + "; kibitz: nice roll\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    (warning,) = issues(text)
    assert (warning.severity, warning.code, warning.line) == (Severity.WARNING, "comment-in-game", 5)
    assert read_match(text).text() == text


def test_a_wrapped_line_without_a_roll_above_is_unreadable() -> None:
    text = HEADER + "  1)  Doubles => 2              Takes\n   13/7 8/7\n"
    (error,) = errors(text)
    assert error.code == "unreadable" and error.line == 6
    assert isinstance(read_match(text).games[0].actions[1], CubeAction)


def test_two_rows_on_one_line_are_both_read() -> None:
    text = HEADER + "  1) 31: 8/5 6/5                1)  Losses 1 point      Wins 1 point\n"
    assert [i.code for i in issues(text)] == ["rows-on-one-line"]
    actions = read_match(text).games[0].actions
    assert [(type(a).__name__, a.player) for a in actions] == [("Roll", 0), ("Result", 0), ("Result", 1)]


def test_empty_and_garbage_files() -> None:
    assert [e.code for e in errors("")] == ["no-match"]
    assert [e.code for e in errors(b"\x00\xff\xfe garbage \x81")] == ["binary"]
    assert [i.code for i in issues(" 3 point match\n")] == ["no-games"]


def test_two_words_on_a_line_are_not_a_gam_game_without_rows() -> None:
    for text in ("Notes about the club\nHello world\nsee you\n", b"\xff\xfe garbage"):
        matches = list(iter_matches(text))
        assert [len(match.games) for match in matches] == [0]
        assert [e.code for e in errors(text)] == ["no-match"]
    gam = " Alice    Bob\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    assert [game.names for game in read_match("Hello world\n" + gam).games] == [("Alice", "Bob")]


def test_sgf_that_is_not_backgammon_or_not_sgf() -> None:
    (error,) = errors("(;FF[4]GM[1]SZ[19];B[pd];W[dp])")
    assert error.code == "not-backgammon" and "GM[1]" in error.message
    (error,) = errors("(;FF[4]GM[6];W[31hefe]")
    assert error.code == "unreadable" and error.message.startswith("not a readable SGF file")
    (error,) = errors("(;FF[4]GM[6]PW[a]PB[b];W[31hefe];B[banana])")
    assert error.code == "unreadable" and "B[banana]" in error.message


def test_line_endings_mixed_are_all_lines() -> None:
    text = " 5 point match\r\n\r\n Game 1\r Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5\r\n"
    match = read_match(text)
    assert match.games[0].actions[0].line == 5 and not match.all_issues()
    assert match.text() == text


def test_dice_without_moves_and_cannot_move_are_rolls() -> None:
    match = read_match(HEADER + "  1) 31:                         42: Cannot Move\n")
    first, second = match.games[0].actions
    assert isinstance(first, Roll) and first.moves == () and first.note == ""
    assert isinstance(second, Roll) and second.note == "cannot move"
