"""What an analysis is made under: the rules of the match (as the replay reads them, and GNU
Backgammon's defaults where the record and the user are silent), the engine, its version, the
depth and the thresholds of its marks. Written in the tables, and the key of an analysis kept
in a database: an analysis made under other settings is not taken for this one.

What it does not do: read the rules (:func:`bgrecord.replay.rules.rules_for` does, for the
replay and the analysis alike).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bgrecord.analysis.measures import Thresholds
from bgrecord.replay.rules import RuleSet


@dataclass(frozen=True, slots=True)
class AnalysisRules:
    """The rules an analysis applies. ``jacoby``: money play only; where neither the record nor
    the user says, on (gnubg's default). ``cube``: the cube is in use (a cube limit of 1: no
    cube decision at all). ``cube_limit``: no double past it (None: no limit)."""

    money: bool
    jacoby: bool
    cube: bool
    cube_limit: int | None
    crawford: bool
    variant: str

    @classmethod
    def of(cls, length: int, rules: RuleSet) -> AnalysisRules:
        money = length == 0
        jacoby = money and (rules.jacoby if rules.given("jacoby") else True)
        return cls(money, jacoby, rules.cube_limit != 1, rules.cube_limit, rules.crawford and not money, rules.variant.value)

    def may_double(self, cube: int) -> bool:
        """Whether a double is within the rules with the cube at ``cube`` (its limit)."""
        return self.cube and (self.cube_limit is None or cube * 2 <= self.cube_limit)

    def text(self) -> str:
        """The rules in words, as the matches table says them: ``money, jacoby`` or
        ``match, crawford, cube limit 8``."""
        parts = ["money" if self.money else "match"]
        if self.money and self.jacoby:
            parts.append("jacoby")
        if self.crawford:
            parts.append("crawford")
        if not self.cube:
            parts.append("no cube")
        elif self.cube_limit is not None:
            parts.append(f"cube limit {self.cube_limit}")
        if self.variant != "standard":
            parts.append(self.variant)
        return ", ".join(parts)


def threshold_columns(thresholds: Thresholds) -> dict[str, float]:
    """The thresholds as the players and matches tables hold them."""
    return {"threshold_doubtful": thresholds.doubtful, "threshold_bad": thresholds.bad, "threshold_very_bad": thresholds.very_bad}


def setting_key(engine: str | None, version: str | None, rules: str | None, thresholds: tuple[float | None, ...]) -> str:
    """Everything that changes an analysis of a match, as one key (what a database's kept
    analysis must match to be taken again): the engine and its depth, its version, the rules,
    the thresholds."""
    text = "\n".join(str(part) for part in (engine, version, rules, *(f"{t:.6f}" if t is not None else "" for t in thresholds)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
