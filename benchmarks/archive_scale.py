"""The archive database at scale: archives of 10k, 100k and 1M games, and how validate, stats,
index and find grow with them (issue 33).

    python benchmarks/archive_scale.py [--sizes 10000,100000] [--folder DIR] [--jobs 2] [--seed 1]
                                       [--commands validate,stats,sqlite,duckdb,find,update]

The archive is played by bgrecord's own rules core: a seeded random player (who avoids hitting
four times in five, which gives games of real length: some 50 plies), matches of 1 to 17
points in files of one match each (as Backgammon Galaxy and FIBS export them), with cube
actions (a double now and then, taken three times in four), Crawford games and resignations
(a ``Wins`` line before the game's end, read as one), written in GNU Backgammon's ``.mat``
layout, a thousand files a folder. It is made once under ``--folder`` (``generated/``: the
files, ``manifest.tsv``: each file's games) and reused; each size is the first files that
hold that many games, hard-linked into ``sizes/N/``.

At each size it times, as a user runs them: ``validate``, ``stats -o games.csv``, ``index``
into SQLite and DuckDB, and ``find`` (the library's search of 50 positions drawn from the
index, warm: the median and the slowest, of the first 100 occurrences and of all of them, the
index opened for each lookup as ``bgrecord find`` does, and on an index kept open as a program
serving searches keeps it), and with ``update`` a run that adds one file to a copy of each
index (every file of the archive looked up again, every game summed again); with the peak
memory of each command (its largest process). It prints the growth: time and bytes a game at
each size, divided by the first size's, and the bytes each game added since the size before
(what a game costs, without the file's fixed cost: a block or two a table). The targets (issue
33): time and bytes a game flat within 20%, memory flat, find under 50 ms at a million games.
Measure on a quiet machine: on a loaded one, compare the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterator

from bgrecord.core.position import Position
from bgrecord.writing.writers import play_text

FILES_A_FOLDER = 1000
LENGTHS = {1: 8, 3: 14, 5: 24, 7: 24, 9: 12, 11: 10, 13: 4, 15: 2, 17: 2}  # match lengths and their weights
NAMES = 3000  # players in the archive
ADDED = 10**8  # the number of the file an update run adds (past any archive's)
DOUBLE, TAKE, RESIGN, HIT = 0.03, 0.75, 0.004, 0.2  # a double on a turn it may; a take; a resignation on a turn; a hit when not avoided


# --- a match, played ---


SCRIPT = Path(sys.executable).with_name("bgrecord")  # the installed command, as a user runs it
BGRECORD = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "bgrecord"]


def match_text(seed: int) -> tuple[str, int]:
    """A match played by two random players, in GNU Backgammon's .mat layout, and its games."""
    rng = random.Random(seed)
    length = rng.choices(list(LENGTHS), list(LENGTHS.values()))[0]
    names = [f"player{rng.randrange(NAMES):04d}" for _ in range(2)]
    if names[0] == names[1]:
        names[1] = names[1] + "b"
    score = [0, 0]
    lines = [f"; [Site \"bgrecord benchmark\"]", f"; [Seed \"{seed}\"]", "", f" {length} point match", ""]
    crawford_done = False
    number = 0
    while max(score) < length:
        number += 1
        crawford = not crawford_done and length > 1 and max(score) == length - 1
        crawford_done = crawford_done or crawford
        lines += [f" Game {number}", f" {names[0]} : {score[0]}".ljust(32) + f"{names[1]} : {score[1]}"]
        winner, points, cells = _game(rng, crawford)
        score[winner] += points
        lines += _rows(cells)
        ending = f"Wins {points} point{'s' if points > 1 else ''}" + (" and the match" if score[winner] >= length else "")
        lines += [(" " * 6 if winner == 0 else " " * 33) + ending, ""]
    return "\n".join(lines) + "\n", number


def _game(rng: random.Random, crawford: bool) -> tuple[int, int, list[tuple[int, str]]]:
    """A game: its winner, the points won, and its cells (player, text) in order."""
    cells: list[tuple[int, str]] = []
    while True:
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        if first != second:
            break
    player = 0 if first > second else 1
    position = Position.start(turn=player)
    cube, owner = 1, None
    dice = (max(first, second), min(first, second))
    while True:
        if dice is None:
            if rng.random() < RESIGN:
                return 1 - player, cube, cells
            if not crawford and owner in (None, player) and cube < 64 and rng.random() < DOUBLE:
                cells.append((player, f" Doubles => {cube * 2}"))
                if rng.random() >= TAKE:
                    cells.append((1 - player, " Drops"))
                    return player, cube, cells
                cells.append((1 - player, " Takes"))
                cube, owner = cube * 2, 1 - player
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            dice = (max(dice), min(dice))
        plays = position.legal_plays(dice)
        quiet = [play for play in plays if True not in play.hits]
        chosen = rng.choice(quiet if quiet and rng.random() >= HIT else plays)
        cells.append((player, f"{dice[0]}{dice[1]}: {play_text(chosen)}".rstrip() + " "))
        position = chosen.position
        outcome = position.outcome()
        if outcome is not None:
            return outcome.winner, cube * outcome.kind, cells
        player, dice = 1 - player, None


