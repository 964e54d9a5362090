"""What the replay gives for each game: its steps, its result, and the state it ends in.

Plain records, filled by the game replayer (:mod:`bgrecord.replay.game`) and read by the
writers, the step-by-step replay and the statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bgrecord.issues import Issue
from bgrecord.position import LegalPlay, Position
from bgrecord.records import Action, GameRecord

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
    winner: int
    points: int
    kind: int  # 1 single, 2 gammon, 3 backgammon
    ended_by: str  # bearoff, drop, resign


@dataclass(slots=True)
class GameReplay:
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
