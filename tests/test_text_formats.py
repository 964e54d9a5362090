"""OGID, FIBS oldmoves logs and Snowie text positions."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CORPUS, GNUBG, TOOLS
from test_replay_oracle import compare

from bgrecord import Position, read_match
from bgrecord.cli import main
from bgrecord.core.ogid import OGID, looks_like_ogid
from bgrecord.core.position import Variant
from bgrecord.replay import replay

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_ogid_of_the_starting_position_and_its_fields() -> None:
    start = OGID(Position.start(turn=0), dice=(5, 6), state="IB", length=9)
    assert str(start) == "11ccccchhhjjjjj:66666888dddddoo:N0N:56:B:IB:0:0:9:0"
    nack = OGID(Position.start(Variant.NACKGAMMON, turn=1), cube=2, cube_owner=1, state="C", score=(3, 5), length=9, move_id=1)
    assert str(nack) == "1122cccchhhjjjj:6666888ddddnnoo:B1N::W:C:3:5:9:1"
    parsed = OGID.parse("OGID=1122cccchhjjjkk:6666888ddddnnoo:B1N::W:C:3:5:9:1")
    assert parsed.position.turn == 1 and parsed.cube == 2 and parsed.cube_owner == 1 and parsed.score == (3, 5)
    assert parsed.position.sides[0][5] == 2  # White's 5 point (two checkers on pip 20)
    crawford = OGID(Position.start(), length=7, crawford=True, score=(6, 3))
    assert str(crawford).endswith(":6:3:7C:0") and OGID.parse(str(crawford)).crawford


@pytest.mark.parametrize(
    "text",
    ["", "11ccccchhhjjjjj", "zz:11:N0N", "111111111111111111:6:N0N", "11:66:N0N:77:W", "11:66:N99N", "11ccccchhhjjjjj:66666888dddddoo:N0N::W:C:0:0:99999:0",
     "11ccccchhhjjjjj:66666888dddddoo:N0N::W:Q:0:0:9:0"],
)
def test_malformed_ogids_say_why(text: str) -> None:
    with pytest.raises(ValueError):
        OGID.parse(text)


def test_every_ogid_of_the_fixtures_parses_and_writes_back_the_same() -> None:
    folder = CORPUS / "other-formats" / "ogxm"
    if not folder.exists():
        pytest.skip(f"corpus absent: {folder}")
    texts = []
    for path in folder.glob("*.expected.json"):
        document = json.loads(path.read_text())
        games = document.get("games") or []
        texts += [p[key] for g in games for p in g["plies"] for key in ("ogid_before", "ogid_after") if p.get(key)]
    assert len(texts) > 200 and all(looks_like_ogid(t) for t in texts)
    assert [str(OGID.parse(t)) for t in texts] == texts


def test_board_draws_an_ogid() -> None:
    result = CliRunner().invoke(main, ["board", "11ccccchhhjjjjj:66666888dddddoo:N0N:56:B:IB:0:0:9:0"])
    assert result.exit_code == 0 and "Position ID: 4HPwATDgc/ABMA" in result.output and "Rolled 65" in result.output
    assert "9 point match" in result.output
    bad = CliRunner().invoke(main, ["board", "11:66:N9N:::::99999"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_fibs_oldmoves_log_reads_and_replays_clean() -> None:
    match = read_match(SAMPLES / "fibs-oldmoves.txt")
    assert match.format == "fibs" and match.length == 5 and len(match.games) == 4
    assert match.games[1].names == match.games[0].names  # the sides swap between games: the names decide
    assert match.games[1].scores == (0, 2)
    games = list(replay(match))
    assert [i for g in games for i in g.issues] == []
    assert [g.result.points for g in games if g.result] == [2, 2, 2, 1]
    first, second = match.games[0].actions[:2]
    assert (first.player, first.text, [t.points for t in first.moves]) == (1, "(5 4) 13-8 24-20", [(13, 8), (24, 20)])
    assert (second.player, second.text) == (0, "(6 1) 12-18 17-18")  # X's moves, counted from the far end
    assert [t.points for t in second.moves] == [(13, 7), (8, 7)]


def test_fibs_moves_written_from_either_end_mean_the_same() -> None:
    head = "Score is 0-0 in a 3 point match.\nann is X - bob is O\n"
    for x_move in ("X: (3 1) 17-20 19-20", "X: (3 1) 8-5 6-5"):
        match = read_match(head + x_move + "\nO: (4 2) 8-4 6-4\n")
        assert [t.points for t in match.games[0].actions[0].moves] == [(8, 5), (6, 5)]
        assert not [i for g in replay(match) for i in g.issues if i.severity.value == "error"]


def test_snowie_position_file_gives_the_board_and_who_is_on_roll() -> None:
    match = read_match(SAMPLES / "snowie-position.txt")
    assert match.format == "snowie" and match.length == 7 and match.players == ("Alice", "Bob")
    game = match.games[0]
    assert game.scores == (3, 2) and (game.initial_cube, game.initial_cube_owner) == (2, 0)
    (replayed,) = replay(match)
    setup = replayed.steps[0].after
    assert setup is not None and setup.turn == 0
    assert setup.sides[0][24] == 2 and setup.sides[0][5] == 1 and setup.sides[1][25] == 1  # Alice's 24 and 5; Bob on the bar
    assert replayed.issues == []


def test_snowie_illegal_play_puts_the_next_player_on_roll_with_the_positive_counts() -> None:
    # An asymmetric board: the player to move next (left) has a checker on the bar (field 37);
    # the other side (right, whose cell it is) holds 4 on its 6 point.
    fields = ["5", "0", "0", "0", "1", "L", "R", "0", "0", "0", "1", "0", "0"]
    points = [0] * 24
    for point, count in {24: 1, 13: 5, 8: 3, 6: 5}.items():
        points[point - 1] = count
    for point, count in {24: 2, 13: 5, 8: 4, 6: 4}.items():
        points[24 - point] = -count
    setup = ";".join(fields + [str(p) for p in points] + ["1", "0", "0"]) + ";"
    text = (" 5 point match\n\n Game 1\n L : 0                      R : 0\n"
            f"  1)                             12: Illegal play ({setup})\n"
            "  2) 31: bar/22 8/7                 42: 8/4 6/4\n")  # fmt: skip
    games = list(replay(read_match(text)))
    assert [i.code for g in games for i in g.issues if i.severity.value == "error"] == []
    board = games[0].steps[0].after
    assert board is not None and board.turn == 0 and board.sides[0][25] == 1 and board.sides[1][6] == 4


def gnubg_import(kind: str, path: Path, tmp_path: Path) -> dict[str, Any]:
    """GNU Backgammon's reading of ``path`` by its ``import KIND`` command (the shared oracle
    script, with its import command changed)."""
    script = TOOLS / "gnubg-oracle.py"
    if not script.exists():
        pytest.skip(f"shared tools absent: {script}")
    changed = tmp_path / "oracle.py"
    changed.write_text(script.read_text().replace("'import mat \"%s\"'", f"'import {kind} \"%s\"'"))
    (tmp_path / "list").write_text(f"{path}\n")
    out = tmp_path / "out.jsonl"
    environment = {**os.environ, "ORACLE_IN": str(tmp_path / "list"), "ORACLE_OUT": str(out)}
    subprocess.run([str(GNUBG), "-t", "-q", "-p", str(changed)], stdin=subprocess.DEVNULL, capture_output=True, env=environment, timeout=300)
    reading: dict[str, Any] = json.loads(out.read_text().splitlines()[0])
    assert reading["ok"], reading
    return reading


def test_fibs_oldmoves_replays_as_gnubg_imports_it(gnubg: str, tmp_path: Path) -> None:
    path = SAMPLES / "fibs-oldmoves.txt"
    assert compare(path, gnubg_import("oldmoves", path, tmp_path)) > 100


def test_a_snowie_position_is_the_board_gnubg_imports(gnubg: str, tmp_path: Path) -> None:
    path = SAMPLES / "snowie-position.txt"
    reading = gnubg_import("snowietxt", path, tmp_path)
    boards = [a["board"] for a in reading["games"][0]["actions"] if a["board"]]
    (replayed,) = replay(read_match(path))
    setup = replayed.steps[0].after
    assert setup is not None and [setup.id()] == boards
    assert reading["match"]["left"] == "Alice" and (reading["games"][0]["info"]["score-X"], reading["games"][0]["info"]["score-O"]) == replayed.score
