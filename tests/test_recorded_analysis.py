"""The analyses records already hold, read with no engine run (``analyze --engine recorded``):
eXtreme Gammon's, checked against an independent reader of XG's files (gammonview); GNU
Backgammon's SGF, checked against gnubg's own statistics of the same file; OGXM's. And the
match equity table they need, checked against gnubg's. Tests needing gnubg, gammonview or the
shared corpus skip, saying which."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from conftest import CORPUS, DATA, GNUBG
from test_analysis import gnubg_totals, needs_gnubg, run

from bgrecord.analysis import analyze, met
from bgrecord.analysis.files import analyse_file

FIXTURES = DATA / "analysis"
OTHER = CORPUS / "other-formats"
XG_FILES = sorted((OTHER / "xg").glob("*.xg")) if (OTHER / "xg").is_dir() else []


def _gammonview() -> Any:
    return pytest.importorskip("gvformat.xg", reason="gammonview (pip install gammonview) is not installed")


# --- eXtreme Gammon's analysis, beside gammonview's reading of it ---


def gammonview_games(path: Path) -> tuple[dict[str, Any], list[dict[str, dict[str, Any]]]]:
    """gammonview 3.1's reading of the XG file: the match, and per game and per colour the
    checker decisions (counted plies), their summed error, and the cube decisions."""
    from gvformat.stats import compute_aggregates
    from gvformat.xg import convert_xg

    match = convert_xg(path)
    aggregates = compute_aggregates(match)["games"]
    games = []
    for game, totals in zip(match["games"], aggregates):
        found: dict[str, dict[str, Any]] = {}
        for color, side in ((1, "white"), (0, "black")):
            plies = [p for p in game["plies"] if p.get("color") == color and p.get("analysis")
                     and (p["action_id"] <= 20 or (p["action_id"] == 31 and p.get("d1") is not None))]  # fmt: skip
            counted = [p["analysis"] for p in plies if p["analysis"].get("decision")]
            found[side] = {"checker_decisions": len(counted), "checker_error": sum(a.get("equity_loss") or 0.0 for a in counted),
                           "cube_decisions": totals[side]["cube_decisions"]}  # fmt: skip
        games.append(found)
    return match, games


@pytest.mark.skipif(not XG_FILES, reason=f"corpus absent: {OTHER / 'xg'}")
def test_xg_analysis_is_gammonviews_reading_of_it() -> None:
    """Every analysed .xg file: per player, the checker decisions exactly and the checker error
    within 0.001 EMG of gammonview's reading of XG's stored analysis (over the games bgrecord
    analyses: a game with errors is left out), and the cube decisions as it counts them."""
    _gammonview()
    compared = 0
    for path in XG_FILES:
        found = analyse_file(path, engine="recorded")
        assert found.problem is None and found.failures == [], (path, found.problem, found.failures)
        match, games = gammonview_games(path)
        decisions = pd.DataFrame(found.decisions)
        kept = sorted(set(decisions["game"]))
        assert len(kept) >= len(games) - 1, path  # one game left out at most (its errors said)
        names = found.players[0]["name"], found.players[1]["name"]
        white = 0 if match["player_white"].strip() == names[0] else 1
        assert {match["player_white"].strip(), match["player_black"].strip()} == set(names), path
        for row in found.players:
            side = "white" if row["player"] == white else "black"
            theirs = {name: sum(games[game - 1][side][name] for game in kept) for name in games[0][side]}
            assert row["checker_decisions"] == theirs["checker_decisions"], (path.name, row["name"])
            assert abs(row["checker_error"] - theirs["checker_error"]) < 0.001, (path.name, row["name"])
            assert row["cube_decisions"] == theirs["cube_decisions"], (path.name, row["name"])
            assert row["engine"].startswith("xg ") and row["engine_version"] == ""
            compared += 1
    assert compared == 2 * len(XG_FILES)


@pytest.mark.skipif(not XG_FILES, reason=f"corpus absent: {OTHER / 'xg'}")
def test_xg_rows_say_whose_analysis_and_add_up() -> None:
    found = analyse_file(XG_FILES[0], engine="recorded")
    decisions = pd.DataFrame(found.decisions)
    assert set(decisions["engine"]) == {found.players[0]["engine"]} and found.matches[0]["engine"] == "xg 4ply"
    assert set(decisions["level"].dropna()) <= {"1ply", "2ply", "3ply", "4ply", "roller", "roller+", "roller++", "book", "rollout"}
    for row in found.players:
        mine = decisions[(decisions["player"] == row["player"]) & decisions["counted"]]
        assert len(mine[mine["kind"] == "checker"]) == row["checker_decisions"]
        assert mine[mine["kind"] == "checker"]["error"].sum() == pytest.approx(row["checker_error"], abs=1e-5)
        assert row["pr"] == pytest.approx(500 * row["error"] / (row["checker_decisions"] + row["cube_decisions"]))
    checker = decisions[decisions["kind"] == "checker"]
    assert (checker["error"] >= 0).all() and (checker["best"].notna().sum() > 0.9 * len(checker))
    assert checker["luck"].notna().mean() > 0.9 and checker["luck_cost"].notna().mean() > 0.9  # XG's luck, its cost from the MET


@pytest.mark.skipif(not (OTHER / "xgp").is_dir(), reason=f"corpus absent: {OTHER / 'xgp'}")
def test_a_position_file_is_no_players_decision() -> None:
    for path in sorted((OTHER / "xgp").glob("*.xgp")):
        found = analyse_file(path, engine="recorded")
        assert found.problem is None and found.decisions == [] and found.players == []
        assert found.notes == ["match 1: game 1 starts from a set-up position: not analysed"]


# --- GNU Backgammon's analysed SGF, beside gnubg's own statistics of the same file ---

STATISTICS = '''
import gnubg, json, os
for name in os.environ["BGRECORD_FILES"].split("\\n"):
    gnubg.command('load match "%s"' % name)
    print("@stats " + json.dumps(gnubg.match(analysis=0, boards=0, statistics=1, verbose=0)["stats"]))
'''


def gnubg_statistics(files: list[Path], tmp: Path) -> list[dict[str, Any]]:
    """gnubg's own statistics of each SGF file, as it reads it back (``load match``)."""
    script = tmp / "statistics.py"
    script.write_text(STATISTICS)
    done = subprocess.run([str(GNUBG), "-t", "-q", "-r", "-p", str(script)], capture_output=True, text=True, timeout=600,
                          env={"BGRECORD_FILES": "\n".join(map(str, files)), "HOME": str(tmp)}, check=True)  # fmt: skip
    return [json.loads(line[len("@stats ") :]) for line in done.stdout.splitlines() if line.startswith("@stats ")]


