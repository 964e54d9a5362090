"""The classes the dialect generator (tests/dialects.py) found unread, each in a small record
written here: read where legitimate, and still an error where the same words say something wrong."""

from __future__ import annotations

import pytest

from bgrecord import read_match
from bgrecord.formats.issues import Issue, Severity
from bgrecord.replay import replay

HEAD = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
DOUBLE = "  2)  Doubles => 2                Drops\n      Wins 1 point\n"


def issues(text: str) -> list[Issue]:
    match = read_match(text)
    played = list(replay(match))
    return match.all_issues() + [issue for game in played for issue in game.issues]


def errors(text: str) -> list[tuple[str, int | None]]:
    return [(issue.code, issue.line) for issue in issues(text) if issue.severity is Severity.ERROR]


@pytest.mark.parametrize("words", ["No move", "no moves", "No legal moves", "Dances", "Can not move", "Cannot play", "--", "-"])
def test_a_dance_in_words_is_checked(words: str) -> None:
    """Read as a dance (where no play is possible it is clean: tests/test_dialects.py); where Bob
    could play, it is 'could-move' as for 'Cannot Move'."""
    text = HEAD + f"  2) 64: 24/18 13/9               31: {words}\n"
    assert errors(text) == [("could-move", 6)] == errors(text.replace(words, "Cannot Move"))


@pytest.mark.parametrize("double", ["Doubles to 2", "Doubles -> 2", "Doubles = 2", "Doubles 2", "doubles to 2"])
def test_the_cube_value_in_other_words_is_checked(double: str) -> None:
    assert errors(HEAD + DOUBLE.replace("Doubles => 2", double)) == []
    assert errors(HEAD + DOUBLE.replace("Doubles => 2", double.replace("2", "4"))) == [("cube-value", 6)]


@pytest.mark.parametrize("wins", ["Wins 1", "Wins 1 pts", "Wins 1 pt.", "Won 1 point", "wins 1"])
def test_results_in_other_words_are_checked(wins: str) -> None:
    assert errors(HEAD + DOUBLE.replace("Wins 1 point", wins)) == []
    assert errors(HEAD + DOUBLE.replace("Wins 1 point", wins.replace("1", "3", 1))) == [("result-points", 7)]


def test_declines_is_a_drop() -> None:
    assert errors(HEAD + DOUBLE.replace("Drops", "Declines")) == []
    assert errors(HEAD + "  2)  Declines\n") == [("answer-without-double", 6)]


@pytest.mark.parametrize("mark", ["?", "!", "??", "?!", "!!", " ?", " !?"])
def test_an_annotators_mark_after_a_play(mark: str) -> None:
    row = "  2) 64: 24/18 13/9{mark}            31: 8/5 6/5\n"
    assert errors(HEAD + row.format(mark=mark)) == []
    assert errors(HEAD + row.format(mark=mark).replace("13/9", "13/8")) == [("wrong-distance", 6)]
    match = read_match(HEAD + row.format(mark=mark))
    assert [t.points for t in match.games[0].actions[2].moves] == [(24, 18), (13, 9)]  # type: ignore[attr-defined]


def test_a_placeholder_after_a_play_is_still_the_other_players() -> None:
    """XG's '????' after a play is the next cell (the right player's), not an annotation."""
    text = HEAD + "  2) 64: 24/18 13/9              ????\n      Wins 1 point\n"
    match = read_match(text)
    assert [type(a).__name__ for a in match.games[0].actions][-2:] == ["Result", "Result"]
    assert errors(text) == []


@pytest.mark.parametrize("line", [" 5-point match", " 5 pt match", "Match to 5", "Match to 5 points", "Match length: 5", "MATCH LENGTH 5"])
def test_the_match_length_in_other_words(line: str) -> None:
    match = read_match(HEAD.replace(" 5 point match", line) + DOUBLE)
    assert match.length == 5 and errors(HEAD.replace(" 5 point match", line) + DOUBLE) == []


def test_game_lines_with_a_number_sign() -> None:
    text = (HEAD + DOUBLE).replace(" Game 1", " Game #1") + "\n Game #2\n Alice : 1                      Bob : 0\n  1) 31: 8/5 6/5\n"
    match = read_match(text)
    assert [g.number for g in match.games] == [1, 2]


