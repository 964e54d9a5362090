"""The replay tells the whole truth in words: defects at their steps, the rest of the record as
written, the cube on the boards, the match's end, the board and one point in words, and the
viewer's answers in every state."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from bgrecord import Position
from bgrecord.cli import main
from bgrecord.show.steps import step_records
from bgrecord.show.viewer import HELP, KEYS, Viewer, key_name
from bgrecord.show.words import board_words, dice_words, point_words

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
ILLEGAL = (
    " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2) 64: 24/18 13/8              15: 13/8 6/5\n"  # 13/8 is a 5, not a 6 or a 4
    "  3) 21: 13/11 6/5\n"
    "      Wins 1 point\n"
    "\n Game 2\n Alice : 1                      Bob : 0\n"
    "  1) 31: 8/5 6/5                 Doubles => 2\n"  # Bob doubles before his first roll: fine in game 2
)


def replay_text(text: str, *options: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["replay", "-", *options], input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_an_illegal_play_is_said_at_its_step_and_the_rest_is_given_as_written() -> None:
    code, out = replay_text(ILLEGAL, "--no-board")
    lines = out.splitlines()
    at = lines.index("Game 1, move 2: Alice rolls 6-4 and plays 24/18 13/8, as written (not checked).")
    assert lines[at + 1].startswith(" Error, wrong-distance: 13/8: the distance matches no unused die") and "did you mean" in lines[at + 1]
    assert lines[at + 1].endswith("?") and lines[at + 2] == " Info, not-checked: the rest of this game is not checked."  # as the viewer says them
    assert lines[at + 3] == "Game 1, move 2: Bob rolls 5-1 and plays 13/8 6/5, as written (not checked)."
    assert lines[at + 4] == "Game 1, move 3: Alice rolls 2-1 and plays 13/11 6/5, as written (not checked)."
    assert lines[at + 5] == "Game 1: Alice: Wins 1 point, as written."
    assert "Game 2 of a 3 point match: Alice 1, Bob 0." in lines and code == 1


def test_defects_reach_programs_and_the_viewer_too() -> None:
    records = list(step_records(ILLEGAL))
    wrong = next(r for r in records if any(i.code == "wrong-distance" for i in r.issues))
    assert wrong.to_json()["checked"] is False and wrong.to_json()["issues"][0]["code"] == "wrong-distance"
    said: list[str] = []
    viewer = Viewer(records, said.append, lambda prompt: "")
    viewer.start()
    assert said[-1].startswith("8 steps in 2 games. The record has 1 error: E goes to each.")
    viewer.handle("e")
    assert said[-1].startswith("Game 1, move 2: Alice rolls 6-4 and plays 24/18 13/8, as written (not checked). Error, wrong-distance: 13/8")
    viewer.handle("t")
    assert said[-1] == "Not known: the replay could not follow the record here."
    viewer.handle("w")
    assert said[-1] == "No board here: the replay could not follow the record."


def test_the_boards_show_the_cube_as_it_stands() -> None:
    code, out = replay_text((SAMPLES / "xg-tags-bom-crlf.mat").read_text(encoding="utf-8-sig"))
    after_take = out[out.index("Jake Jacobs takes: the cube is at 2.") :]
    assert code == 0 and "O: Jake Jacobs (Cube: 2)" in after_take[: after_take.index("Pip count")]


def test_the_match_end_and_a_second_match_are_announced() -> None:
    two = (SAMPLES / "bbgt-two-matches.mat").read_text(encoding="utf-8")
    code, out = replay_text(two, "--no-board")
    assert code == 0 and "Alice wins the match 1-0." in out
    assert "Match 2, game 1 of a 1 point match:" in out and "Game 2 of a 1 point match" not in out


def test_the_board_and_one_point_in_words() -> None:
    start = Position.start()
    names = ("Alice", "Bob")
    assert board_words(start, names) == (
        "Points from Alice's side. Alice: 2 on the 24 point, 5 on the 13, 3 on the 8, 5 on the 6. "
        "Bob: 5 on the 19 point, 3 on the 17, 5 on the 12, 2 on the 1."
    )
    moved = Position.from_layout({25: 1, 6: 4, 1: 2}, {24: 2, 3: 1}, turn=1)  # Bob on roll; Alice's 24 and 3 points
    assert board_words(moved, names) == ("Points from Bob's side. Bob: 4 on the 6 point, 2 on the 1, 1 on the bar, 8 borne off. "
                                         "Alice: 1 on the 22 point, 2 on the 1, 12 borne off.")  # fmt: skip
    assert board_words(moved, names, viewpoint=0).startswith("Points from Alice's side. Alice: 2 on the 24 point, 1 on the 3, 12 borne off.")
    assert point_words(start, names, 13) == "The 13 point: 5 checkers of Alice."
    assert point_words(start, names, 12) == "The 12 point: 5 checkers of Bob."
    assert point_words(start, names, 7) == "The 7 point is empty."
    assert point_words(moved, names, "bar") == "The bar: 1 checker of Bob."
    assert dice_words((1, 5)) == dice_words((5, 1)) == "5-1"


def test_text_boards_in_words_for_a_screen_reader() -> None:
    code, out = replay_text(OPENING_ONLY, "--board", "words")
    assert code == 0 and " Points from Bob's side. Bob: 2 on the 24 point" in out and "GNU Backgammon" not in out


OPENING_ONLY = " 1 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5\n"


def test_every_key_is_in_the_help_and_escape_sequences_are_keys() -> None:
    assert all(name in HELP for _, name, _ in KEYS)
    assert [key_name(k) for k in ("\x1b[C", "\x1bOD", "\x1b[1~", "\x1b[F", "\x1b[B", "\x04", "\x03", "Q", "\r", "\x1b[99~")] == [
        "enter", "back", "home", "end", "down", "ctrl-d", "q", "q", "enter", ""]  # fmt: skip


def test_a_matchs_header_issues_are_said_with_its_own_first_game() -> None:
    game = " Game 1\n {a} : 0                      {b} : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n      Wins 1 point\n"
    text = "Some free text\n 1 point match\n\n" + game.format(a="A", b="B") + "\n 1 point match\n\n" + game.format(a="C", b="D")
    records = list(step_records(text))
    said = [(r.match, i.code) for r in records for i in r.issues]
    assert said == [(1, "text-before-header")]
