"""What the index's positions table stands for, made here from the replays alone: the rows the
index of schema 2 held (a row an action, with every identifier of the position before it),
the play in bgrecord's notation, an empty name as every output writes it since issue 30
(``(no name, left)``). ``tests/test_index.py`` checks that the index, read back
(:func:`bgrecord.tables.read_back.positions`), gives these rows, column by column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from bgrecord.formats.records import MatchRecord
from bgrecord.names import named
from bgrecord.replay import GameReplay
from bgrecord.replay.rules import rules_for
from bgrecord.tables.stats import file_rows
from bgrecord.writing.writers import ids_json, mat_rows, notation, step_ogids, step_state


def _rows(number: int, match: MatchRecord, out: GameReplay, jacoby: bool) -> Iterator[dict[str, Any]]:
    names = out.game.names
    for index, (step, ogid, row) in enumerate(zip(out.steps, step_ogids(out, match.length or 0), mat_rows(out.steps)), 1):
        position, state = step_state(step, out, match, jacoby)
        if position is None:
            continue
        dice = step.dice if step.dice and state.dice != (0, 0) else None
        pips = position.pips()
        yield {
            "match": number, "game": out.game.index, "move": row, "line": step.action.line, "unit": match.unit, "step": index,
            "action": step.kind, "player": position.turn, "player0": named(names[0], 0), "player1": named(names[1], 1),
            "dice": f"{max(dice)}{min(dice)}" if dice else None, "play": notation(step.play) if step.play is not None else None,
            **ids_json(position, state, ogid), "pips0": pips[0], "pips1": pips[1], "cube": step.cube, "cube_owner": step.cube_owner,
            "score0": step.score[0], "score1": step.score[1], "match_length": match.length,
        }  # fmt: skip


def expected_positions(path: str | Path) -> list[dict[str, Any]]:
    """The rows of one file, as the index made of schema 2 held them (``file`` and
    ``match_key`` as in its games rows), or none for a file the index keeps no positions of
    (one bgrecord failed on)."""
    found: list[dict[str, Any]] = []

    def each(number: int, match: MatchRecord, out: GameReplay) -> None:
        found.extend(_rows(number, match, out, rules_for(match, None).jacoby))

    games = file_rows(path, None, each)
    if games.problem or games.oversized:
        return []
    keys = {row["match"]: row["match_key"] for row in games.rows}
    for row in found:
        row["file"], row["match_key"] = games.path, keys.get(row["match"])
    return found
