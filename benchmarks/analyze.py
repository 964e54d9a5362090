"""Analysis speed, whole processes, one run each, as ratios:

- ``bgrecord analyze -j 1`` against GNU Backgammon's own import and analysis of the same files
  (one gnubg process, the same settings): the target is at most 1.25 times its time;
- ``-j 0`` (a worker per core) against ``-j 1``: with two cores, at least 1.8 times as fast;
- a Dask cluster (``--scheduler local``) gives the same tables, byte for byte.

    python benchmarks/analyze.py [FILES... | FOLDER] [--count N] [--plies N]

By default the first 40 Galaxy matches of ../shared/corpus. Each process is timed by the
clock and by the CPU time it and its children used (gnubg included): on a machine shared with
other work the clock varies with the load (printed), the CPU time much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "lassehjorthmadsen__bglab"


def timed(command: list[str], **options: object) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(seconds by the clock, CPU seconds of the process and its children, the process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, **options)  # type: ignore[call-overload]
    clock = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return clock, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done


def gnubg_alone(files: list[Path], plies: int, folder: Path) -> tuple[float, float]:
    """Seconds for one gnubg process to import and analyse every file, as analyze has it do."""
    gnubg = os.environ.get("BGRECORD_GNUBG") or shutil.which("gnubg") or "/usr/games/gnubg"
    commands = ["set threads 1", f"set analysis chequerplay evaluation plies {plies}",
                f"set analysis cubedecision evaluation plies {plies}", "set analysis luckanalysis plies 0"]  # fmt: skip
    for file in files:
        commands += [f'import mat "{file}"', "analyse match"]
    script = folder / "gnubg.cmd"
    script.write_text("\n".join(commands) + "\n")
    with script.open() as commands_in:
        clock, cpu, _ = timed([gnubg, "-t", "-q", "-r"], stdin=commands_in, check=True)
    return clock, cpu


def analyze(files: list[Path], folder: Path, name: str, *options: str) -> tuple[float, float]:
    command = [sys.executable, "-m", "bgrecord", "analyze", *map(str, files), "-o", str(folder / f"{name}.csv"),
               "--players", str(folder / f"{name}-players.csv"), "--matches", str(folder / f"{name}-matches.csv"), "-q", *options]  # fmt: skip
    clock, cpu, done = timed(command)
    if done.returncode not in (0, 1):
        sys.exit(f"bgrecord analyze failed ({done.returncode}): {done.stderr}")
    return clock, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--plies", type=int, default=0)
    given = parser.parse_args()
    paths = given.paths or [CORPUS]
    files = sorted(f for p in paths for f in (sorted(p.iterdir()) if p.is_dir() else [p]) if f.is_file())[: given.count]
    cores = len(os.sched_getaffinity(0))
    print(f"{len(files)} files, {given.plies} ply, {cores} cores; load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        plies = ["--plies", str(given.plies)]
        alone, alone_cpu = gnubg_alone(files, given.plies, folder)
        one, one_cpu = analyze(files, folder, "j1", "-j", "1", *plies)
        every, _ = analyze(files, folder, "j0", "-j", "0", *plies)
        print(f"gnubg's own import and analysis: {alone:.1f} s ({alone_cpu:.1f} s of CPU)")
        print(f"bgrecord analyze -j 1: {one:.1f} s = {one / alone:.2f} x gnubg alone by the clock, {one_cpu / alone_cpu:.2f} x "
              f"by CPU time (target: at most 1.25)")  # fmt: skip
        print(f"bgrecord analyze -j 0: {every:.1f} s: -j 1 takes {one / every:.2f} x as long (target with two cores: at least 1.8)")
        same = all((folder / f"j1{suffix}.csv").read_bytes() == (folder / f"j0{suffix}.csv").read_bytes()
                   for suffix in ("", "-players", "-matches"))  # fmt: skip
        print(f"-j 1 and -j 0 tables the same: {same}")
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("Dask: not installed (pip install 'bgrecord[dask]')")
        else:
            dask, _ = analyze(files, folder, "dask", "--scheduler", "local", "-j", str(cores), *plies)
            same = all((folder / f"j1{suffix}.csv").read_bytes() == (folder / f"dask{suffix}.csv").read_bytes()
                       for suffix in ("", "-players", "-matches"))  # fmt: skip
            print(f"--scheduler local: {dask:.1f} s; tables the same as -j 1: {same}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
