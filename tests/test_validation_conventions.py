"""One error per root cause, and no false alarms: the score carried from the record, the
conventions of real archives (accepted where legitimate, still an error where not)."""

from __future__ import annotations

from bgrecord import read_match, read_match_text
from bgrecord.formats.issues import Severity
from bgrecord.replay import replay

OPENING = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
DROP_LEFT_WINS = "  2)  Doubles => 2                Drops\n      Wins 1 point\n"  # Alice doubles, Bob drops


def game(number: int, alice: int, bob: int, body: str = OPENING + DROP_LEFT_WINS, names: tuple[str, str] = ("Alice", "Bob")) -> str:
    return f"\n Game {number}\n {names[0]} : {alice}                      {names[1]} : {bob}\n" + body


def found(text: str, rules: str | None = None) -> list[tuple[str, str, int | None]]:
    from bgrecord.replay.rules import rules_for

    match = read_match(text)
    issues = [i for i in match.all_issues()] + [i for g in replay(match, rules_for(match, rules)) for i in g.issues]
    return [(i.severity.value, i.code, i.line) for i in issues]


def errors(text: str, rules: str | None = None) -> list[tuple[str, int | None]]:
    return [(code, line) for severity, code, line in found(text, rules) if severity == "error"]


def codes(text: str, rules: str | None = None) -> list[str]:
    return [code for _, code, _ in found(text, rules)]


def test_a_wrong_score_line_is_one_error_at_it_and_the_record_score_is_carried_on() -> None:
    text = " 7 point match\n" + game(1, 0, 0) + game(2, 2, 0) + game(3, 3, 0) + game(4, 4, 0)
    assert errors(text) == [("header-score", 10)]  # game 2 says 2-0 after a 1-point game; games 3 and 4 follow it
    issue = next(i for g in replay(read_match(text)) for i in g.issues if i.code == "header-score")
    assert issue.column == 10 and "carried on" in issue.message


def test_a_score_line_that_follows_a_wrong_result_line_repeats_no_error() -> None:
    wrong = OPENING + "  2)  Doubles => 2                Drops\n      Wins 2 points\n"
    text = " 7 point match\n" + game(1, 0, 0, wrong) + game(2, 2, 0) + game(3, 3, 0)
    assert errors(text) == [("result-points", 7)]


def test_a_gap_in_game_numbers_is_one_warning_and_the_score_carries_on() -> None:
    text = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0) + game(6, 5, 2) + game(7, 6, 2)
    assert errors(text) == []
    gaps = [(s, c) for s, c, _ in found(text) if c == "missing-games"]
    assert gaps == [("warning", "missing-games")]
    message = next(i.message for g in replay(read_match(text)) for i in g.issues if i.code == "missing-games")
    assert message.startswith("games 3 to 5 are missing")


def test_a_match_that_stops_short_gets_one_notice() -> None:
    text = " 7 point match\n" + game(1, 0, 0) + game(2, 1, 0)
    notices = [(s, c) for s, c, _ in found(text) if c in ("match-unfinished", "unfinished-game")]
    assert notices == [("info", "match-unfinished")]
    message = next(i.message for g in replay(read_match(text)) for i in g.issues if i.code == "match-unfinished")
    assert message == "match unfinished at 2-0 of 7"


def test_a_score_at_or_above_the_length_is_an_error() -> None:
    text = " 5 point match\n" + game(1, 0, 0) + game(2, 9, 0)
    assert errors(text) == [("score-beyond-length", 10)]


def test_a_game_after_the_match_is_one_error() -> None:
    text = " 1 point match\n" + game(1, 0, 0, OPENING + "      Wins 1 point\n") + game(2, 1, 0) + game(3, 1, 0)
    assert errors(text) == [("after-match", 8)]  # games 2 and 3 follow the match: one error, no Crawford judged


def on_the_bar(home: str, cell: str) -> str:
    """Bob (right) on the bar against Alice's home board ``home`` (her points 6 to 1), as a
    record set up by XG: XGID's position text, where gnubg reads Alice as lower case."""
    on_home = sum(".abcdefghijklmno".index(c) for c in home.replace("-", "."))
    board = "------N-----" + "abcdefghijklmno"[15 - on_home - 1] + "------" + home + "A"
    return (f" 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n; Set Pos={board}/0\n"
            f"  1) 31: 13/9                    {cell}\n  2) 42: 13/9 13/11\n")  # fmt: skip


