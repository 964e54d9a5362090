"""Issue 31: the promises of docs/cli.md kept under faults by the newer commands (``index``,
``find``, ``analyze``, the Dask scheduler), a test per class of the issue against the mechanism
that answers it: processes, the engine, inputs and outputs (the database's class is issue 33's).
``tests/fuzz_long.py`` runs them at random, as a user's processes, with orphans and unreadable
databases counted.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any, Iterator

import hostile
import pandas as pd
import pytest
from click.testing import Result
from conftest import GNUBG


SAMPLES = hostile.SAMPLES
CLEAN = SAMPLES / "bbgt-two-matches.mat"
CRAWFORD = SAMPLES / "gnubg-5pt-crawford.mat"  # one match, three games
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) is not installed")
needs = {name: pytest.mark.skipif(importlib.util.find_spec(module) is None, reason=f"needs {module} (pip install 'bgrecord[{extra}]')")
         for name, module, extra in (("dask", "distributed", "dask"), ("plot", "matplotlib", "plot"))}  # fmt: skip


invoke, bgrecord = hostile.invoke, hostile.bgrecord


# --- a gnubg of our own making, for what the real one does not do on demand ---

FAKE = '''#!{python}
"""A gnubg that answers as told: 'stuck' (works for ever, deaf to SIGTERM and SIGINT),
'replies' (the next line of {replies} for each request, counted across restarts), 'huge' (a
reply of {size} bytes before its line end), 'escape' (starts a process of its own that
outlives everything, then replies). It writes its pid into {folder} when it gets a request."""
import json, os, signal, subprocess, sys, time
behaviour, folder = {behaviour!r}, {folder!r}
if behaviour == "escape":
    subprocess.Popen(["sleep", "30"], start_new_session=True)
print("gnubg's banner", flush=True)
print("@bgrecord " + json.dumps({{"ready": True}}), flush=True)
replies = open({replies!r}).read().splitlines()
for line in sys.stdin:
    open(os.path.join(folder, str(os.getpid())), "w").close()
    if behaviour == "stuck":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        while True:
            time.sleep(60)
    if behaviour == "huge":
        sys.stdout.buffer.write(b"x" * {size} + b"\\n@bgrecord " + json.dumps({{"ok": True, "games": []}}).encode() + b"\\n")
    else:
        with open({replies!r} + ".given", "a+") as given:
            given.seek(0)
            answered = len(given.read())
            given.write(".")
        sys.stdout.write("@bgrecord " + replies[answered] + "\\n")
    sys.stdout.flush()
'''


def fake_gnubg(folder: Path, behaviour: str, replies: list[str] = (), size: int = 0) -> Path:  # type: ignore[assignment]
    (folder / "pids").mkdir(parents=True, exist_ok=True)
    (folder / "replies").write_text("\n".join(replies) + "\n")
    program = folder / "gnubg"
    program.write_text(FAKE.format(python=sys.executable, behaviour=behaviour, folder=str(folder / "pids"),
                                   replies=str(folder / "replies"), size=size))  # fmt: skip
    program.chmod(0o755)
    return program


def wait_for(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


# --- processes ---


def descendants(pid: int) -> list[int]:
    found = hostile.children(pid)
    return found + [below for child in found for below in descendants(child)]


WORKERS = {"-j 2": (["-j", "2"], 2), "--scheduler local": (["--scheduler", "local", "-j", "1"], 1)}


@pytest.fixture
def stuck_run(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[subprocess.Popen[bytes], list[int]]]:
    """``analyze`` with workers (the parameter: ``WORKERS``) on four files with a gnubg that
    never answers, once each worker has given it a match; the run, and every process under it
    (workers, engines, a local Dask cluster's)."""
    options, engines_expected = WORKERS[request.param]
    program = fake_gnubg(tmp_path, "stuck")
    for n in range(4):
        (tmp_path / f"{n}.mat").write_bytes(CRAWFORD.read_bytes())
    run = subprocess.Popen([sys.executable, "-m", "bgrecord", "analyze", *(str(tmp_path / f"{n}.mat") for n in range(4)), "-o",
                            str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"), *options, "--timeout", "600"],
                           env={**os.environ, "BGRECORD_GNUBG": str(program)}, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    engines: list[int] = []
    try:
        assert wait_for(lambda: len(list((tmp_path / "pids").iterdir())) == engines_expected, 120), "the engines were not given a match"
        engines = [int(p.name) for p in (tmp_path / "pids").iterdir()]
        under = descendants(run.pid)
        assert set(engines) <= set(under) and all(hostile.alive(pid) for pid in engines)
        yield run, under
    finally:
        for pid in [run.pid, *descendants(run.pid), *engines]:
            if hostile.alive(pid):
                os.kill(pid, signal.SIGKILL)
        run.wait()


@pytest.mark.parametrize("stuck_run", ["-j 2", pytest.param("--scheduler local", marks=needs["dask"])], indirect=True)
def test_a_stopping_signal_during_analyze_ends_it_and_every_worker_and_engine_within_two_seconds(
        stuck_run: tuple[subprocess.Popen[bytes], list[int]]) -> None:  # fmt: skip
    run, processes = stuck_run
    started = time.monotonic()
    run.send_signal(signal.SIGTERM)
    status = run.wait(timeout=60)
    assert time.monotonic() - started < 2.0 and status == 143, (time.monotonic() - started, status)
    assert wait_for(lambda: not any(map(hostile.alive, processes)), 2.0), [pid for pid in processes if hostile.alive(pid)]
    said = run.stderr.read() if run.stderr else b""
    assert b"Traceback" not in said and b"WARNING" not in said, said


@pytest.mark.parametrize("stuck_run", ["-j 2"], indirect=True)
def test_workers_and_engines_die_with_a_main_process_killed_outright(stuck_run: tuple[subprocess.Popen[bytes], list[int]]) -> None:
    run, processes = stuck_run
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=60)
    assert wait_for(lambda: not any(map(hostile.alive, processes)), 5.0), [pid for pid in processes if hostile.alive(pid)]


def test_the_viewer_ends_with_the_status_of_the_signal_that_stopped_it() -> None:
    leader, follower = pty.openpty()
    viewer = subprocess.Popen([sys.executable, "-m", "bgrecord", "replay", "-i", str(CLEAN)], stdin=follower, stdout=follower,
                              stderr=follower, start_new_session=True)  # fmt: skip
    os.close(follower)
    shown = b""
    try:
        while b"Press Enter" not in shown:  # it waits for a key
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, shown
            shown += os.read(leader, 65536)
        viewer.send_signal(signal.SIGTERM)
        assert viewer.wait(timeout=60) == 143
    finally:
        if viewer.poll() is None:
            viewer.kill()
        os.close(leader)


@needs["dask"]
def test_a_scheduler_with_no_worker_is_one_line_not_a_wait_for_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    import distributed

    from bgrecord.tables import cluster

    monkeypatch.setattr(cluster, "NO_WORKER", 2.0)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as empty:
        found: list[Result] = []
        run = threading.Thread(target=lambda: found.append(invoke("validate", str(CLEAN), "--scheduler", empty.scheduler_address)), daemon=True)
        run.start()
        run.join(60)
    assert found, "the run still waits for a worker"
    assert found[0].exit_code == 2 and "the Dask scheduler has no worker (none came in 2 s)" in found[0].output


# --- the engine ---

GOOD_GAME: dict[str, Any] = {"actions": [], "stats": {}}
SHAPES = {
    "a list": "[1, 2]",
    "games that are an object": json.dumps({"ok": True, "games": {"a": 1}}),
    "an action that is text": json.dumps({"ok": True, "games": [{"actions": ["move"]}]}),
    "a player out of range": json.dumps({"ok": True, "games": [{"actions": [{"action": "move", "player": 7}]}]}),
    "dice past six": json.dumps({"ok": True, "games": [{"actions": [{"action": "move", "player": 0, "dice": [9, 9]}]}]}),
    "an equity that is text": json.dumps({"ok": True, "games": [{"actions": [{"action": "move", "player": 0, "best_equity": "high"}]}]}),
    "an infinite luck": '{"ok": true, "games": [{"actions": [{"action": "move", "player": 0, "luck": Infinity}]}]}',
    "a hop of three points": json.dumps({"ok": True, "games": [{"actions": [{"action": "move", "player": 0, "move": [[1, 2, 3]]}]}]}),
    "statistics that are a number": json.dumps({"ok": True, "games": [{"actions": [], "stats": 5}]}),
    "an error that is an object": json.dumps({"ok": False, "error": {"why": "x" * 5000}}),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_reply_of_another_shape_is_the_matchs_engine_error_never_bgrecords(tmp_path: Path, shape: str) -> None:
    from bgrecord.analysis.engine import EngineError
    from bgrecord.analysis.gnubg import GnubgEngine

    engine = GnubgEngine(str(fake_gnubg(tmp_path, "replies", [SHAPES[shape], json.dumps({"ok": True, "games": [GOOD_GAME]})])), timeout=30)
    try:
        with pytest.raises(EngineError) as raised:
            engine.analyse(" 1 point match\n", 0, False)
        assert len(str(raised.value)) < 400
        assert len(engine.analyse(" 1 point match\n", 0, False).games) == 1  # the next match is read
    finally:
        engine.close()


def test_analyze_says_a_reply_of_another_shape_is_gnubgs_not_the_files(tmp_path: Path) -> None:
    program = fake_gnubg(tmp_path, "replies", [SHAPES["an action that is text"]])
    done = invoke("analyze", str(CRAWFORD), "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"), "-j", "1",
                  env={"BGRECORD_GNUBG": str(program)})  # fmt: skip
    assert done.exit_code == 2 and "match 1: gnubg's reply is not what bgrecord's script writes" in done.output
    assert "bug in bgrecord" not in done.output and "internal" not in done.output


def test_a_reply_without_a_line_end_is_read_in_linear_time(tmp_path: Path) -> None:
    from bgrecord.analysis.gnubg import GnubgEngine

    def timed(size: int) -> float:
        engine = GnubgEngine(str(fake_gnubg(tmp_path / str(size), "huge", size=size)), timeout=300)
        try:
            engine.analyse(" 1 point match\n", 0, False)  # gnubg started: only the reply is timed below
            started = time.perf_counter()
            engine.analyse(" 1 point match\n", 0, False)
            return time.perf_counter() - started
        finally:
            engine.close()

    small, large = timed(8 << 20), timed(64 << 20)
    assert large < 24 * max(small, 0.05), (small, large)  # eight times the bytes: linear 8 times the time, quadratic 64


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e10", "3000000", "0"])
def test_a_timeout_that_is_no_usable_number_is_refused_before_any_work(tmp_path: Path, value: str) -> None:
    program = fake_gnubg(tmp_path, "replies", [])
    done = invoke("analyze", str(CRAWFORD), "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"), "--timeout", value,
                  env={"BGRECORD_GNUBG": str(program)})  # fmt: skip
    assert done.exit_code == 2 and "Invalid value for '--timeout'" in done.output and "bug in bgrecord" not in done.output
    assert not (tmp_path / "d.csv").exists() and not list((tmp_path / "pids").iterdir())


def test_every_numeric_option_is_bounded(tmp_path: Path) -> None:
    from bgrecord.analysis.gnubg import GnubgEngine

    for value in (float("nan"), float("inf"), 1e10, 0.0):
        with pytest.raises(ValueError, match="timeout"):
            GnubgEngine(sys.executable, timeout=value)
    invoke("index", str(CLEAN), "-o", str(tmp_path / "db.sqlite"))
    huge = "9" * 30
    for args in (["find", str(tmp_path / "db.sqlite"), hostile.POSITION, "--limit", huge], ["replay", str(CLEAN), "--game", huge],
                 ["validate", str(CLEAN), "-j", huge]):  # fmt: skip
        done = invoke(*args)
        assert done.exit_code == 2 and "is not in the range" in done.output and "database" not in done.output, (args, done.output)


@needs_gnubg
def test_a_long_money_session_goes_to_the_engine_in_parts_with_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgrecord.analysis import files
    from bgrecord.analysis.gnubg import GnubgEngine

    sent: list[int] = []
    analyse = GnubgEngine.analyse

    def counted(self: GnubgEngine, mat: str, plies: int, jacoby: bool, cube: bool = True) -> Any:
        sent.append(mat.count(" Game "))
        return analyse(self, mat, plies, jacoby, cube)

    monkeypatch.setattr(GnubgEngine, "analyse", counted)
    session = SAMPLES / "gnubg-money-jacoby.mat"
    try:
        whole = files.analyse_file(session)
        assert sent == [whole.matches[0]["games_analysed"]] and sent[0] > 2
        sent.clear()
        monkeypatch.setattr(files, "PART", 2)
        parts = files.analyse_file(session)
    finally:
        files.close_engines()
    assert len(sent) > 1 and max(sent) == 2 and sum(sent) == whole.matches[0]["games_analysed"]
    assert parts.decisions == whole.decisions and parts.players == whole.players and not parts.failures


# --- inputs ---


def test_a_pipe_given_to_index_or_replay_is_read_once(tmp_path: Path) -> None:
    import tempfile

    copies = {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("bgrecord-streams-")}
    bgrecord_command = f"{sys.executable} -m bgrecord"
    done = subprocess.run(["bash", "-c", f"{bgrecord_command} index <(cat {CRAWFORD}) -o {tmp_path / 'db.sqlite'}"], capture_output=True, timeout=300)
    assert done.returncode == 0 and b"3 games" in done.stderr, done.stderr
    found = invoke("find", str(tmp_path / "db.sqlite"), hostile.POSITION)
    assert found.exit_code == 0 and found.output.count("game ") >= 1
    if GNUBG is not None:  # replay --analyze reads it for the analysis, then for the replay
        done = subprocess.run(["bash", "-c", f"{bgrecord_command} replay --analyze --board none <(cat {CRAWFORD})"], capture_output=True, timeout=300)
        assert done.returncode == 0 and done.stdout.count(b"Analysis at 0 ply") > 50, done.stderr
    assert {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("bgrecord-streams-")} <= copies  # gone with the run


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make a file or folder unreadable: by its permissions, or, as root (who reads anything),
    as the system would answer for one without them."""
    made: list[Path] = []
    hidden: set[str] = set()

    def hide(path: Path) -> None:
        if os.geteuid() != 0:
            path.chmod(0)
            made.append(path)
            return
        hidden.add(str(path))

    if os.geteuid() == 0:
        access, scandir = os.access, os.scandir
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: str(path) not in hidden and access(path, mode, **kw))

        def refused(path: Any = ".") -> Any:
            if str(path) in hidden:
                raise PermissionError(13, "Permission denied", str(path))
            return scandir(path)

        monkeypatch.setattr(os, "scandir", refused)
    yield hide
    for path in made:
        path.chmod(0o755)


def test_what_cannot_be_read_is_said_and_status_2_in_every_command(tmp_path: Path, unreadable: Any) -> None:
    folder = tmp_path / "archive"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.mat").write_bytes(CLEAN.read_bytes())
    (folder / "sub" / "b.mat").write_bytes(CLEAN.read_bytes())
    (folder / "c.mat").write_bytes(CLEAN.read_bytes())
    unreadable(folder / "sub")
    unreadable(folder / "c.mat")
    for args in (["validate", str(folder)], ["stats", str(folder), "-o", str(tmp_path / "g.csv")], ["index", str(folder), "-o", str(tmp_path / "db.sqlite")],
                 ["index", str(folder / "c.mat"), "-o", str(tmp_path / "db2.sqlite")]):  # fmt: skip
        done = invoke(*args)
        assert done.exit_code == 2, (args, done.output)
        if args[1] == str(folder):
            assert f"{folder / 'sub'}: cannot read this folder: Permission denied" in done.output, done.output
        assert f"{folder / 'c.mat'}: cannot read: Permission denied" in done.output, done.output


def detected(path: Path) -> tuple[str, int, list[str]]:
    from bgrecord.formats.reader import iter_matches

    matches = list(iter_matches(path))
    return matches[0].format, sum(len(m.games) for m in matches), [f"{i.severity.value}[{i.code}]" for m in matches for i in m.all_issues()]


def test_a_line_in_the_middle_never_decides_the_format_against_the_rest(tmp_path: Path) -> None:
    text = CRAWFORD.read_text()
    at = text.index(" Game 2")
    (tmp_path / "note.mat").write_text(text[:at] + "Score is 2-0 in a 5 point match.\n\n" + text[at:])
    (tmp_path / "final.mat").write_text("(Final; Monte Carlo 2019)\n" + text)
    assert detected(tmp_path / "note.mat")[:2] == ("mat", 3)
    assert detected(tmp_path / "final.mat")[:2] == ("mat", 3)
    assert detected(SAMPLES / "fibs-oldmoves.txt")[0] == "fibs"  # a FIBS log is still one


def test_a_file_read_as_a_format_that_gives_no_game_says_so(tmp_path: Path) -> None:
    (tmp_path / "fibs.txt").write_text("Score is 0-0 in a 5 point match.\nthe rest of the log was lost\n")
    fmt, games, issues = detected(tmp_path / "fibs.txt")
    assert (fmt, games) == ("fibs", 0) and issues == ["error[no-games]"]
    done = invoke("validate", str(tmp_path / "fibs.txt"))
    assert done.exit_code == 1 and "no game in the file (read as a FIBS oldmoves log)" in done.output


def test_a_folders_files_that_are_no_records_are_one_line_each(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "match.mat").write_bytes(CLEAN.read_bytes())
    (folder / "replay.txt").write_text(invoke("replay", str(CLEAN)).output)  # bgrecord's own outputs
    (folder / "report.txt").write_text(invoke("validate", str(CLEAN)).output)
    (folder / "notes.txt").write_text("\n".join(f"Note {n}: bring a board" for n in range(500)))
    done = invoke("validate", str(folder))
    lines = done.output.splitlines()
    for name in ("replay.txt", "report.txt", "notes.txt"):
        said = [line for line in lines if line.startswith(str(folder / name))]
        assert len(said) == 1 and "error[no-match]" in said[0] and "not a match record" in said[0], said
    assert lines[-1].startswith("4 files, 2 games: 3 errors, 0 warnings, 0 infos")


def test_an_analysis_table_is_read_a_chunk_at_a_time(tmp_path: Path) -> None:
    """replay --analysis: the rows of the game replayed are found, and a table of 150,000 other
    rows (18 MB) costs less than 60 MB more than a small one, not the twenty times its size
    pandas holds a whole table in."""
    from bgrecord.analysis.files import game_key
    from bgrecord.analysis.tables import DECISION_COLUMNS
    from bgrecord.formats.source import Input
    from bgrecord.replay.validate import replayed
    from bgrecord.tables.export import TableWriter

    first = next(out for _, _, out in replayed(Input.of(CLEAN), None, steps=True) if out is not None)
    key = game_key(1, first)
    row = {name: None for name in DECISION_COLUMNS} | {"file": "x.mat", "match_key": "m", "match": 1, "game": 1, "game_in_match": 1,
                                                     "step": 1, "player": 0, "name": "Alice", "kind": "checker", "play": "8/5 6/5",
                                                     "best": "8/5 6/5", "error": 0.0, "counted": True, "plies": 0}  # fmt: skip
    for name, others in (("small.csv", 10), ("large.csv", 150_000)):
        with TableWriter(tmp_path / name, "csv", DECISION_COLUMNS) as writer:
            writer.write([row | {"game_key": key, "luck": 0.321}])
            for start in range(0, others, 10_000):
                writer.write([row | {"game_key": f"other{n:08}", "name": "x" * 40} for n in range(start, min(start + 10_000, others))])
    assert (tmp_path / "large.csv").stat().st_size > 15 << 20
    runner = hostile.Runner(seconds=300, memory=4 << 30)
    try:
        peaks = []
        for name in ("small.csv", "large.csv"):
            done = runner.run(["replay", str(CLEAN), "--board", "none", "--game", "1", "--analysis", str(tmp_path / name)], tmp_path)
            assert done.status == 0 and b"Analysis at 0 ply: play the best, luck +0.321." in done.stdout, done.stderr
            peaks.append(done.peak)
    finally:
        runner.close()
    assert peaks[1] - peaks[0] < 60 << 20, [peak >> 20 for peak in peaks]  # was 700 MB more


# --- outputs ---


def test_data_on_standard_output_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    record = tmp_path / "names.mat"
    record.write_text(CLEAN.read_text().replace("Alice", "Jürgen Çağrı"), encoding="utf-8")
    for encoding in ("latin-1", "ascii"):
        env = {**os.environ, "PYTHONIOENCODING": encoding, "LC_ALL": "C", "LANG": "C"}
        table = bgrecord("stats", str(record), "-o", "-", env=env)
        assert table.returncode == 0 and "Jürgen Çağrı" in table.stdout.decode("utf-8")
        converted = bgrecord("convert", str(record), "-o", "-", "--to", "json", env=env)
        assert "Jürgen Çağrı" in json.dumps(json.loads(converted.stdout.decode("utf-8")), ensure_ascii=False)
        report = bgrecord("validate", "--format", "json", str(record), env=env)
        json.loads(report.stdout.decode("utf-8"))


def test_every_output_of_a_run_is_compared_with_the_others_standard_output_included(tmp_path: Path) -> None:
    program = fake_gnubg(tmp_path / "engine", "replies", [])
    engine = {"BGRECORD_GNUBG": str(program)}
    table = str(tmp_path / "t.csv")
    for args, env in ((["analyze", str(CLEAN), "-o", table, "--players", table], engine),
                      (["analyze", str(CLEAN), "-o", "-", "--players", "-"], engine),
                      (["analyze", str(CLEAN), "-o", str(tmp_path / "db.sqlite"), "--matches", str(tmp_path / "db.sqlite")], engine),
                      (["stats", str(CLEAN), "-o", table, "--players", os.path.join(tmp_path, ".", "t.csv")], None),
                      (["stats", str(CLEAN), "-o", "-", "--dice", "-"], None)):  # fmt: skip
        done = invoke(*args, env=env)
        assert done.exit_code == 2 and "two outputs would be one file" in done.output, (args, done.output)
        assert not Path(table).exists() and not list((tmp_path / "engine" / "pids").iterdir())
    players = tmp_path / "p.csv"
    with players.open("wb") as out:  # standard output is p.csv
        done = subprocess.run([sys.executable, "-m", "bgrecord", "stats", str(CLEAN), "-o", "-", "--players", str(players)],
                              stdout=out, stderr=subprocess.PIPE, timeout=300)  # fmt: skip
    assert done.returncode == 2 and b"two outputs would be one file (standard output and" in done.stderr
    with (tmp_path / "g.csv").open("wb") as out:  # a device takes several: nothing is lost there
        done = subprocess.run([sys.executable, "-m", "bgrecord", "stats", str(CLEAN), "-o", "-", "--players", os.devnull, "--matches", os.devnull],
                              stdout=out, stderr=subprocess.PIPE, timeout=300)  # fmt: skip
    assert done.returncode == 0 and len(pd.read_csv(tmp_path / "g.csv")) == 2


def test_a_dataset_replaces_only_a_dataset_bgrecord_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    done = invoke("stats", str(CLEAN), "-o", f"{folder}/", "--overwrite")
    assert done.exit_code == 2 and "holds files bgrecord did not write there (notes.txt)" in done.output
    assert (folder / "notes.txt").read_text() == "mine"
    dataset = tmp_path / "dataset"
    assert invoke("stats", str(CLEAN), "-o", f"{dataset}/").exit_code == 0
    assert invoke("stats", str(CRAWFORD), "-o", f"{dataset}/", "--overwrite").exit_code == 0
    assert len(pd.read_parquet(dataset)) == 3
    monkeypatch.chdir(dataset)
    done = invoke("stats", str(CLEAN), "-o", "./", "--overwrite")
    assert done.exit_code == 2 and "holds the current folder" in done.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dataset", "out"]  # no ".XXXX.old" left beside


def test_a_missing_output_folder_is_named(tmp_path: Path) -> None:
    for args in (["stats", str(CLEAN), "-o", str(tmp_path / "none" / "g.csv")], ["convert", str(CLEAN), "-o", str(tmp_path / "none" / "c.sgf")],
                 ["replay", str(CLEAN), "-o", str(tmp_path / "none" / "r.txt")]):  # fmt: skip
        done = invoke(*args)
        assert done.exit_code == 2 and f"the folder {tmp_path / 'none'} does not exist" in done.output, (args, done.output)


@needs["plot"]
def test_a_name_is_text_in_the_plot(tmp_path: Path) -> None:
    record = tmp_path / "dollars.mat"
    record.write_text(CLEAN.read_text().replace("Alice", "$$").replace("Bob", "a_{b}$x^2$"))
    for plot in ("p.png", "p.html"):
        done = invoke("stats", str(record), "-o", str(tmp_path / "g.csv"), "--plot", str(tmp_path / plot), "--overwrite")
        assert done.exit_code == 0 and (tmp_path / plot).stat().st_size > 1000, done.output


def test_every_invisible_format_character_is_escaped_in_text_output(tmp_path: Path) -> None:
    from bgrecord.escapes import one_line, shown

    joiners = "\u200c\u200d"  # kept: scripts and emoji need them (tests/test_names.py)
    invisible = [chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) == "Cf" and chr(code) not in joiners]
    for char in invisible:
        assert char not in shown(f"a{char}b") and char not in one_line(f"a{char}b"), hex(ord(char))
        assert json.loads(f'"{shown(char)}"') == char  # a JSON escape of the same character
    record = tmp_path / "zero-width.mat"
    record.write_text(CLEAN.read_text().replace("Alice", "Ali\u200bce\u2060").replace("Bob", "B\U000e0041ob"))
    for args in (["replay", str(record)], ["read", str(record)], ["validate", "--format", "json", str(record)]):
        done = invoke(*args)
        assert not any(char in done.output for char in invisible), args
    assert "Ali\\u200bce\\u2060" in invoke("replay", str(record)).output


def test_text_all_ascii_is_escaped_as_any_text() -> None:
    """ASCII text is matched against a shorter class (the output's common case, a third of the
    time): each ASCII character, alone and in a line with a character beyond ASCII, is escaped
    the same both ways."""
    from bgrecord.escapes import one_line, shown

    for char in map(chr, range(128)):
        for escape in (shown, one_line):
            alone, beside = escape(f"a{char}b"), escape(f"a{char}b\u00e9")
            assert beside == alone + "\u00e9", (escape.__name__, hex(ord(char)))
            assert (char in alone) == (char.isprintable() or char == " " or (escape is shown and char in "\n\t")), hex(ord(char))


def test_the_long_fuzz_run_counts_orphans_and_unreadable_databases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fuzz harness's own checks answer: a run that leaves a process behind, or a database
    that no longer reads, is a problem of that case."""
    monkeypatch.setenv("BGRECORD_GNUBG", str(fake_gnubg(tmp_path / "engine", "escape", [json.dumps({"ok": True, "games": []})])))
    runner = hostile.Runner(seconds=60)
    try:
        clean = runner.run(["validate", str(CLEAN)], tmp_path)
        assert clean.orphans == 0 and not clean.problems
        left = runner.run(["analyze", str(CRAWFORD), "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv")], tmp_path)
        assert left.orphans == 1 and "orphans: 1 processes left behind" in left.problems
    finally:
        runner.close()
    (tmp_path / "broken.sqlite").write_bytes(b"SQLite format 3\x00" + bytes(100))
    assert not hostile.readable(tmp_path / "broken.sqlite")
    invoke("index", str(CLEAN), "-o", str(tmp_path / "good.sqlite"))
    assert hostile.readable(tmp_path / "good.sqlite")
