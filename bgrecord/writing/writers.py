"""Writers: a record, replayed, written as a .mat file in GNU Backgammon's layout, as gnubg SGF,
or as JSON with every step's position and match IDs.

The writers write what the replay found: moves in canonical order (highest point first), with
``*`` where they hit, and the result the replay derived. Where the replay could not check a
game (an error in it), the rest of that game is written as the file had it. Comments, set-up
lines and lines the reader could not read are kept at their place in a .mat file.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Callable, Iterable, Iterator

from bgrecord import __version__
from bgrecord.core.ids import XGID, GameState, MatchState, xg_position_text
from bgrecord.core.moves import point_name
from bgrecord.core.ogid import OGID
from bgrecord.core.position import BAR, OFF, LegalPlay, Position, Variant
from bgrecord.formats.records import Action, Comment, CubeAction, MatchRecord, Result, Roll, SetPosition, Unreadable
from bgrecord.formats.snowie import snowie_fields
from bgrecord.replay import GameReplay, Step
from bgrecord.replay.rules import RuleSet, rules_for, stated_rules
from bgrecord.writing.stated import cut_marks, header_tags, played_rules

# --- notation ---


def play_text(play: LegalPlay, point: Callable[[int], str] = str) -> str:
    """A play as gnubg writes it in a .mat file: highest source first, a ``*`` on each move
    that hits, points as ``point`` writes them (by default numbers: 25 bar, 0 off)."""
    moves = sorted(zip(play.play.moves, play.hits), key=lambda mh: (-mh[0].source, -mh[0].target))
    return " ".join(f"{point(m.source)}/{point(m.target)}{'*' if hit else ''}" for m, hit in moves)


def notation(play: LegalPlay) -> str:
    """``24/18 13/11``, ``bar/22*``, ``6/off``: highest source first, hits marked (bgrecord's
    notation, in words and tables; the .mat layout writes 25 and 0 for the bar and off)."""
    return play_text(play, point_name)


def ids_json(position: Position | None, state: MatchState, ogid: str | None = None) -> dict[str, str | None]:
    """The gnubg Position ID, Match ID, XGID and OGID of a step, as the JSON outputs give them."""
    return {
        "position_id": position.id() if position else None, "match_id": state.id(),
        "xgid": str(XGID.from_gnubg(position, state)) if position else None, "ogid": ogid,
    }  # fmt: skip


def step_ogids(replayed: GameReplay, length: int) -> list[str | None]:
    """The OGID of the state before each step of a game (None for a board set-up): the state
    of the game as OpenGammon and OGXM say it (opening, rolled, cube offered, taken, passed)
    and the plays made so far."""
    found: list[str | None] = []
    plays = 0  # dice plays so far in the game
    after = "C"  # the state the last step left
    cube_action = "N"  # T after a take, until the next play; P after a pass
    for step in replayed.steps:
        actor = step.player if step.player is not None else 0
        position = step.before if step.kind in ("move", "setup") else step.after
        if position is None or step.kind == "setup":
            found.append(None)
            continue
        dice, state, action = (0, 0), after, cube_action
        if step.kind == "move" and step.dice is not None:
            dice, state = (step.dice[0], step.dice[1]), "R" if plays else "IB"
        elif step.kind in ("take", "drop", "beaver", "raccoon"):
            state, action = "D", "O"
        text = OGID(Position(position.sides, actor), step.cube, step.cube_owner, action, dice, state, step.score, length,
                    replayed.crawford, replayed.post_crawford, plays)  # fmt: skip
        found.append(str(text))
        if step.kind == "move" and step.dice is not None:
            plays, after, cube_action = plays + 1, "C", "N"
        elif step.kind == "double":
            after = "D"
        elif step.kind in ("take", "beaver", "raccoon"):
            after, cube_action = "A", "T"
        elif step.kind == "drop":
            after, cube_action = "G", "P"
    return found


def _cell(step: Step | None, action: Action) -> str:
    """The text of a .mat cell for an action (from its replayed step when there is one)."""
    if isinstance(action, Roll):
        dice = f"{action.dice[0]}{action.dice[1]}"
        if step is not None and step.play is not None:
            return f"{dice}: {play_text(step.play)}".rstrip()
        if action.note == "unplayed" or step is not None:
            return f"{dice}:"
        return action.text
    if isinstance(action, CubeAction):
        words = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}
        if action.kind in words:
            value = action.value
            if step is not None:
                value = step.cube * 2 if action.kind == "double" else (step.offered or step.cube) * 2
            return f" {words[action.kind]} => {value}" if value else f" {words[action.kind]}"
        return " Takes" if action.kind == "take" else " Drops"
    return action.text


_CELLS = ("move", "double", "take", "drop", "beaver", "raccoon")


def is_illegal_play(step: Step) -> bool:
    """A board set up in place of a player's play (Snowie's ``Illegal play (...)``): after a
    position, by a player, with the dice played. A .mat writes it as that player's cell."""
    action = step.action
    return (step.kind == "setup" and step.player is not None and step.dice is not None and step.before is not None
            and isinstance(action, SetPosition) and action.on_roll is None)  # fmt: skip


