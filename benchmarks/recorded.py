"""Reading the analyses records hold, as ratios: ``bgrecord analyze --engine recorded`` (the
tables, no engine run) against gammonview's reading of XG's analysis of the same files
(``gvformat.xg.convert_xg`` and its PR aggregates), whole processes, run in turn.

    python benchmarks/recorded.py [FILES... | FOLDER] [--pairs N]

By default the XG-analysed matches of ../shared/corpus/other-formats/xg. Needs gammonview
(``pip install gammonview``). On a machine shared with other work, the median of the pairs.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "other-formats" / "xg"
GAMMONVIEW = "import sys; from gvformat.xg import convert_xg; from gvformat.stats import compute_aggregates\n" \
             "for name in sys.argv[1:]: compute_aggregates(convert_xg(name))"  # fmt: skip


def timed(command: list[str]) -> float:
    """CPU seconds of the process (and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--pairs", type=int, default=int(os.environ.get("PAIRS", 5)))
    given = parser.parse_args()
    paths = given.paths or [CORPUS]
    files = [str(f) for p in paths for f in (sorted(p.glob("*.xg")) if p.is_dir() else [p])]
    print(f"{len(files)} files; load average before: {os.getloadavg()[0]:.2f}")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        ours = [sys.executable, "-m", "bgrecord", "analyze", *files, "-o", f"{tmp}/d.csv", "--players", f"{tmp}/p.csv",
                "--engine", "recorded", "-j", "1", "-q", "--overwrite"]  # fmt: skip
        theirs = [sys.executable, "-c", GAMMONVIEW, *files]
        for _ in range(given.pairs):
            start = time.perf_counter()
            mine, other = timed(ours), timed(theirs)
            ratios.append(mine / other)
            print(f"bgrecord {mine:.2f} s, gammonview {other:.2f} s of CPU: {mine / other:.2f} x ({time.perf_counter() - start:.1f} s)")
    ratios.sort()
    print(f"median {ratios[len(ratios) // 2]:.2f} x gammonview (range {ratios[0]:.2f}-{ratios[-1]:.2f}); "
          f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
