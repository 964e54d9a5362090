"""Each command against ``bgrecord validate -j 1`` on the same files, whole processes, one
core each: what stats, replay, convert and index cost beyond reading and checking.

    python benchmarks/commands.py [FOLDER]

Goals (issue 15): ``stats -j 1`` within 1.5x ``validate -j 1``; ``replay`` of 100 files (one
process, its output streamed) no more than validating them. Printed as ratios: more than 1
is slower than validate.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgrecord.formats.reader import match_files

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
ONE_CORE = ["taskset", "-c", "0"] if shutil.which("taskset") else []
BGRECORD = [*ONE_CORE, sys.executable, "-m", "bgrecord"]


def seconds(arguments: list[str], fresh: Path | None = None) -> float:
    """The best of three whole runs (the exit status checked: 0, or 1 for records with errors);
    ``fresh``: an output removed before each run (an index is otherwise only brought up to date)."""
    best = float("inf")
    for _ in range(3):
        if fresh is not None and fresh.exists():
            fresh.unlink()
        start = time.perf_counter()
        done = subprocess.run([*BGRECORD, *arguments], capture_output=True)
        best = min(best, time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"bgrecord {' '.join(arguments[:3])} ... failed: {done.stderr.decode()[-500:]}")
    return best


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    files = [str(p) for p in match_files([folder])]
    hundred = files[:: max(1, len(files) // 100)][:100]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for label, chosen in (("all files", files), ("100 files", hundred)):
            validate = seconds(["validate", "-j", "1", *chosen])
            print(f"{label} ({len(chosen)}): validate -j 1 {validate:.2f} s")
            runs = {
                "stats -j 1": ["stats", "-j", "1", "-o", str(tmp / "g.csv"), "--overwrite", *chosen],
                "replay --format jsonl": ["replay", "--format", "jsonl", "-o", str(tmp / "r.jsonl"), "--overwrite", *chosen],
                "replay (text)": ["replay", "-o", str(tmp / "r.txt"), "--overwrite", *chosen],
                "convert --to sgf -j 1": ["convert", "-j", "1", "--to", "sgf", "--force", "--overwrite", "-o", str(tmp / "sgf"), *chosen],
                "index (SQLite) -j 1": ["index", "-j", "1", "-o", str(tmp / f"{len(chosen)}.sqlite"), *chosen],
            }
            for command, arguments in runs.items():
                taken = seconds(arguments, tmp / f"{len(chosen)}.sqlite" if command.startswith("index") else None)
                print(f"  {command:24} {taken:6.2f} s  {taken / validate:5.2f}x validate")


if __name__ == "__main__":
    main()
