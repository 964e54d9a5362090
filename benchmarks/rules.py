"""Plays checked per second: every recorded move of the self-play corpus through play_error.

    python benchmarks/rules.py [path/to/oracle.jsonl]

Goals: under 20 µs per recorded play on average (issue 2; most plays use every die and need
no move generation); ``legal_plays`` within 10x of GNU Backgammon's generator in C (issue 15:
about 2 µs a roll, from the 43-47x the issue measured at 95 µs). ``legal_plays`` builds each
play's Position when it is first read, so it is timed alone and with every position read.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from bgrecord import Play, Position

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "gnubg-selfplay" / "oracle.jsonl"


def recorded_plays(path: Path) -> list[tuple[Position, tuple[int, int], Play]]:
    cases = []
    for line in path.open(encoding="utf-8"):
        for game in json.loads(line)["games"]:
            position = None
            for action in game["actions"]:
                if action["action"] != "move":
                    continue
                here = Position(position.sides if position else Position.start().sides, action["player"])
                play = Play.from_pairs(action["move"])
                cases.append((here, tuple(action["dice"]), play))
                position = here.play(play, action["dice"])
    return cases


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    cases = recorded_plays(path)
    best_check = best_generate = best_built = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        errors = sum(position.play_error(dice, play) is not None for position, dice, play in cases)
        best_check = min(best_check, time.perf_counter() - start)
        start = time.perf_counter()
        for position, dice, _play in cases:
            position.legal_plays(dice)
        best_generate = min(best_generate, time.perf_counter() - start)
        start = time.perf_counter()
        for position, dice, _play in cases:
            for legal in position.legal_plays(dice):
                legal.position
        best_built = min(best_built, time.perf_counter() - start)
    n = len(cases)
    print(f"recorded plays:           {n} ({errors} refused)")
    print(f"play_error:               {n / best_check:,.0f} plays/s, {best_check / n * 1e6:.1f} µs per play")
    print(f"legal_plays:              {n / best_generate:,.0f} rolls/s, {best_generate / n * 1e6:.1f} µs per roll")
    print(f"  every position read:    {n / best_built:,.0f} rolls/s, {best_built / n * 1e6:.1f} µs per roll")


if __name__ == "__main__":
    main()
