"""OGXM written (:func:`write_ogxm`, :func:`write_stream`): a replayed record as OGXM v2
bytes, checked by the ``ogxm`` codec (``v2_problem``) and read back by
:mod:`bgrecord.formats.ogxm` as the same match.

A game that starts from a board set up has it as its ``initial_board``, a board set up later
is a set-position ply (by the player on roll, as the codec wants it; with the dice of the play
it stands for, if any), dice rolled and not played are a ply without steps. Refused
(``OgxmWriteError``, saying why): beavers and raccoons, a turn a record leaves out (a
closed-out player's dance without its dice), games left out of a record (OGXM holds only the
starting score), and what the codec's own rules refuse.
"""

from __future__ import annotations

import io
import itertools
from typing import Any, Iterable

from bgrecord.core.position import BAR, Dice, LegalPlay, Position
from bgrecord.formats.cutmark import OGXM_KEY
from bgrecord.formats.ogxm import DICE_IDS, DOUBLE, DROP, GAME_OVER, RESIGN_GAME, SET_POSITION, TAKE, codec
from bgrecord.formats.records import MatchRecord
from bgrecord.replay.rules import RuleSet
from bgrecord.writing.stated import cut_marks, played_rules, starts_nackgammon

_SOURCES = {"mat": 1, "gam": 1, "sgf": 1, "fibs": 1, "xg": 2, "xgp": 2, "bgf": 4}  # OGXM's "source": the import it came by


class OgxmWriteError(ValueError):
    """A record that OGXM (as bgrecord writes it) cannot hold."""


def board_cells(position: Position) -> list[int]:
    """OGXM's 26 signed counts of ``position`` (the inverse of
    :func:`bgrecord.formats.ogxm.board_position`)."""
    white, black = position.sides
    return [white[BAR]] + [white[BAR - pip] - black[pip] for pip in range(1, 25)] + [-black[BAR]]



def _dice_id(dice: tuple[int, int]) -> int:
    return DICE_IDS.index((min(dice), max(dice)))


def _ply_steps(player: int, play: LegalPlay, dice: tuple[int, int]) -> list[dict[str, int]]:
    """The play's moves as OGXM steps, in an order that replays, each with the die it uses
    (a bear-off with a larger die says the die)."""
    left = Dice(*dice).pips()
    steps = []
    for move in play.play.moves:
        distance = move.source - move.target
        die = distance if distance in left else min(d for d in left if d > distance)
        left.remove(die)
        steps.append({"from": BAR - move.source if player == 0 else move.source, "pips": die})
    return steps


def document(match: MatchRecord, games: Iterable[Any], rules: RuleSet | None = None) -> dict[str, Any]:
    """The OGXM JSON document of a replayed record (``games``: its GameReplays, each used
    once, as they come: the document holds the plies, not the replays), played by ``rules``
    (by default the match's own): Crawford, Jacoby, beavers, the cube limit and the variant."""
    from bgrecord.replay.rules import rules_for

    each = iter(games)
    first = next(each, None)
    rules = played_rules(rules if rules is not None else rules_for(match), first)
    names = first.game.names if first is not None else match.players
    money = not match.length
    doc: dict[str, Any] = {
        "match_length": match.length or 0, "player_white": names[0], "player_black": names[1],
        "variant": "nackgammon" if rules.variant.value == "nackgammon" else "backgammon",
        "crawford": not money and rules.crawford, "jacoby": money and rules.jacoby, "beavers": money and rules.beavers,
        "source": _SOURCES.get(match.format, 0), "checksum": "crc32", "games": [],
    }  # fmt: skip
    if rules.cube_limit and rules.cube_limit & (rules.cube_limit - 1) == 0:
        doc["cube_limit"] = rules.cube_limit
    for key, tag in (("event", "Event"), ("round", "Round")):
        value = match.tag(tag)
        if value:
            doc[key] = value[:120]
    if first is not None and first.score != (0, 0):  # the codec's names (it drops a "score_start" pair)
        doc["white_score_start"], doc["black_score_start"] = first.score
    checking, before = bool(match.length), None
    for replayed in itertools.chain([first] if first is not None else [], each):
        if checking and before is not None:
            if before.result is None:
                checking = False  # past an unfinished game: the replay has said so
            else:
                _follows(before, replayed)
        before = replayed
        doc["games"].append(_game(replayed))
        for mark in cut_marks(replayed):  # where a forced conversion cut the game: bgrecord.formats.cutmark
            doc.setdefault("annotations", []).append({"scope": "game", "ref": len(doc["games"]) - 1, "key": OGXM_KEY, "value": mark})
        if starts_nackgammon(replayed):
            doc["variant"] = "nackgammon"  # DailyGammon's way: a set-up of the Nackgammon start
    return doc


