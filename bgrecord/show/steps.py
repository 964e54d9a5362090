"""Replay steps for people and programs: one plain record per action, in order, with the
position and match IDs of the state before it, a sentence that says it in words, and the
issues that stand at it.

``step_records(path)`` feeds ``bgrecord replay``: its JSON lines, its text, the keyboard viewer
and the HTML page all read these records. Nothing is left out: an action that does not replay
as written keeps the position before it, what was written and how the replay read it (its
``repair``); after an error no reading gets past, the rest of the game is given as written
(``checked`` False, no position); issues that stand on no action (a wrong score line, the
header's) go to the next action.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from bgrecord.core.ids import MatchState
from bgrecord.core.position import LegalPlay, Position
from bgrecord.escapes import one_line
from bgrecord.formats.issues import Issue
from bgrecord.formats.records import Action, CubeAction, MatchRecord, Result, Roll
from bgrecord.formats.source import Input
from bgrecord.names import named
from bgrecord.replay import GameReplay, Step
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import replayed
from bgrecord.show.words import action_words, game_closing, game_opening, unchecked_words
from bgrecord.writing.writers import ids_json, notation, step_ogids, step_state

Annotator = Callable[[MatchRecord, GameReplay, list[tuple[int, Step, "StepRecord"]]], None]

ACTIONS = ("move", "double", "take", "drop", "beaver", "raccoon", "resign", "accept-resign", "reject-resign", "win", "setup", "left-out")
# ("left-out": an action a repair reads as not done, a row written twice...: shown as what it says, with its repair)
_AT_THE_END = ("unfinished-game", "match-unfinished", "no-result")  # notices about how a game or match ends


@dataclass(slots=True)
class StepRecord:
    """One action replayed (or, when ``checked`` is False, given as written), for ``bgrecord replay``."""

    game: int  # 1-based index of the game in the file
    move: int | None
    line: int
    player: int | None
    names: tuple[str, str]  # the game's two players, as the words name them
    action: str
    dice: tuple[int, int] | None
    play: str | None
    position: Position | None  # before the action, from the side of the player to act
    match_state: MatchState
    ogid: str | None
    cube: int  # the cube before the action, and after it
    cube_owner: int | None
    score: tuple[int, int]
    words: str
    after: Position | None  # the position after the action
    played: LegalPlay | None  # the play made, for arrows on the board after it
    issues: list[Issue]
    checked: bool = True
    cube_after: int = 1
    cube_owner_after: int | None = None
    match: int = 1  # 1-based index of the match in the file
    game_in_match: int = 1
    opening: str | None = None  # said before the first action of a game
    closing: str | None = None  # said after the last action of a game: the score, the match's end
    unit: str = "line"  # what ``line`` counts: a binary file's record, move or ply
    game_over: bool = False  # the game ended with this action
    column: int | None = None  # where the action stands on its line (None in a binary file)
    analysis: list[dict[str, Any]] | None = None  # the decisions analysed at this step, when an analysis is at hand
    written: str | None = None  # the action as written, where the replay read it otherwise (see repair)
    repair: str | None = None  # how the replay read an action that does not replay as written ("as 24/18 13/9"), or "not checked"

    @property
    def name(self) -> str:
        """The name of the player who acts."""
        return self.names[self.player] if self.player is not None else "?"

    @property
    def length(self) -> int:
        return self.match_state.length

    @property
    def board(self) -> Position | None:
        """The board to show at this step: after it, but before it where the action does not
        replay as written (the position the director needs to see), or where nothing follows."""
        return self.position if self.repair is not None or self.after is None else self.after

    @property
    def shows_after(self) -> bool:
        """Whether :attr:`board` is the position after the step (else before it)."""
        return self.board is self.after

    def to_json(self) -> dict[str, Any]:
        position = self.position
        return {
            "match": self.match, "game": self.game, "move": self.move, "line": self.line, "player": self.player,
            "name": self.name if self.player is not None else None, "action": self.action,
            "dice": list(self.dice) if self.dice else None, "play": self.play,
            **ids_json(position, self.match_state, self.ogid), "pips": list(position.pips()) if position else None,
            "cube": self.cube, "cube_owner": self.cube_owner, "score": list(self.score), "checked": self.checked,
            "written": self.written, "repair": self.repair,
            "issues": [{"severity": i.severity.value, "code": i.code, "message": i.message, "line": i.line, "column": i.column}
                       for i in self.issues],
            **({"analysis": self.analysis} if self.analysis is not None else {}),
        }  # fmt: skip


class IssueSink(Protocol):
    """Where :func:`step_records` says a file's issues (a list, or a tally of them)."""

    def extend(self, issues: Iterable[Issue], /) -> None: ...


