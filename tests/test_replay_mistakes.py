"""Stepping through mistakes, and a replay a screen-reader user follows from one side: the
viewer's M and Shift+M (the error and the best play in words), Esc, the keys read from the
terminal when the record comes on standard input, the points said from one player's side
(``--points-from``), and the HTML replay's marks and the same keys in a real browser."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import DATA, GNUBG, launch_chromium, needs_chromium

from bgrecord import Position
from bgrecord.cli import main
from bgrecord.show.annotate import analysis_words, mistake_words
from bgrecord.show.steps import StepRecord, step_records
from bgrecord.show.viewer import HELP, Viewer, key_name
from bgrecord.show.words import board_words, point_words, seen_from

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
XG = SAMPLES / "xg-tags-bom-crlf.mat"  # Jake Jacobs (left) and Hosaka Noriyuki (right)
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) is not installed")


def row(kind: str, error: float, mark: str | None, best: str, category: str | None = None) -> dict[str, Any]:
    return {"kind": kind, "play": "", "best": best, "equity": 0.0, "best_equity": error, "error": error, "counted": True,
            "mark": mark, "category": category, "luck": 0.05 if kind == "checker" else None, "plies": 0}  # fmt: skip


def analysed_records() -> list[StepRecord]:
    """The sample's steps, three of them with marked decisions (steps 2, 4 and 6 of game 1)."""
    marks = {1: [row("checker", 0.083, "bad", "24/21 24/20")], 3: [row("checker", 0.01, None, "x")],
             5: [row("double", 0.13, "very bad", "no double", "wrong double below DP")],
             6: [row("take", 0.05, "doubtful", "pass", "wrong take")]}  # fmt: skip

    def annotate(match: Any, out: Any, records: list[tuple[int, Any, StepRecord]]) -> None:
        for index, (_, _, record) in enumerate(records):
            record.analysis = marks.get(index, []) if out.game.index == 1 else []

    return list(step_records(XG, annotate=annotate))


def test_m_and_shift_m_go_to_the_mistakes_and_say_the_error_and_the_best_play() -> None:
    said: list[str] = []
    viewer = Viewer(analysed_records(), said.append, lambda prompt: "")
    viewer.start()
    assert said[-1].endswith("3 decisions are marked doubtful or worse: M goes to each. Press Enter for the first step, ? for help.")
    viewer.handle("m")
    assert said[-1] == ("Mistake 1 of 3. Game 1, move 1: Hosaka Noriyuki rolls 4-3 and plays 24/21 13/9. A bad play: it loses 0.083; "
                        "the best play is 24/21 24/20.")  # fmt: skip
    viewer.handle("r")  # the step again, with its whole analysis
    assert said[-1].endswith("Analysis at 0 ply: play error 0.083 (bad), best 24/21 24/20, luck +0.050.")
    viewer.handle("m")
    assert said[-1].startswith("Mistake 2 of 3. Game 1, move 3: Hosaka Noriyuki doubles to 2. A very bad double (wrong double below DP): "
                               "it loses 0.130; the best is no double.")  # fmt: skip
    viewer.handle("M")
    assert said[-1].startswith("Mistake 1 of 3. ")
    viewer.handle("M")
    assert said[-1] == "No mistake before this step."
    for _ in range(3):
        viewer.handle("m")
    assert said[-1] == "No more mistakes." and "Shift+M: previous decision marked doubtful or worse" in HELP
    plain: list[str] = []
    without = Viewer(list(step_records(XG)), plain.append, lambda prompt: "")
    without.handle("m")
    assert plain[-1] == "No analysis: replay -i with --analyze, or --analysis FILE, marks the mistakes."


def test_esc_leaves_the_viewer_and_arrows_are_still_arrows() -> None:
    said: list[str] = []
    viewer = Viewer(list(step_records(XG)), said.append, lambda prompt: "")
    assert key_name("\x1b") == "q" and key_name("\x1b[C") == "enter" and key_name("M") == "shift-m" and key_name("m") == "m"
    assert viewer.handle("\x1b") is False and said[-1] == "Goodbye."


def test_the_points_said_from_one_players_side_kept_fixed() -> None:
    records = list(step_records(XG, viewpoint=0))
    assert records[1].words == "Hosaka Noriyuki rolls 4-3 and plays 1/4 12/16"  # 24/21 13/9 from Jake Jacobs's side
    assert records[3].words == "Hosaka Noriyuki rolls 2-2 and plays bar/2 2/4* 19/21 19/21, hitting on the 4 point"
    assert records[2].words == "Jake Jacobs rolls 2-1 and plays 23/22 6/4*, hitting on the 4 point"  # his own: as written
    assert [r.play for r in records] == [r.play for r in step_records(XG)]  # the programs' notation stays the mover's
    assert seen_from("bar/22* 6/off", 1, 0) == "bar/3* 19/off" and seen_from("24/18", 1, 1) == "24/18"
    said: list[str] = []
    viewer = Viewer(records, said.append, lambda prompt: "13", viewpoint=0)
    viewer.handle("enter")
    viewer.handle("enter")  # Hosaka Noriyuki has played: the board is still said from Jake Jacobs's side
    viewer.handle("w")
    assert said[-1].startswith("Points from Jake Jacobs's side. Jake Jacobs: 1 on the 24 point")
    viewer.handle("o")
    assert said[-1] == point_words(records[1].after, records[1].names, 13, 0) == "The 13 point: 4 checkers of Jake Jacobs."  # type: ignore[arg-type]
    best = [row("checker", 0.08, "bad", "13/7 8/7")]
    assert "best 12/18 17/18" in analysis_words(best, 1, 0) and "the best play is 12/18 17/18" in mistake_words(best, 1, 0)
    result = CliRunner().invoke(main, ["replay", str(XG), "--points-from", "right", "--board", "words", "--game", "1"])
    boards = [line for line in result.output.splitlines() if line.startswith(" Points from")]
    assert result.exit_code == 0 and len(boards) > 5 and all(line.startswith(" Points from Hosaka Noriyuki's side.") for line in boards)
    assert "Jake Jacobs rolls 4-1 and plays 1/2 12/16." in result.output
    assert board_words(Position.start(), ("A", "B"), 1).startswith("Points from B's side.")


