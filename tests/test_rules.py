"""The rules core: each rule, each reason for an illegal play, and game results."""

from __future__ import annotations

import pytest

from bgrecord import Illegal, IllegalPlayError, Move, Outcome, Play, Position, Variant


def play(*pairs: tuple[int, int]) -> Play:
    return Play.from_pairs(pairs)


def reason(position: Position, dice: tuple[int, int], the_play: Play) -> Illegal | None:
    error = position.play_error(dice, the_play)
    return error.reason if error else None


START = Position.start()
# O on roll with one checker on 20; the opponent holds O's 9 point (its own 16): either die
# can be played, not both.
ONE_DIE_ONLY = Position.from_layout({20: 1, 1: 14}, {16: 2, 24: 13})


@pytest.mark.parametrize(
    ("position", "dice", "the_play", "expected"),
    [
        (START, (3, 1), play((8, 5), (6, 5)), None),
        (START, (3, 1), play((6, 5), (8, 5)), None),
        (START, (6, 5), play((18, 13), (24, 18)), None),  # order of the moves is free
        (START, (0, 3), play((8, 5)), Illegal.BAD_DICE),
        (START, (7, 1), play((8, 1)), Illegal.BAD_DICE),
        (START, (3, 1), play((5, 8)), Illegal.BAD_POINTS),
        (START, (3, 1), play((26, 23)), Illegal.BAD_POINTS),
        (START, (3, 1), play((8, 5), (6, 5), (6, 5)), Illegal.TOO_MANY_MOVES),
        (START, (3, 1), play((13, 9)), Illegal.WRONG_DISTANCE),
        (START, (3, 1), play((8, 5), (8, 5)), Illegal.WRONG_DISTANCE),
        (START, (3, 1), play((12, 9), (6, 5)), Illegal.NO_CHECKER),
        (START, (5, 1), play((24, 19), (6, 5)), Illegal.CLOSED_POINT),
        # the intermediate point of one checker moved by both dice must be open
        (START, (6, 5), play((24, 19), (19, 13)), Illegal.CLOSED_POINT),
        (START, (6, 1), play((6, 0), (8, 7)), Illegal.CANNOT_BEAR_OFF_YET),
        (START, (6, 5), play((24, 18)), Illegal.MORE_DICE_COULD_BE_USED),
        (START, (6, 5), play(), Illegal.MORE_DICE_COULD_BE_USED),
        (ONE_DIE_ONLY, (6, 5), play((20, 14)), None),
        (ONE_DIE_ONLY, (6, 5), play((20, 15)), Illegal.LARGER_DIE_COULD_BE_USED),
        (ONE_DIE_ONLY, (6, 5), play(), Illegal.MORE_DICE_COULD_BE_USED),
    ],
)
def test_play_reasons(position: Position, dice: tuple[int, int], the_play: Play, expected: Illegal | None) -> None:
    assert reason(position, dice, the_play) == expected


def test_error_names_the_move_and_its_index() -> None:
    error = START.play_error((3, 1), play((8, 5), (13, 9)))
    assert error is not None
    assert (error.reason, error.move_index, error.move) == (Illegal.WRONG_DISTANCE, 1, Move(13, 9))
    assert error.message == "13/9: the distance matches no unused die"


def test_bar_must_enter_first_and_a_closed_board_loses_the_roll() -> None:
    on_bar = Position.from_layout({25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 24: 5})
    assert reason(on_bar, (3, 1), play((13, 10), (13, 12))) == Illegal.MUST_ENTER_FIRST
    assert reason(on_bar, (6, 1), play((25, 19), (13, 12))) == Illegal.CLOSED_POINT
    assert {str(p) for p in on_bar.legal_plays((6, 1))} == {"bar/24 24/18", "bar/24 13/7"}
    closed = Position.from_layout({25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: 3})
    for dice in [(6, 1), (3, 3), (5, 2)]:
        legal = closed.legal_plays(dice)
        assert len(legal) == 1 and legal[0].play == play()
        assert reason(closed, dice, play()) is None
        assert legal[0].position == closed.swap_turn()


def test_entering_with_both_dice_before_other_moves() -> None:
    two_on_bar = Position.from_layout({25: 2, 13: 13}, {24: 15})
    assert reason(two_on_bar, (4, 3), play((25, 21), (13, 10))) == Illegal.MUST_ENTER_FIRST
    assert reason(two_on_bar, (4, 3), play((25, 21), (25, 22))) is None


def test_bear_off_exact_overage_and_highest_point() -> None:
    home = Position.from_layout({5: 1, 3: 1}, {12: 15})
    assert reason(home, (6, 6), play((3, 0))) == Illegal.OVERAGE_NOT_FROM_HIGHEST
    assert reason(home, (6, 4), play((3, 0))) == Illegal.OVERAGE_NOT_FROM_HIGHEST
    assert reason(home, (6, 4), play((5, 0), (3, 0))) is None
    assert reason(home, (6, 4), play((3, 0), (5, 1))) is None  # legal in the other order
    assert reason(home, (2, 1), play((5, 3), (3, 2))) is None
    assert reason(home, (2, 1), play((3, 1), (1, 0))) is None
    assert reason(home, (4, 1), play((5, 1), (1, 0))) is None


def test_a_checker_hit_during_the_bear_off_must_come_home_first() -> None:
    hit = Position.from_layout({25: 1, 1: 13}, {1: 2})
    assert reason(hit, (6, 1), play((25, 19), (1, 0))) == Illegal.CANNOT_BEAR_OFF_YET
    assert [str(p) for p in hit.legal_plays((6, 1))] == ["bar/19 19/18"]  # its ace point is our 24