def step_records(path: str | Path | Input, game: int | None = None, rules: str | None = None,
                 issues: IssueSink | None = None, ogids: bool = True, annotate: Annotator | None = None,
                 viewpoint: int | None = None) -> Iterator[StepRecord]:  # fmt: skip
    """The records of every game of the file (or of game number ``game``, 1-based in the
    file), as the file is read and replayed. ``issues``, when given, receives every issue of
    the file (the reader's and the replay's), to judge the whole record by. Without
    ``ogids`` each record's ``ogid`` is None (the JSON lines give OGIDs; text, HTML and the
    viewer do not, and they cost a sixth of the replay). ``annotate(match, replayed game,
    [(step number, step, record)...])`` sees each game's checked records before they are
    given (an analysis fills their ``analysis``); steps are numbered from 1 in the game.
    ``viewpoint``: the player (0 or 1) whose numbering the words say every play in (by
    default, each play its mover's, as records write them)."""
    number = 0
    seen: IssueSink = issues if issues is not None else []
    current: MatchRecord | None = None
    match_number = in_match = 0
    for match, record, out in replayed(path, rules, steps=True):
        if match is not current:
            current, match_number, in_match = match, match_number + 1, 0
        if out is None:
            if record is None:
                seen.extend(match.issues)
            continue
        number += 1
        in_match += 1
        seen.extend(out.game.issues)
        seen.extend(out.issues)
        if game is not None and number != game:
            continue
        ruleset = rules_for(match, rules)
        # the match's own issues (its header's, all known once its first game is read) are said with that game
        game_issues = [*match.issues, *out.game.issues, *out.issues] if in_match == 1 else [*out.game.issues, *out.issues]
        context = _Game(number, match_number if match_number > 1 else None, in_match, match, out, ruleset.jacoby, viewpoint)
        yield from context.records(game_issues, ogids, annotate)


