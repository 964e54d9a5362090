"""Analysis: the totals are GNU Backgammon's own statistics, every definition follows from them,
and a bad game or a failing gnubg costs one match at most (the command's conventions:
test_analyze_cli.py). Tests that run gnubg skip where it is not installed (CI installs it)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import CORPUS, DATA, GNUBG, TOOLS

from bgrecord.analysis.engine import CubeEquities, EngineError
from bgrecord.analysis.measures import (
    CLOSE,
    CUBE_CATEGORIES,
    GameSums,
    Sums,
    Thresholds,
    f32,
    judge_answer,
    judge_double,
    judge_no_double,
    judge_play,
    rating,
    skill,
)
from bgrecord.cli import main
from bgrecord.core.position import Position

FIXTURES = DATA / "analysis"  # made by tests/data/analysis/generate.sh
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) is not installed")
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus absent: {CORPUS}")
GNUBG_CUBE = {"missed double below CP": "missed-double-below-cp", "missed double above CP": "missed-double-above-cp",
              "wrong double below DP": "wrong-double-below-dp", "wrong double above TG": "wrong-double-above-tg",
              "wrong take": "wrong-take", "wrong pass": "wrong-drop"}  # fmt: skip


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --- the totals are gnubg's statistics ---


def gnubg_totals(statistics: dict[str, Any]) -> dict[str, Any]:
    """One player's totals as gnubg's own statistics give them (gnubg.match(statistics=1))."""
    moves, cube, dice = statistics["moves"], statistics["cube"], statistics["dice"]
    cube_error = 0.0
    for name in CUBE_CATEGORIES:  # gnubg's cube "error-skill" is per decision: its total is the six summed, in order
        cube_error = f32(cube_error + cube[f"err-{GNUBG_CUBE[name]}-skill"])
    return {
        "moves": moves["total-moves"], "checker_decisions": moves["unforced-moves"], "checker_error": moves["error-skill"],
        "cube_decisions": cube["close-cube"], "cube_error": cube_error, "luck": dice["luck"], "luck_cost": dice["luck-cost"],
        "actual_result": dice["actual-result"], "luck_adjusted_result": dice["luck-adjusted-result"],
        **{column: cube[GNUBG_CUBE[name]] for name, column in CUBE_CATEGORIES.items()},
    }  # fmt: skip


def analysed(file: Path, plies: int = 0) -> Any:
    """The analysis of ``file`` (the fixtures' once a session: gnubg is deterministic)."""
    from bgrecord.analysis.files import analyse_file

    key = (file, plies)
    if key not in _ANALYSED:
        found = analyse_file(file, plies, "money,beavers=on" if "beaver" in file.name else None)
        if file.parent != FIXTURES:
            return found
        _ANALYSED[key] = found
    return _ANALYSED[key]


_ANALYSED: dict[tuple[Path, int], Any] = {}


def assert_gnubg_totals(files: list[Path], plies: int = 0) -> tuple[int, float]:
    """For every player of every match of ``files``: bgrecord's totals are gnubg's statistics
    (counts exactly, errors and luck within 1e-6 EMG). Returns (players, largest difference)."""
    players, largest = 0, 0.0
    for file in files:
        found = analysed(file, plies)
        assert found.problem is None and found.failures == [], (file, found.problem, found.failures)
        references = dict(found.references)
        for row in found.players:
            expected = gnubg_totals(references[row["match"]]["XO"[row["player"]]])
            for name, value in expected.items():
                if isinstance(value, int):
                    assert row[name] == value, (file, row["match"], row["player"], name, row[name], value)
                else:
                    largest = max(largest, abs(row[name] - value))
                    assert row[name] == pytest.approx(value, abs=1e-6), (file, row["match"], row["player"], name)
            players += 1
    return players, largest


@needs_gnubg
def test_totals_are_gnubgs_statistics_on_noisy_self_play() -> None:
    """Matches gnubg played against itself with noise: errors of every kind of checker and cube
    decision, match play at several lengths and money play."""
    files = sorted(FIXTURES.glob("*.mat"))
    assert len(files) == 6
    players, largest = assert_gnubg_totals(files)
    assert players == 12 and largest == 0.0  # gnubg's float arithmetic, replayed: equal to the last bit


@needs_gnubg
@pytest.mark.skipif(not (TOOLS / "gnubg-matches.sh").exists(), reason=f"tools absent: {TOOLS}")
def test_totals_are_gnubgs_statistics_on_fresh_self_play(tmp_path: Path) -> None:
    seed = random.randrange(1, 30000)
    subprocess.run(["bash", str(TOOLS / "gnubg-matches.sh"), str(tmp_path), "3", str(seed)], check=True, timeout=900,
                   capture_output=True)  # fmt: skip
    files = sorted(tmp_path.glob("*.mat"))
    assert files, f"gnubg-matches.sh made no match (seed {seed})"
    players, _ = assert_gnubg_totals(files)
    assert players == 2 * len(files), f"seed {seed}"


@needs_gnubg
@needs_corpus
def test_totals_are_gnubgs_statistics_on_corpus_matches() -> None:
    """Human matches (Galaxy, DailyGammon, FIBS, a tournament archive...) and gnubg's own."""
    galaxy = sorted((CORPUS / "lassehjorthmadsen__bglab").glob("*"))[::150]
    real = [path for path in sorted((CORPUS / "real-archives").rglob("*.mat")) if path.stat().st_size < 40_000][::6]
    selfplay = sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[::8]
    players, largest = assert_gnubg_totals(galaxy + real + selfplay)
    assert players >= 2 * (len(galaxy) + len(selfplay)) and largest < 1e-6


@needs_gnubg
def test_the_same_numbers_at_one_ply() -> None:
    players, _ = assert_gnubg_totals([FIXTURES / "noisy-5pt.mat"], plies=1)
    assert players == 2


# --- what follows from the totals ---


@needs_gnubg
def test_rates_and_rating_follow_from_the_totals() -> None:
    rows = [row for file in sorted(FIXTURES.glob("noisy-*.mat")) for row in analysed(file).players]
    by_match: dict[tuple[str, int], int] = {}
    for row in rows:
        by_match[(row["file"], row["match"])] = by_match.get((row["file"], row["match"]), 0) + row["moves"]
    for row in rows:
        decisions = row["checker_decisions"] + row["cube_decisions"]
        assert row["error"] == pytest.approx(row["checker_error"] + row["cube_error"], abs=1e-6)
        assert row["error_rate"] == pytest.approx(1000 * row["error"] / decisions)
        assert row["pr"] == pytest.approx(500 * row["error"] / decisions) == pytest.approx(row["error_rate"] / 2)
        assert row["snowie_er"] == pytest.approx(1000 * row["error"] / by_match[(row["file"], row["match"])])
        assert row["luck_rate"] == pytest.approx(1000 * row["luck"] / row["moves"])
        assert row["rating"] == rating(row["error"] / decisions)
        marks = row["doubtful"] + row["bad"] + row["very_bad"]
        assert 0 < marks <= row["moves"] + row["cube_decisions"]  # noisy players err


@needs_gnubg
def test_decisions_add_up_to_the_players_totals() -> None:
    found = analysed(FIXTURES / "noisy-7pt.mat")
    decisions = pd.DataFrame(found.decisions)
    for row in found.players:
        mine = decisions[decisions["player"] == row["player"]]
        counted = mine[mine["counted"]]
        assert len(counted[counted["kind"] == "checker"]) == row["checker_decisions"]
        assert len(counted[counted["kind"] != "checker"]) == row["cube_decisions"]
        assert len(mine[mine["kind"] == "checker"]) == row["moves"]
        assert counted[counted["kind"] == "checker"]["error"].sum() == pytest.approx(row["checker_error"], abs=1e-5)
        assert mine[mine["kind"] != "checker"]["error"].sum() == pytest.approx(row["cube_error"], abs=1e-5)
        assert mine["luck"].sum() == pytest.approx(row["luck"], abs=1e-5)
        for name, column in CUBE_CATEGORIES.items():
            assert (mine["category"] == name).sum() == row[column]
    checker = decisions[decisions["kind"] == "checker"]
    assert ((checker["best_equity"] - checker["equity"]) - checker["error"]).abs().max() < 1e-6  # C float rounding aside
    assert (checker["error"][checker["play"] == checker["best"]] == 0).all()
    ties = checker[(checker["play"] != checker["best"]) & (checker["error"] == 0)]
    assert (ties["equity"] == ties["best_equity"]).all() and len(ties) < len(checker) / 10  # another play as good
    assert (checker["best"][checker["candidates"] == 0] == "").all()  # a dance
    # gnubg's candidates are bgrecord's legal plays: "more than one legal play" is one definition for both
    for row in checker.itertuples():
        plays = Position.from_id(row.position_id).legal_plays((int(row.dice[0]), int(row.dice[1])))
        assert row.candidates == (0 if plays[0].play.moves == () else len(plays)), row
    assert {"checker", "no double", "double", "take"} <= set(decisions["kind"]) <= {"checker", "no double", "double", "take", "pass"}


def test_cube_decisions_are_judged_as_gnubg_judges_them() -> None:
    # doubling right (DT < DP): double/take worth DT; not doubling misses it
    right = CubeEquities(no_double=0.50, double_take=0.70, double_pass=1.0, available=True)
    judged, close = judge_no_double(right)
    assert close and judged.error == f32(0.70 - 0.50) and judged.category == "missed double below CP" and judged.best == "double, take"
    assert judge_double(right).error == 0.0 and judge_double(right).best == "double, take"
    assert judge_answer(right, take=True).error == 0.0 and judge_answer(right, take=False).category == "wrong pass"
    assert judge_answer(right, take=False).error == f32(1.0 - 0.70)
    # a pass (DT > DP): missed above the cash point; a take is wrong
    cash = CubeEquities(no_double=0.80, double_take=1.40, double_pass=1.0, available=True)
    assert judge_no_double(cash)[0].category == "missed double above CP" and judge_no_double(cash)[0].best == "double, pass"
    assert judge_answer(cash, take=True).category == "wrong take" and judge_answer(cash, take=True).error == f32(1.40 - 1.0)
    # no double right: below the double point, or too good
    early = CubeEquities(no_double=0.20, double_take=0.10, double_pass=1.0, available=True)
    assert judge_double(early).category == "wrong double below DP" and judge_double(early).error == f32(0.20 - 0.10)
    assert judge_no_double(early) == (judge_no_double(early)[0], True) and judge_no_double(early)[0].error == 0.0
    far = CubeEquities(no_double=0.20, double_take=-0.30, double_pass=1.0, available=True)
    assert not judge_no_double(far)[1]  # doubling would cost 0.5 > 0.16: not a close decision
    too_good = CubeEquities(no_double=1.30, double_take=1.60, double_pass=1.0, available=True)
    assert judge_double(too_good).category == "wrong double above TG" and judge_no_double(too_good)[0].best == "too good"
    # a dead cube: no double is the best, whatever the equities
    dead = CubeEquities(no_double=0.20, double_take=0.70, double_pass=1.0, available=False)
    assert judge_double(dead).error == 0.0 and judge_no_double(dead)[0].error == 0.0 and judge_double(dead).best == "no double"
    assert CLOSE == f32(0.16)


def test_marks_plays_and_ratings_use_gnubgs_thresholds() -> None:
    # stock gnubg 1.07.001's thresholds, as its ``show analysis`` says them (0.030, not the 0.04 of its manual)
    assert [skill(e) for e in (0.0, f32(0.03), 0.0301, 0.061, 0.121)] == [None, None, "doubtful", "bad", "very bad"]
    assert skill(0.045, Thresholds(0.05, 0.1, 0.2)) is None and skill(0.1001, Thresholds(0.05, 0.1, 0.2)) == "bad"
    assert Thresholds.of({"doubtful": 0.04}) == Thresholds(0.04, 0.06, 0.12)
    assert judge_play(0.3, 0.1, candidates=5).error == f32(0.3 - 0.1) and judge_play(0.3, 0.1, 5).counted
    assert not judge_play(0.3, 0.3, candidates=1).counted  # a forced play is a move, not a decision
    labels = [rating(e) for e in (0.0, 0.003, 0.006, 0.009, 0.013, 0.02, 0.03, 0.04)]
    assert labels == ["Supernatural", "World class", "Expert", "Advanced", "Intermediate", "Casual player", "Beginner", "Awful!"]
    assert rating(None) is None


def test_sums_are_kept_in_gnubgs_float_arithmetic() -> None:
    game = GameSums((0.5, -0.5))
    for _ in range(3):
        game.luck(0, 0.1, 0.01)
    assert game.players[0].luck == f32(f32(f32(0.1) + 0.1) + 0.1) != 0.1 * 3
    assert game.players[0].luck_adjusted_result == f32(f32(f32(0.5 - 0.01) - 0.01) - 0.01)
    assert game.players[1].luck_adjusted_result == f32(f32(f32(-0.5 + 0.01) + 0.01) + 0.01)
    match = Sums()
    match.add(game.players[0])
    match.add(game.players[0])
    assert match.luck == f32(game.players[0].luck * 2) and match.actual_result == 1.0


# --- bad input, a failing engine ---


def _corrupt_second_game(source: Path, target: Path) -> None:
    """``source`` with an illegal move in its second game."""
    text = source.read_text()
    second = text.index(" Game 2")
    line = re.compile(r"^(\s+\d+\) \d\d: )(\d+)/", re.M).search(text, second)
    assert line is not None
    target.write_text(text[: line.start(2)] + "3" + text[line.end(2) :])


@needs_gnubg
def test_a_game_with_errors_is_left_out_and_said_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    _corrupt_second_game(FIXTURES / "noisy-7pt.mat", bad)
    code, _, err = run("analyze", str(bad), "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"),
                       "--matches", str(tmp_path / "m.csv"))  # fmt: skip
    assert code == 1
    assert err.count("has errors") == 1 and f"{bad}: match 1: game 2 has errors: not analysed" in err
    matches = pd.read_csv(tmp_path / "m.csv")
    assert (matches["games"][0], matches["games_analysed"][0], matches["games_skipped"][0]) == (3, 2, 1)
    decisions = pd.read_csv(tmp_path / "d.csv")
    assert sorted(set(decisions["game"])) == [1, 3]
    # the games analysed are analysed as in the whole match
    whole = tmp_path / "whole"
    run("analyze", str(FIXTURES / "noisy-7pt.mat"), "-o", str(whole) + ".csv", "--players", str(whole) + "-p.csv")
    first = pd.read_csv(str(whole) + ".csv")
    kept = first[first["game"].isin([1, 3])].drop(columns=["file", "match_key"]).reset_index(drop=True)
    assert kept.equals(decisions.drop(columns=["file", "match_key"]))


