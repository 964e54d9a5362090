"""bgrecord: read, re-validate, replay and mine backgammon match records."""

from bgrecord.ids import XGID, GameState, MatchState, gnubg_id
from bgrecord.position import (
    BAR,
    OFF,
    Dice,
    Illegal,
    IllegalPlayError,
    LegalPlay,
    Move,
    Outcome,
    Play,
    PlayError,
    Position,
    Variant,
)

__version__ = "0.1.0"

__all__ = [
    "BAR",
    "OFF",
    "XGID",
    "Dice",
    "GameState",
    "Illegal",
    "IllegalPlayError",
    "LegalPlay",
    "MatchState",
    "Move",
    "Outcome",
    "Play",
    "PlayError",
    "Position",
    "Variant",
    "__version__",
    "gnubg_id",
]
