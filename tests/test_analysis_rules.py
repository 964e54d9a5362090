"""What an analysis is made under (issue 30): the rules as the replay reads them, GNU
Backgammon's defaults where a record is silent (Jacoby on for money play), no cube decision
without a cube, nothing analysed that the replay does not accept, gnubg's own thresholds and
version written in the tables and checked, and a database's analyses kept by all of these.
Tests that run gnubg skip where it is not installed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, DATA, GNUBG, ROOT
from test_analysis import gnubg_totals, needs_gnubg, run

from bgrecord.analysis.files import analyse_file
from bgrecord.analysis.settings import AnalysisRules
from bgrecord.replay import match as replay_match

SAMPLES = ROOT / "samples"
FIXTURES = DATA / "analysis"

OWN_ANALYSIS = '''
import gnubg, json, os
gnubg.command("set analysis chequerplay evaluation plies 0")
gnubg.command("set analysis cubedecision evaluation plies 0")
gnubg.command('import mat "%s"' % os.environ["BGRECORD_FILE"])
gnubg.command("analyse match")
print("@stats " + json.dumps(gnubg.match(analysis=0, boards=0, statistics=1, verbose=0)["stats"]))
'''


def gnubgs_own(file: Path, tmp: Path) -> dict[str, Any]:
    """gnubg's own statistics of ``file``, imported and analysed at 0 ply with its defaults."""
    script = tmp / "own.py"
    script.write_text(OWN_ANALYSIS)
    done = subprocess.run([str(GNUBG), "-t", "-q", "-r", "-p", str(script)], capture_output=True, text=True, timeout=600, check=True,
                          env={"BGRECORD_FILE": str(file), "HOME": str(tmp)})  # fmt: skip
    stats: dict[str, Any] = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("@stats "))[7:])
    return stats


@needs_gnubg
def test_a_money_session_that_says_nothing_of_jacoby_is_analysed_as_gnubg_does(tmp_path: Path) -> None:
    """No Jacoby tag: gnubg's default (on) is the analysis's, and the totals are gnubg's own."""
    file = SAMPLES / "gnubg-money-jacoby.mat"
    assert "jacoby" not in file.read_text().lower()
    found = analyse_file(file, engine="gnubg")
    assert found.matches[0]["rules"] == "money, jacoby"
    own = gnubgs_own(file, tmp_path)
    for row in found.players:
        for name, value in gnubg_totals(own["XO"[row["player"]]]).items():
            assert row[name] == value, (row["player"], name)


def _money_session(tmp: Path, limit: str | None) -> Path:
    """A gnubg self-play game as a money session, with no double, tagged with a cube limit."""
    text = (DATA / "gnubg" / "m08-1pt.mat").read_text().replace(" 1 point match", " 0 point match")
    path = tmp / f"session-{limit}.mat"
    path.write_text((f'; [CubeLimit "{limit}"]\n' if limit else "") + text)
    return path


@needs_gnubg
def test_a_cube_limit_of_one_charges_no_cube_decision(tmp_path: Path) -> None:
    free = analyse_file(_money_session(tmp_path, None), engine="gnubg")
    assert sum(row["cube_decisions"] for row in free.players) > 0  # the same game with a cube: decisions charged
    limited = analyse_file(_money_session(tmp_path, "1"), engine="gnubg")
    assert limited.failures == [] and limited.matches[0]["rules"] == "money, jacoby, no cube"
    assert [row["cube_decisions"] for row in limited.players] == [0, 0]
    assert [row["missed_doubles_below_cp"] + row["missed_doubles_above_cp"] for row in limited.players] == [0, 0]
    assert not any(row["kind"] != "checker" for row in limited.decisions)
    checkers = sum(row["checker_decisions"] for row in limited.players)
    assert checkers == sum(row["checker_decisions"] for row in free.players)


def test_a_match_whose_length_does_not_read_is_not_analysed_as_money(tmp_path: Path) -> None:
    bad = tmp_path / "bad-length.mat"
    bad.write_text((FIXTURES / "noisy-5pt.mat").read_text().replace(" 5 point match", " 99999999999 point match"))
    found = analyse_file(bad, engine="gnubg")  # refused before any engine is asked
    assert found.decisions == [] and found.players == [] and found.failures == []
    assert found.matches[0]["problem"].startswith("the match length does not read")
    assert found.notes == [f"match 1: {found.matches[0]['problem']}"]


def test_a_start_the_replay_does_not_know_is_not_analysed_and_said_once(tmp_path: Path) -> None:
    setup = analyse_file(SAMPLES / "dailygammon-nackgammon-wide-columns.mat", engine="gnubg")  # a board set up at the start
    assert setup.decisions == [] and setup.notes == ["match 1: game 1 starts from a set-up position: not analysed"]
    tagged = tmp_path / "nackgammon.mat"
    tagged.write_text('; [Variation "Nackgammon"]\n' + (FIXTURES / "noisy-3pt.mat").read_text())
    nack = analyse_file(tagged, engine="gnubg")
    assert nack.decisions == [] and nack.failures == [] and nack.matches[0]["problem"].startswith("nackgammon is not analysed")
    assert sum("nackgammon" in note for note in nack.notes) == 1


