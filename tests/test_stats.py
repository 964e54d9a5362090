"""Statistics: hand-checked values for every column, GNU Backgammon's winners and points,
the dice test, and `bgrecord stats`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import CORPUS, oracle_matches

from bgrecord.cli import main
from bgrecord.tables import stats, summing

FIXTURES = Path(__file__).resolve().parent / "data" / "stats"
SAMPLES = Path(__file__).resolve().parent.parent / "samples"

# Worked out by hand from the two fixture files (a 7-point match, then a money session).
EXPECTED = {
    "game": [1, 2, 3, 4, 5, 1, 2],
    "match_length": [7, 7, 7, 7, 7, 0, 0],
    "score0": [0, 2, 5, 6, 6, 0, 0],
    "score1": [0, 0, 0, 0, 2, 0, 4],
    "crawford": [False, False, False, True, False, False, False],
    "post_crawford": [False, False, False, False, True, False, False],
    "first_roller": [0, 0, 0, 1, 0, 0, 0],
    "opening_roll": ["21", "21", "31", "64", "31", "31", "21"],
    "winner": [0, 0, 0, 1, None, 1, 0],
    "winner_name": ["Alice", "Alice", "Alice", "Bob", None, "Bob", "Alice"],
    "points": [2, 3, 1, 2, None, 4, 1],  # gammon, backgammon, drop, resigned gammon, -, beaver, Jacoby
    "recorded_points": [2, 3, 1, 2, None, 4, 1],
    "result": ["gammon", "backgammon", "single", "gammon", None, "single", "gammon"],
    "ended_by": ["bearoff", "bearoff", "drop", "resign", "unfinished", "resign", "bearoff"],
    "cube": [1, 1, 1, 1, 2, 4, 1],
    "cube_owner": [None, None, None, None, 0, 1, None],
    "doubles": [0, 0, 1, 0, 1, 1, 0],
    "takes": [0, 0, 0, 0, 1, 0, 0],
    "drops": [0, 0, 1, 0, 0, 0, 0],
    "beavers": [0, 0, 0, 0, 0, 1, 0],
    "raccoons": [0] * 7,
    "first_double_move": [None, None, 2, None, 2, 2, None],
    "turns0": [1, 1, 1, 1, 2, 3, 1],
    "turns1": [0, 0, 1, 2, 2, 2, 0],
    "dances0": [0] * 7,
    "dances1": [0] * 7,
    "hits0": [0, 0, 0, 1, 0, 0, 0],
    "hits1": [0] * 7,
    "pips_lost": [195, 201, 161, 158, None, 153, 195],  # 15 x 13; 14 x 13 + 19; 167 - 6; 167 - 9; ...
    "loser_off": [0, 0, 0, 0, None, 0, 0],
    "valid": [True] * 7,
    "errors": [0] * 7,
    "warnings": [0] * 7,
    "beavers1": [0, 0, 0, 0, 0, 1, 0],
    "doubles_rolled1": [0, 0, 0, 1, 1, 0, 0],
    "dice0": ["", "", "", "63", "65", "64 52", ""],  # the opening roll is left out
    "dice1": ["", "", "42", "55", "42 66", "42 62", ""],
}


def test_every_column_on_hand_checked_games() -> None:
    games = stats.games([FIXTURES])
    assert list(games.columns) == list(stats.GAME_COLUMNS)
    assert [str(t) for t in games.dtypes] == list(stats.GAME_COLUMNS.values())
    for column, values in EXPECTED.items():
        got = [None if pd.isna(v) else v for v in games[column]]
        assert got == values, column
    assert set(games["player0"]) == {"Alice"} and games["match_key"].str.len().eq(16).all()


def test_players_matches_and_dice_tables() -> None:
    games = stats.games([FIXTURES])
    players = stats.players(games).set_index("player")
    alice, bob = players.loc["Alice"], players.loc["Bob"]
    assert (alice["games"], alice["wins"], alice["points_won"], alice["points_lost"]) == (7, 4, 7, 6)
    assert (alice["gammons_won"], alice["backgammons_won"], bob["gammons_won"]) == (2, 1, 1)
    assert alice["gammon_rate"] == pytest.approx(3 / 4) and bob["gammon_loss_rate"] == pytest.approx(3 / 4)
    assert (bob["doubles"], bob["drops"], bob["beavers"], alice["takes"]) == (1, 1, 1, 1)
    assert alice["take_rate"] == 1.0 and bob["drop_rate"] == 1.0
    matches = stats.matches(games)
    first = matches.iloc[0]
    assert (first["final_score0"], first["final_score1"], first["games"], first["crawford_game"]) == (6, 2, 5, 4)
    assert pd.isna(first["winner"]) and bool(first["valid"])
    dice = stats.dice(games, tests=False).set_index("player")  # the counts; the tests (scipy) are tested below
    assert dice.loc["all", "rolls"] == 10 and dice.loc["Bob", "roll55"] == 1 and dice.loc["Bob", "roll66"] == 1
    assert dice.loc["Alice", "face6"] == 3 and dice.loc["all", "doubles"] == 2


def test_same_numbers_from_paths_and_from_the_games_table() -> None:
    assert stats.players([FIXTURES]).equals(stats.players(stats.games([FIXTURES])))


def rolls(rng: random.Random, count: int, sixes: float = 0.0, doubles: float = 0.0) -> str:
    """Dice: fair, or loaded towards sixes, or towards doubles."""
    out = []
    for _ in range(count):
        a = 6 if rng.random() < sixes else rng.randint(1, 6)
        b = a if rng.random() < doubles else (6 if rng.random() < sixes else rng.randint(1, 6))
        out.append(f"{max(a, b)}{min(a, b)}")
    return " ".join(out)


def dice_row(text: str) -> dict[str, object]:
    return {"player0": "Alice", "player1": "Bob", "valid": True, "winner": None, "result": None, "points": None, "cube": 1,
            "file": "x", "match": 1, "match_key": "k", "duplicate_of": None, "game": 1, "match_length": 0, "crawford": False,
            "score0": 0, "score1": 0, "dice0": text, "dice1": "",
            **{f"{name}{side}": 0 for name in ("doubles", "takes", "drops", "beavers", "dances", "hits", "doubles_rolled") for side in (0, 1)}}  # fmt: skip


def test_the_dice_test_accepts_fair_dice_and_rejects_loaded_ones() -> None:
    pytest.importorskip("scipy", reason="the dice table's tests need scipy (bgrecord[dice])")
    rng = random.Random(6)

    def verdict(text: str) -> tuple[float, float]:
        tables = summing.Tables()
        tables.add_row(dice_row(text))
        row = tables.dice().set_index("player").loc["all"]
        return row["p_faces"], row["p_doubles"]

    fair = verdict(rolls(rng, 30000))
    assert fair[0] > 0.01 and fair[1] > 0.01
    assert verdict(rolls(rng, 30000, sixes=0.05))[0] < 1e-6
    assert verdict(rolls(rng, 30000, doubles=0.05))[1] < 1e-6


def test_a_players_sums_are_small_and_what_is_not_a_roll_is_not_counted() -> None:
    """An archive's players are held in memory while its games are summed (an index of a
    million games: tens of thousands of players): a player's sums are a few hundred bytes (some
    2 KB each as counters), however large the counts (in a list, each past 256 was an object of
    its own). Dice text another program wrote into an index's games table counts only where it
    is a roll written high first, as bgrecord writes them."""
    import tracemalloc

    def held_a_player(counts: int) -> float:
        rng = random.Random(3)
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            tables = summing.Tables(keep_matches=False)
            for game in range(6_000):
                row = dice_row(rolls(rng, 20))
                row["player0"], row["player1"], row["winner"], row["points"] = f"A{game}", f"B{game // 2}", game % 2, counts
                for name in summing._COUNTED:
                    row[f"{name}0"] = row[f"{name}1"] = counts + game
                tables.add_row(row)
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert len(tables.people) == 9_000
        return held / 9_000

    small, large = held_a_player(0), held_a_player(1_000)
    assert small < 800 and abs(large - small) < 0.05 * small, (small, large)
    tables = summing.Tables()
    tables.add_row(dice_row("31 13 7 ab 66 x6 31"))
    dice = tables.dice(tests=False).set_index("player")
    assert dice.loc["Alice", "rolls"] == 3 and dice.loc["Alice", "roll31"] == 2 and dice.loc["Alice", "roll66"] == 1
    assert dice.loc["Alice", "face3"] == 2 and dice.loc["Alice", "face6"] == 2 and dice.loc["Alice", "doubles"] == 1


def test_winners_and_points_equal_gnubg_on_the_selfplay_corpus() -> None:
    readings = {o["file"]: o for o in oracle_matches()}
    for suffix in (".mat", ".sgf"):
        paths = sorted((CORPUS / "gnubg-selfplay").glob(f"*{suffix}"))
        table = stats.games(paths)
        for path in paths:
            rows = table[table["file"] == str(path)]
            oracle = readings[path.with_suffix(".mat").name]["games"]
            assert list(rows["winner"]) == [g["info"]["winner"] for g in oracle], path.name
            assert list(rows["points"]) == [g["info"]["points-won"] for g in oracle], path.name
            resigned = [bool(g["info"].get("resigned")) for g in oracle]
            assert list(rows["ended_by"] == "resign") == resigned, path.name


def test_stats_command_writes_every_table_the_same_for_any_jobs(tmp_path: Path) -> None:
    outputs = []
    for jobs in ("1", "2"):
        folder = tmp_path / jobs
        folder.mkdir()
        result = CliRunner().invoke(main, [
            "stats", str(SAMPLES), str(FIXTURES), "-o", str(folder / "games.csv"), "--players", str(folder / "players.csv"),
            "--matches", str(folder / "matches.csv"), "--jobs", jobs,
        ])  # fmt: skip
        assert result.exit_code == 0, result.output
        outputs.append([(folder / name).read_text() for name in ("games.csv", "players.csv", "matches.csv")])
    assert outputs[0] == outputs[1]
    games = pd.read_csv(tmp_path / "1" / "games.csv")
    assert len(games) == 48 and list(games.columns) == list(stats.GAME_COLUMNS)


def test_stats_writes_the_dice_table_with_its_tests(tmp_path: Path) -> None:
    pytest.importorskip("scipy", reason="the dice table's tests need scipy (bgrecord[dice])")
    result = CliRunner().invoke(main, ["stats", str(SAMPLES), "-o", str(tmp_path / "games.csv"), "--dice", str(tmp_path / "dice.csv")])
    assert result.exit_code == 0, result.output
    dice = pd.read_csv(tmp_path / "dice.csv").set_index("player")
    assert dice.loc["all", "rolls"] > 500 and 0 < dice.loc["all", "p_faces"] <= 1


def test_stats_formats_and_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (bgrecord[plot])")
    runner = CliRunner()
    result = runner.invoke(main, ["stats", str(FIXTURES), "-o", str(tmp_path / "g.json"), "--format", "json", "--plot", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "g.json").read_text())  # one document: a list of the rows
    assert len(rows) == 7 and rows[0]["result"] == "gammon"
    assert "data:image/png;base64," in (tmp_path / "r.html").read_text()
    result = runner.invoke(main, ["stats", str(FIXTURES), "-o", str(tmp_path / "g.csv"), "--plot", str(tmp_path / "r.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
    result = runner.invoke(main, ["stats", str(FIXTURES), "-o", str(tmp_path / "g.csv"), "--plot", str(tmp_path / "r.pdf")])
    assert result.exit_code == 2 and "html or .png" in result.output


def test_stats_writes_parquet(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (bgrecord[parquet])")
    result = CliRunner().invoke(main, ["stats", str(FIXTURES), "-o", str(tmp_path / "g.parquet"), "--format", "parquet"])
    assert result.exit_code == 0, result.output
    assert len(pd.read_parquet(tmp_path / "g.parquet")) == 7
