"""What a record written states beside its games: the rules it was replayed by (its tags',
the user's ``--rules`` over them, and the variant its games were played in), and, for a game an
error cut short, the mark saying where (:mod:`bgrecord.formats.cutmark`). Every writer
(:mod:`bgrecord.writing.writers`, :mod:`bgrecord.writing.ogxm`) states them in its own words.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePath

from bgrecord.core.position import Position, Variant
from bgrecord.formats.cutmark import cut_mark, is_cut_mark
from bgrecord.formats.issues import Severity
from bgrecord.formats.records import Comment, MatchRecord
from bgrecord.replay import GameReplay
from bgrecord.replay.rules import RuleSet, rule_tags, same_reading
from bgrecord.replay.variants import variant_of


def starts_nackgammon(replayed: GameReplay) -> bool:
    """Whether the game starts with a set-up of the Nackgammon start (DailyGammon's way of
    playing Nackgammon, no tag saying it)."""
    first = replayed.steps[0] if replayed.steps else None
    return bool(first and first.kind == "setup" and first.after is not None
                and first.after.sides == Position.start(Variant.NACKGAMMON).sides)  # fmt: skip


def played_variant(replayed: GameReplay) -> Variant:
    """The variant a game was played in: the start it was replayed from (the rules', or the one
    the replay inferred), or the Nackgammon start it sets up."""
    return Variant.NACKGAMMON if replayed.variant is Variant.NACKGAMMON or starts_nackgammon(replayed) else replayed.variant


def played_rules(rules: RuleSet, first: GameReplay | None) -> RuleSet:
    """``rules`` with the variant the first game was played in (:func:`played_variant`: a
    Nackgammon start no tag says), which a record written must state."""
    if first is None or played_variant(first) is rules.variant:
        return rules
    return replace(rules, variant=played_variant(first), assumed=rules.assumed - {"variant"})


def header_tags(match: MatchRecord, rules: RuleSet | None) -> list[tuple[str, str]]:
    """The match's tags, stating the rules it is written by (:func:`~bgrecord.replay.rules.rule_tags`):
    a tag that reads otherwise takes the rules' value (the user's ``--rules``), a rule no tag
    states is added, but for what every reader of a bare .mat assumes (Crawford in match
    play, the standard start). A variant bgrecord does not play stays as named."""
    tags = [(tag.key, tag.value) for tag in match.tags]
    if rules is None:
        return tags
    for key, value in rule_tags(rules, match.length):
        at = next((index for index, (name, _) in enumerate(tags) if name.strip().lower() == key.lower()), None)
        if at is None:
            if (key, value) not in (("Crawford", "On"), ("Variation", "Backgammon")):
                tags.append((key, value))
        elif not same_reading(key, tags[at][1], value) and not (key == "Variation" and variant_of(tags[at][1]) is None):
            tags[at] = (tags[at][0], value)
    return tags


def cut_marks(replayed: GameReplay) -> list[str]:
    """The cut marks a game is written with (:mod:`bgrecord.formats.cutmark`), where the target
    holds only what was replayed: those the game holds (a conversion of a conversion), and,
    where an error stopped the replay, a new one saying where the error stood."""
    marks = [action.text.lstrip(" \t;#") for action in replayed.game.actions if isinstance(action, Comment) and is_cut_mark(action.text)]
    errors = [issue for issue in (*replayed.game.issues, *replayed.issues) if issue.severity is Severity.ERROR]
    if not replayed.checked and errors:
        first = min(errors, key=lambda issue: (issue.line or 0, issue.column or 0))
        parts = (PurePath(first.path).name if first.path else "", f"{first.unit} {first.line}" if first.line else "")
        marks.append(cut_mark(", ".join(part for part in parts if part) or "the game", f"{first.code}: {first.message}"))
    return marks
