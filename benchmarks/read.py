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
from bgrecord.formats.reader import iter_matches, match_files
from bgrecord.formats.sgf import parser as sgf_parser
from bgrecord.formats.source import Input
from bgrecord.replay.validate import replayed

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    start = time.perf_counter()
    grammar()
    sgf_parser()
    print(f"parsers built in {time.perf_counter() - start:.2f} s")
    groups: dict[str, list[bytes]] = {".mat .txt .gam": [], ".sgf": []}
    for path in match_files([folder]):
        if path.suffix in (".mat", ".txt", ".gam", ".sgf"):
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
    twins(folder / "other-formats")


def twins(folder: Path) -> None:
    """Goal (issue 13): reading a binary file costs no more than reading the same match's
    .mat export. Each pair read and replayed (what validate does), best of five."""
    exports = {path.stem.split("__")[-1]: path for path in (folder / "mat-pairs").glob("*.mat")} if folder.exists() else {}
    for suffix in (".xg", ".bgf"):
        pairs = [(path, exports[path.stem.split("__")[-1]]) for path in sorted(folder.glob(f"*/*{suffix}"))
                 if path.stem.split("__")[-1] in exports]  # fmt: skip
        if not pairs:
            continue
        cost = {}
        for side in (0, 1):
            contents = [pair[side].read_bytes() for pair in pairs]
            best = float("inf")
            for _ in range(5):
                clear_caches()
                start = time.perf_counter()
                for data in contents:
                    for _match, _game, _out in replayed(Input.of(data)):
                        pass
                best = min(best, time.perf_counter() - start)
            cost[side] = best
        print(f"{suffix:4} {len(pairs)} matches: {cost[0]:.3f} s, their .mat exports {cost[1]:.3f} s: "
              f"{cost[0] / cost[1]:.2f}x the .mat's cost")


if __name__ == "__main__":
    main()
