"""Issue 21: each class of hostile input, with a small input made here, against the mechanism
that now answers it (docs/cli.md, "Limits, exit statuses and signals"). The generators are
in ``tests/hostile.py``; ``tests/test_fuzz.py`` runs them at random through every command.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import hostile
import pandas as pd
import pytest

from bgrecord.formats.limits import MAX_ACTIONS, MAX_COMMENT, MAX_GAMES, MAX_INPUT, MAX_NAME

SAMPLES = hostile.SAMPLES
CLEAN = SAMPLES / "bbgt-two-matches.mat"
HAS_DUCKDB = importlib.util.find_spec("duckdb") is not None
ENGINES = ["sqlite", pytest.param("duckdb", marks=pytest.mark.skipif(not HAS_DUCKDB, reason="DuckDB needs bgrecord[db]"))]
ENGINE = "duckdb" if HAS_DUCKDB else "sqlite"  # the richer where installed, else the plain install's
TABLE = "parquet" if importlib.util.find_spec("pyarrow") is not None else "csv"


invoke, bgrecord = hostile.invoke, hostile.bgrecord


def no_raw_controls(text: str | bytes) -> bool:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hostile.RAW_CONTROL.search(data) is None


# --- 1. closed standard streams ---

STDOUT_COMMANDS = [["validate", str(CLEAN)], ["read", str(CLEAN)], ["replay", str(CLEAN)], ["stats", str(CLEAN), "-o", "-"],
                   ["convert", str(CLEAN), "-o", "-", "--to", "json"], ["board", hostile.POSITION]]  # fmt: skip


@pytest.mark.parametrize("args", STDOUT_COMMANDS, ids=lambda args: args[0])
def test_a_closed_standard_output_is_one_line_and_status_2(args: list[str]) -> None:
    done = bgrecord(*args, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == ["bgrecord: cannot write to standard output: it is closed"]


@pytest.mark.parametrize("args", [["validate", "-"], ["read", "-"], ["replay", "-"], ["replay", "-i", str(CLEAN)]], ids=" ".join)
def test_a_closed_standard_input_is_one_line_and_status_2(args: list[str]) -> None:
    done = bgrecord(*args, preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and b"standard input is closed" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_a_closed_standard_error_loses_only_the_messages(tmp_path: Path) -> None:
    done = bgrecord("validate", str(CLEAN), str(tmp_path / "missing.mat"), preexec_fn=lambda: os.close(2))
    assert done.returncode == 2 and done.stdout.startswith(b"1 file, 2 games")
    converted = bgrecord("convert", str(CLEAN), "-o", str(tmp_path / "c.sgf"), preexec_fn=lambda: os.close(2))
    assert converted.returncode == 0 and (tmp_path / "c.sgf").exists()


def test_a_file_opened_while_standard_output_is_closed_never_takes_its_place(tmp_path: Path) -> None:
    done = bgrecord("convert", str(CLEAN), "-o", str(tmp_path / "c.sgf"), preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and (tmp_path / "c.sgf").read_text().startswith("(;FF[4]")


# --- 2. one file's exception never stops the run ---


@pytest.fixture
def boom(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """Three files; reading ``boom.mat`` raises the exception of the test's parameter."""
    from bgrecord.formats import detect

    exception = request.param
    original = detect.bounded

    def bounded(source: Any, pairs: Any, warning: str = "") -> Any:
        if (source.name or "").endswith("boom.mat"):
            raise exception("injected")
        return original(source, pairs, warning)

    monkeypatch.setattr(detect, "bounded", bounded)
    for name in ("a.mat", "boom.mat", "c.mat"):
        (tmp_path / "in").mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_bytes(f"; [Round \"{name}\"]\n".encode() + CLEAN.read_bytes())  # three files, not one and its copies
    return tmp_path / "in"


@pytest.mark.parametrize("boom", [MemoryError, RecursionError, ValueError, KeyError], indirect=True,
                         ids=["MemoryError", "RecursionError", "ValueError", "KeyError"])  # fmt: skip
