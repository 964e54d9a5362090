"""``bgrecord stats -j 1`` of this checkout beside another checkout's (main, say: ``git archive
main | tar -x -C /tmp/main``), whole processes in turn, A B A B, over ../shared/corpus: each
pair's ratio (this / other) and their median. The games, players and matches tables are
written, as a user asks for them.

    python benchmarks/stats_ab.py OTHER_CHECKOUT [FOLDER]      (PAIRS=N, 5 by default)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DEFAULT = HERE.parent / "shared" / "corpus"


def seconds(checkout: Path, folder: Path, out: Path) -> float:
    command = [sys.executable, "-m", "bgrecord", "stats", str(folder), "-q", "-j", "1", "--overwrite", "-o", str(out / "games.csv"),
               "--players", str(out / "players.csv"), "--matches", str(out / "matches.csv")]  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, check=False, capture_output=True, env={**os.environ, "PYTHONPATH": str(checkout)})
    return time.perf_counter() - start


def main() -> None:
    other = Path(sys.argv[1]).resolve()
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT
    pairs = int(os.environ.get("PAIRS", "5"))
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(pairs):
            mine, theirs = seconds(HERE, folder, Path(tmp)), seconds(other, folder, Path(tmp))
            ratios.append(mine / theirs)
            print(f"this {mine:.2f} s, other {theirs:.2f} s: {ratios[-1]:.3f}", flush=True)
    print(f"median ratio (this / other) of {pairs} pairs: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