FAULTY = '''#!{python}
"""A gnubg that crashes on a 13-point match and never answers on a 17-point one; else the real one."""
import json, os, subprocess, sys, time
real = subprocess.Popen([{gnubg!r}, *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def relay():
    while True:
        line = real.stdout.readline()
        sys.stdout.buffer.write(line); sys.stdout.flush()
        if not line or line.startswith(b"@bgrecord "):
            return
relay()
for line in sys.stdin:
    text = json.loads(line)["mat"]
    if " 13 point match" in text:
        real.kill(); os._exit(11)
    if " 17 point match" in text:
        time.sleep(3600)
    real.stdin.write(line.encode()); real.stdin.flush()
    relay()
'''


@needs_gnubg
def test_a_crash_or_a_timeout_is_one_error_and_the_run_goes_on(tmp_path: Path) -> None:
    faulty = tmp_path / "gnubg"
    faulty.write_text(FAULTY.format(python=sys.executable, gnubg=GNUBG))
    faulty.chmod(0o755)
    text = (FIXTURES / "noisy-7pt.mat").read_text()
    for name, length in (("a-ok", 7), ("b-crash", 13), ("c-ok", 7), ("d-hang", 17), ("e-ok", 7)):
        (tmp_path / f"{name}.mat").write_text(text.replace(" 7 point match", f" {length} point match"))
    files = sorted(str(path) for path in tmp_path.glob("*.mat"))
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run("analyze", *files, "-o", str(out / "d.csv"), "--players", str(out / "p.csv"), "--matches",
                       str(out / "m.csv"), "--timeout", "5", "-j", "1", env={"BGRECORD_GNUBG": str(faulty)})  # fmt: skip
    assert code == 2
    assert re.search(r"b-crash.mat: match 1: gnubg stopped \(exit status 11\) on this match.*: not analysed", err)
    assert re.search(r"d-hang.mat: match 1: gnubg took longer than 5 s \(on this match\): not analysed", err)
    assert "3 matches analysed, 2 matches not analysed" in err
    matches = pd.read_csv(out / "m.csv")
    assert list(matches["games_analysed"]) == [3, 0, 3, 0, 3] and matches["problem"].notna().tolist() == [False, True, False, True, False]
    players = pd.read_csv(out / "p.csv")
    assert len(players) == 6 and (players.groupby("file")["checker_error"].sum().nunique() == 1)  # the three matches alike


