"""The long fuzz run of issues 21 and 31: cases drawn from every generator of ``tests/hostile.py``
(each class of attack, at sizes from small to several times the limits) and every command
(``index``, ``find``, ``analyze`` and ``--scheduler`` among them), each run as a user's process
(forked from ``hostile.Runner``'s server) under a time limit and a hard cap on memory; at the
end, the count of tracebacks, internal errors, orphan processes and databases left unreadable,
every other problem, the slowest case and the largest peak of memory (of bgrecord's process
or of any it started: workers, gnubg).

    nice python tests/fuzz_long.py --cases 10000            # about an hour or two on two cores
    nice python tests/fuzz_long.py --cases 200 --seed 7     # a quick look

A case is one input and one command (``find`` indexes the input first, into each engine).
The inputs of the cases with a problem are kept in ``--keep`` (with what they were);
``--again DIR`` runs those of DIR again, alone, and says what each does now (a case slow only
while the machine was busy with other work is not slow alone). Exit status 0 when no case had
a problem, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hostile  # noqa: E402

SIZES = (1, 1, 1, 2, 3)  # a size 3 case is past every limit on objects by far


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--seconds", type=float, default=20.0, help="a case's time limit (the target)")
    parser.add_argument("--memory", type=int, default=500, help="a case's memory target, MB of peak resident memory")
    parser.add_argument("--keep", type=Path, default=Path("fuzz-problems"), help="where the inputs of cases with a problem go")
    parser.add_argument("--report", type=Path, help="the figures as JSON, here")
    parser.add_argument("--again", type=Path, help="run again the cases kept in this folder, and stop")
    options = parser.parse_args()
    if options.again:
        return again(options.again, options.seconds, options.memory)
    rng = random.Random(options.seed)
    runner = hostile.Runner(seconds=options.seconds, memory=options.memory << 20)
    figures: dict[str, object] = {"cases": 0, "runs": 0, "tracebacks": 0, "internal errors": 0, "orphans": 0, "databases left unreadable": 0,
                                  "other problems": 0, "slowest": None, "largest": None, "server MB": runner.base >> 20,
                                  "seed": options.seed}  # fmt: skip
    slowest, largest = (0.0, ""), (0, "")
    problems: list[dict[str, object]] = []
    kinds, commands = sorted(hostile.GENERATORS), sorted(hostile.COMMANDS)
    started = time.time()
    work = Path(tempfile.mkdtemp(prefix="bgrecord-fuzz-"))
    try:
        for number in range(options.cases):
            kind, command, size = rng.choice(kinds), rng.choice(commands), rng.choice(SIZES)
            case = hostile.GENERATORS[kind](random.Random(rng.getrandbits(64)), size)
            folder = work / f"{number}"
            for outcome in hostile.run_case(runner, case, command, folder):
                figures["runs"] = int(figures["runs"]) + 1  # type: ignore[call-overload]
                what = f"case {number}: {kind} (size {size}) through {outcome.command}"
                if outcome.seconds > slowest[0]:
                    ratio = outcome.seconds / reference(runner, outcome.command, folder)
                    slowest = (outcome.seconds, f"{what} ({ratio:.1f} times a clean file's time then)")
                if outcome.peak > largest[0]:
                    largest = (outcome.peak, what)
                if any(problem.startswith("slow") for problem in outcome.problems):  # slow alone, or while the machine is busy?
                    outcome.problems.append(f"{outcome.seconds / reference(runner, outcome.command, folder):.1f} times a clean file's time")
                figures["orphans"] = int(figures["orphans"]) + outcome.orphans  # type: ignore[call-overload]
                if outcome.problems:
                    counted = {"traceback": "tracebacks", "internal error": "internal errors", "a database left unreadable": "databases left unreadable"}
                    for problem, key in counted.items():
                        if problem in outcome.problems:
                            figures[key] = int(figures[key]) + 1  # type: ignore[call-overload]
                    if {p for p in outcome.problems if "times a clean file" not in p and not p.startswith("orphans")} - set(counted):
                        figures["other problems"] = int(figures["other problems"]) + 1  # type: ignore[call-overload]
                    problems.append({"case": number, "kind": kind, "size": size, "command": outcome.command, "args": outcome.args,
                                     "problems": outcome.problems, "stderr": outcome.stderr[-600:].decode("utf-8", "replace")})  # fmt: skip
                    options.keep.mkdir(parents=True, exist_ok=True)
                    (options.keep / f"case-{number}.bin").write_bytes(case.data)
                    (options.keep / f"case-{number}.json").write_text(json.dumps({"name": case.name, **problems[-1]}, indent=1))
                    print(f"PROBLEM {what}: {outcome.problems}", flush=True)
            shutil.rmtree(folder, ignore_errors=True)
            figures["cases"] = number + 1
            if (number + 1) % 100 == 0:
                print(f"{number + 1:,} cases, {figures['runs']:,} runs, {len(problems)} problems, slowest {slowest[0]:.1f} s, "
                      f"largest {largest[0] >> 20} MB, {time.time() - started:,.0f} s", flush=True)  # fmt: skip
    finally:
        runner.close()
        shutil.rmtree(work, ignore_errors=True)
    figures["slowest"] = {"seconds": round(slowest[0], 2), "case": slowest[1]}
    figures["largest"] = {"MB": largest[0] >> 20, "case": largest[1]}
    figures["problems"] = problems
    figures["elapsed seconds"] = round(time.time() - started)
    if options.report:
        options.report.write_text(json.dumps(figures, indent=1))
    print(json.dumps({k: v for k, v in figures.items() if k != "problems"}, indent=1))
    return 1 if problems else 0


def again(folder: Path, seconds: float, memory: int) -> int:
    """The kept cases of ``folder``, each run again alone (its command, after the index it
    needs for ``find``)."""
    runner = hostile.Runner(seconds=seconds, memory=memory << 20)
    bad = 0
    try:
        for kept in sorted(folder.glob("case-*.json"), key=lambda p: int(p.stem.split("-")[1])):
            what = json.loads(kept.read_text())
            case = hostile.Case(what["kind"], what["name"], kept.with_suffix(".bin").read_bytes())
            work = Path(tempfile.mkdtemp(prefix="bgrecord-again-"))
            try:
                for outcome in hostile.run_case(runner, case, what["command"], work):
                    if outcome.command != what["command"]:
                        continue
                    bad += bool(outcome.problems)
                    ratio = outcome.seconds / reference(runner, outcome.command, work)
                    print(f"case {what['case']}: {what['kind']} through {what['command']}: first {what['problems']}; "
                          f"alone {outcome.seconds:.1f} s ({ratio:.1f} times a clean file's time), {outcome.peak >> 20} MB, "
                          f"{outcome.problems or 'no problem'}", flush=True)  # fmt: skip
            finally:
                shutil.rmtree(work, ignore_errors=True)
    finally:
        runner.close()
    return 1 if bad else 0


CLEAN = hostile.Case("clean", "clean.mat", (hostile.SAMPLES / "bbgt-two-matches.mat").read_bytes())


def reference(runner: hostile.Runner, command: str, folder: Path) -> float:
    """The seconds ``command`` takes on a small clean file now: what a case's time is compared
    with (on a machine busy with other work, absolute times say little)."""
    clean = folder.with_name(folder.name + "-clean")
    try:
        return max(0.01, sum(o.seconds for o in hostile.run_case(runner, CLEAN, command, clean) if o.command == command))
    finally:
        shutil.rmtree(clean, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
