"""The positions table read back as the rows it stands for (:func:`positions`): every
identifier, the pip counts and the play's notation, made again from each game's plays, in
file order.

What it does not do: trust a row it cannot check (a position whose hash is not its row's is
unknown, as are the rows after it until a known one), or search (:mod:`bgrecord.tables.search`).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator, cast

from bgrecord.core.position import Position
from bgrecord.tables.identifiers import dice_text, match_id, match_state, xgid
from bgrecord.tables.positions import OPENING_SIDES, Occurrence, hash_of, id_of_key, occurrence, played
from bgrecord.tables.search import OCCURRENCE_COLUMNS, OCCURRENCES_FROM, searched

POSITION_ROW_COLUMNS = ("file", "match_key", "match", "game", "move", "line", "unit", "step", "action", "player", "player0", "player1",
                        "dice", "play", "position_id", "match_id", "xgid", "ogid", "pips0", "pips1", "cube", "cube_owner", "score0",
                        "score1", "match_length")  # fmt: skip


def positions(path: str | Path) -> Iterator[dict[str, Any]]:
    """The positions table as the rows it stands for (:data:`POSITION_ROW_COLUMNS`: every
    identifier, the pip counts, the play in notation), in file order: each game's positions
    are its plays applied from its start (each checked against its row's hash; a row that
    does not agree, as after a change by another program, has no position, nor have the rows
    after it until a known one)."""
    sql = (f"SELECT {OCCURRENCE_COLUMNS}, p.position, s.position, g.post_crawford, p.game {OCCURRENCES_FROM} "
           "LEFT JOIN start_positions s ON s.game = p.game AND s.step = p.step ORDER BY f.file, f.file_id, g.match, g.game, p.step")  # fmt: skip
    with searched(path) as database:
        game: list[tuple[Any, ...]] = []
        for row in database.tuples(sql):
            if game and row[21] != game[0][21]:
                yield from _game_rows(game)
                game = []
            game.append(row)
        yield from _game_rows(game)


def _game_rows(rows: list[tuple[Any, ...]]) -> Iterator[dict[str, Any]]:
    from bgrecord.replay.state import GameReplay, Step
    from bgrecord.writing.writers import step_ogids

    if not rows:
        return
    file, unit, base, match, game, player0, player1, score0, score1, length, crawford, jacoby, match_key = rows[0][:13]
    seen = _replayed(rows, base)
    score = (score0 or 0, score1 or 0)
    steps = [Step(None, s.kind, s.actor, s.position, s.position, s.dice, None, s.cube, s.cube_owner, score) for s in seen]  # type: ignore[arg-type]
    game_replay = cast(GameReplay, SimpleNamespace(steps=steps, crawford=bool(crawford), post_crawford=bool(rows[0][20])))
    for each, ogid in zip(seen, step_ogids(game_replay, length or 0)):
        state = match_state(each, score0, score1, length, crawford, jacoby)
        pips = each.position.pips() if each.position is not None else (None, None)
        yield {
            "file": file, "match_key": match_key, "match": match, "game": game, "move": each.move, "line": each.line, "unit": unit,
            "step": each.step, "action": each.kind, "player": each.player, "player0": player0, "player1": player1, "dice": dice_text(each),
            "play": each.play, "position_id": each.position.id() if each.position is not None else None, "match_id": match_id(state),
            "xgid": xgid(each.position, state), "ogid": ogid, "pips0": pips[0], "pips1": pips[1], "cube": each.cube,
            "cube_owner": each.cube_owner, "score0": score0, "score1": score1, "match_length": length,
        }  # fmt: skip


def _replayed(rows: list[tuple[Any, ...]], base: Any) -> list[Occurrence]:
    """A game's occurrences with their positions: from a kept start (the standard opening
    where the game's first row has none), each play applied in turn; a position whose hash
    is not its row's is unknown, as are those after it until the next kept one."""
    seen = []
    sides: Any = OPENING_SIDES
    for row in rows:
        each = occurrence(row[14:18], base)
        seen.append(each)
        if row[19] is not None:
            try:
                sides = Position.from_id(id_of_key(row[19]), each.player).sides
            except (ValueError, TypeError):
                sides = None
        position = None if sides is None else Position(sides, each.player)
        if position is None or not isinstance(row[18], int) or hash_of(position) != row[18]:
            sides = None
            continue
        each.position = position
        if each.kind == "move" and each.moves is not None:
            try:
                sides = played(position, each.moves).sides
            except ValueError:
                sides = None
    return seen