def test_hits_send_a_blot_to_the_bar() -> None:
    target = Position.from_layout({13: 15}, {17: 1, 12: 14})  # its 17 is our 8
    after_hit = target.play(play((13, 8), (8, 6)), dice=(5, 2))
    assert after_hit.sides[1][25] == 1 and after_hit.sides[1][17] == 0 and after_hit.turn == 1
    chosen = next(p for p in target.legal_plays((5, 2)) if p.play == play((13, 8), (8, 6)))
    assert chosen.hits == (True, False) and str(chosen) == "13/8* 8/6"
    passing = next(p for p in target.legal_plays((5, 2)) if p.play == play((13, 11), (11, 6)))
    assert passing.hits == (False, False) and passing.position.sides[1][17] == 1


def test_doubles_give_four_moves_and_fewer_only_when_forced() -> None:
    assert reason(START, (6, 6), play((24, 18), (24, 18), (13, 7), (13, 7))) is None
    assert reason(START, (6, 6), play((24, 18), (24, 18), (13, 7))) == Illegal.MORE_DICE_COULD_BE_USED
    blocked = Position.from_layout({24: 1, 13: 1, 6: 13}, {7: 2, 12: 13})  # our 18 is its 7: closed
    assert [str(p) for p in blocked.legal_plays((6, 6))] == ["13/7 7/1"]
    assert reason(blocked, (6, 6), play((13, 7), (7, 1))) is None
    assert reason(blocked, (6, 6), play((13, 7))) == Illegal.MORE_DICE_COULD_BE_USED
    assert reason(blocked, (6, 6), play((6, 0))) == Illegal.CANNOT_BEAR_OFF_YET


def test_the_game_may_end_mid_turn() -> None:
    last_two = Position.from_layout({4: 1, 1: 1}, {12: 15})
    assert reason(last_two, (2, 2), play((4, 2), (2, 0), (1, 0))) is None
    last_one = Position.from_layout({3: 1}, {12: 15})
    assert reason(last_one, (4, 1), play((3, 0))) is None
    assert [str(p) for p in last_one.legal_plays((4, 1))] in (["3/off"], ["3/2 2/off"])
    assert last_one.play(play((3, 0)), dice=(4, 1)).outcome() == Outcome(0, 2)


def test_play_raises_with_the_reason() -> None:
    with pytest.raises(IllegalPlayError) as info:
        START.play(play((13, 9)), dice=(3, 1))
    assert info.value.error.reason == Illegal.WRONG_DISTANCE
    with pytest.raises(IllegalPlayError):
        START.play(play((24, 19)))  # no dice: still a closed point
    assert START.play(play((8, 5), (6, 5))).id() == "sGfwATDgc/ABMA"


@pytest.mark.parametrize(
    ("winner", "loser", "kind"),
    [
        ({}, {1: 5}, 1),
        ({}, {1: 5, 6: 10}, 2),
        ({}, {20: 1, 1: 14}, 3),
        ({}, {25: 1, 1: 14}, 3),
        ({}, {20: 1, 1: 13}, 1),  # a borne-off checker saves the backgammon
    ],
)
def test_outcomes(winner: dict[int, int], loser: dict[int, int], kind: int) -> None:
    assert Position.from_layout(winner, loser).outcome() == Outcome(0, kind)
    assert Position.from_layout(winner, loser, turn=1).outcome() == Outcome(1, kind)


def test_playroom_backgammon_counts_despite_borne_off_checkers() -> None:
    position = Position.from_layout({}, {20: 1, 1: 13})
    assert position.outcome(backgammon_despite_borne_off=True) == Outcome(0, 3)
    assert Position.start().outcome() is None


def test_starting_layouts() -> None:
    assert Position.start().pips() == (167, 167)
    nack = Position.start(Variant.NACKGAMMON)
    assert nack.pips() == (2 * 24 + 2 * 23 + 4 * 13 + 3 * 8 + 4 * 6,) * 2
    assert nack.is_valid()


def test_a_hit_in_passing_is_another_play() -> None:
    # the same checker from 13 to 6 with 6-1: through 7 it hits the blot there, through 12 it does not
    position = Position.from_layout({13: 1, 1: 14}, {18: 1, 24: 14})
    plays = {str(legal): legal for legal in position.legal_plays((6, 1))}
    assert {"13/7* 7/6", "13/12 12/6"} <= set(plays)
    hit, quiet = plays["13/7* 7/6"], plays["13/12 12/6"]
    assert hit.position.on_roll[25] == 1 and quiet.position.on_roll[25] == 0  # the opponent, now on roll
    assert hit.position != quiet.position and hit.position.opponent == quiet.position.opponent


def test_a_legal_play_builds_its_position_when_read_and_reads_back_from_its_repr() -> None:
    from bgrecord import LegalPlay  # noqa: F401  (the repr names it)

    for legal in START.legal_plays((6, 4)):
        assert legal.position == START.play(legal.play, (6, 4))
        again = eval(repr(legal))
        assert again == legal and hash(again) == hash(legal) and str(again) == str(legal)
        the_play, where, hits = legal
        assert (the_play, where, hits) == (legal.play, legal.position, legal.hits)
    with pytest.raises(ValueError):
        LegalPlay(None, None, ())
    with pytest.raises(ValueError):  # a play alone cannot say where it leads
        LegalPlay(Play.from_pairs([(8, 5), (6, 5)]), None, (False, False))
