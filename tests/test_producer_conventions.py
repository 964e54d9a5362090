"""Producers' conventions, written for the class and not for one file, each with a small record
written here: accepted where legitimate (an info says how it was read), still an error where not.
Resignations in other words and placeholders, an answer to a resignation."""

from __future__ import annotations

import pytest

from bgrecord import read_match
from bgrecord.formats.issues import Severity
from bgrecord.replay import replay

HEAD = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
WORDS = ["Concedes", "concedes", "CONCEDED", "Gives up", "gave up", "Forfeits", "Surrenders", "Quits", "Resigns", "resign"]
# where the word stands: alone in Alice's cell, after her dice, or in the row of the Wins line
PLACES = {
    "alone": "  2)  {word}\n                                  Wins {points}\n",
    "after the dice": "  2) 52: {word}\n                                  Wins {points}\n",
    "in the Wins row": "      {word}                    Wins {points}\n",
}


def outcome(text: str) -> tuple[list[str], list[tuple[str, str]], tuple[int, int, str] | None]:
    match = read_match(text)
    played = list(replay(match))
    issues = match.all_issues() + [i for g in played for i in g.issues]
    result = played[0].result
    return ([i.code for i in issues if i.severity is Severity.ERROR], [(i.code, i.message) for i in issues if i.code == "resign-word"],
            (result.winner, result.points, result.ended_by) if result else None)  # fmt: skip


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_resignation_in_other_words_is_read_with_its_points_checked(word: str, place: str) -> None:
    errors, notices, result = outcome(HEAD + PLACES[place].format(word=word, points="2 points"))
    assert errors == [] and result == (1, 2, "resign")
    said = word.lower().startswith("resign")  # the word every reader knows needs no notice
    assert [code for code, _ in notices] == ([] if said else ["resign-word"])
    errors, _, _ = outcome(HEAD + PLACES[place].format(word=word, points="4 points"))  # 4 is no resignation at cube 1
    assert errors == ["resign-points"]


@pytest.mark.parametrize(("row", "winner"), [
    ("  2) 00: ????\n                                  Wins 1 point\n", 1),  # Alice, before rolling
    ("  2)  ????\n                                  Wins 1 point\n", 1),
    ("  2) 62: 24/18 13/11              ????\n      Wins 1 point\n", 0),  # Bob, after Alice's play
    ("  2) 62: 24/18 13/11              00: ????\n      Wins 1 point\n", 0),
])  # fmt: skip
def test_placeholder_dice_and_play_are_a_resignation_before_rolling(row: str, winner: int) -> None:
    errors, notices, result = outcome(HEAD + row)
    assert errors == [] and result == (winner, 1, "resign") and "before rolling" in notices[0][1]


def test_what_is_no_resignation_is_still_an_error() -> None:
    assert outcome(HEAD + "  2) 00: 13/8 13/11\n")[0][0] == "bad-dice"  # placeholder dice with a play
    assert outcome(HEAD + "  2)  Concedes\n      Wins 1 point\n")[0] == ["result-winner"]  # the resigner cannot win
    assert outcome(HEAD + "  2)  Sulks\n                                  Wins 1 point\n")[0] == ["unreadable"]
    # a resignation with no Wins line says no points: the game has no result before the next game
    next_game = "\n Game 2\n Alice : 0                      Bob : 1\n  1) 31: 8/5 6/5\n"
    assert outcome(HEAD + "  2)  Concedes\n" + next_game)[0] == ["no-result"]


def test_accepts_after_a_resignation_answers_it() -> None:
    errors, _, result = outcome(HEAD + "  2)  Resigns                     Accepts\n                                  Wins 1 point\n")
    assert errors == [] and result == (1, 1, "resign")
    stray = outcome(HEAD + "  2) 52: 13/8 13/11                Accepts\n")  # no double, no resignation: no answer
    assert stray[0] == ["answer-without-double"]


# --- variants named in the header, and starts that are not the standard one ---

NACK_OPENING = "  1) 31: 23/20 6/5                42: 8/4 6/4\n"  # from 23: only Nackgammon has a checker there
HYPER_OPENING = "  1) 31: 23/20 22/21               42: 24/20 24/22\n"  # Hypergammon's start: 24, 23 and 22
DROP = "  2)  Doubles => 2                Drops\n      Wins 1 point\n"


def games(opening: str, count: int, head: str = " 7 point match\n", last: str = DROP) -> str:
    text = head
    for number in range(1, count + 1):
        text += f"\n Game {number}\n Alice : {number - 1}                      Bob : 0\n{opening}{last}"
    return text