def test_an_engine_that_dies_is_started_again(tmp_path: Path) -> None:
    """The process protocol alone (no gnubg needed): a crash is an EngineError, and the next
    match starts a new process; lines that are not replies are ignored."""
    from bgrecord.analysis.gnubg import GnubgEngine

    fake = tmp_path / "fake-gnubg"
    count = tmp_path / "count"
    fake.write_text(f'''#!{sys.executable}
import json, os, sys
path = {str(count)!r}
n = int(open(path).read()) if os.path.exists(path) else 0
print("GNU Backgammon banner", flush=True)
print("@bgrecord " + json.dumps({{"ready": True}}), flush=True)
for line in sys.stdin:
    n += 1
    open(path, "w").write(str(n))
    if n == 2:
        os._exit(9)
    print("chatter", flush=True)
    print("@bgrecord " + json.dumps({{"ok": True, "games": [], "stats": {{"X": {{}}}}}}), flush=True)
''')
    fake.chmod(0o755)
    engine = GnubgEngine(str(fake), timeout=10)
    try:
        assert engine.analyse(" 1 point match\n", 0, False).games == []
        with pytest.raises(EngineError, match=r"gnubg stopped \(exit status 9\)"):
            engine.analyse(" 1 point match\n", 0, False)
        assert engine.analyse(" 1 point match\n", 0, False).reference == {"X": {}}
    finally:
        engine.close()


