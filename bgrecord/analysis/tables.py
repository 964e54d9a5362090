"""The columns of ``bgrecord analyze``'s tables and their types (as :mod:`bgrecord.tables.stats`
declares its own): decisions, players (one row a player of a match), matches. Documented in
docs/analysis.md. Plain data: importing it costs nothing."""

from __future__ import annotations

DECISION_COLUMNS: dict[str, str] = {
    "file": "string", "match_key": "string", "match": "Int64", "game": "Int64", "game_in_match": "Int64",
    "game_key": "string", "move": "Int64", "step": "Int64", "player": "Int64", "name": "string", "kind": "string",
    "dice": "string", "play": "string", "best": "string", "equity": "Float64", "best_equity": "Float64",
    "error": "Float64", "counted": "boolean", "mark": "string", "category": "string", "candidates": "Int64",
    "luck": "Float64", "luck_cost": "Float64", "cube": "Int64", "position_id": "string", "match_id": "string",
    "plies": "Int64", "level": "string", "engine": "string", "engine_version": "string",
}  # fmt: skip

PLAYER_COLUMNS: dict[str, str] = {
    "file": "string", "match_key": "string", "match": "Int64", "player": "Int64", "name": "string", "opponent": "string",
    "plies": "Int64", "engine": "string", "games": "Int64", "moves": "Int64", "checker_decisions": "Int64",
    "checker_error": "Float64", "cube_decisions": "Int64", "cube_error": "Float64", "error": "Float64",
    "error_rate": "Float64", "pr": "Float64", "snowie_er": "Float64", "rating": "string", "luck": "Float64",
    "luck_rate": "Float64", "luck_cost": "Float64", "actual_result": "Float64", "luck_adjusted_result": "Float64",
    "doubtful": "Int64", "bad": "Int64", "very_bad": "Int64", "missed_doubles_below_cp": "Int64",
    "missed_doubles_above_cp": "Int64", "wrong_doubles_below_dp": "Int64", "wrong_doubles_above_tg": "Int64",
    "wrong_takes": "Int64", "wrong_passes": "Int64", "engine_version": "string", "threshold_doubtful": "Float64",
    "threshold_bad": "Float64", "threshold_very_bad": "Float64",
}  # fmt: skip

MATCH_COLUMNS: dict[str, str] = {
    "file": "string", "match_key": "string", "match": "Int64", "match_length": "Int64", "player0": "string",
    "player1": "string", "plies": "Int64", "engine": "string", "games": "Int64", "games_analysed": "Int64",
    "games_skipped": "Int64", "problem": "string", "engine_version": "string", "rules": "string",
    "threshold_doubtful": "Float64", "threshold_bad": "Float64", "threshold_very_bad": "Float64",
}  # fmt: skip

TABLES = {"decisions": DECISION_COLUMNS, "players": PLAYER_COLUMNS, "matches": MATCH_COLUMNS}