def issues_of(text: str) -> list[tuple[str, str, int | None]]:
    from bgrecord.formats.source import Input
    from bgrecord.replay.validate import validate_file

    report = validate_file(Input.of(text.encode(), "t.mat"))
    return [(i.severity.value, i.code, i.line) for i in report.issues if i.severity is not Severity.INFO or i.code in INFOS]


INFOS = {"inferred-variant", "money-session", "resign-reading"}


def error_codes(text: str) -> list[str]:
    return [code for severity, code, _ in issues_of(text) if severity == "error"]


@pytest.mark.parametrize("naming", ['; [Variation "NackGammon"]\n', ";Game type: Nackgammon\n", "; Variant: nack\n"])
def test_a_known_variant_named_in_the_header_is_played_by_its_rules(naming: str) -> None:
    assert issues_of(games(NACK_OPENING, 3, naming + " 7 point match\n")) == []
    # still checked: a first move that fits the start of no variant, in a game too short to tell a slip from another start
    assert error_codes(games(NACK_OPENING.replace("23/20", "22/19"), 1, naming + " 7 point match\n")) == ["nonstandard-start"]
    longer = games(NACK_OPENING.replace("23/20", "22/19") + "  2) 64: 20/14 13/9              53: 13/8 13/10\n"
                   "  3) 21: 9/7 5/4                  61: 13/7 4/3\n  4) 31: 13/10 4/3                62: 13/7 6/4\n"
                   "  5) 54: 13/8 7/3                 43: 8/4 24/21\n", 1,
                   naming + " 7 point match\n", last="")  # fmt: skip
    assert error_codes(longer) == ["no-checker"]  # the game goes on cleanly from a repair of it: a slip of the pen


@pytest.mark.parametrize("naming", ['; [Variation "HyperGammon"]\n', ";Game type: Acey-Deucey\n", "; Game type: Plakoto\n",
                                    '; [Variation "Quadgammon"]\n', '; [Variation "Backgammon Hyper"]\n', ";Game type: Nackgammon 2\n",
                                    ";Game type: backgammon, long\n"])  # not exactly a variant played, whatever words it shares
def test_a_variant_bgrecord_does_not_play_is_one_error_for_the_file(naming: str) -> None:
    found = issues_of(games(HYPER_OPENING, 4, naming + " 7 point match\n"))
    assert [(s, c) for s, c, _ in found] == [("error", "unsupported-variant")] and found[0][2] == 1


def test_a_header_comment_that_names_no_game_is_no_variant() -> None:
    text = games("  1) 31: 8/5 6/5                 42: 8/4 6/4\n", 2, ";Game type: ranked\n 7 point match\n")
    assert issues_of(text) == []
    assert error_codes(text.replace("42: 8/4 6/4", "42: 8/4 6/3", 1)) == ["wrong-distance"]  # its games are checked


def test_sgf_rules_name_the_variant() -> None:
    from bgrecord.formats.source import Input
    from bgrecord.replay.validate import validate_file

    sgf = "(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]PW[a]PB[b]RU[Crawford:Nackgammon];W[31wtfe];B[42qusu])"
    codes = lambda text: [i.code for i in validate_file(Input.of(text.encode(), "t.sgf")).issues if i.severity is Severity.ERROR]
    assert codes(sgf) == []
    assert codes(sgf.replace(":Nackgammon", "")) == ["nonstandard-start"]  # the one game's first move fits no start
    assert codes(sgf.replace("Nackgammon", "Hypergammon3") + sgf.replace("game:0", "game:1")) == ["unsupported-variant"]


def test_a_nackgammon_start_the_record_does_not_name_is_found_by_replaying() -> None:
    found = issues_of(games(NACK_OPENING, 3))
    assert [(s, c) for s, c, _ in found] == [("info", "inferred-variant")]


def test_every_game_failing_at_its_first_move_is_said_once() -> None:
    found = issues_of(games(HYPER_OPENING, 4))
    assert [(s, c) for s, c, _ in found] == [("error", "nonstandard-start")] + [("warning", "no-checker")] * 3
    assert error_codes(games(HYPER_OPENING, 1)) == ["nonstandard-start"]  # one game: the same, one error for the file


def test_first_move_errors_in_games_apart_are_distinct_defects() -> None:
    good = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    text = " 7 point match\n" + "".join(
        f"\n Game {n}\n Alice : {n - 1}                      Bob : 0\n{opening}{DROP}" for n, opening in enumerate([HYPER_OPENING, good, HYPER_OPENING], 1))
    assert error_codes(text) == ["no-checker", "no-checker"]