def test_any_exception_of_one_file_is_its_one_internal_issue_in_every_command(boom: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    checked = invoke("validate", "--format", "json", "-j", "1", str(boom))
    files = {Path(f["path"]).name: f for f in json.loads(checked.output)["files"]}
    assert checked.exit_code == 2 and [i["code"] for i in files["boom.mat"]["issues"]] == ["internal"]
    assert files["a.mat"]["games"] == files["c.mat"]["games"] == 2
    read = invoke("read", "--format", "json", str(boom))
    assert read.exit_code == 2 and len(json.loads(read.output)["files"]) == 3
    stats = invoke("stats", "-j", "1", str(boom), "-o", str(out / "g.csv"), "--players", str(out / "p.csv"))
    assert stats.exit_code == 2 and set(pd.read_csv(out / "g.csv")["file"].map(lambda f: Path(f).name)) == {"a.mat", "c.mat"}
    index = invoke("index", "-j", "1", str(boom), "-o", str(out / "db.sqlite"))
    assert index.exit_code == 2 and "boom.mat" in index.output and "2 files added" not in index.output
    assert invoke("find", str(out / "db.sqlite"), hostile.POSITION).output.count("game 1, move 1") == 4
    replay = invoke("replay", str(boom / "a.mat"), str(boom / "boom.mat"), str(boom / "c.mat"), "--format", "jsonl")
    assert replay.exit_code == 2 and '"path": "' + str(boom / "c.mat") in replay.output
    converted = invoke("convert", str(boom), "-o", str(out / "c"), "--to", "sgf")
    assert converted.exit_code == 2 and "2 written, 0 refused, 1 failed" in converted.output


def test_a_failure_in_the_main_process_is_its_files_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bgrecord.tables.summing import Tables

    original = Tables.add

    def add(self: Any, rows: Any) -> None:
        if any(str(row["file"]).endswith("b.mat") for row in rows):
            raise MemoryError
        original(self, rows)

    monkeypatch.setattr(Tables, "add", add)
    for name in ("a.mat", "b.mat", "c.mat"):
        (tmp_path / name).write_bytes(CLEAN.read_bytes())
    done = invoke("stats", "-j", "1", str(tmp_path / "a.mat"), str(tmp_path / "b.mat"), str(tmp_path / "c.mat"), "-o", str(tmp_path / "g.csv"),
                  "--players", str(tmp_path / "p.csv"))  # a players table: the rows are summed in the main process  # fmt: skip
    assert done.exit_code == 2 and "b.mat: bgrecord failed on this file (MemoryError" in done.output
    assert sorted(set(pd.read_csv(tmp_path / "g.csv")["file"].map(lambda f: Path(f).name))) == ["a.mat", "c.mat"]
    alone = invoke("stats", "-j", "1", str(tmp_path), "-o", str(tmp_path / "h.csv"))  # the games table alone: nothing summed, nothing held
    assert alone.exit_code == 0 and len(pd.read_csv(tmp_path / "h.csv")) == 3 * len(pd.read_csv(tmp_path / "g.csv")) // 2


def dying(path: Any, rules: Any = None) -> Any:
    """validate_file, but a worker reading ``dies.mat`` ends as the out-of-memory killer would end it."""
    from bgrecord.replay.validate import validate_file

    if str(getattr(path, "name", path)).endswith("dies.mat"):
        os._exit(9)
    return validate_file(path, rules)


def test_a_worker_that_dies_costs_only_its_file(tmp_path: Path) -> None:
    from bgrecord.replay import validate

    names = [f"{n:02}.mat" for n in range(12)] + ["dies.mat"]
    for name in names:
        (tmp_path / name).write_bytes(CLEAN.read_bytes())
    from bgrecord.cli.common import each_file

    reports = list(each_file(dying, [str(tmp_path / n) for n in names], (None,), jobs=2, failed=validate.failed_report))
    assert [Path(r.path).name for r in reports] == names
    assert [i.code for i in reports[-1].issues] == ["internal"] and all(r.games == 2 for r in reports[:-1])


def test_text_no_encoder_writes_is_escaped_in_every_output(tmp_path: Path) -> None:
    case = hostile.surrogates(random.Random(1), 1)
    bad = tmp_path / case.name
    bad.write_bytes(case.data)
    for args in (["validate", str(bad), str(CLEAN)], ["read", str(bad), str(CLEAN)], ["replay", str(bad)],
                 ["stats", str(bad), str(CLEAN), "-o", str(tmp_path / "g.csv"), "--players", str(tmp_path / f"p.{TABLE}")],
                 ["index", str(bad), str(CLEAN), "-o", str(tmp_path / f"db.{ENGINE}")], ["convert", str(bad), "-o", str(tmp_path / "c.json")]):  # fmt: skip
        done = invoke(*args)
        assert done.exit_code in (0, 1) and "bug in bgrecord" not in done.output, (args, done.output)
    assert len(pd.read_csv(tmp_path / "g.csv")) == 3
    json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))


# --- 3. linear time: each decoder and each regex, its input doubled ---


def seconds(work: Callable[[], Any], repeat: int = 3) -> float:
    """The best of ``repeat`` timings, the collector off (its passes are not the work's)."""
    import gc

    best = float("inf")
    gc.disable()
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - started)
    finally:
        gc.enable()
    return best


def read_all(data: bytes) -> Callable[[], Any]:
    from bgrecord.formats.reader import iter_games
    from bgrecord.formats.source import Input

    return lambda: sum(1 for _ in iter_games(Input(None, data=data)))


def smile_of(size: int) -> bytes:
    return hostile.bgf_smile(hostile.Smile.value({**hostile.match_doc(), "blob": bytes(size)}))


