"""Every format first-class: the same match held in two formats gives the same games rows
(but for the columns that name the source), whether the files were written by the programs
that keep them (the corpus's pairs) or by bgrecord's conversions; OGXM games from a board set
up are replayed from it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

from bgrecord import read_match
from bgrecord.core.position import Position
from bgrecord.formats.source import Input
from bgrecord.replay import replay
from bgrecord.replay.rules import rules_for
from bgrecord.tables.stats import game_rows
from bgrecord.writing.convert import ConversionRefused, converted
from bgrecord.writing.ogxm import write_stream

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PAIRS = CORPUS / "other-formats"
# The columns that name the source, and what a file claims by its own convention (a .mat caps
# the points of a match's last game at what was needed; BGBlitz and OGXM record the game's value).
SOURCE = {"file", "file_key", "duplicate_of", "recorded_points"}


def comparable(rows: list[dict[str, Any]], leave_out: set[str] = SOURCE) -> list[dict[str, Any]]:
    # BGBlitz writes the names of its .bgf files with underscores for spaces, its .mat export with spaces
    return [{key: value.replace("_", " ") if key in ("player0", "player1", "winner_name") and value else value
             for key, value in row.items() if key not in leave_out} for row in rows]  # fmt: skip


def pairs() -> list[tuple[Path, Path]]:
    """Each .mat of other-formats/mat-pairs with the other files holding its match."""
    if not PAIRS.exists():
        return []
    found = []
    for mat in sorted((PAIRS / "mat-pairs").glob("*.mat")):
        stem = re.sub(r"^.*?__(?:mat|data)__", "", mat.stem)  # the README's <stem>
        twins = [path for path in sorted(PAIRS.glob("*/*")) if path.stem.endswith(f"__{stem}") and path != mat
                 and path.suffix in (".xg", ".bgf", ".sgf", ".txt")]  # fmt: skip
        found += [(mat, twin) for twin in twins]
    return found


@pytest.mark.skipif(not PAIRS.exists(), reason=f"corpus absent: {PAIRS}")
@pytest.mark.parametrize(("mat", "twin"), pairs(), ids=[twin.name[-50:] for _, twin in pairs()])
def test_the_same_match_in_two_formats_gives_the_same_rows(mat: Path, twin: Path) -> None:
    first, second = game_rows(mat), game_rows(twin)
    assert len(first) == len(second) > 0
    assert comparable(first) == comparable(second)
    assert all(row["first_double_move"] is not None for row in second if row["doubles"])
    assert {row["match_key"] for row in first} == {row["match_key"] for row in second}


def test_the_corpus_has_pairs_of_every_binary_format() -> None:
    if not PAIRS.exists():
        pytest.skip(f"corpus absent: {PAIRS}")
    assert {twin.suffix for _, twin in pairs()} == {".xg", ".bgf", ".sgf", ".txt"} and len(pairs()) >= 18


@pytest.mark.parametrize("target", ["mat", "sgf", "json", "ogxms"])
def test_a_conversion_gives_the_same_rows(target: str) -> None:
    """Every sample converted, and its conversion, give the same games rows (a .gam's length,
    which it does not say, is written 0; a file's warnings are its notation's)."""
    compared = 0
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix not in (".mat", ".txt", ".gam", ".sgf"):
            continue
        try:
            content, errors = converted(path, target)
        except ConversionRefused:
            continue  # what the target cannot hold (tests/test_writers.py says which)
        data = write_stream(content) if isinstance(content, list) else content if isinstance(content, bytes) else content.encode()
        leave_out = SOURCE | {"warnings"} | ({"match_length"} if path.suffix == ".gam" else set())
        assert comparable(game_rows(Input(f"{path.name}.{target}", data=data)), leave_out) == comparable(game_rows(path), leave_out), path
        compared += 1
    assert compared >= 15


def test_first_double_move_is_the_row_of_the_mat_layout() -> None:
    rows = game_rows(SAMPLES / "gnubg-5pt-crawford.sgf")
    matched = game_rows(SAMPLES / "gnubg-5pt-crawford.mat")
    assert [row["first_double_move"] for row in rows] == [row["first_double_move"] for row in matched]
    assert any(row["first_double_move"] for row in rows)


def ogxm_from(board: list[int], first: int) -> bytes:
    """An OGXM match whose one game starts from ``board`` (26 signed counts), White (colour 1)
    or Black (0) to move first, then plays one roll."""
    import ogxm

    plies = [{"action_id": 11, "color": first, "d1": 3, "d2": 3, "moves": []}]  # 33, no steps: the replay says whether that is a dance
    doc = {"match_length": 0, "player_white": "W", "player_black": "B", "games": [
        {"plies": plies, "winner": 255, "initial_board": board, "is_default_board": False, "first_to_move": first}]}  # fmt: skip
    assert ogxm.v2_problem(doc) is None
    return bytes(ogxm.json_to_binary(doc))


def test_an_ogxm_game_from_a_board_set_up_is_replayed_from_it() -> None:
    # White: 2 on its bar, 13 borne off; Black: a closed board (points 1-6, two each) and 3 more on 13
    board = [2] + [0] * 24 + [0]
    for point in range(1, 7):
        board[point] = -2
    board[13] = -3
    match = read_match(ogxm_from(board, 1))
    (played,) = replay(match, rules_for(match))
    assert [step.kind for step in played.steps] == ["setup", "move"]
    start = played.steps[0].after
    assert start is not None and start.sides[0][25] == 2 and start.sides[1][1:7] == (2,) * 6
    # White on the bar against a closed board: the 33 is a dance, not an error
    assert not [i for i in played.issues if i.severity.value == "error"], [str(i) for i in played.issues]
    assert played.steps[1].play is not None and not played.steps[1].play.play.moves


def test_a_game_from_a_board_set_up_converts_to_ogxm_and_back() -> None:
    # the standard start but for one of White's back checkers, a point further: White to roll
    white = "".join(f"[{letter}]" for letter in "xw" + "f" * 5 + "h" * 3 + "m" * 5)
    black = "".join(f"[{letter}]" for letter in "aa" + "lllll" + "qqq" + "sssss")
    text = f"(;FF[4]GM[6]MI[length:0]PW[a]PB[b]\n;AE[a:y]AW{white}AB{black}PL[W]\n;W[31hefe]\n;B[42qusu])\n"
    (first,) = replay(read_match(Input.text(text)))
    content, errors = converted(Input.text(text), "ogxm")
    assert not errors and isinstance(content, bytes)
    (again,) = replay(read_match(content))
    assert [step.kind for step in again.steps] == [step.kind for step in first.steps] == ["setup", "move", "move"]
    assert again.steps[0].after is not None and first.steps[0].after is not None
    assert again.steps[0].after.sides == first.steps[0].after.sides != Position.start().sides
    assert [s.after.sides for s in again.steps if s.after] == [s.after.sides for s in first.steps if s.after]
    assert not [i for i in again.issues if i.severity.value == "error"]


def test_bgrecord_json_damaged_reads_without_failing() -> None:
    """A JSON file with values of the wrong type, out of range or missing: issues, never a
    failure of bgrecord (no `internal` issue)."""
    import json
    import random

    from bgrecord.replay.validate import validate_file

    rng = random.Random(22)
    values = [None, 1, -5, 10**30, "x", [], {}, [1], [7, 7], "XGID=zz", True, 1.5, "24/18*", "25/0 a/b", [[1, 2]], {"a": 1}]
    text, _ = converted(SAMPLES / "gnubg-money-beaver-raccoon.mat", "json")
    assert isinstance(text, str)
    for _ in range(200):
        document = json.loads(text)
        game = rng.choice(document["games"])
        step = rng.choice(game["steps"])
        key = rng.choice([*step, "result", "names", "score", "steps", "number", "tags", "comments", "length", "games"])
        target = step if key in step else game if key in game else document
        target[key] = rng.choice(values)
        report = validate_file(Input("damaged.json", data=json.dumps(document).encode()))
        assert not report.internal and report.failure is None, [str(issue) for issue in report.issues]