def test_money_play_said_in_words() -> None:
    body = "\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n" + DROP
    for header in ("; Money session\n", "Money game\n", "; Game type: money\n"):
        assert [(s, c) for s, c, _ in issues_of(header + body)] == [("info", "money-session")]
    assert error_codes("; a session for money\n" + body) == ["missing-match-length"]  # no header line saying it


# --- one unknown convention, told once; distinct defects, each told ---

def test_the_same_unknown_text_in_game_after_game_is_one_error() -> None:
    sulks = "  2)  Sulks                     Drops\n      Wins 1 point\n"  # a word nobody reads, in every game
    found = issues_of(games("  1) 31: 8/5 6/5                 42: 8/4 6/4\n", 3, last=sulks))
    assert [(s, c) for s, c, _ in found] == [("error", "unreadable"), ("warning", "unreadable"), ("warning", "unreadable")]
    from bgrecord.formats.source import Input
    from bgrecord.replay.validate import validate_file

    messages = [i.message for i in validate_file(Input.of(games("  1) 31: 8/5 6/5                 42: 8/4 6/4\n", 3, last=sulks).encode(), "t.mat")).issues]
    assert "(and 2 more places in this file: one convention, told once)" in messages[0]
    repeats = [m for m in messages[1:] if "Sulks" in m]
    assert len(repeats) == 2 and all(f"the same as at line {found[0][2]}" in message for message in repeats)


def test_distinct_defects_of_one_kind_are_each_an_error() -> None:
    first = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    # different unreadable texts, the same illegal play in two games, the Wins line on the wrong side twice
    garbled = " 7 point match\n" + "".join(
        f"\n Game {n}\n Alice : {n - 1}                      Bob : 0\n{first}  2)  {word}                     Drops\n      Wins 1 point\n"
        for n, word in enumerate(["Sulks", "Frowns", "Mumbles"], 1))  # fmt: skip
    assert error_codes(garbled) == ["unreadable"] * 3
    illegal = games("  1) 31: 8/5 6/5                 42: 8/4 6/3\n", 2)
    assert error_codes(illegal) == ["wrong-distance"] * 2
    wrong_side = games(first, 2, last="  2)  Doubles => 2                Drops\n                                  Wins 1 point\n")
    assert error_codes(wrong_side) == ["result-winner"] * 2


def test_a_start_the_first_game_shows_standard_is_not_changed_by_a_later_game() -> None:
    good = "  1) 42: 8/4 6/4                 31: 8/5 6/5\n"  # legal from either start: no sign of the start
    text = " 7 point match\n" + "".join(
        f"\n Game {n}\n Alice : {n - 1}                      Bob : 0\n{opening}{DROP}" for n, opening in enumerate([good, NACK_OPENING, good], 1))
    assert error_codes(text) == ["no-checker"]  # game 2's play from 23 is its own defect, not a Nackgammon match


def test_play_after_a_resignation_word_is_an_error() -> None:
    errors, _, _ = outcome(HEAD + "  2)  Concedes                   43: 24/20 13/10\n                                  Wins 1 point\n")
    assert errors == ["after-game-end"]


def test_a_resignation_that_ends_the_match_may_be_credited_the_match() -> None:
    second = "\n Game 2\n Alice : 1                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    first = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n" + DROP
    credited = first + second + "  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9              21: ????\n      Wins 5 points and the match\n"
    assert [(s, c) for s, c, _ in issues_of(credited)] == [] and "match-credit" in [c for _, c, _ in _all(credited)]
    short = credited.replace("Wins 5 points and the match", "Wins 1 point and the match")  # 1 is no resignation at cube 2
    assert error_codes(short) == ["resign-points"]
    forfeit = credited.replace("21: ????", "21: 6/4 6/5")  # no resignation written: a forfeit of the rest
    assert [(s, c) for s, c, _ in issues_of(forfeit)] == [("warning", "forfeit")]


def test_and_the_match_when_the_match_is_not_won_is_a_warning() -> None:
    text = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    text += "  2)  Doubles => 2                Drops\n      Wins 1 point and the match\n"
    assert [(s, c) for s, c, _ in issues_of(text)] == [("warning", "match-not-won")]


def _all(text: str) -> list[tuple[str, str, int | None]]:
    from bgrecord.formats.source import Input
    from bgrecord.replay.validate import validate_file

    return [(i.severity.value, i.code, i.line) for i in validate_file(Input.of(text.encode(), "t.mat")).issues]
