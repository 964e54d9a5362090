"""Statistics speed: games/s of the whole ``bgrecord stats`` process over ../shared/corpus,
with one and two workers.

    python benchmarks/stats.py [FOLDER]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in ("1", "2"):
            out = Path(tmp) / f"games{jobs}.csv"
            command = [sys.executable, "-m", "bgrecord", "stats", str(folder), "-o", str(out), "--players",
                       str(Path(tmp) / "players.csv"), "--dice", str(Path(tmp) / "dice.csv"), "--jobs", jobs]  # fmt: skip
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            seconds = time.perf_counter() - start
            games = sum(1 for _ in out.open()) - 1
            print(f"bgrecord stats --jobs {jobs}: {games} games in {seconds:.2f} s, {games / seconds:,.0f} games/s")


if __name__ == "__main__":
    main()
