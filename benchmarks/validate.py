"""Validation speed: the whole ``bgrecord validate`` process over ../shared/corpus, in one
process (``-j 1``), with two workers and with the default (a worker per core), beside GNU
Backgammon importing the same files in the same run.

    python benchmarks/validate.py [FOLDER]

Goal (issue 4): the whole process at least a quarter of GNU Backgammon's import speed, at
least 1,000 games/s on one core, and ``--jobs 2`` nearly twice as fast on large inputs. Time
an installed bgrecord (``pip install .`` compiles its modules); from a checkout run
``python -m compileall -q bgrecord`` first, or every run compiles them again when
PYTHONDONTWRITEBYTECODE is set.
GNU Backgammon (Debian package gnubg) is timed only when installed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bgrecord.cli import worker_count
from bgrecord.reader import match_files

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
IMPORT = """
import gnubg, os
for name in open(os.environ["FILES"]).read().split("\\n"):
    if name:
        gnubg.command(('load match "%s"' if name.endswith(".sgf") else 'import mat "%s"') % name)
"""


def timed(command: list[str], **kwargs: object) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    return time.perf_counter() - start, done.stdout


def gnubg_seconds(files: list[str]) -> float | None:
    if GNUBG is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        listing, script = Path(tmp) / "files", Path(tmp) / "import.py"
        listing.write_text("\n".join(files))
        script.write_text(IMPORT)
        seconds, _ = timed([GNUBG, "-t", "-q", "-p", str(script)], stdin=subprocess.DEVNULL, env={"FILES": str(listing), "HOME": tmp})
    return seconds


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    sets = {"corpus": [str(p) for p in match_files([folder])]}
    galaxy = [f for f in sets["corpus"] if "raw__match" in f][:300]  # Backgammon Galaxy exports
    if galaxy:
        sets["300 Galaxy files"] = galaxy
    validate = [sys.executable, "-m", "bgrecord", "validate", "--format", "json"]
    for name, files in sets.items():
        seconds, out = timed([*validate, "--jobs", "1", *files])
        games = json.loads(out)["summary"]["games"]
        two, _ = timed([*validate, "--jobs", "2", *files])
        default, _ = timed([*validate, *files])
        reference = gnubg_seconds(files)
        print(f"{name}: {len(files)} files, {games} games")
        print(f"  bgrecord validate -j 1   {seconds:6.2f} s  {games / seconds:7,.0f} games/s  (one process, one core)")
        print(f"  bgrecord validate -j 2   {two:6.2f} s  {games / two:7,.0f} games/s  ({seconds / two:.2f}x)")
        print(f"  bgrecord validate        {default:6.2f} s  {games / default:7,.0f} games/s  (the default: {worker_count(0, files)} workers here)")
        if reference is not None:
            print(f"  gnubg import             {reference:6.2f} s  {games / reference:7,.0f} games/s"
                  f"  (bgrecord at {reference / seconds:.0%} of its speed on one core, {reference / default:.0%} by default)")


if __name__ == "__main__":
    main()
