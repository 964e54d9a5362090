"""Issue 31's figures under faults, as a user's processes meet them:

- a stop: ``analyze -j 2`` whose gnubg never answers (a gnubg of our own making, deaf to
  SIGTERM), sent SIGTERM once both workers wait for it: the seconds until the run has ended,
  and until its workers and engines have (the target: under 2 s; before: up to --timeout);
- a reply of gnubg without a line end, 16 MB and 64 MB: the time each takes to read and their
  ratio (linear: about 4; before, quadratic: 64 MB took 22 s);
- a money session of N games (``--games``, 2,000 by default) analysed by the real gnubg: the
  peak memory of bgrecord and of gnubg (sent in parts of 50 games; 2,000 at once grew gnubg to
  2.8 GB, and it died). Skipped without gnubg.

    python benchmarks/faults.py [--games N]

Times on a machine shared with other work vary with the load: the ratio and the memory say more.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from hostile import alive, children, session  # noqa: E402 - the tests' helpers: a process's state, a long session
SAMPLE = ROOT / "samples" / "gnubg-5pt-crawford.mat"
FAKE = """#!{python}
import json, os, signal, sys, time
print("@bgrecord " + json.dumps({{"ready": True}}), flush=True)
for line in sys.stdin:
    open(os.path.join({folder!r}, str(os.getpid())), "w").close()
    if {size} == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)
    sys.stdout.buffer.write(b"x" * {size} + b"\\n@bgrecord " + json.dumps({{"ok": True, "games": []}}).encode() + b"\\n")
    sys.stdout.flush()
"""


def fake(folder: Path, size: int) -> Path:
    (folder / "pids").mkdir(parents=True, exist_ok=True)
    program = folder / "gnubg"
    program.write_text(FAKE.format(python=sys.executable, folder=str(folder / "pids"), size=size))
    program.chmod(0o755)
    return program


def stop(folder: Path) -> None:
    program = fake(folder, 0)
    files = []
    for n in range(4):
        files.append(folder / f"{n}.mat")
        files[-1].write_bytes(SAMPLE.read_bytes())
    run = subprocess.Popen([sys.executable, "-m", "bgrecord", "analyze", *map(str, files), "-o", str(folder / "d.csv"), "--players",
                            str(folder / "p.csv"), "-j", "2", "--timeout", "600"], env={**os.environ, "BGRECORD_GNUBG": str(program)},
                           stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    while len(list((folder / "pids").iterdir())) < 2:
        time.sleep(0.02)
    engines = [int(p.name) for p in (folder / "pids").iterdir()]
    workers = children(run.pid)
    started = time.perf_counter()
    run.send_signal(signal.SIGTERM)
    status = run.wait()
    ended = time.perf_counter() - started
    while any(map(alive, engines + workers)) and time.perf_counter() - started < 10:
        time.sleep(0.01)
    print(f"stop: status {status}, the run ended in {ended:.2f} s, its {len(workers)} workers and {len(engines)} engines in "
          f"{time.perf_counter() - started:.2f} s{' (some still run)' if any(map(alive, engines + workers)) else ''}")  # fmt: skip


def reply(folder: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from bgrecord.analysis.gnubg import GnubgEngine

    seconds = {}
    for size in (16 << 20, 64 << 20):
        engine = GnubgEngine(str(fake(folder / str(size), size)), timeout=600)
        try:
            engine.analyse(" 1 point match\n", 0, False)  # started: the next reply alone is timed
            best = float("inf")
            for _ in range(3):
                started = time.perf_counter()
                engine.analyse(" 1 point match\n", 0, False)
                best = min(best, time.perf_counter() - started)
            seconds[size >> 20] = best
        finally:
            engine.close()
    print(f"a reply without a line end: 16 MB {seconds[16]:.2f} s, 64 MB {seconds[64]:.2f} s, ratio {seconds[64] / seconds[16]:.1f} "
          "(linear: 4)")  # fmt: skip


def long_session(folder: Path, games: int) -> None:
    import shutil

    if not (shutil.which("gnubg") or Path("/usr/games/gnubg").exists()):
        print("session: GNU Backgammon is not installed: skipped")
        return
    path = folder / "session.mat"
    path.write_text(session(games))
    script = ("import json, resource, sys\nfrom bgrecord.analysis import files\nfound = files.analyse_file(sys.argv[1])\n"
              "files.close_engines()\nprint(json.dumps({'decisions': len(found.decisions), 'failures': found.failures, "
              "'bgrecord': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10, "
              "'gnubg': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10}))")  # fmt: skip
    started = time.perf_counter()
    found = json.loads(subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True).stdout)
    print(f"a money session of {games:,} games: {found['decisions']:,} decisions in {time.perf_counter() - started:.0f} s, "
          f"peak memory bgrecord {found['bgrecord']} MB, gnubg {found['gnubg']} MB, failures {found['failures']}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    options = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; peak memory of this process "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10} MB")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="bgrecord-faults-") as folder:
        stop(Path(folder) / "stop")
        reply(Path(folder) / "reply")
        long_session(Path(folder), options.games)


if __name__ == "__main__":
    main()
