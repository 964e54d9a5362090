"""Producers' conventions, written for the class and not for one file, each with a small record
written here: accepted where legitimate (an info says how it was read), still an error where not.
Resignations in other words and placeholders, an answer to a resignation."""

from __future__ import annotations

import pytest

from bgrecord import read_match
from bgrecord.issues import Severity
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
