"""The replay in plain sentences, for people and for screen readers: each action, the board,
one point, the start of a game and the end of a match.

Conventions, the same everywhere: dice are said larger die first (``5-1``); points are
numbered from the side of one player (the player on roll unless a viewpoint is given), both
sides' checkers in that one numbering, as GNU Backgammon numbers its board; the left player
of a record is named first. A viewpoint kept fixed (``replay --points-from``) numbers every
point said from that player's side, the other player's moves too (:func:`seen_from`).
"""

from __future__ import annotations

import re

from bgrecord.core.position import BAR, OFF, Position
from bgrecord.escapes import one_line
from bgrecord.formats.issues import Issue
from bgrecord.formats.records import Action, CubeAction, Result, Roll
from bgrecord.replay import KINDS, GameResult, Step
from bgrecord.writing.writers import notation


def dice_words(dice: tuple[int, int]) -> str:
    """``5-1``: the larger die first, however the record wrote them."""
    return f"{max(dice)}-{min(dice)}"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


_SAID = {"resign": "{name} resigns", "accept-resign": "{name} accepts the resignation",
         "reject-resign": "{name} rejects the resignation", "setup": "The board is set up"}  # fmt: skip


_POINT = re.compile(r"\d+")


def seen_from(text: str, mover: int | None, viewpoint: int | None) -> str:
    """A play's notation (``24/18 13/11*``, ``bar/22``) in ``viewpoint``'s numbering: as it is
    when the mover is that player (or no viewpoint is kept), else each point p as 25 - p."""
    if viewpoint is None or mover is None or mover == viewpoint:
        return text
    return _POINT.sub(lambda found: str(BAR - int(found.group())), text)


def action_words(step: Step, name: str, opponent: str, result: GameResult | None = None, played: str | None = None,
                 viewpoint: int | None = None) -> str:  # fmt: skip
    """The action in one plain sentence (``played``: the play's :func:`notation`, when made
    already); points from the mover's side, or ``viewpoint``'s when given."""
    kind = step.kind
    if step.repair is not None:
        return repaired_words(step, name)
    if kind == "move" and step.dice is not None:
        rolled = f"{name} rolls {dice_words(step.dice)}"
        play = step.play
        if play is None:
            return f"{rolled} and resigns"
        if not play.play.moves:
            return f"{rolled} and cannot move"
        mirrored = viewpoint is not None and step.player is not None and step.player != viewpoint
        hits = sorted((BAR - p if mirrored else p for p in play.hit_points()), reverse=True)
        hit_text = ", hitting on the " + " and ".join(str(p) for p in hits) + (" points" if len(hits) > 1 else " point") if hits else ""
        return f"{rolled} and plays {seen_from(played or notation(play), step.player, viewpoint)}{hit_text}"
    if kind == "double":
        return f"{name} doubles to {step.cube * 2}"
    if kind in ("beaver", "raccoon"):
        return f"{name} {kind}s: the cube goes to {(step.offered or step.cube) * 2}"
    if kind == "take":
        return f"{name} takes: the cube is at {step.offered or step.cube * 2}"
    if kind == "drop":
        return f"{name} drops: {opponent} wins {plural(step.cube, 'point')}"
    if kind in _SAID:
        return _SAID[kind].format(name=name)
    if kind == "win" and result is not None:
        how = {"bearoff": f"a {KINDS[result.kind]}", "drop": "on the dropped double", "resign": f"a resigned {KINDS[result.kind]}"}
        return f"{name} wins {how[result.ended_by]}: {plural(result.points, 'point')}"
    return f"{name}: {one_line(step.action.text.strip())}"


def repaired_words(step: Step, name: str) -> str:
    """An action that does not replay as written: what the record says, and how the replay read it
    (``24/18 13/9``; ``left out``...)."""
    return f"{_as_written(step.action, name)}, as written; replayed {one_line(step.repair or '')}"


def unchecked_words(action: Action, name: str) -> str:
    """An action the replay could not follow (after an error), said as the record writes it."""
    if isinstance(action, Roll) and action.dice is not None or isinstance(action, CubeAction):
        return f"{_as_written(action, name)}, as written (not checked)"
    if isinstance(action, Result):
        return f"{name}: {one_line(action.text.strip())}, as written"
    return f"{name}: {one_line(action.text.strip())}"