def analysed_sgf(source: Path, target: Path, plies: int = 0) -> None:
    """``source`` (a .mat) analysed by gnubg and saved as its SGF."""
    commands = ["set display off", "set jacoby off", f"set analysis chequerplay evaluation plies {plies}",
                f"set analysis cubedecision evaluation plies {plies}", f'import mat "{source}"', "analyse match",
                f'save match "{target}"']  # fmt: skip
    subprocess.run([str(GNUBG), "-t", "-q", "-r"], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=600,
                   check=True, env={"HOME": str(target.parent)})  # fmt: skip


@needs_gnubg
def test_gnubgs_analysed_sgf_read_back_is_gnubgs_own_statistics(tmp_path: Path) -> None:
    """Matches gnubg analysed and saved as SGF (at test time, and the fixture): bgrecord's
    reading of the analysis they hold gives gnubg's own statistics of each file, to the last
    bit, match play (its cube equities in match winning chances) and money play alike."""
    files = [FIXTURES / "noisy-5pt-analysed.sgf"]
    for name in ("noisy-3pt", "noisy-7pt", "noisy-money"):
        files.append(tmp_path / f"{name}.sgf")
        analysed_sgf(FIXTURES / f"{name}.mat", files[-1])
    for file, statistics in zip(files, gnubg_statistics(files, tmp_path), strict=True):
        found = analyse_file(file, engine="recorded")
        assert found.problem is None and found.failures == [] and found.notes == [], file
        assert [row["engine"] for row in found.players] == ["gnubg 0ply"] * 2 and found.players[0]["engine_version"]
        for row in found.players:
            for name, value in gnubg_totals(statistics["XO"[row["player"]]]).items():
                assert row[name] == value, (file.name, row["player"], name, row[name], value)


@needs_gnubg
@pytest.mark.skipif(not Path("/usr/share/gnubg/met/Kazaross-XG2.xml").exists(), reason="gnubg's tables are not in /usr/share/gnubg")
def test_the_match_equity_table_is_gnubgs(tmp_path: Path) -> None:
    """The table shipped is what gnubg.met(64) gives (tests/data/analysis/make-met.py makes it)."""
    made = tmp_path / "met_table.py"
    subprocess.run([str(GNUBG), "-t", "-q", "-r", "-p", str(FIXTURES / "make-met.py")], capture_output=True, timeout=120, check=True,
                   env={"OUT": str(made), "HOME": str(tmp_path)})  # fmt: skip
    shipped = Path(met.__file__).with_name("met_table.py").read_text(encoding="utf-8")
    assert made.read_text(encoding="utf-8") == shipped


def test_match_winning_chances_follow_the_table() -> None:
    assert met.equity_at(7, (0, 0), 0, False) == 0.5 == met.equity_at(7, (3, 3), 1, False)
    assert met.equity_at(5, (2, 0), 0, False) == pytest.approx(1 - met.equity_at(5, (2, 0), 1, False), abs=1e-7)
    assert met.equity_after(5, (3, 0), 0, 2, 0, False) == 1.0  # the game wins the match
    assert met.mwc_to_emg(met.equity_after(7, (2, 1), 0, 1, 0, False), 7, (2, 1), 0, 1, False) == pytest.approx(1.0, abs=1e-6)  # winning the cube
    assert met.cost(0.1, 0, (0, 0), 0, 4, False) == pytest.approx(0.4)  # money: points at the cube
    won, lost = met.game_result(3, (0, 0), 1, 2, False)
    assert won == -lost < 0 and lost == pytest.approx(met.equity_after(3, (0, 0), 1, 2, 1, False) - 0.5)