def test_a_turn_left_out_is_a_dance_only_when_no_roll_could_be_played() -> None:
    closed = on_the_bar("bbbbbb", "")
    assert errors(closed) == [] and "closed-out" in codes(closed)
    open_six = on_the_bar("-bbbbb", "")  # Bob could enter with a 6: his turn may not be left out
    assert errors(open_six) == [("turn-order", 7)]


def test_money_sessions_with_zero_score_lines_and_with_wrong_totals() -> None:
    zeros = " 0 point match\n" + game(1, 0, 0) + game(2, 0, 0) + game(3, 0, 0)
    assert errors(zeros) == []
    totals = " 0 point match\n" + game(1, 0, 0) + game(2, 1, 0) + game(3, 3, 0)
    assert errors(totals) == [("header-score", 16)]


def test_a_resumed_session_cannot_tell_the_crawford_game() -> None:
    resumed = " 7 point match\n" + game(1, 6, 5)
    assert errors(resumed) == [] and "crawford-unknown" in codes(resumed)
    played = " 7 point match\n" + game(1, 5, 0) + game(2, 6, 0)  # game 1 takes Alice to 6: game 2 is the Crawford game
    assert errors(played) == [("crawford-double", 12)]


def test_a_forfeit_of_more_points_than_needed_is_a_warning() -> None:
    text = " 5 point match\n" + game(1, 2, 1, OPENING + "                                  Wins 5 points and the match\n")
    assert errors(text) == [] and ("warning", "forfeit") in [(s, c) for s, c, _ in found(text)]
    small = " 5 point match\n" + game(1, 0, 0, OPENING + "                                  Wins 4 points\n")
    assert errors(small) == [("resign-points", 6)]


def test_a_result_with_no_play_is_taken_as_written() -> None:
    text = " 5 point match\n" + game(1, 0, 0, "                                  Wins 2 points\n") + game(2, 0, 2)
    assert errors(text) == [] and "no-play" in codes(text)


def test_gibbon_sgf_resignations() -> None:
    sgf = ("(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]PW[alice]PB[bob]RE[W+2Resign];W[31hefe];B[42qusu];W[64xrmi]"
           ";B[resign:2];W[reject];B[double];W[take];B[resign:1];W[accept])")  # fmt: skip
    (played,) = replay(read_match_text(sgf))
    assert played.result is not None and (played.result.winner, played.result.points, played.result.ended_by) == (0, 2, "resign")
    assert [i.code for i in played.issues if i.severity is Severity.ERROR] == []
    wrong = sgf.replace("RE[W+2Resign]", "RE[W+4Resign]")
    assert [i.code for g in replay(read_match_text(wrong)) for i in g.issues if i.severity is Severity.ERROR] == ["result-points"]
    stray = sgf.replace(";B[resign:2];W[reject]", ";W[accept]")
    assert "answer-without-resign" in [i.code for g in replay(read_match_text(stray)) for i in g.issues]


def test_spellings_with_one_reading() -> None:
    head = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
    glued = head + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 62: 24/18 13/11             61: 13/7*7/6\n"
    assert errors(glued) == [] and "glued-hit-mark" in codes(glued)
    answer = head + "  1) 31: 8/5 6/5                  Doubles => 2\n      Drops                         Wins 1 point\n"
    assert errors(answer) == [] and "row-without-number" in codes(answer)
    match = read_match(head + "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops                       Wins 1 point and wins the match\n")
    assert match.games[0].actions[-1].kind == "win" and match.games[0].actions[-1].match
    unreadable = head + "  1) 31: 8/5 6/x5                42: 8/4 6/4\n"
    match = read_match(unreadable)
    assert [type(a).__name__ for a in match.games[0].actions] == ["Unreadable", "Roll"]


def test_an_automatic_double_turns_the_cube_for_the_jacoby_rule() -> None:
    from test_replay_checks import gammon_session

    rules = "money,automatic-doubles=1"  # money: Jacoby on
    assert errors(gammon_session(4), rules) == []  # the cube at 2 by an automatic double: the gammon counts, 2 x 2
    assert "automatic-doubles" in codes(gammon_session(4), rules)
    assert errors(gammon_session(1), rules) == []  # no automatic double: the cube unturned, a single under Jacoby
    assert errors(gammon_session(2), rules) == [("result-points", 7)]  # neither reading gives 2


