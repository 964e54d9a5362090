"""The archive database on real files (issue 33's acceptance): ``bgrecord index`` beside
``bgrecord validate`` on the same files, the bytes a game of each engine's index, and
``bgrecord find`` beside ``bgrecord --help`` (what a search costs over the command's start).

    python benchmarks/archive.py [--jobs 2] [--pairs 3] [FILE_OR_FOLDER...]

By default the Backgammon Galaxy exports of ``../shared/corpus`` (``SOURCES.tsv``; 4,406
games once the byte-for-byte copies are counted once). Each timing is an index run between two
validate runs (its ratio is to their mean: a machine whose speed drifts weighs on both sides
alike), ``--pairs`` times: on a loaded machine compare the ratios, which the load touches less
than the seconds. Targets: index at most 2x validate; at most 2,000 bytes a
game in SQLite and in DuckDB; find at most 0.1 s over ``bgrecord --help``. The scale (10k to
1M games) is ``benchmarks/archive_scale.py``.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


SCRIPT = Path(sys.executable).with_name("bgrecord")  # the installed command, as a user runs it
BGRECORD = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "bgrecord"]


def galaxy() -> list[str]:
    with (CORPUS / "SOURCES.tsv").open(encoding="utf-8", newline="") as rows:
        return [str(CORPUS / row["file"]) for row in csv.DictReader(rows, delimiter="\t") if row["producer_guess"] == "Backgammon Galaxy export"]


def timed(arguments: list[str], cpu: list[float] | None = None) -> float:
    """Seconds of a bgrecord command (and, into ``cpu``, the CPU seconds of all its processes)."""
    start = time.perf_counter()
    process = subprocess.Popen([*BGRECORD, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--jobs", default="2")
    parser.add_argument("--pairs", type=int, default=3)
    options = parser.parse_args()
    files = options.paths or galaxy()
    engines = ["sqlite"] + (["duckdb"] if importlib.util.find_spec("duckdb") else [])
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        listing = tmp / "files"
        listing.mkdir()
        for number, path in enumerate(files):  # one folder of links: a command line of any length
            (listing / f"{number:05d}-{Path(path).name}").symlink_to(Path(path).resolve())
        jobs = ["-j", options.jobs, "-q"]
        ratios: dict[str, list[float]] = {engine: [] for engine in engines}
        cpu_ratios: dict[str, list[float]] = {engine: [] for engine in engines}
        for _ in range(options.pairs):
            for engine in engines:  # validate before and after the index: the machine's drift is taken out of the ratio
                cpu: list[float] = []
                before = timed(["validate", *jobs, str(listing)], cpu)
                target = tmp / f"index.{engine}"
                target.unlink(missing_ok=True)
                index = timed(["index", *jobs, str(listing), "-o", str(target)], cpu)
                validate = (before + timed(["validate", *jobs, str(listing)], cpu)) / 2
                validate_cpu = (cpu[0] + cpu[2]) / 2
                ratios[engine].append(index / validate)
                cpu_ratios[engine].append(cpu[1] / validate_cpu)
                print(f"validate {validate:6.2f} s ({validate_cpu:.2f} s CPU), index ({engine:6}) {index:6.2f} s ({cpu[1]:.2f} s CPU): "
                      f"{index / validate:.2f}x the time, {cpu[1] / validate_cpu:.2f}x the CPU")  # fmt: skip
        from bgrecord.tables.database import Database

        for engine in engines:
            target = tmp / f"index.{engine}"
            database = Database(target, read_only=True)
            games = database.query("SELECT count(*) FROM games")[0][0]
            database.close()
            print(f"{engine}: {games:,} games, {target.stat().st_size / games:,.0f} bytes a game; index/validate median "
                  f"{statistics.median(ratios[engine]):.2f}x the time, {statistics.median(cpu_ratios[engine]):.2f}x the CPU "
                  f"(of {options.pairs} pairs)")  # fmt: skip
            from bgrecord.tables.read_back import positions

            middle = next(row["position_id"] for row in positions(target) if row["action"] == "move" and row["step"] > 20)
            for what, position in (("a middle-game position", middle), ("the opening position", "4HPwATDgc/ABMA")):
                helps, finds = [], []
                for _ in range(10):
                    helps.append(timed(["--help"]))
                    finds.append(timed(["find", str(target), position]))
                print(f"  find {what}: {statistics.median(finds):.3f} s, --help {statistics.median(helps):.3f} s: "
                      f"{statistics.median(finds) - statistics.median(helps):+.3f} s over the start")  # fmt: skip


if __name__ == "__main__":
    main()
