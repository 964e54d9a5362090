"""The replay against GNU Backgammon's own reading of its self-play matches (the oracle):
no issue at all, the position before every move and double equal to gnubg's, and the same
winners and points. Fresh matches are made with gnubg when it is installed."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any, Iterable

import pytest
from conftest import CORPUS, TOOLS, gnubg_reading, oracle_matches

from bgrecord import Position, read_match
from bgrecord.replay import GameReplay, replay
from bgrecord.show.steps import step_records
from bgrecord.tables import stats


def compare(match_path: Path, oracle: dict[str, Any]) -> int:
    """Replay one file and compare it with gnubg's reading; the number of boards compared."""
    match = read_match(match_path)
    games = list(replay(match))
    issues = [str(i) for g in games for i in g.issues] + [str(i) for i in match.all_issues()]
    assert not [i for i in issues if "info[" not in i], issues
    assert len(games) == len(oracle["games"])
    compared = 0
    for ours, theirs in zip(games, oracle["games"]):
        compared += compare_game(ours, theirs["actions"])
        info = theirs["info"]
        assert ours.result is not None
        assert (ours.result.winner, ours.result.points) == (info["winner"], info["points-won"]), match_path.name
        assert ours.score == (info["score-X"], info["score-O"])
        assert (ours.result.ended_by == "resign") == bool(info.get("resigned")), match_path.name
        assert ours.crawford == bool(info.get("crawford"))  # gnubg omits the key when False
    return compared


def compare_game(ours: GameReplay, actions: Iterable[dict[str, Any]]) -> int:
    steps = [s for s in ours.steps if s.kind in ("move", "double", "take", "drop")]
    theirs = [a for a in actions if a["action"] in ("move", "double", "take", "drop")]
    assert [(s.kind, s.player) for s in steps] == [(a["action"], a["player"]) for a in theirs]
    for step, action in zip(steps, theirs):
        if action["board"] is None:
            continue
        position = step.before if step.kind == "move" else step.after
        assert position is not None
        assert Position(position.sides, action["player"]).id() == action["board"], (step.action, action)
    return len(steps)


def test_selfplay_corpus_replays_exactly_as_gnubg_reads_it() -> None:
    compared = 0
    for oracle in oracle_matches():
        compared += compare(CORPUS / "gnubg-selfplay" / oracle["file"], oracle)
    assert compared > 12000


def test_fresh_gnubg_matches_replay_exactly(gnubg: str, tmp_path: Path) -> None:
    if not (TOOLS / "gnubg-matches.sh").exists():
        pytest.skip("shared/tools absent")
    subprocess.run(["bash", str(TOOLS / "gnubg-matches.sh"), str(tmp_path), "4", "4242"], check=True, timeout=600)
    files = sorted(tmp_path.glob("*.mat")) + sorted(tmp_path.glob("*.sgf"))
    readings = gnubg_reading(files, tmp_path)
    assert len(readings) == len(files) == 8
    for path, oracle in zip(files, readings):
        assert oracle["ok"], oracle
        compare(path, oracle)
        records = [r.to_json() for r in step_records(path)]  # bgrecord replay --format jsonl
        ours = [(r["game"], r["action"], r["player"], r["position_id"]) for r in records if r["action"] in ("move", "double")]
        theirs = [(i, a["action"], a["player"], a["board"]) for i, g in enumerate(oracle["games"], 1)
                  for a in g["actions"] if a["action"] in ("move", "double")]  # fmt: skip
        assert ours == theirs, path.name
        table = stats.games([path])  # the statistics give gnubg's winners and points too
        assert list(table["winner"]) == [g["info"]["winner"] for g in oracle["games"]]
        assert list(table["points"]) == [g["info"]["points-won"] for g in oracle["games"]]