def _follows(before: Any, game: Any) -> None:
    """OGXM holds the score a match starts at, and counts the rest: refuse a record whose
    games do not follow from one another (games left out of it)."""
    result = before.result
    running = list(before.score)
    running[result.winner] += result.points
    if tuple(running) != tuple(game.score):
        raise OgxmWriteError(f"game {game.game.index} starts at {game.score[0]}-{game.score[1]}, but the game before it ends at "
                             f"{running[0]}-{running[1]} (games left out of the record): OGXM holds only the score a match "
                             "starts at")  # fmt: skip


def _game(replayed: Any) -> dict[str, Any]:
    from bgrecord.writing.writers import is_illegal_play, next_actor

    plies: list[dict[str, Any]] = []
    game: dict[str, Any] = {"plies": plies}
    last_roller: int | None = None
    for number, step in enumerate(replayed.steps):
        if step.kind == "setup" and number == 0 and starts_nackgammon(replayed):
            continue  # written as the match's variant
        if step.kind == "setup" and step.after is not None:
            following = next_actor(replayed.steps, number)
            if not plies and step.before is None:  # the board the game starts from
                if step.after.sides != Position.start().sides:  # the standard one is the default
                    game.update(initial_board=board_cells(step.after), is_default_board=False)
                if following is not None:
                    game["first_to_move"] = 1 if following == 0 else 0
                continue
            on_roll = following if following is not None else step.after.turn  # the codec's rule: the ply is by the player on roll
            ply = {"action_id": SET_POSITION, "color": 1 if on_roll == 0 else 0, "set_position": board_cells(step.after)}
            if is_illegal_play(step):
                ply.update(d1=step.dice[0], d2=step.dice[1])
            plies.append(ply)
            last_roller = 1 - on_roll
            continue
        if step.player is None:
            continue
        color = 1 if step.player == 0 else 0
        if step.kind == "move" and step.dice is not None:  # no play: a dance, or rolled, then resigned
            if step.player == last_roller:
                raise OgxmWriteError(f"game {replayed.game.index}: a turn the record leaves out (the dance of a player closed "
                                     "out, its dice not said), which OGXM cannot hold")  # fmt: skip
            last_roller = step.player
            moves = _ply_steps(step.player, step.play, step.dice) if step.play is not None else []
            plies.append({"action_id": _dice_id(step.dice), "color": color, "d1": min(step.dice), "d2": max(step.dice), "moves": moves})
        elif step.kind in ("double", "take", "drop"):
            plies.append({"action_id": {"double": DOUBLE, "take": TAKE, "drop": DROP}[step.kind], "color": color})
        elif step.kind in ("beaver", "raccoon"):
            raise OgxmWriteError(f"game {replayed.game.index}: a {step.kind}, which OGXM cannot hold (its codec takes no double "
                                 "answered by a double)")  # fmt: skip
    result = replayed.result if replayed.checked else None
    if result is not None:
        if result.ended_by == "resign":
            level = {1: "single", 2: "gammon", 3: "backgammon"}[result.kind]
            plies.append({"action_id": RESIGN_GAME, "color": 0 if result.winner == 0 else 1, "resign_value": level})
            plies.append({"action_id": GAME_OVER})
        game["winner"], game["points_won"] = result.winner, result.points
    if replayed.game.initial_cube:
        game["initial_cube_value"] = replayed.game.initial_cube
        if replayed.game.initial_cube_owner is not None:
            game["initial_cube_owner"] = "white" if replayed.game.initial_cube_owner == 0 else "black"
    return game


def write_ogxm(match: MatchRecord, games: Iterable[Any], rules: RuleSet | None = None) -> bytes:
    """OGXM v2 bytes of a replayed match (``games`` used once, as they come; ``rules`` as for
    :func:`document`), checked by the codec (``v2_problem``)."""
    ogxm = codec()
    doc = document(match, games, rules)
    problem = ogxm.v2_problem(doc)
    if problem:
        doubled = match.length == 1 and any(ply.get("action_id") == DOUBLE for game in doc["games"] for ply in game["plies"])
        what = "a double in a 1-point match" if doubled else "this match"  # the codec takes the cube as dead there
        raise OgxmWriteError(f"the OGXM codec refuses {what}: its rule {problem!r} breaks{_where(ogxm, doc)}")
    data: bytes = ogxm.json_to_binary(doc)
    return data


def _where(ogxm: Any, doc: dict[str, Any]) -> str:
    """Where the codec's rule first breaks: the game and ply (found by checking each game's
    plies a prefix at a time: only for a match refused)."""
    for index, game in enumerate(doc["games"], 1):
        for count in range(1, len(game["plies"]) + 1):
            plies = game["plies"][:count]
            if ogxm.v2_problem({**doc, "games": [{key: value for key, value in game.items() if key not in ("winner", "points_won")}
                                                 | {"plies": plies}]}):  # fmt: skip
                return f" at game {index}, ply {count}"
    return ""


def write_stream(members: list[bytes]) -> bytes:
    """Matches as one OGXM stream (``.ogxms``)."""
    ogxm = codec()
    out = io.BytesIO()
    writer = ogxm.StreamWriter(out)
    for member in members:
        writer.write(member)
    return out.getvalue()