def next_actor(steps: list[Step], index: int) -> int | None:
    """Who acts after ``steps[index]`` (a set-up): the player of the next roll or double,
    else the player on roll in the position it sets."""
    for later in steps[index + 1 :]:
        if later.kind in ("move", "double") and later.player is not None:
            return later.player
    after = steps[index].after
    return after.turn if after is not None else None


def mat_rows(steps: list[Step]) -> list[int | None]:
    """The row each step stands in when its game is written as a .mat in GNU Backgammon's
    layout (None for a step that has no cell: a result, the take of a beaver, or a set-up, which
    ends a row unless it stands for a play, :func:`is_illegal_play`): a row
    holds the left player's cell, then the right player's; the same numbers whatever the
    format read, and the numbers :func:`write_mat` writes."""
    rows: list[int | None] = []
    filled = [False, False]
    number = 0
    previous = ""
    for step in steps:
        player = step.player
        taken = step.kind == "take" and previous in ("beaver", "raccoon")  # the doubler's roll takes a beaver: no cell
        previous = step.kind
        if step.kind == "setup" and not is_illegal_play(step):
            filled = [False, False]
        if (step.kind not in _CELLS and not is_illegal_play(step)) or player is None or taken:
            rows.append(None)
            continue
        if filled[player] or (player == 0 and filled[1]):
            filled = [False, False]
        if filled == [False, False]:
            number += 1
        filled[player] = True
        rows.append(number)
    return rows


def _illegal_play(step: Step, replayed: GameReplay, length: int) -> str:
    """The cell of a set-up that stands for a player's play: Snowie's ``Illegal play (...)``."""
    assert step.after is not None and step.dice is not None and step.player is not None
    fields = snowie_fields(step.after, 1 - step.player, replayed.game.names, replayed.score, length, step.cube, step.cube_owner, step.dice)
    return f"{step.dice[0]}{step.dice[1]}: Illegal play ({fields})"


def _points(points: int) -> str:
    return f"Wins {points} point{'s' if points != 1 else ''}"


class CannotWrite(ValueError):
    """A record the target format cannot hold without changing the match (the message says why)."""


def _no_start_cube(games: list[GameReplay], what: str) -> None:
    """Refuse a game that starts with the cube turned (automatic doubles, a position's cube):
    ``what`` (a .mat file) has no way to say so."""
    for replayed in games:
        if (replayed.game.initial_cube or 1) > 1:
            raise CannotWrite(f"game {replayed.game.index} starts with the cube at {replayed.game.initial_cube} (automatic doubles, or a "
                              f"position's cube), which {what} cannot say: convert it to SGF, JSON or OGXM")  # fmt: skip


def _first_and_rest(games: Iterable[GameReplay]) -> tuple[GameReplay | None, Iterator[GameReplay]]:
    each = iter(games)
    first = next(each, None)
    return first, itertools.chain([first] if first is not None else [], each)


# --- .mat ---


def write_mat(match: MatchRecord, games: Iterable[GameReplay], rules: RuleSet | None = None) -> str:
    """The match as a .mat file in GNU Backgammon's layout (the right column at 33, pushed by
    long left cells), tags and comments first; with ``rules``, the tags state them
    (:func:`header_tags`). Raises :class:`CannotWrite` for a game that starts with the cube
    turned."""
    return "\n".join(mat_lines(match, games, rules))


