"""The acceptance rates of recovery (issue 29) over clean .mat records of every producer at hand
(tests/mistakes.py): records with 2 or 3 independent defects in one game (every defect an error
at its line, no other error), and a transcriber's mistakes (told once within one line, no error
elsewhere, the statistics naming exactly the two players). Prints each rate, by kind and by
producer, with the misses, and the seconds a record took (validate's work on an edited record,
searches included).

    python benchmarks/recovery.py [RECORDS_PER_PRODUCER]      (default 8; SEED=29)

Goals: both rates at least 0.95.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mistakes import MISTAKES, clean_sources, defects, judge_defects, judge_mistake, mistake  # noqa: E402


def main() -> None:
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    rng = random.Random(int(os.environ.get("SEED", "29")))
    sources = clean_sources(per)
    print(f"{len(sources)} clean records: " + ", ".join(f"{p} {n}" for p, n in sorted(Counter(p for p, _ in sources).items())))
    started = time.perf_counter()
    tally: Counter[tuple[str, str, bool]] = Counter()
    misses = []
    for producer, path in sources:
        edits = [defects(path, rng) for _ in range(2)] + [mistake(path, kind, rng) for kind in MISTAKES]
        for number, edit in enumerate(edits):
            if edit is None:
                continue
            group = "defects" if number < 2 else "mistakes"
            why = (judge_defects if group == "defects" else judge_mistake)(path, edit)
            kind = "several defects" if group == "defects" else edit.kind
            tally[(group, kind, why is None)] += 1
            tally[(group, producer, why is None)] += 1
            if why:
                misses.append(f"  {producer} {path.name}: {why[:300]}")
    seconds = time.perf_counter() - started
    for group in ("defects", "mistakes"):
        good = sum(n for (g, k, ok), n in tally.items() if g == group and ok and k not in dict(sources))
        keys = sorted({k for g, k, _ in tally if g == group})
        kinds = [k for k in keys if k not in {p for p, _ in sources}]
        total = sum(tally[(group, k, True)] + tally[(group, k, False)] for k in kinds)
        good = sum(tally[(group, k, True)] for k in kinds)
        print(f"{group}: {good}/{total} = {good / max(total, 1):.3f}")
        for key in keys:
            print(f"  {key}: {tally[(group, key, True)]}/{tally[(group, key, True)] + tally[(group, key, False)]}")
    edited = sum(tally.values()) // 2
    print(f"{edited} edited records in {seconds:.0f} s ({seconds / max(edited, 1):.2f} s each, validated twice and judged)")
    print("misses:", *misses, sep="\n")


if __name__ == "__main__":
    main()
