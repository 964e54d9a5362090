"""How a report says its figures, the same on the page and in the text: each figure's label
and number format, the rows of a match's summary, and a decision in words. The number formats
are documented in docs/analysis.md ("The report"); a test reads the page back against the
tables with them."""

from __future__ import annotations

from typing import Any

from bgrecord.escapes import one_line
from bgrecord.formats.issues import count

NONE = "n/a"  # a rate without decisions, a figure no table gives

# the summary of a match, a row a figure: (label, the players table's column)
SUMMARY = (
    ("PR", "pr"), ("Rating (gnubg)", "rating"), ("Error rate, mEMG per decision", "error_rate"),
    ("Snowie error rate", "snowie_er"), ("Checker decisions", "checker_decisions"), ("Checker error, EMG", "checker_error"),
    ("Cube decisions", "cube_decisions"), ("Cube error, EMG", "cube_error"), ("Doubtful", "doubtful"), ("Bad", "bad"),
    ("Very bad", "very_bad"), ("Missed doubles below CP", "missed_doubles_below_cp"),
    ("Missed doubles above CP", "missed_doubles_above_cp"), ("Wrong doubles below DP", "wrong_doubles_below_dp"),
    ("Wrong doubles above TG", "wrong_doubles_above_tg"), ("Wrong takes", "wrong_takes"), ("Wrong passes", "wrong_passes"),
    ("Moves", "moves"), ("Luck, EMG", "luck"), ("Luck rate, mEMG per move", "luck_rate"), ("Actual result", "actual_result"),
    ("Luck-adjusted result", "luck_adjusted_result"),
)  # fmt: skip
# a game: each player's figures (label, GameFigures.figures' key)
GAME = (("decisions", "decisions"), ("error", "error"), ("error rate", "error_rate"), ("PR", "pr"), ("rating", "rating"),
        ("luck", "luck"))  # fmt: skip
# the archive's players: (label, PlayerTotals.figures' key)
ARCHIVE = (("Player", "name"), ("Matches", "matches"), ("Games", "games"), ("Decisions", "decisions"), ("Error, EMG", "error"),
           ("Error rate", "error_rate"), ("PR", "pr"), ("Rating (gnubg)", "rating"), ("Luck, EMG", "luck"),
           ("Luck rate", "luck_rate"))  # fmt: skip
# a player's matches: (label, the players table's column, or what the report adds)
PLAYED = (("Date", "date"), ("Opponent", "opponent"), ("Match", "match"), ("PR", "pr"), ("Error rate", "error_rate"),
          ("Rating (gnubg)", "rating"), ("Luck, EMG", "luck"), ("Result", "actual_result"))  # fmt: skip

_FORMATS = {
    "pr": "{:.2f}", "error_rate": "{:.1f}", "snowie_er": "{:.1f}", "luck_rate": "{:+.1f}", "checker_error": "{:.3f}",
    "cube_error": "{:.3f}", "error": "{:.3f}", "luck": "{:+.3f}",
}  # fmt: skip
_RESULTS = ("actual_result", "luck_adjusted_result")


def figure(column: str, value: Any, length: int | None = None) -> str:
    """A figure as a report says it: PR to 2 decimals, rates to 1, errors and luck to 3 (EMG),
    counts whole; a result in match winning chances as a percentage (``length`` > 0), in
    points in money play; :data:`NONE` for none."""
    if value is None or value != value:
        return NONE
    if column in _RESULTS:
        return f"{100 * float(value):+.2f}%" if length else f"{float(value):+.3f}"
    found = _FORMATS.get(column)
    if found is not None:
        return found.format(float(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return one_line(str(value))


def dice_text(dice: Any) -> str:
    """``61`` as the decisions table writes dice, said ``6-1``."""
    text = str(dice or "")
    return f"{text[0]}-{text[1]}" if len(text) == 2 else text


_DID = {"no double": "did not double", "double": "doubled", "take": "took", "pass": "passed"}


def decision_words(row: dict[str, Any]) -> str:
    """A decision of the decisions table in a sentence: ``sahlen rolled 6-1 and played 13/7
    8/7; the best play was 24/18 13/12; error 0.083 (bad).``"""
    name = one_line(str(row.get("name") or ""))
    error = float(row.get("error") or 0.0)
    why = ", ".join(str(part) for part in (row.get("mark"), row.get("category")) if part)
    if row.get("kind") == "checker":
        made = one_line(str(row.get("play") or "")) or "no move"
        said = f"{name} rolled {dice_text(row.get('dice'))} and played {made}; the best play was {one_line(str(row.get('best') or NONE))}"
    else:
        said = f"{name} {_DID.get(str(row.get('kind')), str(row.get('kind')))}; the best was {one_line(str(row.get('best') or NONE))}"
    return f"{said}; error {error:.3f}" + (f" ({why})." if why else ".")


def where(row: dict[str, Any]) -> str:
    """``Game 2, move 14``."""
    move = row.get("move")
    return f"Game {row.get('game_in_match')}" + (f", move {move}" if move is not None else "")


def match_heading(match: Any) -> str:
    """``sahlen and llabba, 5 point match, 2024-07-08``."""
    length = "money session" if match.length == 0 else f"{match.length} point match" if match.length else "match"
    date = f", {match.date}" if match.date else ""
    return one_line(f"{match.names[0]} and {match.names[1]}, {length}{date}")


def told(report: Any) -> str:
    """``98 matches, 92 players; analysed by gnubg at 0 ply.``"""
    engines = sorted({f"{m.engine} at {m.plies} ply" for m in report.matches})
    said = f"{count(len(report.matches), 'match', 'matches')}, {count(len(report.players), 'player')}"
    return said + (f"; analysed by {', '.join(engines)}." if engines else ".")
