"""The report's cost, whole processes, as ratios and sizes:

- ``bgrecord report FILES -j 1`` against ``bgrecord analyze FILES -j 1`` (the same analysis,
  plus a second reading of each file for its dates and the page): CPU time of the process and
  its children (gnubg included), in interleaved pairs;
- ``report FILES --analysis TABLES`` (nothing analysed again: a reading of the files for the
  dates) and ``report --analysis TABLES`` (the tables alone), against ``analyze``;
- the page's size, and what its boards, charts and tables take of it (target: under 2 MB for
  100 matches).

    python benchmarks/report.py [--count N] [--pairs N]

By default the first 100 Galaxy matches of ../shared/corpus (SOURCES.tsv's order).
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analyze import timed  # noqa: E402 - the same timing of a whole process

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def galaxy(count: int) -> list[Path]:
    with (CORPUS / "SOURCES.tsv").open(encoding="utf-8", newline="") as rows:
        found = [CORPUS / row["file"] for row in csv.DictReader(rows, delimiter="\t") if row["producer_guess"] == "Backgammon Galaxy export"]
    return found[:count]


def bgrecord(*arguments: str) -> float:
    """CPU seconds of one bgrecord process and its children."""
    _, cpu, done = timed([sys.executable, "-m", "bgrecord", *arguments, "-q"])
    if done.returncode not in (0, 1, 2):
        sys.exit(f"bgrecord {arguments[0]} failed ({done.returncode}): {done.stderr}")
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=int(os.environ.get("PAIRS", "2")))
    given = parser.parse_args()
    files = [str(f) for f in galaxy(given.count)]
    print(f"{len(files)} Galaxy files, {given.pairs} pairs; load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tables = [str(folder / name) for name in ("d.csv", "p.csv", "m.csv")]
        analysed, reported = [], []
        for _ in range(given.pairs):
            analysed.append(bgrecord("analyze", *files, "-j", "1", "-o", tables[0], "--players", tables[1], "--matches", tables[2],
                                     "--overwrite"))  # fmt: skip
            reported.append(bgrecord("report", *files, "-j", "1", "-o", str(folder / "page.html"), "--overwrite"))
        analyze, report = statistics.median(analysed), statistics.median(reported)
        given_tables = [f"--analysis={t}" for t in tables]
        dated = bgrecord("report", *files, *given_tables, "-j", "1", "-o", str(folder / "dated.html"))
        alone = bgrecord("report", *given_tables, "-o", str(folder / "tables.html"))
        print(f"analyze -j 1: {analyze:.1f} s of CPU; report -j 1 on the files: {report:.1f} s = {report / analyze:.2f} x analyze")
        print(f"report on the files with the tables (dates only): {dated:.1f} s = {dated / analyze:.2f} x analyze")
        print(f"report from the tables alone: {alone:.1f} s = {alone / analyze:.2f} x analyze")
        page = (folder / "page.html").read_text(encoding="utf-8")
        same = page == (folder / "dated.html").read_text(encoding="utf-8")
        print(f"page: {len(page.encode()):,} bytes (target: under 2,000,000 for 100 matches); from the tables the same: {same}")
        for name, pattern in (("boards", r"<figure id='match-[^>]*>.*?</figure>"), ("charts", r'<svg class="chart".*?</svg>'),
                              ("tables", r"<table>.*?</table>")):  # fmt: skip
            found = re.findall(pattern, page)
            print(f"  {name}: {len(found)}, {sum(map(len, found)):,} characters")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
