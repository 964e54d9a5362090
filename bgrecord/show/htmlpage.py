"""The HTML replay: one self-contained page (no network). The steps are data (each board its
gnubg Position ID), drawn in the page by its script (``htmlpage.js``) on one SVG board made
here (:func:`bgrecord.show.svg.background`), so that a long match stays small. Beside the board: the
players, the match, the score, the cube and the pip counts; the board in words (also the SVG's
description, for screen readers); the move list as buttons (reachable with Tab); the point
numbers from either player's side or the side on roll; the issues marked at their steps; with
an analysis, each step's error and luck said with its words, the decisions marked doubtful or
worse marked in the move list, and keys (M, Shift+M) and buttons to go to the next and the
previous of them."""

from __future__ import annotations

import json
from html import escape
from importlib import resources

from bgrecord.show import svg
from bgrecord.show.steps import StepRecord

_STYLE = """
body { font-family: sans-serif; margin: 1em; background: #faf8f2; }
main { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
figure { margin: 0; max-width: 560px; }
#moves { list-style: none; padding: 0; margin: 0; max-height: 440px; overflow-y: auto; min-width: 22em; }
#moves button { all: unset; display: block; padding: 2px 6px; cursor: pointer; }
#moves button:focus-visible { outline: 2px solid #1f6fd1; }
#moves button[aria-current] { background: #1f6fd1; color: white; }
#moves button.issue::after { content: " \\26A0"; color: #c00; }
#moves button.mark { border-left: 4px solid #c8641e; }
#words { min-height: 1.5em; font-size: 1.1em; }
"""
_MARKS = ("doubtful", "bad", "very bad")  # gnubg's marks of a decision, the worst last


def _geometry() -> dict[str, object]:
    return {
        "width": svg.WIDTH, "height": svg.HEIGHT, "margin": svg.MARGIN, "bar_width": svg.BAR_WIDTH, "tray": svg.TRAY,
        "point": svg.POINT, "radius": svg.RADIUS, "bar_x": svg.BAR_X, "tray_x": svg.TRAY_X,
        "colours": svg.COLOURS, "strokes": svg.STROKES,
    }  # fmt: skip


def _step(record: StepRecord, viewpoint: int | None = None) -> list[object]:
    """One step as the script reads it (the field order is in htmlpage.js)."""
    position = record.board  # after the step, or before an action that does not replay as written
    moves = " ".join(f"{m.source}/{m.target}" for m in record.played.play.moves) if record.played and record.shows_after else ""
    dice = f"{record.dice[0]}{record.dice[1]}" if record.dice and record.action == "move" and position is not None else ""
    notes = "; ".join(f"{i.severity.value} {i.code}: {i.message}" for i in record.issues)
    words = record.words
    marks = [str(row["mark"]) for row in record.analysis or () if row.get("mark")]
    if record.analysis:
        from bgrecord.show.annotate import analysis_words

        words += ". " + analysis_words(record.analysis, record.player, viewpoint).rstrip(".")
    return [
        position.id() if position is not None else "", position.turn if position is not None else 0,
        record.cube_after, -1 if record.cube_owner_after is None else record.cube_owner_after, dice, moves,
        record.player if record.player is not None else 0, record.game, record.move or 0, record.score[0], record.score[1],
        record.length, words, notes, record.opening or "", record.closing or "", int(record.match_state.crawford),
        max(marks, key=_MARKS.index) if marks else "",
    ]  # fmt: skip


def page(title: str, records: list[StepRecord], viewpoint: int | None = None) -> str:
    """The whole HTML page for ``records``; ``viewpoint``: whose point numbers it starts with
    (by default the player on roll's)."""
    names = {record.game: list(record.names) for record in records}
    first = records[0] if records else None
    heading = f"{first.names[0]} and {first.names[1]}" if first else ""
    if first:
        heading += f", {first.length} point match" if first.length else ", money session"
    data = {"geometry": _geometry(), "names": names, "steps": [_step(record, viewpoint) for record in records]}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")  # nothing can end the script early
    views = "".join(f"<option value='{player}'{' selected' if player == viewpoint else ''}>{escape(name)}</option>"
                    for player, name in enumerate(first.names if first else ("", "")))  # fmt: skip
    script = resources.files("bgrecord.show").joinpath("htmlpage.js").read_text(encoding="utf-8")
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{escape(title)}</h1><p>{escape(heading)}</p>"
        "<p>Right and Left arrows step through the record, Home and End go to its ends, M and Shift+M to the next and "
        "the previous decision marked doubtful or worse; Tab reaches the move list.</p>"
        "<p><button id='back' type='button'>Back</button> <button id='next' type='button'>Next</button> "
        "<button id='previous-mark' type='button'>Previous mistake</button> <button id='next-mark' type='button'>Next mistake</button> "
        "<span id='position'></span> <label>Point numbers from <select id='view'><option value='roll'>the player on roll</option>"
        f"{views}</select></label></p><p id='status'></p><p id='words' aria-live='polite'></p><main><figure>"
        f"<svg id='board' xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {svg.WIDTH} {svg.HEIGHT}' width='{svg.WIDTH}' "
        f"height='{svg.HEIGHT}' role='img' aria-labelledby='board-desc'><desc id='board-desc'></desc>{svg.background()}"
        "<g id='pieces'></g></svg><figcaption id='board-words'></figcaption></figure>"
        "<nav aria-label='moves'><ol id='moves'></ol></nav></main>"
        f"<script type='application/json' id='steps'>{text}</script><script>{script}</script></body></html>\n"
    )
