"""Validation speed beside the peers, in one run, whole processes, one core each: ``bgrecord
validate -j 1``, GNU Backgammon importing the same files (it checks almost nothing) and
gammonview's ``gvformat`` parsing them and rebuilding every position (it checks no legality:
``parse_mat_file`` then ``mat_to_data``, its lightest path that does).
Then ``bgrecord validate`` with two workers and with the default.

    python benchmarks/validate.py [FOLDER]      (PAIRS=15 for more pairs against gammonview)

Goals (issues 15 and 24): ``-j 1`` at least as fast as gammonview, at least 0.25x GNU Backgammon's
import; ``-j 0`` with two cores free at least 1.8x ``-j 1``. Every side is pinned to one core
(``taskset``, where there is one); each says how many files it really read: GNU Backgammon
aborts on some files (an empty player name), so the files it cannot read are found first and
left out of every side's set. Against gammonview the two run in turn, several pairs, and the
median ratio is printed (one run of each says little on a shared machine). Peers are timed only when installed (``gnubg``: the Debian
package; gammonview: ``pip install gammonview``). Time an installed bgrecord (``pip install
.``), or run ``python -m compileall -q bgrecord`` first in a checkout.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from bgrecord.cli import worker_count
from bgrecord.formats.reader import match_files

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
ONE_CORE = ["taskset", "-c", "0"] if shutil.which("taskset") else []
PAIRS = int(os.environ.get("PAIRS", "7"))  # interleaved runs of bgrecord and gammonview
# the installed command, as a user runs it (``python -m`` imports runpy first); else the module
_SCRIPT = Path(sys.executable).with_name("bgrecord")
BGRECORD = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "bgrecord"]
GNUBG_IMPORT = """
import gnubg, os
done = open(os.environ["DONE"], "w")
for name in open(os.environ["FILES"]).read().split("\\n"):
    if name:
        gnubg.command(('load match "%s"' if name.endswith(".sgf") else 'import mat "%s"') % name)
        done.write(name + "\\n")
        done.flush()
"""
# gammonview's lightest path that rebuilds every position: parse, then every game's decisions
# and boards (``convert_mat`` also builds an OGXM document, work bgrecord validate does not do).
GVFORMAT = """
import os
from gvformat.mat import mat_to_data
from gvformat.mat_parser import parse_mat_file
read = 0
for name in open(os.environ["FILES"]).read().split("\\n"):
    if name:
        try:
            with open(name, encoding="utf-8", errors="replace") as file:
                mat_to_data(parse_mat_file(file.read()))
            read += 1
        except Exception:
            pass
print(read)
"""


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run(command, check=False, capture_output=True, text=True, stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    return time.perf_counter() - start, done


def paired(ours: list[str], theirs: list[str], env: dict[str, str]) -> tuple[list[float], list[float], str]:
    """Both commands in turn, A B A B, :data:`PAIRS` times after one run of each to warm the
    caches: the seconds of each run, and what the second command printed. On a shared machine
    one run of each can differ by a third from the next; the median of the pairs' ratios holds."""
    timed(ours), timed(theirs, env)
    mine: list[float] = []
    peer: list[float] = []
    printed = ""
    for _ in range(PAIRS):
        mine.append(timed(ours)[0])
        seconds, process = timed(theirs, env)
        peer.append(seconds)
        printed = process.stdout.strip() or "0"
    return mine, peer, printed


def gnubg_run(files: list[str], tmp: Path) -> tuple[float, list[str], int]:
    """GNU Backgammon's import of ``files``: seconds, the files it finished, its exit status."""
    assert GNUBG is not None
    listing, script, done = tmp / "files", tmp / "import.py", tmp / "done"
    listing.write_text("\n".join(files))
    script.write_text(GNUBG_IMPORT)
    seconds, process = timed([*ONE_CORE, GNUBG, "-t", "-q", "-p", str(script)], {"FILES": str(listing), "DONE": str(done), "HOME": str(tmp)})
    finished = done.read_text().splitlines() if done.exists() else []
    return seconds, finished, process.returncode


def gnubg_readable(files: list[str], tmp: Path) -> list[str]:
    """``files`` without those GNU Backgammon aborts on (found by running it until it does not)."""
    left = list(files)
    for _ in range(20):
        _, finished, status = gnubg_run(left, tmp)
        if len(finished) == len(left):
            return left
        bad = left[len(finished)]
        print(f"  (GNU Backgammon stops on {Path(bad).name}, exit status {status}: left out of every side's set)")
        left.remove(bad)
    return left


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    files = [str(p) for p in match_files([folder]) if p.suffix in (".mat", ".txt", ".gam", ".sgf")]
    sets = {"corpus": files}
    galaxy = [f for f in files if "raw__match" in f][:300]  # Backgammon Galaxy exports
    if galaxy:
        sets["300 Galaxy files"] = galaxy
    validate = [*BGRECORD, "validate", "--format", "json"]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for label, chosen in sets.items():
            print(f"{label}:")
            if GNUBG:
                chosen = gnubg_readable(chosen, tmp)
            seconds, process = timed([*ONE_CORE, *validate, "--jobs", "1", *chosen])
            summary = json.loads(process.stdout)["summary"]
            games = summary["games"]
            print(f"  {len(chosen)} files, {games} games; bgrecord read {summary['files']} files")
            print(f"  bgrecord validate -j 1   {seconds:6.2f} s  {games / seconds:7,.0f} games/s  (one core)")
            if GNUBG:
                reference, finished, status = gnubg_run(chosen, tmp)
                print(f"  gnubg import             {reference:6.2f} s  {games / reference:7,.0f} games/s  "
                      f"({len(finished)} files read, exit {status}): bgrecord at {reference / seconds:.2f}x its speed")  # fmt: skip
            if importlib.util.find_spec("gvformat") and all(not f.endswith(".sgf") for f in chosen):
                listing = tmp / "gv-files"
                listing.write_text("\n".join(chosen))
                peer_command = [*ONE_CORE, sys.executable, "-c", GVFORMAT]
                ours, theirs, read = paired([*ONE_CORE, *validate, "--jobs", "1", *chosen], peer_command, {"FILES": str(listing)})
                ratios = sorted(peer / own for own, peer in zip(ours, theirs))
                print(f"  gammonview gvformat      {median(theirs):6.2f} s  {games / median(theirs):7,.0f} games/s  ({read} files read)")
                print(f"    {len(ratios)} interleaved pairs, one core: bgrecord -j 1 {median(ours):.2f} s against {median(theirs):.2f} s, "
                      f"bgrecord at {median(ratios):.2f}x its speed (pairs from {ratios[0]:.2f}x to {ratios[-1]:.2f}x)")  # fmt: skip
            two, _ = timed([*validate, "--jobs", "2", *chosen])
            default, _ = timed([*validate, *chosen])
            print(f"  bgrecord validate -j 2   {two:6.2f} s  {games / two:7,.0f} games/s  ({seconds / two:.2f}x -j 1)")
            print(f"  bgrecord validate        {default:6.2f} s  {games / default:7,.0f} games/s  "
                  f"({seconds / default:.2f}x -j 1; the default starts {worker_count(0, chosen)} workers here)")  # fmt: skip


if __name__ == "__main__":
    main()