def test_a_game_left_without_an_end_makes_the_next_score_line_the_score() -> None:
    stops = OPENING  # the record stops after the opening row: no result
    text = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0, stops) + game(3, 1, 4) + game(4, 2, 4)
    assert errors(text) == [("no-result", 9)]  # told once; game 3's 1-4 is the score from there, game 4 follows it
    wrong = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0, stops) + game(3, 1, 4) + game(4, 3, 4)
    assert errors(wrong) == [("no-result", 9), ("header-score", 20)]


def test_a_score_line_typo_is_one_error_and_the_line_after_it_right_again_none() -> None:
    # Alice wins 1 point a game: 0, 1, 2, 3; game 3's line says 5 (a typo), game 4's says 3 again (right by the count)
    text = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0) + game(3, 5, 0) + game(4, 3, 0) + game(5, 4, 0)
    assert errors(text) == [("header-score", 16)]
    # a score that changed for good (the record's own line carried on) is one error too
    carried = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0) + game(3, 5, 0) + game(4, 6, 0) + game(5, 7, 0)
    assert errors(carried) == [("header-score", 16)]
    # a line right by neither the carried score nor the count is an error of its own
    twice = " 9 point match\n" + game(1, 0, 0) + game(2, 1, 0) + game(3, 5, 0) + game(4, 7, 0)
    assert errors(twice) == [("header-score", 16), ("header-score", 22)]


GIBBON = ("(;FF[4]GM[6]MI[length:7][game:0][ws:0][bs:0]PW[alice]PB[bob]{re};W[31hefe];B[42qusu];W[double];B[take]"
          ";W[64xrmi];B[resign:{offered}];W[accept])")  # fmt: skip


def gibbon_resignation(re: str, offered: int) -> tuple[tuple[int, int] | None, list[str], list[str]]:
    (played,) = replay(read_match_text(GIBBON.format(re=re, offered=offered)))
    result = (played.result.winner, played.result.points) if played.result else None
    readings = [i.message for i in played.issues if i.code == "resign-reading"]
    return result, readings, [i.code for i in played.issues if i.severity is Severity.ERROR]


def test_gibbon_resign_n_is_read_as_points_unless_the_record_says_a_level() -> None:
    # the cube at 2: resign:2 is 2 points (a single game), or level 2 (a gammon, 4 points)
    result, readings, errs = gibbon_resignation("RE[W+2Resign]", 2)
    assert result == (0, 2) and errs == [] and readings == [
        "B[resign:2] read as 2 points, not a gammon (4 points with the cube at 2): as the record's result says"]
    result, readings, errs = gibbon_resignation("RE[W+4Resign]", 2)  # the record's result says the level
    assert result == (0, 4) and errs == [] and "read as a gammon (4 points with the cube at 2)" in readings[0]
    result, readings, errs = gibbon_resignation("", 2)  # nothing else says: Gibbon's own convention, points
    assert result == (0, 2) and "Gibbon writes the points offered" in readings[0]
    result, readings, errs = gibbon_resignation("", 1)  # 1 point is no resignation at cube 2: a level then
    assert result == (0, 2) and "1 point is no resignation" in readings[0]
    result, readings, errs = gibbon_resignation("RE[W+6Resign]", 2)  # agrees with neither: the points, and one error
    assert result == (0, 2) and errs == ["result-points"]


def test_a_file_of_another_game_is_one_error_however_many_trees() -> None:
    go = "(;FF[4]SZ[19];B[aa];W[bb])\n(;FF[4]SZ[19];B[cc])\n(;FF[4];B[dd])\n"  # no GM: SGF's default, Go
    match = read_match(go)
    refused = [(i.code, i.line) for i in match.all_issues() if i.severity is Severity.ERROR]
    assert refused == [("not-backgammon", 1)] and "and 2 more game trees" in match.all_issues()[0].message
    mixed = read_match("(;FF[4]GM[6]PW[a]PB[b];W[31hefe])\n" + go)
    assert [i.code for i in mixed.all_issues() if i.severity is Severity.ERROR] == ["not-backgammon"] and len(mixed.games) == 1