@needs_gnubg
def test_gnubgs_thresholds_and_version_are_read_from_it_written_and_checked(tmp_path: Path) -> None:
    said = subprocess.run([str(GNUBG), "--version"], capture_output=True, text=True, timeout=60).stdout.split()
    version = said[said.index("Backgammon") + 1]
    found = analyse_file(FIXTURES / "noisy-3pt.mat", engine="gnubg")
    for table in (found.matches, found.players):
        assert {row["engine_version"] for row in table} == {version}
        assert {(row["threshold_doubtful"], row["threshold_bad"], row["threshold_very_bad"]) for row in table} == {(0.03, 0.06, 0.12)}
    assert {row["engine_version"] for row in found.decisions} == {version}
    # a worker whose gnubg is not the one the run started with: the match is not analysed, and said why
    other = analyse_file(FIXTURES / "noisy-3pt.mat", engine="gnubg", gnubg=("0.99", {"doubtful": 0.03}))
    assert other.decisions == [] and len(other.failures) == 1
    assert f"gnubg {version} here, where the run started with gnubg 0.99" in other.failures[0]


@needs_gnubg
def test_a_database_keeps_each_analysis_by_its_rules_and_engine(tmp_path: Path) -> None:
    database, file = str(tmp_path / "a.sqlite"), str(FIXTURES / "noisy-3pt.mat")
    code, _, err = run("analyze", file, "-o", database, "--engine", "gnubg")
    assert code == 0 and "1 match analysed" in err
    code, _, err = run("analyze", file, "-o", database, "--engine", "gnubg")
    assert code == 0 and "0 matches analysed, 1 match analysed before" in err
    code, _, err = run("analyze", file, "-o", database, "--engine", "gnubg", "--rules", "cube-limit=1")  # other rules: analysed again
    assert code == 0 and "1 match analysed" in err and "before" not in err
    import sqlite3

    connection = sqlite3.connect(database)
    stored = connection.execute("SELECT engine, rules, count(*) FROM analysis_matches GROUP BY engine, rules").fetchall()
    cube = connection.execute("SELECT count(*) FROM decisions WHERE kind != 'checker'").fetchone()[0]
    connection.close()
    assert stored == [("gnubg 0ply", "match, crawford, no cube", 1)] and cube == 0  # the newer replaces the older


# --- analyze reads the rules exactly as the replay does ---


def _records() -> list[Path]:
    found = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".mat", ".sgf", ".txt", ".gam"))
    found += sorted(FIXTURES.glob("*.mat")) + sorted(FIXTURES.glob("*.sgf"))
    other = CORPUS / "other-formats"
    if other.is_dir():
        found += sorted(p for p in other.rglob("*") if p.suffix in (".xg", ".xgp", ".bgf", ".ogxm", ".mat", ".sgf"))
    if (CORPUS / "real-archives").is_dir():
        found += sorted((CORPUS / "real-archives").rglob("*.mat"))[::10]
    return found


def test_analyze_reads_the_rules_as_the_replay_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """For every record of the corpora at hand: the rules each match is analysed under are the
    replay's (Jacoby, cube limit, Crawford, variant, match length), gnubg's defaults filling in
    only what the record and the user leave unsaid (Jacoby on for money play)."""
    seen: list[Any] = []
    real = replay_match.MatchReplayer.__init__

    def spy(self: Any, match: Any, rules: Any = None, *args: Any, **kwargs: Any) -> None:
        real(self, match, rules, *args, **kwargs)
        seen.append((match.length, self.rules))

    monkeypatch.setattr(replay_match.MatchReplayer, "__init__", spy)
    compared = 0
    for path in _records():
        for spec in (None, "money,jacoby=off,cube-limit=1") if path.suffix == ".mat" else (None,):
            seen.clear()
            found = analyse_file(path, engine="recorded", rules=spec)
            assert found.problem is None, path
            assert len(found.matches) == len(seen), path
            for row, (length, rules) in zip(found.matches, seen):
                analysed = AnalysisRules.of(length or 0, rules)
                assert row["rules"] == analysed.text(), path
                assert row["match_length"] == length
                assert analysed.crawford == (rules.crawford and bool(length)) and analysed.variant == rules.variant.value
                assert analysed.cube_limit == rules.cube_limit and analysed.cube == (rules.cube_limit != 1)
                assert analysed.jacoby == (not length and (rules.jacoby if rules.given("jacoby") else True))
                compared += 1
    assert compared > 40


def test_the_analysis_rules_in_words() -> None:
    from bgrecord.formats.records import MatchRecord, Tag
    from bgrecord.replay.rules import rules_for

    money = MatchRecord(None, "mat", "utf-8", 0, tags=[Tag("CubeLimit", "8", 1), Tag("Jacoby", "Off", 1)])
    assert AnalysisRules.of(0, rules_for(money)).text() == "money, cube limit 8"
    assert AnalysisRules.of(0, rules_for(MatchRecord(None, "mat", "utf-8", 0))).text() == "money, jacoby"
    assert AnalysisRules.of(7, rules_for(MatchRecord(None, "mat", "utf-8", 7))).text() == "match, crawford"
    limited = AnalysisRules.of(0, rules_for(money))
    assert limited.may_double(4) and not limited.may_double(8)