def test_without_gnubg_one_line_says_how_to_install_it(tmp_path: Path) -> None:
    code, out, err = run("analyze", str(FIXTURES / "noisy-5pt.mat"), "-o", str(tmp_path / "d.csv"), "--players",
                         str(tmp_path / "p.csv"), "--engine", "gnubg", env={"BGRECORD_GNUBG": str(tmp_path / "no-such-gnubg")})  # fmt: skip
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "apt-get install gnubg" in err and err.startswith("bgrecord: ")
    assert not (tmp_path / "d.csv").exists()
    # by default the analyses the records hold are still read: a match that needed gnubg is said, and fails the run
    code, out, err = run("analyze", str(FIXTURES / "noisy-5pt.mat"), "-o", str(tmp_path / "d.csv"), "--players",
                         str(tmp_path / "p.csv"), "--matches", str(tmp_path / "m.csv"), env={"BGRECORD_GNUBG": str(tmp_path / "none")})  # fmt: skip
    lines = err.splitlines()
    assert code == 2 and "only the analyses the records hold are read" in lines[0] and "apt-get install gnubg" in lines[0]
    assert "match 1: the record holds no analysis bgrecord reads: not analysed" in lines[1]
    assert "0 matches analysed, 1 match not analysed" in lines[-1]
    assert pd.read_csv(tmp_path / "m.csv")["problem"].notna().all()
    code, _, err = run("replay", str(FIXTURES / "noisy-5pt.mat"), "--analyze", env={"BGRECORD_GNUBG": str(tmp_path / "none")})
    assert code == 2 and "apt-get install gnubg" in err
