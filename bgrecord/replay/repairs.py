"""What recovery takes a record to mean at an error (:class:`Repair`), what it sees of the game
replayer (:class:`Replaying`), and the bounds of its work: shared by the readings
(:mod:`bgrecord.replay.readings`, :mod:`bgrecord.replay.lost`) and their judge
(:mod:`bgrecord.replay.recovery`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bgrecord.core.position import Dice, LegalPlay, Position
from bgrecord.formats.issues import Issue
from bgrecord.formats.records import Action, GameRecord, Roll
from bgrecord.replay.rules import RuleSet
from bgrecord.replay.state import GameReplay

State = tuple[Any, ...]  # a replay's whole state between two actions (GameReplayer.snapshot)
MAX_REPAIRS = 8  # repairs one game may take; past them, the rest of the game is not checked
LOOK = 8  # actions a reading is first replayed ahead: both players' next plays, a cube action or two
PAIRS = 800  # the most pairs of plays replayed for a row left out
TRIED = 3_000  # the most pairs of plays looked at for it
MENDS = 3  # later errors a trial mends on its way to the end of the game
SEEN = 8  # rows looked back at from an error for a row whose number skips one (a row missing there)
NEAR = 3  # rows looked back at for a row missing or written twice, where the numbers do not say
ROLLS = [Dice(high, low) for high in range(1, 7) for low in range(1, high + 1)]
PLAY_ERRORS = frozenset({"wrong-distance", "no-checker", "must-enter-first", "closed-point", "cannot-bear-off-yet", "bad-points",
                          "overage-not-from-highest", "more-dice-could-be-used", "larger-die-could-be-used", "too-many-moves"})  # fmt: skip
CUBE_ERRORS = frozenset({"double-unanswered", "not-owner", "crawford-double", "holland", "match-winning-double", "cube-limit",
                          "cube-value", "answer-without-double", "answer-by-doubler", "beaver-in-match", "raccoon-in-match",
                          "beaver-out-of-turn", "raccoon-out-of-turn", "beaver-not-allowed", "raccoon-not-allowed",
                          "double-before-opening"})  # fmt: skip
# the errors whose action says what was done, the rule aside: it may be taken as made
AS_MADE = frozenset({"bad-dice", "opening-double", "turn-order", "could-move"}) | CUBE_ERRORS - {"answer-by-doubler", "double-before-opening",
                                                                                                    "beaver-out-of-turn", "raccoon-out-of-turn"}


@dataclass(slots=True)
class Repair:
    """How the record is read at an error so that the replay goes on. ``then``: ``play`` (the
    roll's play is ``play``), ``lenient`` (the action as made, the rule it breaks aside), ``act``
    (the action, or ``action`` in its place, after the ``inserted`` plays the record left out),
    ``skip`` (the action left out, and ``skipped`` more after it), ``halt`` (not checked past it).
    ``code`` names the cause where one is recognised; ``said`` is the reading in words, after
    "replayed" ("as 24/18 13/9", "left out", "with 63: 10/4 10/7 before it"); ``detail`` what the
    cause's message names (the dice the play fits)."""

    index: int
    then: str
    cost: float
    code: str | None = None
    said: str = ""
    detail: str = ""
    play: LegalPlay | None = None
    action: Action | None = None
    inserted: tuple[tuple[int, Dice, LegalPlay], ...] = ()
    skipped: int = 0
    issue: Issue | None = None


class Replaying(Protocol):
    """What recovery sees of the game replayer (:class:`bgrecord.replay.game.GameReplayer`)."""

    game: GameRecord
    rules: RuleSet
    position: Position | None
    turn: int | None
    unplayed: Roll | None
    repairs: dict[int, Repair]
    out: GameReplay
    quiet: bool
    keep_steps: bool
    work: int
    initial: State

    def snapshot(self) -> State: ...
    def restore(self, state: State) -> None: ...
    def play_from(self, start: int, end: int) -> None: ...
    def ended_cleanly(self) -> bool: ...


def budget(game: GameRecord) -> int:
    """The actions one search may replay in its trials: linear in the game's length (a game has
    at most :data:`MAX_REPAIRS` searches)."""
    return 40_000 + 100 * len(game.actions)
