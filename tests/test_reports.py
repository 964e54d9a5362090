"""What the commands say about what they found: `find` with a limit says of how many, a place
in a file without lines with its unit; an index of another schema is made again; an .xg cut
short says so, and where."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS

from bgrecord.cli import main
from bgrecord.formats.source import Input
from bgrecord.replay.validate import validate_file
from bgrecord.tables.database import SCHEMA_VERSION, Database
from bgrecord.tables.index_keys import write_keys

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
START = "4HPwATDgc/ABMA"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def index(tmp_path: Path) -> Path:
    database = tmp_path / "archive.sqlite"
    code, _, err = run("index", str(SAMPLES), "-o", str(database))
    assert code in (0, 1), err  # 1: a sample with an error
    return database


def test_find_with_a_limit_says_of_how_many(index: Path) -> None:
    code, out, err = run("find", str(index), START)
    total = len(out.splitlines())
    assert code == 0 and total > 10 and err.strip() == f"{total} occurrences of {START}"
    code, out, err = run("find", str(index), START, "--limit", "3")
    assert code == 0 and len(out.splitlines()) == 3 and err.strip() == f"the first 3 of {total} occurrences of {START}"
    code, out, err = run("find", str(index), START, "--limit", str(total))
    assert err.strip() == f"{total} occurrences of {START}"
    code, out, _ = run("find", str(index), START, "--limit", "2", "--format", "json")
    assert '"total": ' + str(total) in out


def test_a_hit_in_a_file_without_lines_says_its_unit(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    code, _, err = run("convert", str(SAMPLES / "gnubg-5pt-crawford.mat"), "-o", str(folder / "match.ogxm"))
    assert code == 0, err
    (folder / "match.mat").write_bytes((SAMPLES / "gnubg-5pt-crawford.mat").read_bytes())
    database = tmp_path / "archive.sqlite"
    assert run("index", str(folder), "-o", str(database))[0] == 0
    code, out, _ = run("find", str(database), START)
    places = [line.split(": ")[0] for line in out.splitlines()]
    assert f"{folder / 'match.ogxm'}:ply 1" in places and f"{folder / 'match.mat'}:7" in places, places  # line 7: the first row
    # the row of the .mat layout, the same for both files
    assert {line.split(": ", 1)[1] for line in out.splitlines() if "match.ogxm" in line} == {
        line.split(": ", 1)[1] for line in out.splitlines() if "match.mat" in line}  # fmt: skip


def test_an_index_of_another_schema_is_made_again(index: Path) -> None:
    database = Database(index)
    write_keys(database, {"schema": "1"})
    database.close()
    code, _, err = run("find", str(index), START)
    assert code == 2 and f"an index of an older bgrecord (schema 1; this one reads {SCHEMA_VERSION}): run bgrecord index on it again" in err
    code, _, err = run("index", str(SAMPLES), "-o", str(index))
    assert "an index of an older bgrecord (schema 1): made again from the files it listed" in err and " 0 unchanged" in err, err
    assert run("find", str(index), START)[0] == 0


@pytest.mark.parametrize(("keep", "says"), [
    (100, "cut short inside its header (100 of 8,232 bytes), before its first record"),
    (8_300, "cut short before its first record"),
])  # fmt: skip
def test_an_xg_file_cut_short_says_so_and_where(keep: int, says: str) -> None:
    files = sorted((CORPUS / "other-formats" / "xg").glob("*.xg"))
    if not files:
        pytest.skip("corpus absent")
    report = validate_file(Input("cut.xg", data=files[0].read_bytes()[:keep]))
    (issue,) = report.issues
    assert issue.code == "unreadable" and says in issue.message and "no RGMH header" not in issue.message


def test_an_xg_file_cut_among_its_records_says_at_which() -> None:
    files = sorted((CORPUS / "other-formats" / "xg").glob("*.xg"))
    if not files:
        pytest.skip("corpus absent")
    data = files[6].read_bytes()
    report = validate_file(Input("cut.xg", data=data[: len(data) // 2]))
    cut = [issue for issue in report.issues if issue.code == "cut-short"]
    assert report.games > 0 and len(cut) == 1 and cut[0].unit == "record" and str(cut[0]).startswith(f"cut.xg:record {cut[0].line}:")
