"""`bgrecord replay`: JSON lines whose IDs are GNU Backgammon's, text, the keyboard viewer
through a pseudo-terminal, the HTML page in headless Chromium, and the SVG board."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, oracle_matches

from bgrecord import MatchState, Play, Position
from bgrecord.cli import main
from bgrecord.steps import step_records
from bgrecord.svg import board

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
XG = SAMPLES / "xg-tags-bom-crlf.mat"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


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
    assert set(first) == {"path", "game", "move", "line", "player", "name", "action", "dice", "play", "position_id", "match_id",
                          "xgid", "ogid", "pips", "cube", "cube_owner", "score"}  # fmt: skip
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


def read_until(fd: int, text: str, timeout: float = 20.0) -> str:
    seen = b""
    deadline = time.time() + timeout
    while text.encode() not in seen and time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    return seen.decode("utf-8", "replace")


def test_interactive_viewer_through_a_pseudo_terminal() -> None:
    master, slave = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "bgrecord", "replay", str(XG), "--interactive"],
                               stdin=slave, stdout=slave, stderr=slave, close_fds=True)  # fmt: skip
    os.close(slave)
    try:
        assert "18 steps in 2 games" in read_until(master, "for help.")
        steps = [("\n", "Jake Jacobs rolls 4-1 and plays 24/23 13/9."), ("\n", "Hosaka Noriyuki rolls 4-3"),
                 ("c", "Hosaka Noriyuki rolled 4-3."), ("d", "The cube is at 1, in the middle."),
                 ("t", "Jake Jacobs is on roll."), ("p", "Pip counts: Jake Jacobs 162, Hosaka Noriyuki 160."),
                 ("s", "Score before this game: Jake Jacobs 0, Hosaka Noriyuki 0."),
                 ("i", "Game 1 of a 5 point match"), ("v", "Pip count  O: 162  X: 160"),
                 ("b", "Jake Jacobs rolls 4-1"), ("g", "Go to game (1-2): ")]  # fmt: skip
        for key, expected in steps:
            os.write(master, key.encode())
            assert expected in read_until(master, expected), (key, expected)
        os.write(master, b"2\n")
        assert "Game 2, move 1: Hosaka Noriyuki rolls 3-1" in read_until(master, "rolls 3-1")
        os.write(master, b"?")
        assert "Keys: Enter next step" in read_until(master, "Q quit.")
        os.write(master, b"q")
        assert "Goodbye." in read_until(master, "Goodbye.")
        assert process.wait(timeout=20) == 0
    finally:
        process.kill()
        os.close(master)


def test_svg_board() -> None:
    position = Position.from_layout({25: 2, 6: 7, 1: 6}, {1: 8, 2: 1}, turn=1)
    svg = board(position, cube=4, cube_owner=0, dice=(6, 4), last_play=Play.from_pairs([(8, 5)]).moves)
    root = ElementTree.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"7", "6", "8"} <= set(texts) and "4" in texts  # stacks over five, the cube
    assert len(list(root.iter("{http://www.w3.org/2000/svg}line"))) == 1
    assert Position.start()._repr_svg_().startswith("<svg")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
def test_html_page_steps_with_the_arrow_keys_in_chromium(tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    page_path = tmp_path / "replay.html"
    result = CliRunner().invoke(main, ["replay", str(XG), "--format", "html", "-o", str(page_path)])
    assert result.exit_code == 0
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])  # fmt: skip
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 640})
            page.goto(page_path.as_uri())
            assert page.text_content("#words") == "Jake Jacobs rolls 4-1 and plays 24/23 13/9"
            first_board = page.inner_html("#board")
            page.keyboard.press("ArrowRight")
            assert page.text_content("#words") == "Hosaka Noriyuki rolls 4-3 and plays 24/21 13/9"
            assert page.text_content("#position") == "2 / 18"
            assert page.inner_html("#board") != first_board
            assert page.get_attribute("#step1", "aria-current") == "step" and page.get_attribute("#step0", "aria-current") is None
            page.click("#back")
            assert page.text_content("#position") == "1 / 18"
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            page.screenshot(path=str(tmp_path / "replay.png"))
            assert (tmp_path / "replay.png").read_bytes()[:4] == b"\x89PNG"
        finally:
            browser.close()


def test_a_file_without_a_game_is_an_error_not_an_empty_replay(tmp_path: Path) -> None:
    empty = tmp_path / "notes.mat"
    empty.write_text("this is not a match\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(empty)])
    assert result.exit_code == 1
    assert "no game to replay" in result.output and "notes.mat" in result.output
    assert "Traceback" not in result.output
