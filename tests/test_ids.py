"""Position ID, Match ID and XGID against the test vectors of match-formats.md §4."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgrecord import XGID, GameState, MatchState, Position
from bgrecord.core.position_id import decode_position_id, encode_position_id

START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def side(layout: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 26
    for point, count in layout.items():
        counts[point] = count
    counts[0] = 15 - sum(counts)
    return tuple(counts)


@pytest.mark.parametrize(
    ("not_on_roll", "on_roll", "expected"),
    [
        (START, START, "4HPwATDgc/ABMA"),
        # after the opening 31 8/5 6/5, opponent on roll; then the same board, mover on roll
        (side({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}), START, "sGfwATDgc/ABMA"),
        (START, side({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}), "4HPwATCwZ/ABMA"),
        (START, side({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}), "4HPwATDgc/ABUA"),
        (side({1: 15}), side({1: 15}), "/38AAAD/fwAAAA"),
        (side({}), side({}), "AAAAAAAAAAAAAA"),
    ],
)
def test_position_id_vectors(not_on_roll: tuple[int, ...], on_roll: tuple[int, ...], expected: str) -> None:
    assert encode_position_id(not_on_roll, on_roll) == expected
    assert decode_position_id(expected) == (not_on_roll, on_roll)


def test_position_from_id_and_repr() -> None:
    start = Position.start()
    assert start.id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == start
    for position in (start, Position.from_id("4HPwATCwZ/ABMA", turn=1)):
        assert eval(repr(position), {"Position": Position}) == position


@pytest.mark.parametrize(
    ("match_id", "fields"),
    [
        ("cInqAAAAAAAE", dict(length=7, player=1, turn=1, dice=(5, 2))),
        ("QYkqASAAIAAE", dict(length=9, score=(2, 4), cube=2, cube_owner=0, player=1, turn=1, dice=(5, 2))),
        ("sAGgAEAAEAAE", dict(length=5, score=(4, 2), crawford=True)),
        ("MBngADAAGAAE", dict(length=7, score=(3, 3), turn=1, doubled=True)),
        ("MIEFAAAAAAAA", dict(dice=(3, 1), jacoby=True)),
        ("MIEFAAAAAAAE", dict(dice=(3, 1))),
        ("EkngABAAKAAE", dict(length=7, score=(1, 5), cube=4, cube_owner=1, turn=1, resignation=2)),
        ("cAkAAAAAAAAE", dict(player=1, turn=1)),
    ],
)
def test_match_id_vectors(match_id: str, fields: dict[str, object]) -> None:
    state = MatchState(**fields)  # type: ignore[arg-type]
    assert state.id() == match_id
    assert MatchState.from_id(match_id) == state


def test_match_id_dice_either_way_round() -> None:
    state = MatchState(length=9, score=(2, 4), cube=2, cube_owner=0, player=1, turn=1, dice=(2, 5))
    assert state.id() == "QYkqASAAIAAE"


@pytest.mark.parametrize(
    ("xgid", "gnubg"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAE"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAA"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "4HPwATDgc/ABMA:cInqAAAAAAAE"),
        ("XGID=---ABBA------------bbaa---:1:1:1:00:4:3:0:9:10", "1AYAANoCAAAAAA:UQkgATAAIAAE"),
        ("XGID=--aaB-C-C-ABdB---bbe---AA-:0:0:1:00:6:9:0:11:10", "4NvgARSYc5oBKA:cAlgAZAAMAAE"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10", "4HPwATDgc/ABMA:8AmgACAAIAAE"),
        ("XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8", "jM/gDQDYzeAJIA:EQFvAAAAAAAE"),
    ],
)
def test_xgid_vectors(xgid: str, gnubg: str) -> None:
    parsed = XGID.parse(xgid)
    assert parsed.gnubg_id() == gnubg
    assert str(parsed) == xgid


def test_xgid_pending_double_and_money_rules() -> None:
    parsed = XGID.parse("XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:3:0:10")
    assert parsed.match.doubled and parsed.match.player == 1 and parsed.match.turn == 0
    assert parsed.match.dice == (0, 0) and parsed.match.jacoby and parsed.beaver
    assert str(parsed) == "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:3:0:10"
    assert XGID.from_gnubg(parsed.position, parsed.match, beaver=True) == parsed


@pytest.mark.parametrize(
    "bad",
    ["4HPwATDgc/ABM", "4HPwATDgc/AB!A", "4HPwATDgc/ABMB", "//////////////", "/38AAAD/fwAAAA" + "A"],
)
def test_bad_position_ids_raise_value_error(bad: str) -> None:
    with pytest.raises(ValueError, match="Position ID|stray bits|checkers"):
        Position.from_id(bad)


def test_position_id_with_a_shared_point_is_refused() -> None:
    both_on_point = encode_position_id(side({1: 1}), side({24: 1}))  # each side's ace is the other's 24
    with pytest.raises(ValueError, match="both sides"):
        Position.from_id(both_on_point)


@pytest.mark.parametrize("bad", ["XGID=abc", "XGID=-b----E-C---eE---c-e----B-:0:0:1:7x:0:0:0:0:10", "cAkAAAAAAAA"])
def test_bad_xgid_and_match_id(bad: str) -> None:
    with pytest.raises(ValueError):
        XGID.parse(bad) if "XGID" in bad else MatchState.from_id(bad)


match_states = st.builds(
    MatchState,
    cube=st.sampled_from([1 << k for k in range(16)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    player=st.integers(0, 1),
    crawford=st.booleans(),
    state=st.sampled_from(list(GameState)),
    turn=st.integers(0, 1),
    doubled=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.tuples(st.integers(0, 6), st.integers(0, 6)).map(lambda d: (max(d), min(d))),
    length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)


@given(match_states)
def test_match_id_round_trip(state: MatchState) -> None:
    assert MatchState.from_id(state.id()) == state
