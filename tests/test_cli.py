"""The command line, through click's CliRunner and as ``python -m bgrecord``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from bgrecord import __version__
from bgrecord.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_version_and_module_entry_point() -> None:
    assert run("--version") == (0, f"bgrecord, version {__version__}\n")
    module = subprocess.run([sys.executable, "-m", "bgrecord", "--version"], capture_output=True, text=True)
    assert module.returncode == 0 and module.stdout.strip() == f"bgrecord, version {__version__}"


def test_board_from_each_kind_of_identifier() -> None:
    code, out = run("board", "4HPwATDgc/ABMA", "--dice", "31")
    assert code == 0 and "Position ID: 4HPwATDgc/ABMA" in out and "16 legal plays for O with 31:" in out
    assert "   1. 24/23 24/21" in out  # bgrecord's notation: the highest source, then the highest target, first
    code, out = run("board", "4HPwATDgc/ABMA:cInqAAAAAAAE")
    assert code == 0 and "Match ID   : cInqAAAAAAAE" in out and "Rolled 52" in out and out.splitlines()[2].startswith(" +13")
    code, out = run("board", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    assert code == 0 and "Match ID   : 8AmgACAAIAAE" in out


def test_board_dance_and_finished_game() -> None:
    closed_out = "27YBADgA8P8DQA"  # on the bar against a closed board
    code, out = run("board", closed_out, "--dice", "66")
    assert code == 0 and out.endswith("O cannot move with 66.\n")
    code, out = run("board", "--turn", "1", "--dice", "66", "2PYBAAD/fwAAAA")
    assert code == 0 and out.endswith("1 legal play for X with 66:\n   1. 5/off 5/off 5/off 5/off\n")
    code, out = run("board", "AAAA/gUAAAAAAA")
    assert code == 0 and "Game over: X has won a single game." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["board", "4HPwATDgc/ABMB"], "stray bits"),
        (["board", "nonsense"], "Position ID is 14 base64 characters"),
        (["board", "4HPwATDgc/ABMA", "--dice", "71"], "a roll is two dice from 1 to 6"),
        (["board", "XGID=-b--:0"], "an XGID has"),
    ],
)
def test_bad_input_is_a_clean_usage_error(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2 and message in out and "Traceback" not in out


def test_demo_is_deterministic_and_ends_with_a_result() -> None:
    first, second = run("demo", "--seed", "5"), run("demo", "--seed", "5")
    assert first == second and first[0] == 0
    assert re.search(r"^[OX] wins a (single game|gammon|backgammon) \(\d points?\)\.$", first[1], re.M)
    assert run("demo", "--seed", "6")[1] != first[1]


def test_cli_reference_matches_help() -> None:
    reference = (DOCS / "cli.md").read_text(encoding="utf-8")
    for command in ([], ["validate"], ["replay"], ["convert"], ["stats"], ["read"], ["board"], ["demo"], ["analyze"], ["index"], ["find"],
                    ["report"], ["players"]):
        code, out = run(*command, "--help")
        assert code == 0
        assert out in reference, f"docs/cli.md is out of date for: bgrecord {' '.join(command)} --help"


SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_read_samples_reports_every_match_and_exits_zero() -> None:
    code, out = run("read", str(SAMPLES))
    assert code == 0
    assert "xg-tags-bom-crlf.mat: mat (utf-8-sig), 5 point match, Jake Jacobs vs Hosaka Noriyuki, 2 games" in out
    assert "warning[wrapped-line]" in out and out.rstrip().endswith("19 files, 0 unreadable places")


def test_read_bad_file_exits_one_with_located_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/x5\n")
    code, out = run("read", str(bad))
    assert code == 1 and f"{bad}:5:14: error[unreadable] cannot read '6/x5' at column 14" in out
    code, out = run("read", "--format", "json", str(bad))
    document = json.loads(out)
    assert code == 1 and document["summary"] == {"files": 1, "errors": 1}
    (issue,) = document["files"][0]["issues"]
    assert (issue["line"], issue["column"], issue["code"], issue["game"]) == (5, 14, "unreadable", 1)


def test_read_usage_and_io_errors_exit_two(tmp_path: Path) -> None:
    code, out = run("read", str(tmp_path / "missing.mat"))
    assert code == 2 and "missing.mat: no such file or folder" in out
    locked = tmp_path / "locked.mat"
    locked.write_text(" 1 point match\n")
    locked.chmod(0)
    if os.access(locked, os.R_OK):  # root reads anything: nothing to test here
        return
    code, out = run("read", str(locked))
    assert code == 2 and "cannot read" in out


BROKEN = (
    " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2) 64: 24/18 13/8               Doubles => 2\n"
    "  3)  Takes\n"
)


def test_validate_samples_is_clean() -> None:
    code, out = run("validate", str(SAMPLES))
    assert code == 0 and out.rstrip().endswith("19 files, 41 games: 0 errors, 2 warnings, 6 infos")
    code, out = run("validate", "--strict", str(SAMPLES))
    assert code == 1


def test_validate_reports_a_move_error_like_a_compiler(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BROKEN)
    code, out = run("validate", str(bad))
    first = next(line for line in out.splitlines() if "error[" in line)
    assert code == 1
    assert first.startswith(f"{bad}:6:6: error[wrong-distance] 13/8: the distance matches no unused die (position ")
    assert "dice 64); did you mean 24/18 13/9" in first and first.endswith("; replayed as 24/18 13/9")  # and checked on from there
    assert out.rstrip().endswith("1 file, 1 game: 1 error, 0 warnings, 1 info")


def test_validate_json_document(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(BROKEN)
    code, out = run("validate", "--format", "json", str(bad), str(SAMPLES / "gnubg-5pt-crawford.mat"))
    document = json.loads(out)
    assert code == 1 and set(document) == {"files", "summary"}
    assert document["summary"] == {"files": 2, "games": 4, "errors": 1, "warnings": 0, "infos": 1}
    issue = next(issue for issue in document["files"][0]["issues"] if issue["severity"] == "error")
    assert set(issue) == {"severity", "category", "code", "message", "line", "column", "game", "move"}
    assert (issue["severity"], issue["category"], issue["code"], issue["line"], issue["game"], issue["move"]) == (
        "error", "move", "wrong-distance", 6, 1, 2,
    )


def test_validate_rules_option_and_jobs_give_the_same_output() -> None:
    code, out = run("validate", "--rules", "jacobi=on", str(SAMPLES))
    assert code == 2 and "unknown rule 'jacobi'" in out
    one = run("validate", "--format", "json", "--jobs", "1", str(SAMPLES))
    two = run("validate", "--format", "json", "--jobs", "2", str(SAMPLES))
    assert one == two and one[0] == 0


def test_default_jobs_start_workers_only_for_large_inputs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bgrecord import cli

    files = []
    for index, size in enumerate((300_000, 300_000, 300_000, 100)):
        path = tmp_path / f"{index}.mat"
        path.write_bytes(b" " * size)
        files.append(str(path))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert cli.worker_count(3, files[:1]) == 3  # as asked
    assert cli.worker_count(0, files) == 1  # 900 KB: one worker's worth
    assert cli.worker_count(0, files[:1] * 8) == 4  # 2.4 MB, but four cores
    assert cli.worker_count(0, [str(tmp_path / "missing.mat")] * 9) == 1  # unreadable files weigh nothing
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert cli.worker_count(0, files * 4) == 1


def test_default_jobs_give_the_same_output_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from bgrecord.cli import common
    from bgrecord.formats.reader import match_files

    monkeypatch.setattr(common, "_BYTES_PER_WORKER", 1)  # the samples then fill every core's worker
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert common.worker_count(0, [str(path) for path in match_files([SAMPLES])]) == 2
    assert run("validate", "--format", "json", str(SAMPLES)) == run("validate", "--format", "json", "--jobs", "1", str(SAMPLES))


def test_workers_leave_ctrl_c_to_the_main_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C reaches every process of the group: the workers must ignore it (the main
    process stops them), or each would print a KeyboardInterrupt traceback."""
    from concurrent import futures

    made: list[dict[str, object]] = []
    real = futures.ProcessPoolExecutor

    def recording(*args: object, **kwargs: object) -> futures.ProcessPoolExecutor:
        made.append(kwargs)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(futures, "ProcessPoolExecutor", recording)
    assert run("validate", "--jobs", "2", str(SAMPLES))[0] == 0
    assert len(made) == 1
    with real(max_workers=1, initializer=made[0]["initializer"], initargs=made[0]["initargs"]) as pool:  # type: ignore[arg-type]
        assert pool.submit(signal.getsignal, signal.SIGINT).result() == signal.SIG_IGN


@pytest.mark.parametrize("document", [
    {}, {"files": []}, {"files": [], "summary": {"files": 0}},
    {"files": [{"path": "a\nb é", "issues": [{"line": 1, "nested": {"x": [1, 2, []]}}]}, {}], "summary": {"games": 2}, "problems": ["x"]},
    {"position_id": "4HPwATDgc/ABMA", "total": 2, "occurrences": [{"file": "\u2028", "play": None}, {"dice": "52"}]},
])  # fmt: skip
def test_a_streamed_json_document_has_the_bytes_of_json_dumps(document: dict[str, object]) -> None:
    """validate's and find's documents are written field by field, a list item by item as it
    comes: the bytes are json.dumps(indent=2)'s, whatever the lists hold."""
    from bgrecord.cli.common import echo_json_object

    @click.command()
    def write() -> None:
        echo_json_object((key, iter(value) if isinstance(value, list) else value) for key, value in document.items())

    result = CliRunner().invoke(write, [])
    assert result.exit_code == 0 and result.output == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
