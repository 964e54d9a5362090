"""Make perft.jsonl: legal-play counts for (position, dice) pairs from GNU Backgammon self-play.

    python tests/data/make_perft.py        # needs Debian's gnubg and ../shared/tools

GNU Backgammon plays 12 matches (seed 2026, `shared/tools/gnubg-matches.sh`) and reports the
position before every move (`shared/tools/oracle.sh`). From those positions the script picks
some of every kind (checkers on the bar, a closed home board against them, bear-offs with and
without gaps, contact, races) and pairs each with the roll played and other rolls, doubles
included. The count is bgrecord's; tests/test_perft.py checks it against an independent
brute-force generator, so a change in either shows.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parent.parent.parent / "shared" / "tools"
sys.path.insert(0, str(HERE.parent.parent))

from bgrecord import Illegal, Move, Play, Position  # noqa: E402

PER_KIND = 40


def kinds(position: Position) -> list[str]:
    me, opp = position.on_roll, position.opponent
    tags = []
    if me[25]:
        tags.append("bar")
        if sum(1 for p in range(1, 7) if opp[p] >= 2) == 6:
            tags.append("closed-board")
    if not any(me[7:26]):
        occupied = [p for p in range(1, 7) if me[p]]
        tags.append("bearoff")
        if occupied and any(not me[p] for p in range(1, max(occupied))):
            tags.append("bearoff-gaps")
    contact = max((p for p in range(1, 26) if me[p]), default=0) + max((p for p in range(1, 26) if opp[p]), default=0) > 25
    tags.append("contact" if contact else "race")
    return tags


def larger_die_rolls(position: Position) -> list[tuple[int, int]]:
    """Rolls for which only one die can be played and the larger-die rule decides."""
    rolls = []
    for high in range(2, 7):
        for low in range(1, high):
            plays = position.legal_plays((high, low))
            if not plays[0].play or any(len(p.play) != 1 for p in plays):
                continue
            for source in range(1, 26):
                small = Play((Move(source, max(source - low, 0)),))
                error = position.play_error((high, low), small)
                if error and error.reason is Illegal.LARGER_DIE_COULD_BE_USED:
                    rolls.append((high, low))
                    break
    return rolls


def main() -> None:
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["bash", str(TOOLS / "gnubg-matches.sh"), tmp, "12", "2026"], check=True)
        mats = sorted(str(p) for p in Path(tmp).glob("*.mat"))
        subprocess.run(["bash", str(TOOLS / "oracle.sh"), f"{tmp}/oracle.jsonl", *mats], check=True)
        records = [json.loads(line) for line in open(f"{tmp}/oracle.jsonl")]
    seen: set[str] = set()
    by_kind: dict[str, list[tuple[str, list[int]]]] = {}
    for record in records:
        for game in record["games"]:
            for action in game["actions"]:
                if action["action"] != "move" or action["board"] in seen:
                    continue
                seen.add(action["board"])
                position = Position.from_id(action["board"])
                for tag in kinds(position):
                    by_kind.setdefault(tag, []).append((action["board"], action["dice"]))
                for roll in larger_die_rolls(position):
                    by_kind.setdefault("larger-die", []).append((action["board"], list(roll)))
    rows = []
    chosen: set[tuple[str, tuple[int, int]]] = set()
    for tag in sorted(by_kind):
        for board, dice in rng.sample(by_kind[tag], min(PER_KIND, len(by_kind[tag]))):
            double = rng.randint(1, 6)
            for roll in (tuple(dice), (double, double), tuple(sorted(rng.sample(range(1, 7), 2), reverse=True))):
                if (board, roll) in chosen:
                    continue
                chosen.add((board, roll))
                position = Position.from_id(board)
                plays = position.legal_plays(roll)
                count = len(plays) if plays[0].play else 0
                tags = kinds(position) + (["larger-die"] if roll in larger_die_rolls(position) else [])
                rows.append({"position_id": board, "dice": list(roll), "plays": count, "kinds": tags})
    with open(HERE / "perft.jsonl", "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    print(f"{len(rows)} pairs; kinds: " + ", ".join(f"{k} {len(v)}" for k, v in sorted(by_kind.items())))


if __name__ == "__main__":
    main()
