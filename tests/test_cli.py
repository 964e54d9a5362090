"""The command line, through click's CliRunner and as ``python -m bgrecord``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
    assert "   1. 24/21 24/23" in out
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
        (["board", "4HPwATDgc/ABMA", "--dice", "71"], "dice are two digits from 1 to 6"),
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
    for command in ([], ["board"], ["demo"]):
        code, out = run(*command, "--help")
        assert code == 0
        assert out in reference, f"docs/cli.md is out of date for: bgrecord {' '.join(command)} --help"
