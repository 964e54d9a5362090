"""What "one answer on every path" compares (``tests/test_one_answer.py``): a record's tables
(games, players, matches) and the rules it is played by, and where two readings of the same
match differ, column by column.

Every path a record can take (converted to each format, a dialect of another producer, read
through a relative or an absolute path, by one or two workers or a Dask cluster) must give
the same tables, but for what names the file itself (``SOURCE``) and what a format cannot
say at all (``format_limits``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgrecord.core.position import Variant
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import MatchRecord
from bgrecord.formats.source import Input
from bgrecord.replay import GameReplay
from bgrecord.replay.rules import rules_for, stated_rules
from bgrecord.tables.stats import match_rows
from bgrecord.tables.summing import Tables
from bgrecord.writing.convert import converted
from bgrecord.writing.ogxm import write_stream
from bgrecord.writing.stated import played_rules

# The columns that name the file (its path, its bytes, where its first copy stands), and what
# a file claims by its own convention (a .mat caps a match's last game at what was needed).
SOURCE = {"file", "file_key", "duplicate_of", "recorded_points"}
NAMES = {"player0", "player1", "winner_name"}


@dataclass
class Reading:
    """A record read: its games rows, the rows of the players and matches tables summed from
    them, each match's rules as stated (:func:`~bgrecord.replay.rules.stated_rules`), and
    whether it is clean (no error in its games or its matches)."""

    games: list[dict[str, Any]]
    players: list[dict[str, Any]]
    matches: list[dict[str, Any]]
    rules: list[dict[str, Any]] = field(default_factory=list)
    clean: bool = True
    warnings: list[Counter[str]] = field(default_factory=list)  # each game's warnings, by code


def reading(source: Path | Input, spec: str | None = None) -> Reading:
    rules: dict[int, dict[str, Any]] = {}

    warnings: list[Counter[str]] = []

    def each(number: int, match: MatchRecord, out: GameReplay) -> None:
        if number not in rules:
            rules[number] = stated_rules(played_rules(rules_for(match, spec), out), match.length)
        warnings.append(Counter(issue.code for issue in (*out.game.issues, *out.issues) if issue.severity is Severity.WARNING))

    notes: list[Issue] = []
    rows = [row for rows in match_rows(source if isinstance(source, Input) else Input.of(source), spec, each, notes=notes) for row in rows]
    tables = Tables()
    tables.add(rows)
    clean = bool(rows) and not any(row["errors"] for row in rows) and not any(note.severity is Severity.ERROR for note in notes)
    return Reading(rows, list(tables.player_rows()), tables.match_table_rows(), [rules[number] for number in sorted(rules)], clean, warnings)


def converted_reading(path: Path | Input, target: str, spec: str | None = None) -> Reading:
    """``path`` converted to ``target`` (mat, sgf, json, ogxms) as ``bgrecord convert`` writes it, read back."""
    content, _ = converted(path, target, spec)
    data = write_stream(content) if isinstance(content, list) else content if isinstance(content, bytes) else content.encode()
    name = getattr(path, "name", str(path))
    return reading(Input(f"{Path(name).name}.{target}", data=data))


def differences(expected: Reading, found: Reading, leave_out: set[str] = SOURCE, ogxm: bool = False,
                warnings_may_go: frozenset[str] | None = frozenset(), rules: bool = True) -> list[str]:  # fmt: skip
    """Where ``found`` differs from ``expected``: each games cell (but the columns left out),
    each cell of the players and matches tables, and each rule stated in ``expected`` (a
    reading may state more: SGF always names the variant). ``ogxm``: ``found`` is of a format
    that names the players once, for the match (the games' names are the first game's),
    holds a money session's starting score only (the rest counted) and cube limits up to 64.
    ``warnings_may_go``: where the warnings are left out, ``found``'s may be fewer (a notation's
    own), but none may come other than of these codes (its notation's); None: not compared.
    ``rules``: whether the rules stated are compared."""
    said: list[str] = []
    if len(expected.games) != len(found.games):
        return [f"{len(expected.games)} games, not {len(found.games)}"]
    first: dict[int, tuple[Any, Any]] = {}
    for want, got in zip(expected.games, found.games):
        want = dict(want)
        skip = set(leave_out)
        if ogxm:
            names = first.setdefault(want["match"], (want["player0"], want["player1"]))
            winner = want["winner"]
            want.update(player0=names[0], player1=names[1], winner_name=names[winner] if winner is not None else None)
            skip |= {"score0", "score1"} if want["match_length"] == 0 else set()
        for column, value in want.items():
            if column not in skip and got[column] != value:
                said.append(f"match {want['match']} game {want['game']}: {column} {value!r} -> {got[column]!r}")
    if "warnings" in leave_out and warnings_may_go is not None:
        for index, (want_codes, got_codes) in enumerate(zip(expected.warnings, found.warnings)):
            came = {code for code in got_codes - want_codes if code not in warnings_may_go}
            if came:
                said.append(f"game {index + 1} of the file: warnings {sorted(came)} came")
    money = ogxm and any(row["match_length"] == 0 for row in expected.games) or "score0" in leave_out
    renamed = {"player0", "player1", "winner"} if leave_out & NAMES else set()
    tables = [("matches", expected.matches, found.matches,
               (leave_out & {"file", "duplicate_of"}) | renamed | ({"final_score0", "final_score1"} if money else set()))]  # fmt: skip
    if not ogxm and not leave_out & NAMES:
        tables.append(("players", expected.players, found.players, set()))
    for name, want_table, got_table, ignored in tables:
        if len(want_table) != len(got_table):
            said.append(f"the {name} table: {len(want_table)} rows, not {len(got_table)}")
            continue
        for want, got in zip(want_table, got_table):
            said += [f"the {name} table, {want.get('player', want.get('match'))}: {column} {value!r} -> {got[column]!r}"
                     for column, value in want.items() if column not in ignored and got[column] != value]
    if not rules:
        return said
    if len(expected.rules) != len(found.rules):
        said.append(f"{len(expected.rules)} matches' rules, not {len(found.rules)}")
    for number, (want_rules, got_rules) in enumerate(zip(expected.rules, found.rules), 1):
        got_rules = {"variant": Variant.STANDARD, **got_rules}  # the start every reader takes first need not be said
        if ogxm and (want_rules.get("cube_limit") or 0) > 64:  # OGXM's codec holds cube limits up to 64
            want_rules = {name: value for name, value in want_rules.items() if name != "cube_limit"}
        lost = {name: (value, got_rules.get(name, "(not stated)")) for name, value in want_rules.items() if got_rules.get(name, "?") != value}
        if lost:
            said.append(f"match {number}: rules {lost}")
    return said


def format_limits(source: Path | str, target: str) -> dict[str, Any]:
    """What a conversion to ``target`` may not keep, by what the formats can say at all
    (docs/formats.md), as :func:`differences` takes it: the columns a file names for itself
    (``SOURCE``), a notation's warnings (a conversion writes the notation anew: fewer may come
    back, and none but :data:`NOTATION_WARNINGS`), a ``.gam``'s match length (it says none; written 0); whether the target is OGXM."""
    leave_out = SOURCE | {"warnings"}
    if str(source).endswith(".gam"):
        leave_out |= {"match_length"}
    return {"leave_out": leave_out, "ogxm": target == "ogxms", "warnings_may_go": NOTATION_WARNINGS.get(target, frozenset())}


# What a format's reader warns of in what bgrecord writes there: a .mat's comment lines inside a
# game (another format's comments), an OGXM board set by hand (a set-up bgrecord writes as one).
NOTATION_WARNINGS = {"mat": frozenset({"comment-in-game"}), "ogxms": frozenset({"set-position"})}