def mat_lines(match: MatchRecord, games: Iterable[GameReplay], rules: RuleSet | None = None) -> Iterator[str]:
    """The lines of :func:`write_mat`, a game at a time (each game used once, as it comes);
    :class:`CannotWrite` when a game that starts with the cube turned comes."""
    first, games = _first_and_rest(games)
    out: list[str] = []
    for key, value in header_tags(match, played_rules(rules, first) if rules is not None else None):
        out.append(f'; [{key} "{value}"]')
    for comment in match.comments:
        out.append(f"; {comment}".rstrip())
    if out:
        out.append("")
    length = match.length if match.length is not None else 0
    yield from out
    yield from (f" {length} point match", "")
    for replayed in games:
        _no_start_cube([replayed], "a .mat file")
        yield from _mat_game(replayed, length)
        yield ""


def _mat_game(replayed: GameReplay, length: int) -> list[str]:
    game = replayed.game
    steps = {id(step.action): step for step in replayed.steps}
    names = game.names
    left = f"{names[0]} : {replayed.score[0]}"
    lines = [f" Game {game.number or game.index}", f" {left:<{max(31, len(left) + 1)}}{names[1]} : {replayed.score[1]}"]
    row: list[str | None] = [None, None]
    number = 0

    def flush() -> None:
        nonlocal row
        if row != [None, None]:
            left = row[0] or ""
            lines.append(f"{number:3d}) {left:<27} {row[1] or ''}".rstrip())
        row = [None, None]

    result = replayed.result if replayed.checked else None
    previous = ""  # the kind of the cube action before
    for action in game.actions:
        if isinstance(action, CubeAction):
            redoubled, previous = previous in ("beaver", "raccoon"), action.kind
            if action.kind == "take" and redoubled:
                continue  # a beaver taken (SGF writes it out): in a .mat, the doubler's roll takes it
        elif isinstance(action, Roll):
            previous = ""
        if isinstance(action, Comment) and (not action.text.startswith((";", "#")) or "\n" in action.text or "\r" in action.text):
            flush()  # a comment of another format (free text, maybe several lines): a .mat comment line each
            lines += [f"; {line}".rstrip() for line in action.text.splitlines() or [""]]
            continue
        if isinstance(action, (Comment, Unreadable)) or (isinstance(action, SetPosition) and action.kind == "xg"):
            flush()
            lines.append(action.text)
            continue
        step = steps.get(id(action))
        if isinstance(action, SetPosition) and not (step is not None and is_illegal_play(step)):
            flush()
            if step is not None and step.after is not None:  # any other set-up: XG's line says the same
                lines.append(f"; Set Pos={xg_position_text(step.after)}/0")
            continue
        if isinstance(action, Result):
            if result is not None:
                continue  # the replay's result is written below
            if action.kind != "win":
                continue
            flush()
            indent = 6 if action.player == 0 else 34
            lines.append(" " * indent + _points(action.points or 0))
            continue
        player = action.player if action.player is not None else 0
        text = _cell(step, action) if step is None or step.kind != "setup" else _illegal_play(step, replayed, length)
        if row[player] is not None or (player == 0 and row[1] is not None):
            flush()
        if row == [None, None]:
            number += 1
        row[player] = text
    if result is not None:
        if result.winner == 1 and row[1] is None and row != [None, None]:
            row[1] = " " + _points(result.points)
            flush()
        else:
            flush()
            lines.append(" " * (6 if result.winner == 0 else 34) + _points(result.points))
    flush()
    return lines


# --- SGF ---