def test_with_the_record_on_standard_input_the_viewer_reads_the_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    command = f"cat '{XG}' | '{sys.executable}' -m bgrecord replay - -i --points-from left"
    child = pexpect.spawn("/bin/sh", ["-c", command], encoding="utf-8", timeout=20)
    try:
        child.expect_exact("18 steps in 2 games. Press Enter for the first step, ? for help.")
        child.send("\r")
        child.expect_exact("Game 1, move 1: Jake Jacobs rolls 4-1 and plays 24/23 13/9.")
        child.send(" ")
        child.expect_exact("Game 1, move 1: Hosaka Noriyuki rolls 4-3 and plays 1/4 12/16.")
        child.send("\x1b")  # Esc: leave
        child.expect_exact("Goodbye.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        child.close(force=True)


def test_with_the_record_on_standard_input_and_no_terminal_one_line_says_so() -> None:
    alone = subprocess.run([sys.executable, "-m", "bgrecord", "replay", "-", "-i"], input=XG.read_bytes(), capture_output=True,
                           start_new_session=True, timeout=60)  # fmt: skip
    said = alone.stderr.decode()
    assert alone.returncode == 2 and "no terminal to read the keys from" in said and "Traceback" not in said


# --- with a real analysis ---


@pytest.fixture(scope="module")
def decisions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if GNUBG is None:
        pytest.skip("GNU Backgammon (Debian package gnubg) is not installed")
    folder = tmp_path_factory.mktemp("mistakes")
    result = CliRunner().invoke(main, ["analyze", str(DATA / "analysis" / "noisy-5pt.mat"), "-o", str(folder / "d.csv"),
                                       "--players", str(folder / "p.csv")])  # fmt: skip
    assert result.exit_code == 0, result.output
    return folder / "d.csv"


def test_the_viewer_goes_from_mistake_to_mistake_of_an_analysis(decisions: Path) -> None:
    table = pd.read_csv(decisions)
    marked = table[table["mark"].notna()].drop_duplicates(["game", "step"])
    keys = "m\n" * (len(marked) + 1) + "M\nq\n"
    result = CliRunner().invoke(main, ["replay", str(DATA / "analysis" / "noisy-5pt.mat"), "-i", "--analysis", str(decisions)], input=keys)
    lines = result.output.splitlines()
    assert result.exit_code == 0 and f"{len(marked)} decisions are marked doubtful or worse" in lines[0]
    told = [line for line in lines if line.startswith("Mistake ")]
    assert [line.split(".")[0] for line in told] == [f"Mistake {i} of {len(marked)}" for i in (*range(1, len(marked) + 1), len(marked) - 1)]
    first = marked.iloc[0]
    assert f"it loses {first['error']:.3f}" in told[0] and str(first["best"]) in told[0]
    assert "No more mistakes." in lines and lines[-1] == "Goodbye."


@needs_chromium
def test_the_html_replay_marks_the_mistakes_and_goes_to_them(decisions: Path, tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    page_path = tmp_path / "replay.html"
    result = CliRunner().invoke(main, ["replay", str(DATA / "analysis" / "noisy-5pt.mat"), "--analysis", str(decisions), "--format",
                                       "html", "-o", str(page_path), "--points-from", "right"])  # fmt: skip
    assert result.exit_code == 0
    records = list(step_records(DATA / "analysis" / "noisy-5pt.mat"))
    table = pd.read_csv(decisions)
    marked = table[table["mark"].notna()].drop_duplicates(["game", "step"])
    with playwright.sync_playwright() as driver:
        browser = launch_chromium(driver)
        try:
            page = browser.new_page()
            problems: list[str] = []
            page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
            page.goto(page_path.as_uri())
            assert page.eval_on_selector_all("#moves button.mark", "buttons => buttons.length") == len(marked)
            assert page.input_value("#view") == "1"  # --points-from right
            page.keyboard.press("m")
            first = int(page.evaluate("document.querySelector('#moves button[aria-current]').id").removeprefix("step"))
            assert (page.text_content(f"#step{first}") or "").startswith(f"({marked.iloc[0]['mark']})")
            assert "error" in (page.text_content("#words") or "") and records[first].game == marked.iloc[0]["game"]
            page.keyboard.press("m")
            second = int(page.evaluate("document.querySelector('#moves button[aria-current]').id").removeprefix("step"))
            page.keyboard.press("Shift+M")
            assert second > first and page.get_attribute(f"#step{first}", "aria-current") == "step"
            page.click("#next-mark")
            assert page.get_attribute(f"#step{second}", "aria-current") == "step" and problems == []
        finally:
            browser.close()
