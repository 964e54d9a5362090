"""What the replay gives for each game: its steps, its result, and the state it ends in.

Plain records, filled by the game replayer (:mod:`bgrecord.replay.game`) and read by the
writers, the step-by-step replay and the statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from bgrecord.core.position import LegalPlay, Position, Variant
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import Action, GameRecord, MatchRecord, Roll
from bgrecord.replay.rules import RuleSet

KINDS = {1: "single game", 2: "gammon", 3: "backgammon"}


@dataclass(slots=True)
class Step:
    """One action replayed. ``before``/``after`` are None until the game's first roll."""

    action: Action
    kind: str  # move, double, take, drop, beaver, raccoon, resign, win, loss, setup
    player: int | None
    before: Position | None
    after: Position | None
    dice: tuple[int, int] | None
    play: LegalPlay | None
    cube: int  # the cube value and owner before the action
    cube_owner: int | None
    score: tuple[int, int]
    offered: int | None = None  # the cube on offer before the action (a double, beaver or raccoon)


@dataclass(slots=True)
class GameResult:
    """How a game ended: the winner (0 or 1), the points won, their kind and the way it ended."""

    winner: int
    points: int
    kind: int  # 1 single, 2 gammon, 3 backgammon
    ended_by: str  # bearoff, drop, resign


@dataclass(slots=True)
class GameReplay:
    """A game replayed: its record, the score and Crawford state before it, its steps (where
    kept), the issues found, its result and where the cube ended."""

    game: GameRecord
    score: tuple[int, int]  # before the game, in its columns' order
    crawford: bool
    post_crawford: bool
    steps: list[Step] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    result: GameResult | None = None
    checked: bool = True  # False when an error stopped the checking
    cube: int = 1
    cube_owner: int | None = None
    crawford_unknown: bool = False  # the record starts after the Crawford game may have been played
    variant: Variant = Variant.STANDARD  # the start the game was replayed from (the rules' variant, or the one inferred)


class Replaying(Protocol):
    """What the parts of a game's replay (the cube, the result lines) see of the game being
    replayed (:class:`bgrecord.replay.game.GameReplayer`, which holds them): typed so, a part
    imports nothing of the whole."""

    match: MatchRecord
    game: GameRecord
    rules: RuleSet
    out: GameReplay
    length: int
    position: Position | None
    turn: int | None
    unplayed: Roll | None
    rolls: list[int]
    result: GameResult | None

    def issue(self, severity: Severity, category: str, code: str, message: str, action: Action | None) -> None: ...
    def stop(self, category: str, code: str, message: str, action: Action) -> None: ...
    def name(self, player: int) -> str: ...
    def infer(self, rule: str, message: str, action: Action | None) -> None: ...
    def step(self, action: Action, kind: str, before: Position | None, dice: tuple[int, int] | None = None, play: LegalPlay | None = None) -> None: ...
    def needed(self, player: int) -> int | None: ...
    def trailing(self, player: int) -> bool: ...
    def jacoby_unknown(self, result: GameResult) -> bool: ...
    def jacoby_single(self) -> bool: ...
    def expect_turn(self, action: Action, player: int | None) -> int: ...
    def end(self, result: GameResult) -> None: ...
