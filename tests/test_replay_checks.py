"""Each check of the replay, on small records: the code, the line, and no cascade."""

from __future__ import annotations

import pytest

from bgrecord import read_match
from bgrecord.formats.issues import Severity
from bgrecord.replay import replay
from bgrecord.replay.rules import RuleSet, apply_spec, rules_for

HEAD = " {length} point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
OPENING = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"


def found(text: str, spec: str | None = None) -> list[tuple[str, str, int | None]]:
    match = read_match(text)
    issues = [i for i in match.all_issues()] + [i for g in replay(match, rules_for(match, spec)) for i in g.issues]
    return [(i.severity.value, i.code, i.line) for i in issues if i.severity is not Severity.INFO or i.category == "rules"]


def game(rows: str, length: int = 5) -> str:
    return HEAD.format(length=length) + rows


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (OPENING + "  2) 64: 24/18 13/9               Doubles => 2\n  3)  Takes\n", []),
        ("  1) 33: 8/5 8/5 6/3 6/3\n", [("error", "opening-double", 5)]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 72: 13/6\n", [("error", "bad-dice", 6)]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 64: 24/18 13/8\n", [("error", "wrong-distance", 6)]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 65: 24/18\n", [("error", "more-dice-could-be-used", 6)]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 61: 6/0 8/7\n", [("error", "cannot-bear-off-yet", 6)]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 51: 24/19 6/5\n", [("error", "closed-point", 6)]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)                             64: 24/18 13/9\n", [("error", "turn-order", 6)]),
        (OPENING + "  2) 64: Cannot Move\n", [("error", "could-move", 6)]),
        (OPENING + "  2)  Takes\n", [("error", "answer-without-double", 6)]),
        (OPENING + "  2)  Doubles => 4\n", [("error", "cube-value", 6)]),
        (OPENING + "  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9              53: 13/8 13/10\n  4)  Doubles => 4\n", [("error", "not-owner", 8)]),
        (OPENING + "  2)  Doubles => 2\n  3) 64: 24/18 13/9\n", [("error", "double-unanswered", 7)]),
        (OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n  3) 64: 24/18 13/9\n", [("error", "after-game-end", 8)]),
        (OPENING + "  2)  Doubles => 2                Drops\n      Wins 2 points\n", [("error", "result-points", 7)]),
        (OPENING + "  2)  Doubles => 2                Drops\n                                  Wins 1 point\n", [("error", "result-winner", 7)]),
        (OPENING + "  2) 64: 24/18 13/9\n      Wins 4 points\n", [("error", "resign-points", 7)]),
        (OPENING + "  2) 64: 24/18 13/9\n                                  Wins 2 points\n", []),  # Bob resigns a gammon
        (OPENING + "  2) 64:\n      Wins 1 point\n", []),  # rolled, then resigned
        (OPENING + "  2) 64:                         53: 13/8 13/10\n", [("error", "roll-without-play", 6)]),
        (OPENING + "  2)  Doubles => 2                Beavers => 4\n", [("error", "beaver-in-match", 6)]),
        ("  1)  Doubles => 2\n", [("error", "double-before-opening", 5)]),
        (OPENING + "  2) 64: 24/18* 13/9*\n", [("warning", "hit-mark", 6)]),
    ],
)
def test_checks(rows: str, expected: list[tuple[str, str, int]]) -> None:
    assert found(game(rows)) == expected


def test_the_crawford_game_and_post_crawford_games() -> None:
    text = (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n" + OPENING
        + "  2)  Doubles => 2                Drops\n      Wins 1 point\n"
        "\n Game 2\n Alice : 1                      Bob : 0\n" + OPENING
        + "  2)  Doubles => 2                Drops\n      Wins 1 point\n"
        "\n Game 3\n Alice : 2                      Bob : 0\n" + OPENING
        + "  2)  Doubles => 2\n"
    )
    games = list(replay(read_match(text)))
    assert [g.crawford for g in games] == [False, False, True]
    assert [(i.code, i.line) for i in games[2].issues] == [("crawford-double", 18), ("unfinished-game", 15)]  # the double as made
    assert ("error", "crawford-double", 18) not in found(text, "crawford=off")


def test_header_scores_follow_the_players_by_name_and_a_slip_of_the_names_is_told_apart() -> None:
    text = (
        " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n" + OPENING
        + "  2)  Doubles => 2                Drops\n      Wins 1 point\n"
        "\n Game 2\n Bob : 0                        Alice : 1\n" + OPENING
        + "  2)  Doubles => 2                Drops\n      Wins 1 point\n"  # Bob, on the left now, wins 1
        "\n Game 3\n Alice : 2                      Bob : 0\n"
    )
    # game 3's score follows the columns (the left player, Alice, won game 2): game 2's score line swapped
    # its names with their scores, a slip said there; nobody is credited wrongly, and game 3's line is right
    assert found(text) == [("warning", "names-order", 10)]
    games = list(replay(read_match(text)))
    assert games[1].game.names == ("Alice", "Bob") and games[1].score == (1, 0) and games[1].result.winner == 0  # type: ignore[union-attr]
    right = text.replace(" Alice : 2                      Bob : 0", " Alice : 1                      Bob : 1")
    assert found(right) == []  # here Bob won game 2 from the left: the columns did swap


