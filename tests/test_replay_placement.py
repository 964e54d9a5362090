"""Every issue at the step of the action it is about (the action validate names by line and
column): for an action in either column of a row, of each kind (roll, double, take, drop,
result), in each output of ``bgrecord replay`` (text, JSON lines, HTML, the viewer's E key)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from bgrecord.cli import main
from bgrecord.show.steps import step_records
from bgrecord.show.viewer import Viewer

HEAD = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
# (column, kind): the rows after the opening, with one error at an action of that kind in that column
CASES = {
    ("left", "roll"): ("  2) 52: 13/8 13/12               61: 13/7 8/7\n", "wrong-distance"),
    ("right", "roll"): ("  2) 52: 13/8 13/11               61: 13/7 8/3\n", "wrong-distance"),
    ("left", "double"): ("  2)  Doubles => 4                Takes\n", "cube-value"),
    ("right", "double"): ("  2) 52: 13/8 13/11                Doubles => 4\n  3)  Takes\n", "cube-value"),
    ("left", "take"): ("  2)  Takes                       61: 13/7 8/7\n", "answer-without-double"),
    ("right", "take"): ("  2) 52: 13/8 13/11                Takes\n", "answer-without-double"),
    ("left", "drop"): ("  2)  Drops                       61: 13/7 8/7\n", "answer-without-double"),
    ("right", "drop"): ("  2) 52: 13/8 13/11                Drops\n", "answer-without-double"),
    ("left", "result"): ("  2)  Doubles => 2                Drops\n      Wins 2 points\n", "result-points"),
    ("right", "result"): ("  2) 52: 13/8 13/11                Doubles => 2\n  3)  Drops\n                                  Wins 4 points\n",
                          "result-points"),
}  # fmt: skip
ACTION = {"roll": "move", "double": "double", "take": "take", "drop": "drop", "result": "win"}
NAMES = {"left": "Alice", "right": "Bob"}
PARAMETERS = pytest.mark.parametrize(("column", "kind"), sorted(CASES))


def replayed(text: str, *options: str) -> str:
    result = CliRunner().invoke(main, ["replay", "-", *options], input=text)
    assert result.exit_code == 1, result.output  # the record has an error
    return result.output


def validated(text: str, code: str) -> tuple[int, int]:
    result = CliRunner().invoke(main, ["validate", "--format", "json", "-"], input=text)
    (issue,) = [i for f in json.loads(result.output)["files"] for i in f["issues"] if i["code"] == code]
    return issue["line"], issue["column"]


@PARAMETERS
def test_the_records_put_an_issue_at_the_action_validate_names(column: str, kind: str) -> None:
    body, code = CASES[column, kind]
    text = HEAD + body
    (record,) = [r for r in step_records(text) if any(i.code == code for i in r.issues)]
    assert (record.line, record.column) == validated(text, code)
    assert (record.player, record.action) == (("left", "right").index(column), ACTION[kind])


@PARAMETERS
def test_jsonl_gives_the_issue_with_the_action_it_is_about(column: str, kind: str) -> None:
    body, code = CASES[column, kind]
    lines = [json.loads(line) for line in replayed(HEAD + body, "--format", "jsonl").splitlines()]
    (at,) = [line for line in lines if any(i["code"] == code for i in line["issues"])]
    assert (at["name"], at["action"]) == (NAMES[column], ACTION[kind])


@PARAMETERS
def test_text_says_the_issue_after_the_step_of_its_player(column: str, kind: str) -> None:
    body, code = CASES[column, kind]
    lines = replayed(HEAD + body, "--no-board").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f" Error, {code}:"))
    step = next(line for line in reversed(lines[:at]) if line.startswith("Game 1"))
    assert re.match(rf"Game 1(, move \d+)?: {NAMES[column]}\b", step), step


@PARAMETERS
def test_html_marks_the_step_of_its_player(column: str, kind: str) -> None:
    body, code = CASES[column, kind]
    page = replayed(HEAD + body, "--format", "html")
    data = json.loads(re.search(r"<script type='application/json' id='steps'>(.*?)</script>", page, re.S).group(1))  # type: ignore[union-attr]
    marked = [step for step in data["steps"] if code in step[13]]  # [6]: the mover, [12]: the words, [13]: the issues
    assert len(marked) == 1 and marked[0][6] == ("left", "right").index(column) and marked[0][12].startswith(NAMES[column])


@PARAMETERS
def test_the_viewers_e_key_names_its_player(column: str, kind: str) -> None:
    body, code = CASES[column, kind]
    said: list[str] = []
    viewer = Viewer(list(step_records(HEAD + body)), said.append, lambda prompt: "")
    for _ in range(len(viewer.records)):  # E to each step with an issue, to the one with the error
        viewer.handle("e")
        if f"Error, {code}" in said[-1]:
            break
    assert re.match(rf"Game 1(, move \d+)?: {NAMES[column]}\b", said[-1]), said[-1]
