"""`bgrecord replay`: JSON lines whose IDs are GNU Backgammon's, text, the keyboard viewer
through a pseudo-terminal, the HTML page in headless Chromium, and the SVG board."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, DATA, launch_chromium, needs_chromium, oracle_matches

from bgrecord import MatchState, Play, Position
from bgrecord.cli import main
from bgrecord.show.steps import step_records
from bgrecord.show.svg import board
from bgrecord.show.words import board_words

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
XG = SAMPLES / "xg-tags-bom-crlf.mat"


def test_jsonl_ids_equal_gnubg_boards_on_the_selfplay_corpus() -> None:
    compared = 0
    for oracle in oracle_matches():
        records = [r.to_json() for r in step_records(CORPUS / "gnubg-selfplay" / oracle["file"])]
        ours = [(r["game"], r["action"], r["player"], r["position_id"]) for r in records if r["action"] in ("move", "double")]
        theirs = [
            (index, a["action"], a["player"], a["board"])
            for index, game in enumerate(oracle["games"], 1)
            for a in game["actions"]
            if a["action"] in ("move", "double")
        ]
        assert ours == theirs, oracle["file"]
        compared += len(ours)
    assert compared > 12000


def test_jsonl_schema() -> None:
    result = CliRunner().invoke(main, ["replay", str(XG), "--format", "jsonl", "--game", "1"])
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 0 and len(lines) == 13
    first = lines[0]
    assert set(first) == {"path", "match", "game", "move", "line", "player", "name", "action", "dice", "play", "position_id",
                          "match_id", "xgid", "ogid", "pips", "cube", "cube_owner", "score", "checked", "issues"}  # fmt: skip
    assert first["checked"] is True and first["issues"] == [] and first["match"] == 1
    assert first["ogid"] == "11ccccchhhjjjjj:66666888dddddoo:N0N:14:B:IB:0:0:5:0" and first["path"] == str(XG)
    assert (first["position_id"], first["play"], first["pips"], first["name"]) == ("4HPwATDgc/ABMA", "24/23 13/9", [167, 167], "Jake Jacobs")
    assert [line["action"] for line in lines].count("double") == 2 and lines[-1]["action"] == "win"
    assert lines[3]["play"] == "bar/23 23/21* 6/4 6/4" and lines[4]["play"] == ""  # a hit from the bar; a dance
    double, take = lines[5], lines[6]
    assert double["action"] == "double" and take["action"] == "take"
    # before the double: the doubler on roll, no dice; before the take: the double offered
    assert MatchState.from_id(double["match_id"]) == MatchState(length=5, player=1, turn=1, dice=(0, 0))
    assert MatchState.from_id(take["match_id"]) == MatchState(length=5, player=1, turn=0, doubled=True)
    result = CliRunner().invoke(main, ["replay", str(XG), "--game", "9"])
    assert result.exit_code == 2 and "no game 9" in result.output


def test_text_says_each_step_in_words_with_the_board() -> None:
    result = CliRunner().invoke(main, ["replay", str(XG)])
    assert result.exit_code == 0
    assert "Game 1, move 2: Hosaka Noriyuki rolls 2-2 and plays bar/23 23/21* 6/4 6/4, hitting on the 21 point." in result.output
    assert "Game 1, move 3: Jake Jacobs rolls 6-6 and cannot move." in result.output
    assert "Game 1, move 6: Hosaka Noriyuki drops: Jake Jacobs wins 2 points." in result.output
    assert " Pip count  O: 162  X: 167" in result.output


def test_interactive_viewer_with_the_seeds_keys_and_the_arrows_through_a_pseudo_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "bgrecord", "replay", str(XG), "--interactive"], encoding="utf-8", timeout=20)
    try:
        child.expect_exact("18 steps in 2 games. Press Enter for the first step, ? for help.")
        keys = [
            ("\r", "Game 1 of a 5 point match: Jake Jacobs 0, Hosaka Noriyuki 0. Game 1, move 1: Jake Jacobs rolls 4-1 and plays 24/23 13/9."),
            ("\x1b[C", "Game 1, move 1: Hosaka Noriyuki rolls 4-3 and plays 24/21 13/9."),  # Right arrow
            ("c", "Hosaka Noriyuki rolled 4-3."),
            ("t", "Jake Jacobs is on roll."),
            ("p", "Pip counts: Jake Jacobs 162, Hosaka Noriyuki 160."),
            ("s", "Score before this game: Jake Jacobs 0, Hosaka Noriyuki 0, of 5."),
            ("i", "Game 1 of a 5 point match, between Jake Jacobs and Hosaka Noriyuki."),
            ("w", "Points from Jake Jacobs's side. Jake Jacobs: 1 on the 24 point, 1 on the 23, 4 on the 13, 1 on the 9, 3 on the 8, 5 on the 6."),
            ("v", "Pip count  O: 162  X: 160"),
            ("\x1b[D", "Game 1, move 1: Jake Jacobs rolls 4-1 and plays 24/23 13/9."),  # Left arrow
            ("\x04", "Game 1, move 3: Hosaka Noriyuki doubles to 2."),  # Ctrl+D: the next cube action
            ("t", "Jake Jacobs is to answer Hosaka Noriyuki's double."),
            ("d", "The cube is at 1, in the middle; Hosaka Noriyuki offers it at 2."),
            ("\r", "Game 1, move 4: Jake Jacobs takes: the cube is at 2."),
            ("d", "The cube is at 2, owned by Jake Jacobs."),
            ("v", "O: Jake Jacobs (Cube: 2)"),
            ("\x1b[F", "Hosaka Noriyuki wins a resigned single game: 1 point. Info, match-unfinished: match unfinished at 2-1 of 5."),  # End
            ("t", "The game is over. Score: Jake Jacobs 2, Hosaka Noriyuki 1, of 5."),
            ("\x1b[H", "Game 1, move 1: Jake Jacobs rolls 4-1"),  # Home
            ("\x1b[B", "Game 2 of a 5 point match: Jake Jacobs 2, Hosaka Noriyuki 0. Game 2, move 1: Hosaka Noriyuki rolls 3-1"),  # Down
            ("\x1b[A", "Game 1 of a 5 point match: Jake Jacobs 0, Hosaka Noriyuki 0. Game 1, move 1"),  # Up: the game before
        ]
        for key, expected in keys:
            child.send(key)
            child.expect_exact(expected)
        child.send("o")
        child.expect_exact("Which point (1-24, or bar)? ")
        child.sendline("13")
        child.expect_exact("The 13 point: 5 checkers of Hosaka Noriyuki.")
        child.send("g")
        child.expect_exact("Go to game (1-2): ")
        child.sendline("")
        child.expect_exact("Staying at game 1.")
        child.send("g")
        child.sendline("7")
        child.expect_exact("There is no game 7: the games are 1 to 2.")
        child.send("x")
        child.expect_exact("Unknown key: ? lists the keys.")
        child.send("?")
        child.expect_exact("Keys: Enter, Space or Right arrow: next step;")
        child.expect_exact("Q, Esc or Ctrl+C: quit.")
        child.send("q")
        child.expect_exact("Goodbye.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        again = pexpect.spawn(sys.executable, ["-m", "bgrecord", "replay", str(XG), "-i"], encoding="utf-8", timeout=20)
        again.expect_exact("for help.")
        again.sendintr()  # Ctrl+C quits as Q does, without a traceback
        again.expect_exact("Goodbye.")
        again.expect(pexpect.EOF)
        assert "Traceback" not in (again.before or "")
    finally:
        child.close(force=True)


def test_svg_board() -> None:
    position = Position.from_layout({25: 2, 6: 7, 1: 6}, {1: 8, 2: 1}, turn=1)
    svg = board(position, cube=4, cube_owner=0, dice=(6, 4), last_play=Play.from_pairs([(8, 5)]).moves)
    root = ElementTree.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"7", "6", "8"} <= set(texts) and "4" in texts  # stacks over five, the cube
    assert len(list(root.iter("{http://www.w3.org/2000/svg}line"))) == 1
    assert Position.start()._repr_svg_().startswith("<svg")


@needs_chromium
def test_html_page_is_keyboard_navigable_and_says_each_board_in_words(tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    page_path = tmp_path / "replay.html"
    result = CliRunner().invoke(main, ["replay", str(XG), "--format", "html", "-o", str(page_path)])
    assert result.exit_code == 0
    records = list(step_records(XG))
    with playwright.sync_playwright() as driver:
        browser = launch_chromium(driver)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            page.goto(page_path.as_uri())
            words = page.text_content("#words")
            assert words == "Game 1 of a 5 point match: Jake Jacobs 0, Hosaka Noriyuki 0. Jake Jacobs rolls 4-1 and plays 24/23 13/9."
            assert page.text_content("#board-words") == board_words(records[0].after, records[0].names)  # type: ignore[arg-type]
            assert page.text_content("#board-desc") == page.text_content("#board-words")
            status = page.text_content("#status") or ""
            assert "Game 1, 5 point match. Score before the game: Jake Jacobs 0, Hosaka Noriyuki 0." in status
            assert "Pips: Jake Jacobs 162, Hosaka Noriyuki 167." in status and "Cube: 1, in the middle." in status
            first_board = page.inner_html("#pieces")
            page.keyboard.press("ArrowRight")
            assert page.text_content("#words") == "Hosaka Noriyuki rolls 4-3 and plays 24/21 13/9."
            assert page.text_content("#position") == "2 / 18" and page.inner_html("#pieces") != first_board
            assert page.get_attribute("#step1", "aria-current") == "step" and page.get_attribute("#step0", "aria-current") is None
            for index in (2, 5, 6, 11):  # boards drawn from their IDs say what Python says
                page.keyboard.press("Home")
                for _ in range(index):
                    page.keyboard.press("ArrowRight")
                record = records[index]
                assert page.text_content("#board-words") == board_words(record.after, record.names), index  # type: ignore[arg-type]
            assert "Cube: 2, owned by Jake Jacobs." in (page.text_content("#status") or "")  # after the take
            # Tab reaches the move list; Enter on a move shows it
            for _ in range(30):
                page.keyboard.press("Tab")
                if (page.evaluate("document.activeElement.id") or "").startswith("step"):
                    break
            focused = page.evaluate("document.activeElement.id")
            assert focused.startswith("step")
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            assert page.text_content("#position") == f"{int(focused[4:]) + 2} / 18"
            # point numbers from a chosen side
            page.keyboard.press("Home")
            page.select_option("#view", "0")
            assert page.text_content("#board .label[data-point='1']") == "24"
            page.select_option("#view", "1")
            assert page.text_content("#board .label[data-point='1']") == "1"
            page.screenshot(path=str(tmp_path / "replay.png"))
            assert (tmp_path / "replay.png").read_bytes()[:4] == b"\x89PNG"
        finally:
            browser.close()


def test_the_html_of_a_25_point_match_stays_small(tmp_path: Path) -> None:
    out = tmp_path / "long.html"
    result = CliRunner().invoke(main, ["replay", str(DATA / "gnubg" / "m12-25pt.mat"), "--format", "html", "-o", str(out)])
    assert result.exit_code == 0
    steps = sum(1 for _ in step_records(DATA / "gnubg" / "m12-25pt.mat"))
    assert steps > 500 and out.stat().st_size < 1_000_000
    assert out.stat().st_size / steps < 300  # a step is data, not a drawing


def test_a_file_without_a_game_is_an_error_not_an_empty_replay(tmp_path: Path) -> None:
    empty = tmp_path / "notes.mat"
    empty.write_text("this is not a match\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(empty)])
    assert result.exit_code == 1
    assert "no game to replay" in result.output and "notes.mat" in result.output
    assert "Traceback" not in result.output
