"""``bgrecord validate -j 1`` of this checkout beside another (an A/B: the speed a change costs),
whole processes in turn, A B A B, on one core each: the median ratio of the pairs, per set of
files (300 Backgammon Galaxy files, clean; the real archive, with its errors to recover from).

    git archive main | tar -x -C /tmp/ab-main && python -m compileall -q /tmp/ab-main/bgrecord bgrecord
    python benchmarks/validate_ab.py /tmp/ab-main [CORPUS]      (PAIRS=7 by default)

Goal (issue 29): recovery costs the clean files nothing noticeable (ratio near 1.00); the files
with errors pay for their searches. On a shared machine one run can differ by a third from the
next: the median of interleaved pairs holds, not one timing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

HERE = Path(__file__).resolve().parent.parent
DEFAULT = HERE.parent / "shared" / "corpus"
ONE_CORE = ["taskset", "-c", "0"] if shutil.which("taskset") else []
PAIRS = int(os.environ.get("PAIRS", "7"))


def run(checkout: Path, files: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([*ONE_CORE, sys.executable, "-m", "bgrecord", "validate", "--format", "json", "--jobs", "1", *files],
                   check=False, capture_output=True, env={**os.environ, "PYTHONPATH": str(checkout)}, cwd=checkout)  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    other = Path(sys.argv[1]).resolve()
    corpus = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT
    sets = {
        "300 Galaxy files (clean)": sorted(str(p) for p in (corpus / "lassehjorthmadsen__bglab").glob("*.txt"))[:300],
        "real archive (with errors)": sorted(str(p) for p in (corpus / "real-archives").rglob("*") if p.suffix in (".mat", ".txt", ".sgf")),
    }
    for label, files in sets.items():
        if not files:
            continue
        run(HERE, files), run(other, files)  # warm the caches
        ours, theirs = [], []
        for _ in range(PAIRS):
            ours.append(run(HERE, files))
            theirs.append(run(other, files))
        ratios = sorted(mine / base for mine, base in zip(ours, theirs))
        print(f"{label}: {len(files)} files; this checkout {median(ours):.2f} s, the other {median(theirs):.2f} s: "
              f"{median(ratios):.3f}x its time ({PAIRS} interleaved pairs, from {ratios[0]:.3f}x to {ratios[-1]:.3f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
