"""bgrecord: read, re-validate, replay and mine backgammon match records.

The names below are imported when first used (PEP 562), so that ``import bgrecord`` (and
every command, which starts by importing it) pays only for what it uses.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_HOMES = {
    "bgrecord.core.ids": ("XGID", "GameState", "MatchState", "gnubg_id"),
    "bgrecord.formats.issues": ("Issue", "Severity"),
    "bgrecord.core.position": ("BAR", "OFF", "Dice", "Illegal", "IllegalPlayError", "LegalPlay", "Move", "Outcome",
                          "Play", "PlayError", "Position", "Variant"),
    "bgrecord.formats.reader": ("iter_games", "iter_matches", "read_match", "read_match_text"),
    "bgrecord.formats.records": ("Action", "Comment", "CubeAction", "GameRecord", "MatchRecord", "MoveToken", "Result",
                         "Roll", "SetPosition", "Tag", "Unreadable"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted([*_HOME_OF, "__version__"])


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'bgrecord' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from bgrecord.core.ids import XGID, GameState, MatchState, gnubg_id
    from bgrecord.core.position import (
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
    from bgrecord.formats.issues import Issue, Severity
    from bgrecord.formats.reader import iter_games, iter_matches, read_match, read_match_text
    from bgrecord.formats.records import (
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
