"""Reading speed: MB/s and games/s of ``iter_matches`` over ../shared/corpus, on one core.

    python benchmarks/read.py [FOLDER]

Goal (issue 3): at least 3,000 games/s on one core. Files are read into memory first, so
the figures are the reader's, not the disk's; the parser is built once, before timing
(its build time is printed apart: it is paid once per process).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bgrecord.formats.mat_grammar import clear_caches, grammar
from bgrecord.reader import iter_matches, match_files
from bgrecord.formats.sgf import parser as sgf_parser

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    start = time.perf_counter()
    grammar()
    sgf_parser()
    print(f"parsers built in {time.perf_counter() - start:.2f} s")
    groups: dict[str, list[bytes]] = {".mat .txt .gam": [], ".sgf": []}
    for path in match_files([folder]):
        groups[".sgf" if path.suffix == ".sgf" else ".mat .txt .gam"].append(path.read_bytes())
    totals = [0, 0, 0.0]
    for name, files in groups.items():
        best = float("inf")
        for _ in range(3):
            clear_caches()  # each run starts cold, as one pass over an archive does
            start = time.perf_counter()
            games = sum(len(match.games) for data in files for match in iter_matches(data))
            best = min(best, time.perf_counter() - start)
        size = sum(map(len, files))
        totals = [totals[0] + games, totals[1] + size, totals[2] + best]
        print(f"{name:15} {len(files):5} files {games:6} games {size / 1e6:7.1f} MB  "
              f"{games / best:7,.0f} games/s {size / 1e6 / best:6.1f} MB/s")
    games, size, seconds = totals
    print(f"{'all':15} {'':5}       {games:6.0f} games {size / 1e6:7.1f} MB  "
          f"{games / seconds:7,.0f} games/s {size / 1e6 / seconds:6.1f} MB/s")


if __name__ == "__main__":
    main()