def test_a_comma_glued_to_the_next_move() -> None:
    assert errors(HEAD + "  2) 64: 24/18,13/9               31: 8/5,6/5\n") == []
    assert errors(HEAD + "  2) 64: 24/18,13/8               31: 8/5,6/5\n") == [("wrong-distance", 6)]


def test_a_rating_after_the_score() -> None:
    text = HEAD.replace(" Alice : 0                      Bob : 0", " Alice : 0 (1612)               Bob : 0 (1580)") + DOUBLE
    match = read_match(text)
    assert match.games[0].names == ("Alice", "Bob") and match.games[0].ratings == (1612, 1580)
    assert errors(text) == []


# --- text that reads as nothing, between turns (loose lines) ---

NOTE = "{the cube was late}\n"


def test_a_note_between_turns_is_kept_as_a_comment() -> None:
    text = HEAD + NOTE + DOUBLE
    assert errors(text) == []
    assert [(i.code, i.severity, i.line) for i in issues(text) if i.code == "unknown-text"] == [("unknown-text", Severity.WARNING, 6)]


@pytest.mark.parametrize("note", ["Exported by SomeProgram 2.1", "Time: 12:34:56", "[played 2024/05/17]", "Alice wins the toss"])
def test_notes_without_dice_or_moves_after_the_last_game(note: str) -> None:
    assert errors(HEAD + DOUBLE + note + "\n") == []


def test_a_note_where_a_cube_action_is_lost_stays_the_error() -> None:
    """The take after it answers no double: the note may be that double (in words bgrecord does
    not know), and the error stands at it, saying why."""
    text = HEAD + "  Verdoppelt\n  2)                              Takes\n"
    found = [i for i in issues(text) if i.severity is Severity.ERROR]
    assert [(i.code, i.line) for i in found] == [("unreadable", 6)] and "lost cube action" in found[0].message


def test_a_line_with_dice_or_a_move_stays_an_error() -> None:
    """A turn written so that it does not read (no row number) may change the game's course."""
    assert errors(HEAD + "  5-2: 13/8 13/11\n" + DOUBLE)[0] == ("unreadable", 6)
    assert errors(HEAD + "  {24/18 was better}\n" + DOUBLE)[0] == ("unreadable", 6)


def test_a_note_after_an_error_is_not_a_second_error() -> None:
    text = HEAD + "  2) 64: 24/18 13/8               31: 8/5 6/5\n" + NOTE + "  3) 31: 8/5 6/5\n"
    assert errors(text) == [("wrong-distance", 6)]


def test_a_two_word_note_inside_a_game_is_no_game_of_its_own() -> None:
    """A .gam game starts at a line of two names, only before any match length or Game line."""
    text = HEAD + "{a note}\n" + DOUBLE
    assert len(read_match(text).games) == 1 and errors(text) == []


# --- one defect, one error ---


def test_a_resignation_worth_no_resignation_is_one_error_not_two() -> None:
    text = (HEAD + "  2) 64: 24/18 13/9               31: 8/5 6/5\n  3) 52:\n                                  Wins 4 points\n"
            "\n Game 2\n Alice : 0                      Bob : 2\n  1) 31: 8/5 6/5\n")  # fmt: skip
    assert errors(text) == [("resign-points", 8)]  # the next score line (0-2) says where the match stands


def test_a_wrong_value_in_losses_and_wins_is_one_error() -> None:
    bob_wins = HEAD + "  2) 64: 24/18 13/9                Doubles => 2\n  3)  Drops\n      Losses {n} point                Wins {n} point\n"
    assert errors(bob_wins.format(n=1)) == []
    assert errors(bob_wins.format(n=2)) == [("result-points", 8)]


MONEY = (" 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n" + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
         + DOUBLE + "\n Game 2\n Alice : {a}                      Bob : {b}\n  1) 31: 8/5 6/5\n")  # fmt: skip


def test_a_money_sessions_running_net_may_be_negative() -> None:
    assert errors(MONEY.format(a=1, b=-1)) == []  # the net: Alice won 1, Bob lost 1
    assert errors(MONEY.format(a=1, b=0)) == []  # the totals won, as gnubg writes them
    assert errors(MONEY.format(a=1, b=-2)) == [("header-score", 10)]
    match_play = MONEY.replace(" 0 point match", " 5 point match").format(a=1, b=-1)
    assert errors(match_play) == [("header-score", 10)]  # a match score is never negative
