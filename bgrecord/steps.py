"""Replay steps for people and programs: one plain record per action, in order, with the
position and match IDs of the state before it and a sentence that says it in words.

``step_records(path)`` feeds ``bgrecord replay``: its JSON lines, its text, the keyboard viewer
and the HTML page all read these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from bgrecord.ids import MatchState
from bgrecord.issues import Issue
from bgrecord.position import BAR, OFF, LegalPlay, Position
from bgrecord.replay import KINDS, GameReplay, GameResult, Step
from bgrecord.rules import rules_for
from bgrecord.source import Input
from bgrecord.validate import replayed
from bgrecord.writers import ids_json, play_text, step_ogids, step_state

ACTIONS = ("move", "double", "take", "drop", "beaver", "raccoon", "resign", "win")


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def notation(play: LegalPlay) -> str:
    """``24/18 13/11``, ``bar/22*``, ``6/off``: highest source first, hits marked."""
    return play_text(play, _point)


@dataclass(slots=True)
class StepRecord:
    """One action replayed, for ``bgrecord replay``."""

    game: int  # 1-based index of the game in the file
    move: int | None
    line: int
    player: int
    names: tuple[str, str]  # the game's two players, as the words name them
    action: str
    dice: tuple[int, int] | None
    play: str | None
    position: Position | None
    match_state: MatchState
    ogid: str | None
    cube: int
    cube_owner: int | None
    score: tuple[int, int]
    words: str
    after: Position | None  # the position after the action
    played: LegalPlay | None  # the play made, for arrows on the board after it
    issues: list[Issue]

    @property
    def name(self) -> str:
        """The name of the player who acts."""
        return self.names[self.player]

    def to_json(self) -> dict[str, Any]:
        position = self.position
        return {
            "game": self.game, "move": self.move, "line": self.line, "player": self.player, "name": self.name,
            "action": self.action, "dice": list(self.dice) if self.dice else None, "play": self.play,
            **ids_json(position, self.match_state, self.ogid), "pips": list(position.pips()) if position else None, "cube": self.cube, "cube_owner": self.cube_owner,
            "score": list(self.score),
        }  # fmt: skip


def words(step: Step, name: str, opponent: str, result: GameResult | None = None) -> str:
    """The action in one plain sentence, for people and for screen readers."""
    kind = step.kind
    if kind == "move" and step.dice is not None:
        rolled = f"{name} rolls {step.dice[0]}-{step.dice[1]}"
        play = step.play
        if play is None:
            return f"{rolled} and resigns"
        if not play.play.moves:
            return f"{rolled} and cannot move"
        hits = sorted(play.hit_points(), reverse=True)
        hit_text = ", hitting on the " + " and ".join(str(p) for p in hits) + (" points" if len(hits) > 1 else " point") if hits else ""
        return f"{rolled} and plays {notation(play)}{hit_text}"
    if kind == "double":
        return f"{name} doubles to {step.cube * 2}"
    if kind in ("beaver", "raccoon"):
        return f"{name} {kind}s: the cube goes to {(step.offered or step.cube) * 2}"
    if kind == "take":
        return f"{name} takes: the cube is at {step.offered or step.cube * 2}"
    if kind == "drop":
        return f"{name} drops: {opponent} wins {step.cube} point{'s' if step.cube != 1 else ''}"
    if kind == "resign":
        return f"{name} resigns"
    if kind == "win" and result is not None:
        how = {"bearoff": f"a {KINDS[result.kind]}", "drop": "on the dropped double", "resign": f"a resigned {KINDS[result.kind]}"}
        return f"{name} wins {how[result.ended_by]}: {result.points} point{'s' if result.points != 1 else ''}"
    return f"{name}: {step.action.text.strip()}"


def step_records(path: str | Path | Input, game: int | None = None, rules: str | None = None,
                 issues: list[Issue] | None = None) -> Iterator[StepRecord]:
    """The records of every game of the file (or of game number ``game``, 1-based in the
    file), as the file is read and replayed. ``issues``, when given, receives every issue of
    the file (the reader's and the replay's), to judge the whole record by."""
    number = 0
    seen: list[Issue] = issues if issues is not None else []
    for match, record, out in replayed(path, rules, steps=True):
        if out is None:
            if record is None:
                seen.extend(match.issues)
            continue
        number += 1
        seen.extend(out.game.issues)
        seen.extend(out.issues)
        if game is not None and number != game:
            continue
        ruleset = rules_for(match, rules)
        here = match.issues + out.game.issues + out.issues
        yield from _game_records(number, match.length or 0, out, ruleset.jacoby, here, match)


def _game_records(number: int, length: int, replayed: GameReplay, jacoby: bool, issues: list[Issue], match: Any) -> Iterator[StepRecord]:
    names = (replayed.game.names[0] or "left", replayed.game.names[1] or "right")
    for step, ogid in zip(replayed.steps, step_ogids(replayed, length)):
        if step.kind not in ACTIONS or step.player is None:
            continue
        position, state = step_state(step, replayed, match, jacoby)
        player = step.player
        here = [i for i in issues if i.line == step.action.line and i.game in (None, replayed.game.index)]
        yield StepRecord(
            number, step.action.number, step.action.line, player, names, step.kind, step.dice,
            notation(step.play) if step.play is not None else ("" if step.kind == "move" else None),
            position, state, ogid, step.cube, step.cube_owner, step.score, words(step, names[player], names[1 - player], replayed.result),
            step.after, step.play, here,
        )