def test_a_game_after_the_match_was_won() -> None:
    text = game(OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n", length=1)
    text += "\n Game 2\n Alice : 1                      Bob : 0\n" + OPENING
    assert ("error", "after-match", 9) in found(text)


def test_money_play_beavers_raccoons_and_jacoby() -> None:
    money = " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n" + OPENING
    beaver = money + "  2)  Doubles => 2                Beavers => 4\n  3) 64: 24/18 13/9\n"
    assert found(beaver) == [("info", "inferred-beavers", 6)]
    assert found(beaver, "beavers=on") == []
    assert found(beaver, "beavers=off") == [("error", "beaver-not-allowed", 6)]
    tagged = "; [Beaver \"Off\"]\n" + beaver
    assert [code for _, code, _ in found(tagged)] == ["beaver-not-allowed"]
    in_match = game(OPENING + "  2)  Doubles => 2                Beavers => 4\n")
    assert found(in_match) == [("error", "beaver-in-match", 6)]
    raccoon = money + "  2)  Doubles => 2                Beavers => 4\n  3)  Raccoons => 8\n  4) 64: 24/18 13/9\n"
    assert found(raccoon, "money,raccoons") == []
    bad_raccoon = money + "  2)  Doubles => 2                Raccoons => 4\n"
    assert found(bad_raccoon, "money") == [("error", "raccoon-out-of-turn", 6)]


def test_rule_presets_and_flags() -> None:
    rules, given = apply_spec(RuleSet(), "money,cube-limit=64,holland")
    assert rules.jacoby and rules.beavers and rules.cube_limit == 64 and rules.holland
    assert given == {"jacoby", "beavers", "cube_limit", "holland"}
    with pytest.raises(ValueError, match="unknown rule 'jacobi'"):
        apply_spec(RuleSet(), "jacobi=on")
    tagged = read_match("; [Jacoby \"On\"]\n; [CubeLimit \"2\"]\n 0 point match\n\n Game 1\n A : 0   B : 0\n")
    rules = rules_for(tagged)
    assert rules.jacoby and rules.cube_limit == 2 and rules.given("jacoby") and not rules.given("holland")


def test_cube_limit_holland_and_the_playroom_rule() -> None:
    limited = "; [CubeLimit \"2\"]\n" + game(OPENING + "  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9              Doubles => 4\n")
    assert found(limited) == [("error", "cube-limit", 8)]
    text = (
        " 3 point match\n\n Game 1\n Alice : 2                      Bob : 0\n" + OPENING
        + "  2) 64: 24/18 13/9\n                                  Wins 1 point\n"
        "\n Game 2\n Alice : 2                      Bob : 1\n" + OPENING
        + "  2) 64: 24/18 13/9               Doubles => 2\n"
    )
    assert found(text, "holland") == [("error", "holland", 12)]
    assert found(text) == []
    playroom = game("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                Takes\n  3) 64: 24/18 13/9              Doubles => 4\n", length=3)
    assert found(playroom, "playroom") == [("error", "match-winning-double", 7)]
    assert found(playroom) == []


def test_jacoby_inferred_from_a_money_gammon() -> None:
    """A money gammon with the cube unturned, and no tag: the Wins line tells the rule."""
    single, double = gammon_session(1), gammon_session(2)
    assert found(single) == [("info", "inferred-jacoby", single.count("\n"))]
    assert found(double) == [("info", "inferred-jacoby", double.count("\n"))]
    assert found(single, "jacoby=off") == [("error", "result-points", single.count("\n"))]
    assert found(double, "jacoby=on") == [("error", "result-points", double.count("\n"))]


def gammon_session(points: int) -> str:
    """A money game Alice wins with a gammon, Bob having borne off none (set up by XG's line)."""
    return (
        " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "; Set Pos=-------------O---------aa-/0\n"
        "  1) 21: 2/0 1/0\n"
        f"      Wins {points} point{'s' if points > 1 else ''}\n"
    )


def test_automatic_doubles_start_the_cube_higher() -> None:
    money = " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n" + OPENING
    text = money + "  2)  Doubles => 4                Drops\n      Wins 2 points\n"
    assert found(text) == [("error", "cube-value", 6)]
    assert found(text, "automatic-doubles=2") == [("info", "automatic-doubles", 6)]
    resigned = money + "  2) 64: 24/18 13/9\n      Wins 4 points\n"
    assert found(resigned, "automatic-doubles=1") == [("info", "automatic-doubles", 7)]