class _Game:
    """The records of one replayed game."""

    def __init__(self, number: int, match_number: int | None, in_match: int, match: MatchRecord, out: GameReplay, jacoby: bool,
                 viewpoint: int | None = None) -> None:  # fmt: skip
        self.number, self.match_number, self.in_match = number, match_number, in_match
        self.match, self.out, self.jacoby, self.viewpoint = match, out, jacoby, viewpoint
        # said in sentences and on boards, each a line: a name's line breaks and control characters escaped
        self.names = (one_line(named(out.game.names[0], 0)), one_line(named(out.game.names[1], 1)))
        self.length = match.length or 0

    def records(self, issues: list[Issue], ogids: bool, annotate: Annotator | None = None) -> Iterator[StepRecord]:
        found = step_ogids(self.out, self.length) if ogids else repeat(None)
        checked = [(number, step, self.checked_record(step, ogid)) for number, (step, ogid) in enumerate(zip(self.out.steps, found), 1)
                   if step.kind in ACTIONS and (step.player is not None or step.kind == "setup")]  # fmt: skip
        if annotate is not None:
            annotate(self.match, self.out, checked)
        made = [record for _, _, record in checked]
        if not self.out.checked:  # the rest of the game as written, from the action the replay stopped at
            actions = self.out.game.actions
            index = {id(action): i for i, action in enumerate(actions)}
            last = max((index.get(id(step.action), -1) for step in self.out.steps), default=-1)
            rest = [a for a in actions[last + 1 :] if isinstance(a, (Roll, CubeAction, Result))]
            made += [self.unchecked_record(a) for a in rest]
            board = self.out.steps[-1].after if self.out.steps else None
            if rest and board is not None:  # the action the replay stopped at: the position before it is known
                failed = made[len(made) - len(rest)]
                failed.position = Position(board.sides, failed.player if failed.player is not None else board.turn)
                failed.written, failed.repair = one_line(rest[0].text.strip()), "not checked"
        if not made:
            return
        self.place(issues, made)
        out = self.out
        made[0].opening = game_opening(self.in_match, self.names, out.score, self.length, out.crawford, self.match_number)
        if out.result is not None:
            after = list(out.score)
            after[out.result.winner] += out.result.points
            ender = [r for r in made if r.game_over][-1] if any(r.game_over for r in made) else made[-1]
            ender.closing = game_closing(self.names, (after[0], after[1]), self.length)
        yield from made

    def place(self, issues: list[Issue], made: list[StepRecord]) -> None:
        """Each issue at the record of the action it names by line and column: on its line, the
        last action starting at or before its column (a row holds two players' actions); an
        issue of no action (a score line, a comment) at the next record after it, and what
        comes after every action at the last record."""
        for issue in issues:
            if issue.code in _AT_THE_END:
                made[-1].issues.append(issue)
                continue
            made[_place(issue, made)].issues.append(issue)

    def checked_record(self, step: Step, ogid: str | None) -> StepRecord:
        out = self.out
        position, state = step_state(step, out, self.match, self.jacoby)
        player = step.player
        name, opponent = (self.names[player], self.names[1 - player]) if player is not None else ("", "")
        cube_after, owner_after = _cube_after(step)
        played = notation(step.play) if step.play is not None else ("" if step.kind == "move" and step.repair is None else None)
        words = action_words(step, name, opponent, out.result, played, self.viewpoint)
        kind = _kind_of(step.action) if step.kind == "left-out" else step.kind  # a left-out action shows as what it says
        record = StepRecord(
            self.number, step.action.number, step.action.line, player, self.names, kind, step.dice, played,
            position, state, ogid, step.cube, step.cube_owner, step.score, words,
            step.after, step.play, [], cube_after=cube_after, cube_owner_after=owner_after,
            match=self.match_number or 1, game_in_match=self.in_match, unit=self.match.unit, column=step.action.column,
            written=one_line(step.action.text.strip()) if step.repair is not None else None, repair=step.repair,
        )  # fmt: skip
        record.game_over = step.kind in ("win", "drop") or (step.kind == "accept-resign" and out.result is not None)
        return record

    def unchecked_record(self, action: Action) -> StepRecord:
        player = action.player
        name = self.names[player] if player is not None else "?"
        kind = _kind_of(action)
        state = MatchState(length=self.length, score=self.out.score, crawford=self.out.crawford)
        return StepRecord(
            self.number, action.number, action.line, player, self.names, kind,
            action.dice if isinstance(action, Roll) else None, None, None, state, None, self.out.cube, self.out.cube_owner,
            self.out.score, unchecked_words(action, name), None, None, [], checked=False, cube_after=self.out.cube,
            cube_owner_after=self.out.cube_owner, match=self.match_number or 1, game_in_match=self.in_match, unit=self.match.unit,
            column=action.column,
        )  # fmt: skip


def _kind_of(action: Action) -> str:
    """What an action says it is, as a step's ``action``: move, double, take..., win."""
    return "move" if isinstance(action, Roll) else action.kind if isinstance(action, (CubeAction, Result)) else "comment"


def _place(issue: Issue, made: list[StepRecord]) -> int:
    """The index of the record ``issue`` stands at (see :meth:`_Game.place`)."""
    line = issue.line if issue.line is not None else 0
    if issue.column is not None:
        on_line = [i for i, record in enumerate(made) if record.line == line and (record.column or 0) <= issue.column]
        if on_line:
            return on_line[-1]
    column = issue.column or 0
    return next((i for i, record in enumerate(made) if (record.line, record.column or 0) >= (line, column)), len(made) - 1)


def _cube_after(step: Step) -> tuple[int, int | None]:
    """The cube's value and owner once ``step`` is done."""
    if step.kind == "take" and step.player is not None:
        return step.offered or step.cube * 2, step.player
    if step.kind in ("beaver", "raccoon") and step.player is not None:
        return (step.offered or step.cube) * 2, step.player
    return step.cube, step.cube_owner
