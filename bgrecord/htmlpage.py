"""The HTML replay: one self-contained page (no network) with an SVG board per step, the move
list beside it, arrow keys and buttons to step, and the validation issues marked on the steps
they concern."""

from __future__ import annotations

import json
from html import escape

from bgrecord.steps import StepRecord
from bgrecord.svg import board

_SCRIPT = """
const steps = JSON.parse(document.getElementById('steps').textContent);
let index = 0;
function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  document.getElementById('board').innerHTML = steps[index].svg;
  document.getElementById('words').textContent = steps[index].words;
  document.querySelectorAll('#moves li').forEach((li, j) => {
    li.classList.toggle('current', j === index);
    if (j === index) { li.setAttribute('aria-current', 'step'); li.scrollIntoView({block: 'nearest'}); }
    else { li.removeAttribute('aria-current'); }
  });
  document.getElementById('position').textContent = index + 1 + ' / ' + steps.length;
}
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(index + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(index - 1); e.preventDefault(); }
  if (e.key === 'Home') { show(0); }
  if (e.key === 'End') { show(steps.length - 1); }
});
document.getElementById('next').addEventListener('click', () => show(index + 1));
document.getElementById('back').addEventListener('click', () => show(index - 1));
document.querySelectorAll('#moves li').forEach((li, j) => li.addEventListener('click', () => show(j)));
show(0);
"""

_STYLE = """
body { font-family: sans-serif; margin: 1em; background: #faf8f2; }
main { display: flex; gap: 1.5em; align-items: flex-start; }
#moves { list-style: none; padding: 0; margin: 0; max-height: 440px; overflow-y: auto; min-width: 22em; }
#moves li { padding: 2px 6px; cursor: pointer; }
#moves li.current { background: #1f6fd1; color: white; }
#moves li.issue::after { content: " \\26A0"; color: #c00; }
#moves li.current.issue::after { color: #ffd; }
#words { min-height: 1.5em; font-size: 1.1em; }
"""


def page(title: str, records: list[StepRecord]) -> str:
    """The whole HTML page for ``records``."""
    steps = []
    items = []
    for number, record in enumerate(records):
        position = record.after or record.position
        svg = ""
        if position is not None:
            dice = record.dice if record.action == "move" else None
            moves = record.played.play.moves if record.played else ()
            svg = board(position, record.cube, record.cube_owner, dice, moves, title=record.words, dice_player=record.player)
        notes = "; ".join(f"{i.severity} {i.code}: {i.message}" for i in record.issues)
        steps.append({"svg": svg, "words": record.words + (f" ({notes})" if notes else "")})
        label = f"G{record.game} {f'{record.move}. ' if record.move else ''}{record.words}"
        css = ' class="issue"' if record.issues else ""
        hint = f' title="{escape(notes)}"' if notes else ""
        items.append(f'<li id="step{number}"{css}{hint}>{escape(label)}</li>')
    data = json.dumps(steps).replace("<", "\\u003c")  # no "</script>", "<!--" or "<script" can end the data early
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>{escape(title)}</h1>"
        "<p>Arrow keys or the buttons step through the record.</p>"
        "<p><button id='back' type='button'>Back</button> <button id='next' type='button'>Next</button> "
        "<span id='position'></span></p>"
        "<p id='words' aria-live='polite'></p>"
        f"<main><div id='board'></div><ol id='moves'>{''.join(items)}</ol></main>"
        f"<script type='application/json' id='steps'>{data}</script><script>{_SCRIPT}</script></body></html>\n"
    )