DECODERS: dict[str, Callable[[int], bytes]] = {
    "smile 7-bit binary": lambda n: smile_of(40 * n),
    "smile big integers": lambda n: hostile.bgf_smile(hostile.Smile.value({"games": [10**400] * (n // 10)})),
    "smile values": lambda n: hostile.bgf_smile(hostile.Smile.value({"games": [{"moves": [None] * 10}] * (n // 10)})),
    "bgf json": lambda n: hostile.bgf_json({"games": [{"moves": [{"player": 1}] * 10}] * (n // 10)}),
    "sgf open brackets": lambda n: b"(;FF[4]GM[6]" + b"[" * (10 * n),
    "sgf escapes": lambda n: b"(;FF[4]GM[6]C[" + b"\\]" * (5 * n),
    "sgf nodes": lambda n: hostile.sgf(nodes=";W[31hefe];B[42qusu]" * (n // 20)).encode(),
    "mat rows": lambda n: hostile.mat(body="".join(f"{k % 99:3d}) 31: 8/5 6/5   42: 8/4 6/4\n" for k in range(n // 4))).encode(),
    "mat blanks": lambda n: hostile.mat(body="  1) 31:" + " " * (20 * n) + "8/5\n").encode(),
    "mat stars": lambda n: hostile.mat(body="  1) 31: 8/5" + "*" * (20 * n) + "\n").encode(),
    "mat junk rows": lambda n: hostile.mat(body="".join(f"{k % 99:3d}) 9x: ]][[ 13/ / * :: {k}\n" for k in range(n // 4))).encode(),
    "mat games": lambda n: hostile.session(max(1, n // 300)).encode(),
    "fibs": lambda n: ("Score is 0-0 in a 5 point match\n A is X - B is O\n" + "X: (3 1) 8-5 6-5\nO: (4 2) 8-4 6-4\n" * (n // 8)).encode(),
    "snowie-like": lambda n: (";" * (20 * n)).encode(),
    "text without line ends": lambda n: b"x" * (40 * n),
    "gzip": lambda n: gzip.compress(hostile.session(max(1, n // 300)).encode()) + b"junk",
}


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_each_decoder_takes_twice_the_time_for_twice_the_input_not_four_times(name: str) -> None:
    make = DECODERS[name]
    size = 4_000
    while seconds(read_all(make(size)), 1) < 0.05 and size < 4_000_000:  # large enough to time
        size *= 2
    once, twice = seconds(read_all(make(size))), seconds(read_all(make(2 * size)))
    if twice / once >= 3.0:
        # a step between the two sizes (a text past the block read at once, a game past its limit
        # on lines) makes one doubling cost more, not the next; a quadratic decoder costs 4x at each
        thrice = seconds(read_all(make(4 * size)))
        assert thrice / twice < 3.0, f"{name}: {once:.3f} s for {size}, {twice:.3f} s for {2 * size}, {thrice:.3f} s for {4 * size}"


# How a pattern is used, where it is not searched through any text: it is held to linear time
# in that use. Every other pattern is searched (finditer) through runs of its own characters.
USED = {
    "bgrecord.formats.detect._BGF": "match",  # the first bytes of a file, from the start
    "bgrecord.formats.detect._SNOWIE": "match",
    "bgrecord.formats.sgf._TREE_TOKENS": "match",  # at one place at a time, never searched
    "bgrecord.formats.sgf._VALUE": "closed",  # within a property the grammar matched: every "[" has its "]"
    "mat row": "fullmatch",  # a line at a time
    "bgrecord.tables.search._PLAY": "fullmatch",  # find --play's text, stripped
}


def test_every_regex_of_the_package_is_linear_on_runs_of_its_own_characters() -> None:
    """Each compiled pattern in bgrecord's modules (and the .mat grammar's row pattern), used
    as the package uses it (:data:`USED`, else searched) on runs of every character its own
    pattern names, and of blanks, letters, digits and brackets: doubled, no more than three
    times the time (with a floor for patterns too fast to time)."""
    import importlib
    import pkgutil
    import re

    import bgrecord

    patterns: dict[str, re.Pattern[Any]] = {}
    for module in pkgutil.walk_packages(bgrecord.__path__, "bgrecord."):
        if module.name == "bgrecord.analysis.gnubg_script":
            continue  # runs inside gnubg, on what bgrecord wrote (it imports gnubg's own module)
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if isinstance(value, re.Pattern):
                patterns[f"{module.name}.{name}"] = value
    from bgrecord.formats.mat_grammar import grammar

    patterns["mat row"] = grammar().row
    assert len(patterns) > 30 and set(USED) <= set(patterns)
    slow = []
    for where, pattern in patterns.items():
        text = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
        alphabet = sorted(set(text) - set("\\^$.|?*+()[]{}") | set(" \t\n9a;:/[]()*"))
        use = USED.get(where, "search")
        for char in alphabet:
            for run in (char, char + "a", char + " ", char + "9", "[" + char):
                def work(count: int, run: str = run) -> Callable[[], Any]:
                    subject = run * count + ("]" if use == "closed" else "")
                    data: Any = subject.encode("latin-1", "replace") if isinstance(pattern.pattern, bytes) else subject
                    if use == "match":
                        return lambda: pattern.match(data)
                    if use == "fullmatch":
                        return lambda: pattern.fullmatch(data)
                    return lambda: list(pattern.finditer(data))

                once, twice = seconds(work(8_000), 2), seconds(work(16_000), 2)
                if twice > 3 * once + 0.02:  # a suspect (or the machine was busy): again, larger, to be sure
                    once, twice = seconds(work(16_000), 3), seconds(work(32_000), 3)
                    if twice > 3 * once + 0.05:  # a quadratic pattern takes seconds here
                        slow.append(f"{where} ({use}) on {run!r}: {once:.4f} s, then {twice:.4f} s")
    assert not slow, slow


# --- 4. memory bounded by limits on objects ---


def test_the_limits_on_objects_are_each_a_clear_error(tmp_path: Path) -> None:
    from bgrecord.replay.validate import validate_file

    cases = {
        "too-many-games": hostile.bgf_smile(b"\xfa" + hostile.Smile.key("matchlen") + hostile.Smile.value(0) + hostile.Smile.key("games")
                                            + b"\xf8" + b"\xfa\xfb" * (MAX_GAMES + 5) + b"\xf9\xfb", compress=True),  # fmt: skip
        "too-many-actions": gzip.compress(hostile.mat(body="".join(f"{n % 999:3d}) 31: 8/5 6/5\n" for n in range(MAX_ACTIONS + 10))).encode()),
        "too-long": hostile.mat(names=("A" * (MAX_NAME + 1), "B"), header="; " + "c" * (MAX_COMMENT + 1) + "\n").encode(),
    }
    for code, data in cases.items():
        path = tmp_path / f"{code}.{'bgf' if data.startswith(b'{') else 'mat'}"
        path.write_bytes(data)
        report = validate_file(str(path))
        assert code in [i.code for i in report.issues], (code, [str(i) for i in report.issues][:5])
        assert not report.internal


def test_a_file_of_many_matches_is_read_to_the_limit_and_read_lists_what_it_holds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bgrecord.formats import detect
    from bgrecord.replay import validate

    monkeypatch.setattr(detect, "MAX_MATCHES", 3)
    monkeypatch.setattr(validate, "MAX_ISSUES", 4)
    path = tmp_path / "many.mat"
    path.write_text("".join(f" 1 point match\n\n Game 1\n A : 0                      B{n} : 0\n{hostile.OPENING}\n" for n in range(5)))
    report = validate.validate_file(str(path))
    assert report.games == 3 and "too-many-matches" in [i.code for i in report.issues]
    read = json.loads(invoke("read", "--format", "json", str(path)).output)["files"][0]
    listed = sum(len(m["games"]) for m in read["matches"])
    assert len(read["matches"]) == 3 and listed == 3
    monkeypatch.setattr(validate, "MAX_ISSUES", 2)
    read = json.loads(invoke("read", "--format", "json", str(path)).output)["files"][0]
    assert sum(len(m["games"]) for m in read["matches"]) == 2 and read["matches"][2]["unlisted"] == {"games": 1, "actions": 2}
    assert invoke("read", str(path)).output.count("1 game, 2 actions") == 3  # the unlisted game counted in its match's line


def test_memory_stays_flat_whatever_the_number_of_games_or_rows(tmp_path: Path) -> None:
    """The issue's shapes (a match of many games, a game of many rows, a long name), each at
    two sizes: the peak of the larger is not the double of the smaller's."""
    runner = hostile.Runner()
    try:
        shapes = {"games": lambda n: gzip.compress(hostile.session(n).encode(), 1),
                  "rows": lambda n: gzip.compress(hostile.mat(body="".join(f"{k % 999:3d}) 31: 8/5 6/5\n" for k in range(40 * n))).encode(), 1),
                  "name": lambda n: hostile.mat(names=("N" * (20_000 * n), "B")).encode()}  # fmt: skip
        for shape, make in shapes.items():
            for command in (["validate"], ["replay", "--format", "jsonl"], ["convert", "-o", "out/c.json", "--overwrite"],
                            ["stats", "-o", "out/g.csv", "--overwrite"]):  # fmt: skip
                peaks = []
                for n in (150, 600):
                    folder = tmp_path / f"{shape}-{command[0]}-{n}"
                    (folder / "out").mkdir(parents=True)
                    (folder / "in.mat.gz").write_bytes(make(n))
                    done = runner.run([command[0], "in.mat.gz", *command[1:]], folder)
                    assert done.status in (0, 1) and not done.problems, (shape, command, done.problems, done.stderr[-300:])
                    peaks.append(done.peak)
                assert peaks[1] < 1.5 * peaks[0] + (40 << 20), (shape, command, [p >> 20 for p in peaks])
    finally:
        runner.close()


def test_stats_and_index_rows_of_a_large_file_spill_to_disk_and_come_back_whole(tmp_path: Path) -> None:
    from bgrecord.tables import spool

    kept: spool.Spool[int] = spool.Spool(memory=10)
    for start in range(0, 30_000, 1000):
        kept.extend(list(range(start, start + 1000)))
    assert len(kept) == 30_000 and [n for chunk in kept.chunks() for n in chunk] == list(range(30_000))
    (tmp_path / "big.mat").write_text(hostile.session(40))
    (tmp_path / "small.mat").write_bytes(CLEAN.read_bytes())
    original = spool.IN_MEMORY
    try:
        spool.IN_MEMORY = 8  # so that a worker hands the file back, and the main process spills
        done = invoke("stats", "-j", "2", str(tmp_path / "big.mat"), str(tmp_path / "small.mat"), "-o", str(tmp_path / "g.csv"))
    finally:
        spool.IN_MEMORY = original
    assert done.exit_code == 0 and len(pd.read_csv(tmp_path / "g.csv")) == 42


# --- 5. endless input ---


def test_an_endless_stream_is_held_to_the_size_limit_of_files(tmp_path: Path) -> None:
    with (tmp_path / "out").open("wb") as said:
        process = subprocess.Popen([sys.executable, "-m", "bgrecord", "validate", "-"], stdin=subprocess.PIPE, stdout=said)

        def endless() -> None:
            block = b"y\n" * (1 << 19)
            try:
                while True:
                    process.stdin.write(block)  # type: ignore[union-attr]
            except (BrokenPipeError, ValueError, OSError):
                pass

        feeder = threading.Thread(target=endless, daemon=True)
        feeder.start()
        assert process.wait(timeout=300) == 1
    out = (tmp_path / "out").read_bytes()
    assert b"too-large" in out and f"more than {MAX_INPUT >> 20} MB".encode() in out, out
    zero = bgrecord("validate", "/dev/zero")
    assert zero.returncode == 1 and b"too-large" in zero.stdout


def test_a_file_that_grows_as_it_is_read_is_read_no_further_than_the_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bgrecord.formats import source

    path = tmp_path / "grows.mat"
    path.write_bytes(b"x\n" * 4096)
    opened = source.Input.named(str(path)).open()  # looked at while it was small
    monkeypatch.setattr(source, "MAX_INPUT", 4096)  # then it grew past the limit
    with pytest.raises(source.InputTooLarge, match="grew as it was read"):
        while opened.read(1000):
            pass


def test_a_temporary_folder_that_cannot_hold_a_stream_is_said_so(tmp_path: Path) -> None:
    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (9 << 20, 9 << 20))

    done = bgrecord("validate", "-", input=b"x\n" * (6 << 20), preexec_fn=small_files, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 2 and b"cannot read: the temporary folder" in done.stderr
    assert b"standard output" not in done.stderr


# --- 6. terminal control sequences from records ---


def test_no_control_character_of_a_record_reaches_a_terminal(tmp_path: Path) -> None:
    for seed in range(8):
        case = hostile.terminal(random.Random(seed), 1)
        path = tmp_path / f"{seed}-{case.name}"
        path.write_bytes(case.data)
        runs = [["validate", str(path)], ["read", str(path)], ["replay", str(path)], ["replay", str(path), "--board", "words"],
                ["replay", str(path), "--format", "jsonl"], ["replay", str(path), "--format", "html"],
                ["stats", str(path), "-o", "-"], ["convert", str(path), "-o", "-", "--to", "json", "--force"],
                ["index", str(path), "-o", str(tmp_path / "db.sqlite")], ["find", str(tmp_path / "db.sqlite"), hostile.POSITION]]  # fmt: skip
        for args in runs:
            done = invoke(*args)
            assert no_raw_controls(done.output), (args, done.output[-300:])
        keys = invoke("replay", "-i", str(path), input=hostile.KEYS)
        assert no_raw_controls(keys.output)
        written = tmp_path / "replay.txt"
        invoke("replay", str(path), "-o", str(written), "--overwrite")
        assert no_raw_controls(written.read_bytes())


# --- 7. file names ---


@pytest.mark.parametrize("name", ["a\nFORGED: error[internal] forged.mat", "b\x1b[2J.mat", "c\r.mat", " 5 point match\n\n Game 1\n.mat"])
def test_a_file_of_any_name_is_that_file_and_its_name_one_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(CLEAN.read_bytes())
    for args in (["validate", str(path)], ["read", str(path)], ["replay", str(path), "--no-board"],
                 ["stats", str(path), "-o", str(tmp_path / "g.csv"), "--overwrite"], ["convert", str(path), "-o", str(tmp_path / "c.sgf"), "--overwrite"],
                 ["index", str(path), "-o", str(tmp_path / "db.sqlite")], ["find", str(tmp_path / "db.sqlite"), hostile.POSITION]):  # fmt: skip
        done = invoke(*args)
        assert done.exit_code == 0, (args, done.output)
        assert not any(line.startswith(("FORGED", " 5 point", " Game")) for line in done.output.splitlines()), done.output
        assert no_raw_controls(done.output)
    assert "2 games" in invoke("validate", str(path)).output


# --- 8. input at fault, never "internal" ---

FAULTY = {
    "deep-header.bgf": b'{"format": "BGF", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n{}",
    "digits-header.bgf": b'{"format": "BGF", "n": ' + b"9" * 5000 + b"}\n{}",
    "digits-body.bgf": b'{"format": "BGF", "compress": false, "useSmile": false}\n{"matchlen": ' + b"9" * 5000 + b', "games": []}',
    "smile-digits.bgf": hostile.bgf_smile(hostile.Smile.value({"matchlen": 10**5000})),
    "smile-deep.bgf": hostile.bgf_smile(b"\xf8" * 5000 + b"\xf9" * 5000),
    "smile-decimal.bgf": hostile.bgf_smile(b"\xfa" + hostile.Smile.key("d") + b"\x2a" + hostile.Smile.vint(801)
                                           + hostile.Smile.vint(167) + hostile.Smile.sevenbit((10**400).to_bytes(167, "big")) + b"\xfb"),  # fmt: skip
    "bad.mat.zst": b"\x28\xb5\x2f\xfd" + b"\xff" * 20,
    "bad.mat.gz": b"\x1f\x8b" + b"\x00" * 30,
    "deep.sgf": b"(;FF[4]GM[6]" + b"(;" * 10_000,
}


@pytest.mark.parametrize("name", sorted(FAULTY))
def test_input_at_fault_is_one_clear_error_never_internal(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(FAULTY[name])
    for args in (["validate", str(path)], ["read", str(path)], ["stats", str(path), "-o", str(tmp_path / "g.csv"), "--overwrite"],
                 ["convert", str(path), "-o", str(tmp_path / "c.sgf"), "--force", "--overwrite"], ["replay", str(path)]):  # fmt: skip
        done = invoke(*args)
        assert done.exit_code in (0, 1, 2) and "bug in bgrecord" not in done.output and "internal" not in done.output, (args, done.output)
    assert invoke("validate", str(path)).exit_code == 1


@pytest.mark.parametrize("junk", [b"garbage" * 100, b"SQLite format 3\x00" + bytes(500), b"DUCK" + bytes(5000), b""], ids=["text", "sqlite", "duckdb", "empty"])
@pytest.mark.parametrize("engine", ENGINES)
def test_a_junk_database_is_said_so_by_index_and_find(tmp_path: Path, junk: bytes, engine: str) -> None:
    database = tmp_path / f"junk.{engine}"
    database.write_bytes(junk)
    found = invoke("find", str(database), hostile.POSITION)
    assert found.exit_code in (1, 2) and "bug in bgrecord" not in found.output
    indexed = invoke("index", str(CLEAN), "-o", str(database))
    assert "bug in bgrecord" not in indexed.output
    assert indexed.exit_code == 0 if not junk else indexed.exit_code == 2 and database.read_bytes() == junk


@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_disk_during_index_is_one_line_and_the_database_is_left_as_it_was(tmp_path: Path, engine: str) -> None:
    (tmp_path / "big.mat").write_text(hostile.session(1000))  # some 58,000 positions: more than a compact index's 16 KB to spare
    database = tmp_path / f"db.{engine}"
    assert bgrecord("index", str(CLEAN), "-o", str(database)).returncode == 0
    before = database.read_bytes()

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + (16 << 10),) * 2)

    done = bgrecord("index", str(tmp_path / "big.mat"), "-o", str(database), preexec_fn=small_disk)
    assert done.returncode == 2 and b"bug in bgrecord" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert database.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == sorted(["big.mat", database.name])


# --- 9. broken pipes ---


@pytest.mark.parametrize("args", [["convert", "{big}", "-o", "-", "--to", "json"], ["convert", "{big}", "-o", "-", "--to", "sgf"],
                                  ["replay", "{big}", "--format", "html"], ["replay", "{big}"], ["stats", "{big}", "-o", "-"],
                                  ["read", "--format", "json", "{big}"]], ids=lambda args: " ".join(args[:4]))  # fmt: skip
def test_a_reader_that_stops_is_a_quiet_141_everywhere(tmp_path: Path, args: list[str]) -> None:
    big = tmp_path / "big.mat"
    big.write_text(hostile.session(300))
    (tmp_path / "big2.mat").write_text(hostile.session(300).replace("Alice", "Carol"))
    command = [a.format(big=big, big2=tmp_path / "big2.mat") for a in args]
    process = subprocess.Popen([sys.executable, "-m", "bgrecord", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=300) == 141 and err == b"", err


# --- 10. concurrent index runs ---


def test_a_second_index_run_waits_for_the_first_and_loses_nothing(tmp_path: Path) -> None:
    from bgrecord.tables.storage import writer_lock

    (tmp_path / "one.mat").write_bytes(CLEAN.read_bytes())
    (tmp_path / "two.mat").write_text(hostile.session(20))
    database = tmp_path / "db.sqlite"
    assert bgrecord("index", str(tmp_path / "one.mat"), "-o", str(database)).returncode == 0
    with writer_lock(database):  # as a first run would, while it writes
        second = subprocess.Popen([sys.executable, "-m", "bgrecord", "index", str(tmp_path / "two.mat"), "-o", str(database)],
                                  stderr=subprocess.PIPE)  # fmt: skip
        time.sleep(3)
        assert second.poll() is None  # waiting
    assert second.wait(timeout=120) == 0 and second.stderr is not None and b"waiting for it to finish" in second.stderr.read()
    found = invoke("find", str(database), hostile.POSITION, "--format", "json")
    assert {Path(o["file"]).name for o in json.loads(found.output)["occurrences"]} == {"one.mat", "two.mat"}
    both = [subprocess.Popen([sys.executable, "-m", "bgrecord", "index", str(tmp_path / name), "-o", str(tmp_path / "both.sqlite")])
            for name in ("one.mat", "two.mat")]  # fmt: skip
    assert [p.wait(timeout=300) for p in both] == [0, 0]
    found = invoke("find", str(tmp_path / "both.sqlite"), hostile.POSITION, "--format", "json")
    assert {Path(o["file"]).name for o in json.loads(found.output)["occurrences"]} == {"one.mat", "two.mat"}
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_index_run_removes_the_copies_a_killed_run_left_and_nothing_else(tmp_path: Path, engine: str) -> None:
    database = tmp_path / f"db.{engine}"
    stale = [f".db.{engine}.k1ll3d_x.{engine}", f".db.{engine}.k1ll3d_x.{engine}.wal", f".db.{engine}.abcdefgh.{engine}-journal"]
    kept = [f".db.{engine}.lock.txt", f".other.{engine}.abcdefgh.{engine}", f".db.{engine}.abc.{engine}", "notes.txt"]
    for name in stale + kept:
        (tmp_path / name).write_bytes(b"left")
    staged = tmp_path / f".db.{engine}.k1ll3d_x.{engine}.staged"  # a killed DuckDB run's positions on disk
    staged.mkdir()
    (staged / "0000").write_bytes(b"left")
    done = invoke("index", str(CLEAN), "-o", str(database))
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([database.name, *kept])


def test_a_stopping_signal_during_index_leaves_the_database_as_it_was_and_no_copy(tmp_path: Path) -> None:
    (tmp_path / "one.mat").write_bytes(CLEAN.read_bytes())
    (tmp_path / "big.mat").write_text(hostile.session(1500))
    database = tmp_path / "db.sqlite"
    assert bgrecord("index", str(tmp_path / "one.mat"), "-o", str(database)).returncode == 0
    before = database.read_bytes()
    process = subprocess.Popen([sys.executable, "-m", "bgrecord", "index", str(tmp_path / "big.mat"), "-o", str(database)],
                               stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.time() + 120
    while not list(tmp_path.glob(".db.sqlite.*.sqlite")) and process.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    if not list(tmp_path.glob(".db.sqlite.*.sqlite")):  # say why: the run ended, or still had not started its copy
        process.kill()
        _, error = process.communicate()
        pytest.fail(f"the index never started its copy (exit status {process.returncode}): {error[-2000:]!r}")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=120) == 143
    assert database.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.mat", "db.sqlite", "one.mat"]


# --- 11. outputs that collide within one run ---


def test_outputs_that_would_be_one_file_are_refused_before_any_work_or_kept_apart(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.mat").write_bytes(CLEAN.read_bytes())
    (folder / "a.mat.gz").write_bytes(gzip.compress(CLEAN.read_bytes()))
    (folder / "a.sgf").write_bytes((SAMPLES / "gnubg-money-jacoby.sgf").read_bytes())
    done = invoke("convert", str(folder), "-o", str(tmp_path / "out"), "--to", "mat", "--overwrite")
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert done.exit_code == 0 and "3 written" in done.output and len(written) == 3, (done.output, written)
    same = invoke("stats", str(CLEAN), "-o", str(tmp_path / "same.csv"), "--players", str(tmp_path / "same.csv"))
    assert same.exit_code == 2 and "one would replace the other" in same.output and not (tmp_path / "same.csv").exists()
    both = invoke("stats", str(CLEAN), "-o", "-", "--players", "-")
    assert both.exit_code == 2 and "standard output" in both.output


def test_standard_input_and_output_are_never_written_over_when_they_are_files(tmp_path: Path) -> None:
    own = tmp_path / "s.mat"
    own.write_bytes(CLEAN.read_bytes())
    with own.open("rb") as stdin:
        done = bgrecord("convert", "-", "-o", str(own), "--overwrite", stdin=stdin)
    assert done.returncode == 2 and b"standard input" in done.stderr and own.read_bytes() == CLEAN.read_bytes()
    with own.open("ab") as stdout:
        appended = subprocess.run([sys.executable, "-m", "bgrecord", "replay", str(own)], stdout=stdout, stderr=subprocess.PIPE, timeout=120)
    assert appended.returncode == 2 and b"standard output is an input" in appended.stderr and own.read_bytes() == CLEAN.read_bytes()


# --- 12. signals ---


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda n: signal.Signals(n).name)
def test_a_stopping_signal_removes_every_temporary_file(tmp_path: Path, number: int) -> None:
    (tmp_path / "big.mat").write_text(hostile.session(2000))
    out = tmp_path / "out"
    out.mkdir()
    process = subprocess.Popen([sys.executable, "-m", "bgrecord", "replay", str(tmp_path / "big.mat"), "-o", str(out / "r.txt")],
                               stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.time() + 120
    while not list(out.glob(".*.part")) and time.time() < deadline:
        time.sleep(0.05)
    assert list(out.glob(".*.part")), "the replay never started writing"
    process.send_signal(number)
    assert process.wait(timeout=120) == 128 + number
    assert list(out.iterdir()) == []


def test_a_stopping_signal_to_workers_removes_their_temporary_files(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for n in range(6):
        (folder / f"{n}.mat").write_text(hostile.session(400))
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "bgrecord", "convert", str(folder), "-o", str(out), "--to", "json", "-j", "2"],
                               stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    deadline = time.time() + 120
    while not (out.exists() and list(out.glob(".*.part"))) and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGTERM)
    assert process.wait(timeout=120) == 143
    time.sleep(1)
    assert not list(out.glob(".*"))


# --- 13. the smaller promises ---


def test_a_message_quotes_a_value_it_never_copies_it(tmp_path: Path) -> None:
    path = tmp_path / "long.mat"
    path.write_text(hostile.mat(body="  1) 31: " + "Z" * 400_000 + "\n"))
    done = invoke("validate", str(path))
    assert done.exit_code == 1 and max(len(line) for line in done.output.splitlines()) < 1_200


def test_a_file_of_many_matches_is_refused_as_one_ogxm_match_before_the_work(tmp_path: Path) -> None:
    path = tmp_path / "mm.mat"
    path.write_bytes(hostile.mat_matches(2000))
    started = time.process_time()
    refused = invoke("convert", str(path), "-o", str(tmp_path / "c.ogxm"), "--force")
    refusing = time.process_time() - started
    started = time.process_time()
    written = invoke("convert", str(path), "-o", str(tmp_path / "c.mat"), "--force")
    converting = time.process_time() - started
    assert refused.exit_code == 2 and "more than one match: write it as an .ogxms stream" in refused.output
    assert written.exit_code == 0 and not (tmp_path / "c.ogxm").exists()
    assert refusing < converting / 5  # it stops at the second match (it used to encode all 2,000 first)


def test_convert_force_writes_nothing_for_an_unreadable_input(tmp_path: Path) -> None:
    path = tmp_path / "junk.mat"
    path.write_bytes(b"%PDF-1.4 not a match")
    done = invoke("convert", str(path), "-o", str(tmp_path / "out.mat"), "--force")
    assert done.exit_code == 1 and "no game to convert" in done.output and not (tmp_path / "out.mat").exists()
    to_stdout = invoke("convert", str(path), "-o", "-", "--to", "json", "--force")
    assert to_stdout.exit_code == 1 and "{" not in to_stdout.output.split("no game to convert")[0]


def test_a_dataset_folder_is_made_with_the_umask(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    old = os.umask(0o022)
    try:
        done = invoke("stats", str(CLEAN), "-o", str(tmp_path / "games") + "/")
    finally:
        os.umask(old)
    assert done.exit_code == 0 and stat.S_IMODE((tmp_path / "games").stat().st_mode) == 0o755


def test_gzip_with_garbage_after_it_is_read_as_far_as_it_is_valid_with_a_warning(tmp_path: Path) -> None:
    data = gzip.compress(CLEAN.read_bytes())
    for name, content, warned in (("trailing.mat.gz", data + b"garbage", "bytes after the end"), ("cut.mat.gz", data[:-20], "cut short"),
                                  ("members.mat.gz", data + data, None), ("padded.mat.gz", data + bytes(512), None)):  # fmt: skip
        path = tmp_path / name
        path.write_bytes(content)
        done = invoke("validate", "--format", "json", str(path))
        report = json.loads(done.output)["files"][0]
        assert report["games"] >= 1 and ([i["code"] for i in report["issues"]].count("compressed-data") == (1 if warned else 0)), (name, report)
        if warned:
            assert any(warned in i["message"] for i in report["issues"])


# --- the analysis (bgrecord analyze, index --analysis, replay --analysis): the same promises ---

needs_gnubg = pytest.mark.skipif(not (shutil.which("gnubg") or shutil.which("/usr/games/gnubg")), reason="GNU Backgammon is not installed")


@needs_gnubg
@pytest.mark.parametrize("boom", [MemoryError, RecursionError], indirect=True, ids=["MemoryError", "RecursionError"])
def test_any_exception_of_one_file_is_its_one_internal_issue_in_analyze(boom: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    done = invoke("analyze", "-j", "1", str(boom), "-o", str(out / "d.csv"), "--players", str(out / "p.csv"))
    assert done.exit_code == 2 and "boom.mat: bgrecord failed on this file (MemoryError" in done.output.replace("RecursionError", "MemoryError"), done.output
    assert set(pd.read_csv(out / "p.csv")["file"].map(lambda f: Path(f).name)) == {"a.mat", "c.mat"}
    assert sorted(p.name for p in out.iterdir()) == ["d.csv", "p.csv"]


@needs_gnubg
def test_analyze_to_a_closed_standard_output_is_one_line_and_status_2(tmp_path: Path) -> None:
    done = bgrecord("analyze", str(CLEAN), "-o", "-", "--players", str(tmp_path / "p.csv"), preexec_fn=lambda: os.close(1))
    assert done.returncode == 2 and done.stderr.decode().splitlines()[-1] == "bgrecord: cannot write to standard output: it is closed"
    assert not (tmp_path / "p.csv").exists()


@pytest.mark.parametrize("junk", [b"", b"\x00" * 4096, b"SQLite format 3\x00" + b"\xff" * 4000], ids=["empty", "zeros", "bad-sqlite"])
def test_a_junk_database_or_table_given_for_an_analysis_is_one_line(tmp_path: Path, junk: bytes) -> None:
    for name in ("junk.sqlite", "junk.duckdb", "junk.csv"):
        (tmp_path / name).write_bytes(junk)
    for args in (["replay", str(CLEAN), "--analysis", str(tmp_path / "junk.sqlite")],
                 ["replay", str(CLEAN), "--analysis", str(tmp_path / "junk.duckdb")],
                 ["index", str(CLEAN), "-o", str(tmp_path / "db.sqlite"), "--analysis", str(tmp_path / "junk.csv")],
                 ["find", str(tmp_path / "junk.sqlite"), hostile.POSITION]):  # fmt: skip
        done = bgrecord(*args)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and b"bug in bgrecord" not in done.stderr, (args, done.stderr)
    if junk:
        done = bgrecord("analyze", str(CLEAN), "-o", str(tmp_path / "junk.sqlite"))
        assert done.returncode == 2 and b"bug in bgrecord" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
        assert (tmp_path / "junk.sqlite").read_bytes() == junk


def test_a_table_of_copies_is_read_in_linear_time() -> None:
    from bgrecord.show.annotate import _by_step

    def timed(copies: int) -> float:  # best of three, the collector off (its passes over the rows are not the work's)
        rows = [{"game_key": "k", "step": 1, "plies": 0, "kind": "checker", "error": 0.01 * (n % 7)} for n in range(copies)]
        return seconds(lambda: _by_step(rows))  # a game's rows, as the table gives them

    timed(1000)
    assert timed(80_000) < 30 * max(timed(8_000), 0.002)  # ten times the copies: quadratic would be 100 times the time, linear 10


def test_a_carriage_return_in_a_name_keeps_the_csv_table_one_row_a_record(tmp_path: Path) -> None:
    """A bare CR ends a row for CSV readers: the cell is quoted, and the table reads back as written."""
    from bgrecord.analysis.store import load
    from bgrecord.analysis.tables import DECISION_COLUMNS
    from bgrecord.tables.export import TableWriter

    row = {name: None for name in DECISION_COLUMNS} | {"file": "c.bgf", "match_key": "k", "match": 1, "game": 1,
                                                     "game_in_match": 1, "game_key": "g", "step": 1, "player": 0,
                                                     "name": "FORGED\r\x00 x", "kind": "checker", "plies": 0}  # fmt: skip
    with TableWriter(tmp_path / "d.csv", "csv", DECISION_COLUMNS) as writer:
        writer.write([row, row | {"step": 2, "name": "plain"}])
    kind, chunks = load(tmp_path / "d.csv")
    data = pd.concat(list(chunks))
    assert kind == "decisions" and list(data["name"]) == ["FORGED\r\x00 x", "plain"] and list(data["step"]) == [1, 2]
    with TableWriter(tmp_path / "plain.csv", "csv", DECISION_COLUMNS) as writer:
        writer.write([row | {"name": "plain"}])
    assert '"' not in (tmp_path / "plain.csv").read_text()  # quoted only where a cell needs it


def test_an_analysis_table_with_a_value_of_the_wrong_kind_is_one_line(tmp_path: Path) -> None:
    from bgrecord.analysis.tables import DECISION_COLUMNS

    table = tmp_path / "d.csv"
    values = {name: "" for name in DECISION_COLUMNS} | {"file": "a.mat", "match": "1.5", "kind": "checker"}
    table.write_text(",".join(DECISION_COLUMNS) + "\n" + ",".join(values[name] for name in DECISION_COLUMNS) + "\n")
    done = invoke("index", str(CLEAN), "-o", str(tmp_path / "db.sqlite"), "--analysis", str(table))
    assert done.exit_code == 2 and f"{table}: not a table written by bgrecord analyze" in done.output, done.output
    assert "bug in bgrecord" not in done.output
