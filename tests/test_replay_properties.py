"""The replay never raises on any record the reader gives, whatever the rules; it gives the
same issues for the same input."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrecord import iter_matches
from bgrecord.formats.source import Input
from bgrecord.replay import replay
from bgrecord.replay.rules import rules_for

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
TEXTS = [p.read_bytes().decode("utf-8", "replace") for p in sorted(SAMPLES.iterdir()) if p.suffix in (".mat", ".txt", ".gam", ".sgf")]
WORDS = [
    "Doubles => 2", "Takes", "Drops", "Beavers => 4", "Raccoons => 8", "Wins 2 points", "Losses 1 point", "Resigns", "52:",
    "66:", "13/7*", "bar/22", "25/20(2)", "6/0", "Cannot Move", "???", "Illegal play (1;0;1)", "; Set Pos=abc/0",
    " Game 2\n", " 3 point match\n", "\n", "  7) ", "99/1", "Wins 4016 point", "AE[a:y]AW[]", "W[double]", "B[take]",
]  # fmt: skip


def damaged(seed: int) -> str:
    """A sample with a few random edits: words put in, text cut out, lines repeated."""
    rng = random.Random(seed)
    text = rng.choice(TEXTS)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text))
        kind = rng.random()
        if kind < 0.4:
            text = text[:at] + rng.choice(WORDS) + text[at + rng.randint(0, 8) :]
        elif kind < 0.7:
            text = text[:at] + text[at + rng.randint(1, 30) :]
        else:
            lines = text.split("\n")
            lines.insert(rng.randrange(len(lines)), rng.choice(lines))
            text = "\n".join(lines)
    return text


def issues(text: str, spec: str | None) -> list[str]:
    return [str(i) for m in iter_matches(Input.text(text)) for g in replay(m, rules_for(m, spec)) for i in g.issues]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from([None, "money", "playroom,holland", "automatic-doubles=3,cube-limit=8", "crawford=off"]))
def test_damaged_records_replay_without_raising(seed: int, spec: str | None) -> None:
    text = damaged(seed)
    assert issues(text, spec) == issues(text, spec)