def _rows(cells: list[tuple[int, str]]) -> list[str]:
    """The cells laid out as gnubg writes them: a row holds the left player's cell, then the right's."""
    rows: list[list[str]] = []
    for player, text in cells:
        if not rows or player == 0 or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][player] = text
    return [f"{number:3d}) " + left.ljust(28) + right for number, (left, right) in enumerate(rows, 1)]


# --- the archive ---


def _write_file(folder: Path, index: int, seed: int) -> tuple[str, int]:
    text, games = match_text(seed * 1_000_003 + index)
    name = f"{index // FILES_A_FOLDER:04d}/match-{index:07d}.mat"
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return name, games


def generate(root: Path, games: int, seed: int, jobs: int) -> list[tuple[str, int]]:
    """The archive's files up to ``games`` games (made once: ``manifest.tsv`` lists them)."""
    root.mkdir(parents=True, exist_ok=True)
    manifest = root / "manifest.tsv"
    made: list[tuple[str, int]] = []
    if manifest.exists():  # what a run cut short wrote, but a line cut short
        made = [(parts[0], int(parts[1])) for parts in (line.split("\t") for line in manifest.read_text().splitlines())
                if len(parts) == 2 and parts[1].isdigit()]  # fmt: skip
    total = sum(count for _, count in made)
    folder = root / "generated"
    with ProcessPoolExecutor(jobs) as pool, manifest.open("a") as out:
        while total < games:
            start = len(made)
            step = max(1000, min(20000, (games - total) // 3))
            for name, count in pool.map(_write_file, [folder] * step, range(start, start + step), [seed] * step, chunksize=100):
                made.append((name, count))
                out.write(f"{name}\t{count}\n")
                total += count
            print(f"  generated {len(made):,} files, {total:,} games", file=sys.stderr)
    return made


def subset(root: Path, made: list[tuple[str, int]], games: int) -> tuple[Path, int, int]:
    """The first files that hold ``games`` games, hard-linked into their own folder."""
    target = root / "sizes" / str(games)
    chosen, total = [], 0
    for name, count in made:
        if total >= games:
            break
        chosen.append(name)
        total += count
    if not (target / "done").exists():
        shutil.rmtree(target, ignore_errors=True)
        for name in chosen:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            os.link(root / "generated" / name, target / name)
        (target / "done").write_text(f"{len(chosen)}\t{total}\n")
    return target, len(chosen), total


# --- measuring ---


# A process's peak memory counts the pages of the process it was forked from (Linux keeps the
# high-water mark across exec), and this one holds the archive's manifest: each command is
# started by a small launcher of its own, whose few pages are all its command inherits.
_LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
error = process.stderr.read().decode(errors="replace")
_, status, usage = os.wait4(process.pid, 0)
print(json.dumps([time.perf_counter() - start, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status), error[-2000:]]))
"""


def run(arguments: list[str]) -> tuple[float, int, float]:
    """Seconds, peak memory (KB, of the command's largest process) and CPU seconds (of all its
    processes: what the machine's load touches least) of a bgrecord command."""
    done = subprocess.run([sys.executable, "-c", _LAUNCHER, *BGRECORD, *arguments], capture_output=True, text=True, check=True)
    seconds, peak, cpu, status, error = json.loads(done.stdout)
    if status not in (0, 1):
        raise SystemExit(f"bgrecord {' '.join(arguments)} failed:\n{error}")
    return seconds, int(peak), cpu


FIRST = 100  # occurrences a screen shows: how soon a search answers, whatever the number that follows


def find_latency(database: Path, folder: Path) -> dict[str, float]:
    """Warm lookups (ms) of 50 positions drawn from 50 of the archive's files: the median and
    the slowest of the first :data:`FIRST` occurrences (``find --limit 100``) and of all of
    them, the index opened for each lookup, as ``bgrecord find`` does; then on an index kept
    open (``searched`` and ``find_in``, as a program that serves searches does). The slowest
    of all is a position in nearly every game (the opening): its occurrences, each written."""
    from bgrecord.show.steps import step_records
    from bgrecord.tables.search import Wanted, find, find_in, searched

    files = sorted(folder.rglob("*.mat"))
    rng = random.Random(4)
    wanted = []
    for path in rng.sample(files, min(50, len(files))):
        moves = [record.position for record in step_records(path) if record.position is not None and record.action == "move"]
        wanted.append(Wanted.of(rng.choice(moves).id()))

    def timed(search: Callable[[Wanted, int | None], Iterator[Any]], limit: int | None) -> list[float]:
        for each in wanted[:5]:  # warm
            list(search(each, limit))
        latencies = []
        for each in wanted:
            start = time.perf_counter()
            list(search(each, limit))
            latencies.append((time.perf_counter() - start) * 1000)
        return latencies

    found: dict[str, float] = {}
    for name, limit in (("first", FIRST), ("all", None)):
        latencies = timed(lambda each, limit: find(database, each, limit), limit)
        found[f"{name} median"], found[f"{name} slowest"] = statistics.median(latencies), max(latencies)
        with searched(database) as index:
            latencies = timed(lambda each, limit: find_in(index, each, limit), limit)
        found[f"{name} kept median"], found[f"{name} kept slowest"] = statistics.median(latencies), max(latencies)
    return found


def measure(folder: Path, games: int, work: Path, jobs: int, commands: list[str], seed: int) -> dict[str, Any]:
    """Each command's figures, each also said on stderr as soon as it is measured (a long
    run cut short keeps what it measured)."""
    found: dict[str, Any] = {"games": games}

    def said(name: str, value: Any) -> None:
        found[name] = value
        print(f"  {games:,} games: {name}: {value}", file=sys.stderr, flush=True)

    j = ["-j", str(jobs), "-q"]
    if "validate" in commands:
        said("validate", run(["validate", *j, str(folder)]))
    if "stats" in commands:
        said("stats", run(["stats", *j, str(folder), "-o", str(work / "games.csv"), "--overwrite"]))
    for engine in ("sqlite", "duckdb"):
        if engine not in commands:
            continue
        target = work / f"index.{engine}"
        if "find" not in commands or not target.is_file():  # find alone: on the index made before
            target.unlink(missing_ok=True)
            said(f"index {engine}", run(["index", *j, str(folder), "-o", str(target)]))
        said(f"bytes {engine}", target.stat().st_size)
        said(f"find {engine}", find_latency(target, folder))
        if "update" in commands:
            updated = work / f"updated.{engine}"
            shutil.copyfile(target, updated)
            added, _ = _write_file(work / "added", ADDED, seed)
            try:
                said(f"update {engine}", run(["index", *j, str(folder), str(work / "added" / added), "-o", str(updated)]))
            finally:
                updated.unlink()
    return found


def report(results: list[dict[str, Any]]) -> None:
    first = results[0]
    print(f"{'games':>9} | {'command':<14} | {'seconds':>8} | {'µs/game':>8} | {'growth':>6} | {'peak MB':>7} | {'CPU s':>7} | {'growth':>6}")
    for number, result in enumerate(results):
        games = result["games"]
        for name in ("validate", "stats", "index sqlite", "update sqlite", "index duckdb", "update duckdb"):
            if name not in result:
                continue
            seconds, peak, cpu = result[name]
            per = seconds / games * 1e6
            growth = f"{per / (first[name][0] / first['games'] * 1e6):>6.2f}" if name in first else "     -"
            cpu_growth = f"{cpu / games / (first[name][2] / first['games']):>6.2f}" if name in first else "     -"
            print(f"{games:>9,} | {name:<14} | {seconds:>8.1f} | {per:>8.1f} | {growth} | {peak / 1024:>7.0f} | {cpu:>7.1f} | {cpu_growth}")
        for engine in ("sqlite", "duckdb"):
            if f"bytes {engine}" not in result:
                continue
            per = result[f"bytes {engine}"] / games
            notes = [f"{per / (first[f'bytes {engine}'] / first['games']):.2f}"] if f"bytes {engine}" in first else []
            before = results[number - 1] if number else None
            if before is not None and f"bytes {engine}" in before and games > before["games"]:  # what a game costs, past the fixed
                notes.append(f"{(result[f'bytes {engine}'] - before[f'bytes {engine}']) / (games - before['games']):,.0f} a game added")
            growth = f" ({'; '.join(notes)})" if notes else ""
            find = result[f"find {engine}"]
            print(f"{games:>9,} | {engine:<14} | {per:,.0f} bytes a game{growth}; find, median and slowest of 50 (ms): "
                  f"first {FIRST} {find['first median']:.1f}, {find['first slowest']:.1f} (kept open {find['first kept median']:.1f}, "
                  f"{find['first kept slowest']:.1f}); all {find['all median']:.1f}, {find['all slowest']:.1f} "
                  f"(kept open {find['all kept median']:.1f}, {find['all kept slowest']:.1f})")
            if "validate" in result and f"index {engine}" in result:
                index, validate = result[f"index {engine}"], result["validate"]
                print(f"{games:>9,} | index {engine} / validate: {index[0] / validate[0]:.2f}x the time, {index[2] / validate[2]:.2f}x the CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="games in each archive, comma-separated (1000000 for the million)")
    parser.add_argument("--folder", type=Path, default=Path("archive-scale"), help="where the archive and the indexes are made")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", default="validate,stats,sqlite,duckdb", help="what to measure (a million games: hours); with find, the indexes made before are searched again, not made")
    options = parser.parse_args()
    sizes = sorted(int(size) for size in options.sizes.split(","))
    options.folder.mkdir(parents=True, exist_ok=True)
    made = generate(options.folder, sizes[-1], options.seed, options.jobs)
    results = []
    for games in sizes:
        folder, files, total = subset(options.folder, made, games)
        print(f"{total:,} games in {files:,} files", file=sys.stderr)
        work = options.folder / "work" / str(games)
        work.mkdir(parents=True, exist_ok=True)
        results.append(measure(folder, total, work, options.jobs, options.commands.split(","), options.seed))
        report(results)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
