"""One convention per thing across commands: a ``.json`` output is one JSON document (JSON Lines
is ``.jsonl``), ``-o``/``--output`` everywhere, dice as bgrecord prints them, an empty name said
one way, an analysis of another match said to be one."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from bgrecord.analysis.store import load
from bgrecord.analysis.tables import TABLES
from bgrecord.cli import main

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
EMPTY_NAME = SAMPLES / "galaxy-losses-row-empty-name.txt"  # its right player has no name


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_stats_json_is_one_document_and_jsonl_a_row_a_line(tmp_path: Path) -> None:
    code, out = run("stats", str(SAMPLES), "-q", "-o", str(tmp_path / "g.json"), "--players", str(tmp_path / "p.json"),
                    "--matches", str(tmp_path / "m.jsonl"))  # fmt: skip
    assert code == 0, out
    games = json.loads((tmp_path / "g.json").read_text())
    assert isinstance(games, list) and len(games) == len(pd.read_json(tmp_path / "g.json")) > 40
    assert json.loads((tmp_path / "p.json").read_text())[0]["player"]
    lines = (tmp_path / "m.jsonl").read_text().splitlines()
    assert len(lines) == len(pd.read_json(tmp_path / "m.jsonl", lines=True)) and all(json.loads(line)["file"] for line in lines)
    code, out = run("stats", str(EMPTY_NAME), "-q", "-o", "-", "--format", "json")
    assert code == 0 and len(json.loads(out)) == 3
    code, out = run("stats", str(tmp_path / "nothing"), "-q", "-o", str(tmp_path / "none.json"))
    assert code == 2  # (no such folder)


def test_an_empty_table_is_an_empty_json_list(tmp_path: Path) -> None:
    from bgrecord.tables.export import TableWriter
    from bgrecord.tables.stats import GAME_COLUMNS

    with TableWriter(tmp_path / "empty.json", "json", GAME_COLUMNS):
        pass
    assert json.loads((tmp_path / "empty.json").read_text()) == []


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_an_analysis_table_reads_back_from_json_and_json_lines(tmp_path: Path, suffix: str) -> None:
    from bgrecord.tables.export import write_table
    from bgrecord.tables.summing import frame

    row = {name: None for name in TABLES["matches"]} | {"file": "a.mat", "match_key": "k", "match": 1, "plies": 0, "games": 1}
    write_table(frame([row], TABLES["matches"]), tmp_path / f"m{suffix}", "json" if suffix == ".json" else "jsonl")
    kind, chunks = load(tmp_path / f"m{suffix}")
    assert kind == "matches" and [key for chunk in chunks for key in chunk["match_key"]] == ["k"]
    lines = tmp_path / "old.json"  # an earlier bgrecord wrote JSON Lines under .json
    lines.write_text((tmp_path / f"m{suffix}").read_text() if suffix == ".jsonl" else "")
    if suffix == ".jsonl":
        assert load(lines)[0] == "matches"


def test_replay_writes_json_as_one_document_and_takes_o_and_its_old_spelling(tmp_path: Path) -> None:
    sample = str(SAMPLES / "gnubg-5pt-crawford.mat")
    code, out = run("replay", sample, "-o", str(tmp_path / "r.json"))  # the format from the extension
    assert code == 0, out
    steps = json.loads((tmp_path / "r.json").read_text())
    assert len(steps) > 50 and steps[0]["position_id"] == "4HPwATDgc/ABMA"
    code, out = run("replay", sample, "--output-file", str(tmp_path / "r.jsonl"))
    assert code == 0 and [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()] == steps
    code, out = run("replay", sample, "--output", str(tmp_path / "r.txt"), "--board", "none")
    assert code == 0 and (tmp_path / "r.txt").read_text().startswith("Game 1 of a 5 point match")
    code, out = run("replay", sample, "--format", "json", str(SAMPLES / "bbgt-two-matches.mat"))
    assert code == 0 and {step["path"] for step in json.loads(out)} == {sample, str(SAMPLES / "bbgt-two-matches.mat")}
    code, out = run("replay", sample, "-o", str(tmp_path / "x.json"), "--format", "jsonl")
    assert code == 2 and "holds one JSON document" in out and not (tmp_path / "x.json").exists()
    assert "--output-file" not in run("replay", "--help")[1]


def test_dice_as_printed_and_a_bad_roll_refused_before_the_board(tmp_path: Path) -> None:
    plain, dashed = run("board", "4HPwATDgc/ABMA", "--dice", "31"), run("board", "4HPwATDgc/ABMA", "--dice", "3-1")
    assert plain == dashed and plain[0] == 0 and "16 legal plays" in plain[1]
    result = CliRunner().invoke(main, ["board", "4HPwATDgc/ABMA", "--dice", "7-1"])
    assert result.exit_code == 2 and "a roll is two dice" in result.output and "GNU Backgammon" not in result.output


def test_an_empty_name_is_said_one_way(tmp_path: Path) -> None:
    said = "(no name, right)"
    code, out = run("stats", str(EMPTY_NAME), "-q", "-o", str(tmp_path / "g.csv"), "--players", str(tmp_path / "p.csv"),
                    "--matches", str(tmp_path / "m.csv"))  # fmt: skip
    assert code == 0, out
    assert set(pd.read_csv(tmp_path / "g.csv")["player1"]) == {said} and said in set(pd.read_csv(tmp_path / "p.csv")["player"])
    assert set(pd.read_csv(tmp_path / "m.csv")["player1"]) == {said}
    code, out = run("replay", str(EMPTY_NAME), "--board", "none")
    assert f"Game 1 of a 3 point match: lasse 0, {said} 0." in out
    code, out = run("read", str(EMPTY_NAME))
    assert f"lasse vs {said}" in out
    code, out = run("index", str(EMPTY_NAME), "-q", "-o", str(tmp_path / "db.sqlite"))
    code, out = run("find", str(tmp_path / "db.sqlite"), "4HPwATDgc/ABMA")
    assert f"(lasse - {said})" in out


def test_replay_with_another_matchs_analysis_says_so(tmp_path: Path) -> None:
    row = {name: None for name in TABLES["decisions"]} | {"file": "other.mat", "match_key": "k", "game_key": "0" * 16, "step": 1,
                                                          "plies": 0, "kind": "checker", "error": 0.5}  # fmt: skip
    from bgrecord.tables.export import write_table
    from bgrecord.tables.summing import frame

    write_table(frame([row], TABLES["decisions"]), tmp_path / "d.csv", "csv")
    result = CliRunner().invoke(main, ["replay", str(SAMPLES / "gnubg-5pt-crawford.mat"), "--analysis", str(tmp_path / "d.csv"), "--board", "none"])
    assert result.exit_code == 0, result.output
    assert f"gnubg-5pt-crawford.mat: warning: {tmp_path / 'd.csv'} holds no analysis of its games" in result.output