def test_a_stored_analysis_that_does_not_read_is_no_analysis(tmp_path: Path) -> None:
    """Numbers that are no numbers, letters off the board, cut values: the action is read without
    its analysis (a decision not counted), never an error of the file."""
    text = (FIXTURES / "noisy-5pt-analysed.sgf").read_text()
    spoiled = {"nan-luck": text.replace("LU[0.21762]", "LU[nan]"), "cut": text.replace(" E ver 3 0.550948", " E ver"),
               "letters": text.replace("A[0][qtst", "A[0][{{~~"), "huge": text.replace("0.217622 0C", "1e300 0C"),
               "cube": text.replace("DA[E ver 3 0C 1 0.000000 1 0.449052", "DA[E ver 3 xC 1 0.000000 1 inf"),
               "index": text.replace("A[0][qtst", "A[99999999999999999999][qtst")}  # fmt: skip
    whole = analyse_file(FIXTURES / "noisy-5pt-analysed.sgf", engine="recorded")
    for name, spoilt in spoiled.items():
        path = tmp_path / f"{name}.sgf"
        path.write_text(spoilt)
        found = analyse_file(path, engine="recorded")
        assert found.problem is None and found.failures == [] and len(found.players) == 2, name
        assert sum(row["moves"] for row in found.players) == sum(row["moves"] for row in whole.players), name


# --- OGXM's analysis ---

OGXM = sorted((OTHER / "ogxm").glob("*.ogxm")) if (OTHER / "ogxm").is_dir() else []


@pytest.mark.skipif(not OGXM, reason=f"corpus absent: {OTHER / 'ogxm'}")
def test_ogxm_analysis_is_read_with_its_producers_equities() -> None:
    """Each analysed ply's error is its producer's own ``equity_loss`` (normalised to money
    equity from the ply's anchors where it is in match winning chances)."""
    read = 0
    for path in OGXM:
        found = analyse_file(path, engine="recorded")
        assert found.problem is None, path
        if not found.decisions:
            continue
        checker = pd.DataFrame(found.decisions).query("kind == 'checker' and candidates > 0")
        assert ((checker["best_equity"] - checker["equity"]) - checker["error"]).abs().max() < 1e-6
        assert found.matches[0]["engine"].split()[0] in ("xerxes", "ogx") and found.matches[0]["engine_version"]
        read += len(checker)
    assert read > 50


# --- the command ---


@pytest.mark.skipif(not XG_FILES, reason=f"corpus absent: {OTHER / 'xg'}")
def test_recorded_needs_no_engine_and_auto_takes_the_records_own(tmp_path: Path) -> None:
    none = {"BGRECORD_GNUBG": str(tmp_path / "no-gnubg")}
    files = [str(XG_FILES[0]), str(FIXTURES / "noisy-5pt.mat")]
    code, _, err = run("analyze", *files, "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"), "--matches",
                       str(tmp_path / "m.csv"), "--engine", "recorded", env=none)  # fmt: skip
    assert code == 1 and "noisy-5pt.mat: match 1: the record holds no analysis bgrecord reads: not analysed" in err
    assert "1 match analysed, 1 match not analysed" in err
    matches = pd.read_csv(tmp_path / "m.csv")
    assert matches["engine"].tolist()[0] == "xg 4ply" and matches["problem"].notna().tolist() == [False, True]
    if GNUBG is not None:  # auto: XG's own for the .xg, gnubg's for the .mat
        code, _, err = run("analyze", *files, "-o", str(tmp_path / "a.csv"), "--players", str(tmp_path / "pa.csv"),
                           "--matches", str(tmp_path / "ma.csv"))  # fmt: skip
        assert code == 0, err
        assert pd.read_csv(tmp_path / "ma.csv")["engine"].tolist() == ["xg 4ply", "gnubg 0ply"]


def test_the_python_api_gives_the_tables(tmp_path: Path) -> None:
    from bgrecord import read_match

    found = analyze(FIXTURES / "noisy-5pt-analysed.sgf", engine="recorded")
    assert list(found.players["engine"]) == ["gnubg 0ply"] * 2 and found.problems == []
    again = analyze([read_match(FIXTURES / "noisy-5pt-analysed.sgf")], engine="recorded")  # a record already read
    columns = [c for c in found.decisions.columns if c != "file"]
    assert again.decisions[columns].equals(found.decisions[columns])
    folder = analyze(FIXTURES, engine="recorded")  # a folder: its match files
    assert len(folder.matches) == 7 and folder.matches["problem"].notna().sum() == 6
    with pytest.raises(ValueError, match="unknown analysis"):
        analyze(FIXTURES, engine="xg")