def _as_written(action: Action, name: str) -> str:
    """An action as the record writes it: a roll's dice and the play's text, else its text."""
    if isinstance(action, Roll) and action.dice is not None:
        written = one_line(" ".join(token.text for token in action.moves) or action.note or "no move")
        return f"{name} rolls {dice_words(action.dice)} and plays {written}"
    return f"{name}: {one_line(action.text.strip())}"


def issue_words(issue: Issue) -> str:
    """An issue said in words, as the viewer and the text replay say it: ``Error,
    wrong-distance: 13/8: the distance matches no unused die ...``."""
    message = issue.message.rstrip()
    return f"{issue.severity.value.capitalize()}, {issue.code}: {message}{'' if message.endswith(('.', '?', '!')) else '.'}"


def board_words(position: Position, names: tuple[str, str], viewpoint: int | None = None) -> str:
    """Where every checker is, in words: ``Points from Alice's side. Alice: 2 on the 24 point,
    5 on the 13, 3 on the 8, 5 on the 6. Bob: ...``; the bar and the checkers borne off."""
    seen_from = position.turn if viewpoint is None else viewpoint
    parts = [f"Points from {names[seen_from]}'s side."]
    for player in (seen_from, 1 - seen_from):
        side = position.sides[player]
        places = []
        for own in range(24, 0, -1) if player == seen_from else range(1, 25):
            if side[own]:
                places.append((own if player == seen_from else BAR - own, side[own]))
        said = [f"{count} on the {point}" + (" point" if index == 0 else "") for index, (point, count) in enumerate(places)]
        if side[BAR]:
            said.append(f"{side[BAR]} on the bar")
        if side[OFF]:
            said.append(f"{side[OFF]} borne off")
        parts.append(f"{names[player]}: {', '.join(said) or 'no checkers'}.")
    return " ".join(parts)


def point_words(position: Position, names: tuple[str, str], point: int | str, viewpoint: int | None = None) -> str:
    """What stands on one point (numbered from the viewpoint's side), or on the bar."""
    seen_from = position.turn if viewpoint is None else viewpoint
    if point == "bar":
        on_bar = [f"{plural(position.sides[p][BAR], 'checker')} of {names[p]}" for p in (seen_from, 1 - seen_from) if position.sides[p][BAR]]
        return f"The bar: {' and '.join(on_bar)}." if on_bar else "The bar is empty."
    assert isinstance(point, int)
    mine, theirs = position.sides[seen_from][point], position.sides[1 - seen_from][BAR - point]
    if mine:
        return f"The {point} point: {plural(mine, 'checker')} of {names[seen_from]}."
    if theirs:
        return f"The {point} point: {plural(theirs, 'checker')} of {names[1 - seen_from]}."
    return f"The {point} point is empty."


def game_heading(number: int, length: int, crawford: bool, match: int | None = None) -> str:
    """Which game: ``Game 2 of a 5 point match, the Crawford game`` (``Match 2, game 1 ...``
    for a game of a file's second match)."""
    of = f"{length} point match" if length else "money session"
    where = f"Match {match}, game {number}" if match else f"Game {number}"
    return f"{where} of a {of}" + (", the Crawford game" if crawford else "")


def game_opening(number: int, names: tuple[str, str], score: tuple[int, int], length: int, crawford: bool,
                 match: int | None = None) -> str:  # fmt: skip
    """The start of a game: ``Game 2 of a 5 point match, the Crawford game: Alice 4, Bob 1``."""
    return f"{game_heading(number, length, crawford, match)}: {names[0]} {score[0]}, {names[1]} {score[1]}"


def game_closing(names: tuple[str, str], after: tuple[int, int], length: int) -> str:
    """The score after a game, and the match's end when it is over: ``Alice wins the match 5-3``."""
    if length and max(after) >= length:
        winner = 0 if after[0] >= after[1] else 1
        return f"{names[winner]} wins the match {after[winner]}-{after[1 - winner]}"
    return f"Score: {names[0]} {after[0]}, {names[1]} {after[1]}" + (f", of {length}" if length else "")
