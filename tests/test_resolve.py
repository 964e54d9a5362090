"""Notation meets the rules: ``resolve`` reads a written play as the legal play it means."""

from __future__ import annotations

import pytest

from bgrecord import Illegal, Position
from bgrecord.formats.mat_grammar import moves_of
from bgrecord.replay.resolve import Resolution, marked_hits, resolve

START = Position.start()
# O on roll, 13/6 with 6-1: through 7 (an X blot, a hit) or through 12 (open, no hit)
ONE_BLOT = Position.from_layout({13: 2, 6: 13}, {18: 1, 24: 14})
# the same with an X blot on 12 too: both paths hit
TWO_BLOTS = Position.from_layout({13: 2, 6: 13}, {18: 1, 13: 1, 24: 13})
# O has a checker on the bar
ON_BAR = Position.from_layout({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})


def read(position: Position, dice: tuple[int, int], written: str) -> Resolution:
    return resolve(position, dice, moves_of(written))


@pytest.mark.parametrize(
    ("position", "dice", "written", "meant"),
    [
        (START, (3, 1), "8/5 6/5", "8/5 6/5"),  # as written
        (START, (3, 1), "6/5 8/5", "8/5 6/5"),  # written in bgrecord's notation: the highest source first
        (START, (3, 1), "13/9", "13/10 10/9"),  # one checker, both dice
        (START, (6, 5), "24/13", "24/18 18/13"),
        (START, (3, 3), "8/5(2) 6/3(2)", "8/5 8/5 6/3 6/3"),  # repeats
        (ON_BAR, (6, 3), "24/18 bar/22", "bar/22 24/18"),  # the order that works
        (ONE_BLOT, (6, 1), "13/6", "13/12 12/6"),  # no hit mark: the path that does not hit
        (ONE_BLOT, (6, 1), "13/7*/6", "13/7* 7/6"),  # a chain says the path
    ],
)
def test_a_written_play_is_read_as_the_legal_play_it_means(position: Position, dice: tuple[int, int], written: str, meant: str) -> None:
    resolution = read(position, dice, written)
    assert resolution.play is not None and str(resolution.play) == meant
    assert resolution.error is None and not resolution.ambiguous and resolution.hints == ()


def test_paths_the_marks_cannot_tell_apart_are_ambiguous() -> None:
    for written in ("13/6", "13/6*"):  # both paths hit, neither on 6
        resolution = read(TWO_BLOTS, (6, 1), written)
        assert resolution.ambiguous and resolution.play is not None and str(resolution.play) == "13/7* 7/6"


def test_an_illegal_play_gets_the_reason_and_the_nearest_legal_plays() -> None:
    resolution = read(START, (3, 1), "13/8")
    assert resolution.play is None and resolution.error is not None
    assert resolution.error.reason is Illegal.WRONG_DISTANCE
    assert [str(hint) for hint in resolution.hints] == ["13/10 10/9", "24/23 13/10", "13/10 6/5"]


def test_a_partial_play_when_more_could_be_played() -> None:
    resolution = read(ONE_BLOT, (6, 1), "13/7*")
    assert resolution.play is None and resolution.error is not None
    assert resolution.error.reason is Illegal.MORE_DICE_COULD_BE_USED
    assert "13/7* 7/6" in [str(hint) for hint in resolution.hints]


def test_marked_hits_are_the_points_written_with_a_star() -> None:
    assert marked_hits(moves_of("13/7*/4 24/23*")) == {7, 23}
    assert marked_hits(moves_of("8/5(2)")) == set()
    assert marked_hits(list(moves_of("bar/22*"))) == {22}  # any sequence, not only the reader's tuple


def test_the_same_written_moves_read_the_same_every_time() -> None:
    moves = moves_of("13/9")
    first, again = resolve(START, (3, 1), moves), resolve(START, (3, 1), moves)
    assert first == again and first.play is not None and str(first.play) == "13/10 10/9"
