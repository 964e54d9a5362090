"""Start-up beside the bare interpreter, in one run: ``bgrecord --help`` and ``bgrecord validate``
of one small sample, against ``python -c pass``, best of seven whole processes each (taken in
turn, so that a busy moment costs every side alike). Then the heaviest imports of each, from
``python -X importtime``.

    python benchmarks/startup.py [FILE]

Goals (issue 24): ``--help`` within 0.1 s of the bare interpreter, one small file within
0.2 s. A director checks one file at a time, and every ``-j`` worker and Dask task starts the
same way, so a command imports only what it uses. Time an installed bgrecord (``pip install
.``), or run ``python -m compileall -q bgrecord`` first in a checkout.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "gnubg-5pt-crawford.mat"
RUNS = 7
HEAVIEST = 8
GOALS = {"--help": 0.1, "validate": 0.2}


def commands(sample: Path) -> dict[str, list[str]]:
    script = Path(sys.executable).with_name("bgrecord")  # the installed command, as a user runs it
    bgrecord = [str(script)] if script.is_file() else [sys.executable, "-m", "bgrecord"]
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "--help": [*bgrecord, "--help"],
        "validate": [*bgrecord, "validate", "-q", "-j", "1", str(sample)],
    }


def best_times(runs: dict[str, list[str]]) -> dict[str, float]:
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(RUNS):
        for label, command in runs.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            best[label] = min(best[label], time.perf_counter() - start)
    return best


def heaviest_imports(command: list[str]) -> list[tuple[int, str]]:
    """The imports that cost most, cumulative microseconds, among those the command makes and
    those they make in turn (the two outer levels of the import tree)."""
    program = command[1:] if command[0] == sys.executable else command  # the installed command is a Python script
    done = subprocess.run([sys.executable, "-X", "importtime", *program], capture_output=True, text=True, check=False)
    rows: list[tuple[int, int, str]] = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append((int(cumulative), depth, name.strip()))
    top_level = [(cumulative, name) for cumulative, depth, name in rows if depth <= 1]
    return sorted(top_level, reverse=True)[:HEAVIEST]


def main() -> None:
    sample = Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE
    runs = commands(sample)
    best = best_times(runs)
    bare = best["python -c pass"]
    print(f"best of {RUNS} whole processes ({sample.name}):")
    for label, seconds in best.items():
        if label == "python -c pass":
            print(f"  {label:16} {seconds:6.3f} s")
            continue
        extra = seconds - bare
        verdict = "met" if extra <= GOALS[label] else "NOT met"
        print(f"  {label:16} {seconds:6.3f} s  +{extra:.3f} s over the interpreter (goal +{GOALS[label]:.1f} s: {verdict})")
    for label in ("--help", "validate"):
        print(f"heaviest imports of {label} (cumulative ms):")
        for cumulative, name in heaviest_imports(runs[label]):
            print(f"  {cumulative / 1000:7.1f}  {name}")


if __name__ == "__main__":
    main()
