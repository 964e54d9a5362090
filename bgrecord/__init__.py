"""bgrecord: read, re-validate, replay and mine backgammon match records."""

from bgrecord.ids import XGID, GameState, MatchState, gnubg_id
from bgrecord.issues import Issue, Severity
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
from bgrecord.reader import iter_games, iter_matches, read_match, read_match_text
from bgrecord.records import (
    Action,
    Comment,
    CubeAction,
    GameRecord,
    MatchRecord,
    MoveToken,
    Result,
    Roll,
    SetPosition,
    Tag,
    Unreadable,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Comment",
    "CubeAction",
    "GameRecord",
    "Issue",
    "MatchRecord",
    "MoveToken",
    "Result",
    "Roll",
    "SetPosition",
    "Severity",
    "Tag",
    "Unreadable",
    "iter_games",
    "iter_matches",
    "read_match",
    "read_match_text",
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
