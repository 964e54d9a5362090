"""Golden test: every recorded move of GNU Backgammon's self-play corpus, replayed by the rules core.

For each game of ``gnubg-selfplay/oracle.jsonl``: each recorded move is among
``legal_plays`` and passes ``play_error``, and the Position ID before every action
equals gnubg's ``board`` for that action (seen from the acting player's side).
"""

from __future__ import annotations

from typing import Any

from conftest import oracle_matches

from bgrecord import Play, Position


def replay_game(game: dict[str, Any]) -> tuple[int, int]:
    """Replay one game; return (actions compared, moves checked)."""
    position: Position | None = None
    compared = moves = 0
    for index, action in enumerate(game["actions"]):
        if action["board"] is None:  # a resignation has no board
            continue
        if position is None:
            position = Position.start(turn=action["player"])
        here = Position(position.sides, action["player"])
        assert here.id() == action["board"], f"action {index}: board differs before {action}"
        compared += 1
        if action["action"] != "move":
            continue
        play = Play.from_pairs(action["move"])
        error = here.play_error(action["dice"], play)
        assert error is None, f"action {index}: {action} refused: {error}"
        after = here.play(play, action["dice"])
        assert after in [legal.position for legal in here.legal_plays(action["dice"])]
        position = after
        moves += 1
    return compared, moves


def test_every_selfplay_move_is_legal_and_every_board_matches() -> None:
    games = compared = moves = 0
    for match in oracle_matches():
        assert match["ok"], match["file"]
        for game in match["games"]:
            c, m = replay_game(game)
            games, compared, moves = games + 1, compared + c, moves + m
    # every game, every action of the corpus (40 matches)
    assert games >= 100 and moves >= 12000, (games, moves)