def _letter(point: int, player: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(96 + point) if player == 0 else chr(97 + 24 - point)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(match: MatchRecord, games: Iterable[GameReplay], rules: RuleSet | None = None) -> str:
    """The match as GNU Backgammon's SGF: a game tree per game (White = the left player),
    played by ``rules`` (by default the match's own), said in each root's ``RU``
    (:func:`sgf_rules`). A game that starts with the cube turned says so in its root (``CV``,
    ``CP``)."""
    return "\n".join(sgf_trees(match, games, rules)) + "\n"


def sgf_rules(rules: RuleSet, length: int, crawford_game: bool) -> str:
    """The ``RU`` property of a game root: GNU Backgammon's list of the rules on (``NoCube``,
    ``Crawford``, ``CrawfordGame``, ``Jacoby``, the variant), then what gnubg has no word for
    and ignores: ``Beaver`` or ``NoBeaver``, ``CubeLimit=N``; empty where the rules say only
    that Crawford (match play) or Jacoby (money play) is off; none where they say nothing."""
    stated = stated_rules(rules, length)
    words = [word for word, on in (("NoCube", rules.cube_limit == 1), ("Crawford", bool(length) and rules.crawford),
                                   ("CrawfordGame", crawford_game), ("Jacoby", not length and rules.jacoby),
                                   ("Nackgammon", rules.variant is Variant.NACKGAMMON)) if on]  # fmt: skip
    if "beavers" in stated:
        words.append("Beaver" if rules.beavers else "NoBeaver")
    if "cube_limit" in stated and rules.cube_limit != 1:
        words.append(f"CubeLimit={rules.cube_limit}")
    return f"RU[{':'.join(words)}]" if words or stated.keys() & {"crawford", "jacoby"} else ""


def sgf_trees(match: MatchRecord, games: Iterable[GameReplay], rules: RuleSet | None = None) -> Iterator[str]:
    """The game trees of :func:`write_sgf`, a game at a time (each game used once, as it comes)."""
    first, games = _first_and_rest(games)
    ruleset = played_rules(rules if rules is not None else rules_for(match), first)
    for replayed in games:
        game = replayed.game
        root = (
            f"FF[4]GM[6]CA[UTF-8]AP[bgrecord:{__version__}]"
            f"MI[length:{match.length or 0}][game:{(game.number or game.index) - 1}][ws:{replayed.score[0]}][bs:{replayed.score[1]}]"
            f"PW[{_escape(game.names[0])}]PB[{_escape(game.names[1])}]"
        )
        root += sgf_rules(ruleset, match.length or 0, replayed.crawford)
        if (game.initial_cube or 1) > 1:
            root += f"CV[{game.initial_cube}]CP[{'c' if game.initial_cube_owner is None else 'wb'[game.initial_cube_owner]}]"
        if replayed.result is not None and replayed.checked:
            result = replayed.result
            root += f"RE[{'WB'[result.winner]}+{result.points}{'R' if result.ended_by == 'resign' else ''}]"
        nodes = [";" + root]
        redoubler: int | None = None  # a beaver or raccoon stands: the doubler's roll takes it
        for index, step in enumerate(replayed.steps):
            if redoubler is not None and step.kind == "move" and step.player is not None:
                nodes.append(f";{'WB'[1 - redoubler]}[take]")
            if step.kind in ("beaver", "raccoon"):
                redoubler = step.player
            elif step.kind != "resign":
                redoubler = None
            if step.kind == "setup" and step.after is not None:
                nodes.append(_sgf_setup(step, next_actor(replayed.steps, index)))
                continue
            nodes.extend(_sgf_nodes(step))
        marks = cut_marks(replayed)
        if marks:
            nodes[-1] += "".join(f"C[{_escape(mark)}]" for mark in marks)
        yield "(" + "\n".join(nodes) + ")"


def _sgf_nodes(step: Step) -> list[str]:
    player = step.player
    if player is None:
        return []
    colour = "WB"[player]
    if step.kind == "move" and step.dice is not None:
        letters = ""  # no play: a dance, or dice rolled before a resignation (then RE says R)
        if step.play is not None:
            letters = "".join(_letter(m.source, player) + _letter(m.target, player) for m in step.play.play)
        return [f";{colour}[{step.dice[0]}{step.dice[1]}{letters}]"]
    if step.kind in ("double", "beaver", "raccoon"):  # a beaver is a second double, a raccoon a third
        return [f";{colour}[double]"]
    if step.kind in ("take", "drop"):
        return [f";{colour}[{step.kind}]"]
    return []


def _sgf_setup(step: Step, on_roll: int | None) -> str:
    """A set-up node: the board, the player on roll next (``PL``) and, where the set-up left
    dice to play (a position file's), the dice (``DI``)."""
    assert step.after is not None
    white, black = step.after.sides
    stones = {"AW": [], "AB": []}  # type: dict[str, list[str]]
    for point in range(1, 26):
        stones["AW"] += [_letter(point, 0)] * white[point]
        stones["AB"] += [_letter(point, 1)] * black[point]
    text = ";AE[a:y]" + "".join(key + "".join(f"[{s}]" for s in values) for key, values in stones.items() if values)
    text += f"PL[{'WB'[step.after.turn if on_roll is None else on_roll]}]"
    to_play = isinstance(step.action, SetPosition) and step.action.on_roll is not None and step.dice is not None
    return text + (f"DI[{step.dice[0]}{step.dice[1]}]" if to_play and step.dice else "")


# --- JSON ---


def step_state(step: Step, replayed: GameReplay, match: MatchRecord, jacoby: bool) -> tuple[Position | None, MatchState]:
    """The position and match state before ``step``, as GNU Backgammon shows them: from the
    side of the player on roll (the doubler while a double is offered and answered)."""
    position = step.before if step.kind == "move" else step.after  # a set-up: the position it sets
    setup = step.action if isinstance(step.action, SetPosition) else None
    actor = position.turn if setup and position is not None else step.player if step.player is not None else 0
    offering = step.kind in ("take", "drop", "beaver", "raccoon")  # an answer: seen from the side of the offer it answers
    mover = 1 - actor if offering else actor
    to_play = step.kind == "move" or setup is not None and setup.on_roll is not None  # a position file's dice are still to play
    dice = step.dice if to_play and step.dice else (0, 0)
    state = MatchState(
        cube=step.cube, cube_owner=step.cube_owner, player=mover,
        crawford=replayed.crawford, state=GameState.PLAYING, turn=actor, doubled=offering, dice=(dice[0], dice[1]),
        length=match.length or 0, score=step.score, jacoby=jacoby and not match.length,
    )  # fmt: skip
    if position is not None:
        position = Position(position.sides, mover)
    return position, state


def write_json(match: MatchRecord, games: Iterable[GameReplay], rules: RuleSet | None = None) -> str:
    """The record with every step's position and match IDs (schema in docs/formats.md); its
    tags state ``rules`` (by default the match's own: :func:`header_tags`)."""
    return "".join(json_pieces(match, games, rules))


def json_pieces(match: MatchRecord, games: Iterable[GameReplay], rules: RuleSet | None = None) -> Iterator[str]:
    """The text of :func:`write_json`, a game at a time (each game used once, as it comes):
    the same bytes as the whole document given to ``json.dumps`` at once."""
    each = iter(games)
    first = next(each, None)
    ruleset = played_rules(rules if rules is not None else rules_for(match), first)
    jacoby = ruleset.jacoby
    players = match.players if match.games or first is None else (match.tag("Player 1"), match.tag("Player 2"))
    if players[0] is None or players[1] is None:  # as MatchRecord.players: the tags, else the first game's names
        players = first.game.names if first is not None else ("", "")
    document: dict[str, Any] = {
        "bgrecord": 1, "path": match.path, "format": match.format, "encoding": match.encoding, "length": match.length,
        "players": list(players), "tags": [list(tag) for tag in header_tags(match, ruleset)], "comments": match.comments,
        "games": [],
    }  # fmt: skip
    head = json.dumps(document, indent=1, ensure_ascii=False)
    opened = False
    for replayed in itertools.chain([first] if first is not None else [], each):
        text = "  " + json.dumps(_json_game(match, replayed, jacoby), indent=1, ensure_ascii=False).replace("\n", "\n  ")
        yield (",\n" if opened else head.removesuffix("[]\n}") + "[\n") + text
        opened = True
    yield "\n ]\n}\n" if opened else head + "\n"


def _json_game(match: MatchRecord, replayed: GameReplay, jacoby: bool) -> dict[str, Any]:
    game = replayed.game
    result = replayed.result
    steps = []
    for step, ogid, row in zip(replayed.steps, step_ogids(replayed, match.length or 0), mat_rows(replayed.steps)):
        position, state = step_state(step, replayed, match, jacoby)
        steps.append({
            "line": step.action.line, "move": row, "player": step.player, "action": step.kind,
            "text": step.action.text, "dice": list(step.dice) if step.dice else None,
            "play": play_text(step.play) if step.play is not None else None, **ids_json(position, state, ogid),
            "cube": step.cube, "cube_owner": step.cube_owner, "score": list(step.score),
        })  # fmt: skip
        if isinstance(step.action, SetPosition):
            steps[-1]["on_roll"] = step.action.on_roll
    return {
        "index": game.index, "number": game.number, "line": game.line, "names": list(game.names),
        "score": list(replayed.score), "crawford": replayed.crawford, "checked": replayed.checked,
        "result": None if result is None else {"winner": result.winner, "points": result.points,
                                               "kind": result.kind, "ended_by": result.ended_by},
        "steps": steps, **({"cut": " ".join(marks)} if (marks := cut_marks(replayed)) else {}),
    }  # fmt: skip
