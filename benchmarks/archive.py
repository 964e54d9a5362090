"""The match database: ``bgrecord index`` throughput beside ``bgrecord stats -j 1`` on the
same files, and ``bgrecord.tables.archive.find`` latency on an index of the corpus copied 16 times.

    python benchmarks/archive.py [FOLDER]

Goal (issue 16): ``find`` under 50 ms on the corpus copied 16 times (a position found in a
replay of the corpus, looked up by its Position ID; the median of 50 lookups, the index
opened for each, as ``bgrecord find`` does).
"""

from __future__ import annotations

import importlib.util
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgrecord.formats.reader import match_files
from bgrecord.tables import archive
from bgrecord.tables.database import Database

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
COPIES = 16


def timed(arguments: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bgrecord", *arguments], check=False, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    files = [str(p) for p in match_files([folder])]
    engines = ["sqlite"] + (["duckdb"] if importlib.util.find_spec("duckdb") else [])
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        stats = timed(["stats", "-j", "1", "-o", str(tmp / "games.csv"), *files])
        games = sum(1 for _ in (tmp / "games.csv").open()) - 1
        print(f"{len(files)} files, {games} games: stats -j 1 {stats:.2f} s ({games / stats:,.0f} games/s)")
        for engine in engines:
            seconds = timed(["index", "-j", "1", "-o", str(tmp / f"one.{engine}"), *files])
            print(f"  index -j 1 ({engine:6}) {seconds:6.2f} s ({games / seconds:,.0f} games/s, {seconds / stats:.2f}x stats)")
        copies = tmp / "copies"
        for copy in range(COPIES):
            shutil.copytree(folder, copies / f"{copy:02}", ignore=shutil.ignore_patterns("*.json", "*.md", "*.tsv"))
        for engine in engines:
            target = tmp / f"big.{engine}"
            seconds = timed(["index", "-o", str(target), str(copies)])
            database = Database(target)
            positions = database.query("SELECT count(*) FROM positions")[0][0]
            sample = [row[0] for row in database.query("SELECT position_id FROM positions WHERE action = 'move' LIMIT 20000")]
            database.close()
            wanted = random.Random(4).sample(sample, 50)
            latencies, found = [], 0
            for position_id in wanted:
                start = time.perf_counter()
                found += len(archive.find(target, archive.Wanted.of(position_id)))
                latencies.append(time.perf_counter() - start)
            print(f"corpus x{COPIES} ({engine}): {positions:,} positions indexed in {seconds:.1f} s (-j 0); find: median "
                  f"{statistics.median(latencies) * 1000:.1f} ms, slowest {max(latencies) * 1000:.1f} ms, {found / 50:,.0f} occurrences a lookup")  # fmt: skip


if __name__ == "__main__":
    main()
