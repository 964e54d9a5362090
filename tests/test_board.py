"""The ASCII board: GNU Backgammon's layout, checked against gnubg's own ``show board``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from bgrecord import MatchState, Position
from bgrecord.show.board import ascii_board

START_BOARD = """\
 GNU Backgammon  Position ID: 4HPwATDgc/ABMA
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O:
 | X           O    |   | O              X |
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
v|                  |BAR|                  |     (Cube: 1)
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |     On roll
 | O           X    |   | X              O |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X:
 Pip count  O: 167  X: 167
"""


def test_start_board() -> None:
    assert ascii_board(Position.start(turn=1)) == START_BOARD
    assert str(Position.start(turn=1)) == START_BOARD


def test_stacks_bar_tray_and_match_text() -> None:
    position = Position.from_layout({25: 2, 6: 7, 1: 6}, {1: 8, 2: 1}, turn=1)
    match = MatchState(length=7, score=(3, 1), cube=2, cube_owner=0, player=1, turn=1, dice=(6, 4))
    lines = ascii_board(position, match, ("alice", "bob")).splitlines()
    assert lines[1] == "                 Match ID   : " + match.id()
    assert lines[2].endswith("O: alice (Cube: 2)") and lines[-2].endswith("X: bob")
    assert lines[3].endswith("| OO  3 points")  # six borne off: five and one
    assert lines[8] == "v|                  |BAR|                  |     7 point match"
    assert lines[9] == " |                  |   | 7              6 |"  # stacks of more than five
    assert lines[12] == " |                  | X | X              X |     Rolled 64"  # two on the bar
    assert lines[13].endswith("| X | X              X |     1 points")
    assert lines[-1] == f" Pip count  O: {position.pips()[0]}  X: {position.pips()[1]}"


def gnubg_boards(gnubg: str, positions: list[Position]) -> dict[str, list[str]]:
    """gnubg's ``show board`` for each position, keyed by Position ID: the board lines only."""
    commands = ["new game"]
    for position in positions:
        match = MatchState(length=7, player=position.turn, turn=position.turn)
        commands += [f"set gnubgid {position.id()}:{match.id()}", "show board"]
    commands += ["quit", "y"]
    run = subprocess.run(
        [gnubg, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=120
    )
    # gnubg redraws while it sets the board and the match: take the board drawn right
    # after it says "Setting GNUbg ID", which shows the state set.
    boards: dict[str, list[str]] = {}
    lines = run.stdout.splitlines()
    setting = None
    for index, line in enumerate(lines):
        if line.startswith("Setting GNUbg ID "):
            setting = line.split()[-1].split(":")[0]
        elif line.startswith(" GNU Backgammon  Position ID: ") and setting:
            assert line.split()[-1] == setting
            boards[setting], setting = lines[index + 2 : index + 15], None
    return boards


def test_board_matches_gnubg(gnubg: str) -> None:
    rows = [json.loads(line) for line in (Path(__file__).parent / "data" / "perft.jsonl").open()]
    ids = sorted({row["position_id"] for row in rows})[::4]
    positions = [Position.from_id(pid, turn=i % 2) for i, pid in enumerate(ids)]
    expected = gnubg_boards(gnubg, positions)
    assert len(positions) >= 40
    for position in positions:
        ours = ascii_board(position, MatchState(length=7)).splitlines()[2:15]
        theirs = expected[position.id()]
        assert [line[:49].rstrip() for line in ours] == [line[:49].rstrip() for line in theirs], position
