"""The install story: the plain install (no extra) reads every format and runs every command
that needs no extra; a command needs only the extra it asks for, and a missing one is one
line naming it (exit status 2), never an issue of a file. Commands run in a Python where the
optional packages cannot be imported, whatever this environment has installed."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS

import bgrecord
from bgrecord import read_match, read_match_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
OPTIONAL = ("pyarrow", "scipy", "matplotlib", "duckdb", "distributed", "dask")


def run(*args: str, allowed: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``bgrecord args`` with the optional packages (but ``allowed``) made impossible to import."""
    blocked = [name for name in OPTIONAL if name not in allowed]
    code = (f"import sys; sys.modules.update(dict.fromkeys({blocked!r})); sys.argv = ['bgrecord', *{list(args)!r}]; "
            "from bgrecord.cli import entry; entry()")  # fmt: skip
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def bgf(path: Path) -> None:
    """A small BGBlitz file: its JSON header, then the match as plain JSON (no gzip, no Smile)."""
    moves = [{"player": -1, "green": 3, "red": 1, "from": [8, 6, -1, -1], "to": [5, 5, -1, -1]},
             {"player": 1, "green": 4, "red": 2, "from": [8, 6, -1, -1], "to": [4, 4, -1, -1]}]  # fmt: skip
    match = {"matchlen": 3, "nameGreen": "Alice", "nameRed": "Bob", "games": [{"moves": moves, "scoreGreen": 0, "scoreRed": 0}]}
    path.write_bytes(b'{"format":"BGF","version":"1.0","compress":false,"useSmile":false}\n' + json.dumps(match).encode())


@pytest.fixture(scope="module")
def every_format(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a file of each format bgrecord reads (an .xg from the corpus, when there)."""
    import zstandard

    folder = tmp_path_factory.mktemp("formats")
    for name in ("gnubg-5pt-crawford.mat", "gnubg-5pt-crawford.sgf", "fibs-oldmoves.txt", "jellyfish-single-games.gam",
                 "snowie-position.txt"):  # fmt: skip
        (folder / name).write_bytes((SAMPLES / name).read_bytes())
    text = (SAMPLES / "gnubg-money-jacoby.mat").read_bytes()
    (folder / "money.mat.gz").write_bytes(gzip.compress(text, mtime=0))
    (folder / "money.mat.zst").write_bytes(zstandard.ZstdCompressor().compress(text))
    bgf(folder / "small.bgf")
    for target in ("ogxm", "json"):
        made = run("convert", str(SAMPLES / "xg-tags-bom-crlf.mat"), "-o", str(folder / f"xg-tags.{target}"))
        assert made.returncode == 0, made.stderr
    xg = sorted((CORPUS / "other-formats" / "xg").glob("*.xg"))
    if xg:
        (folder / "match.xg").write_bytes(xg[0].read_bytes())
    return folder


def test_the_plain_install_reads_every_format(every_format: Path, tmp_path: Path) -> None:
    files = sorted(every_format.iterdir())
    json_file = every_format / "xg-tags.json"  # named: a folder is not searched for .json files
    done = run("validate", str(every_format), str(json_file))
    assert done.returncode == 0 and "pip install" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert f"{len(files)} files" in done.stdout
    done = run("stats", str(every_format), str(json_file), "-o", str(tmp_path / "games.csv"), "--players", str(tmp_path / "players.csv"),
               "--matches", str(tmp_path / "matches.csv"))  # fmt: skip
    assert done.returncode == 0 and "gave no games" not in done.stderr, done.stderr
    import pandas as pd

    games = pd.read_csv(tmp_path / "games.csv")
    assert set(games["file"].map(lambda name: Path(name).name)) == {path.name for path in files}
    done = run("index", str(every_format), str(json_file), "-o", str(tmp_path / "archive.sqlite"))
    assert done.returncode == 0, done.stderr
    found = run("find", str(tmp_path / "archive.sqlite"), "4HPwATDgc/ABMA")
    assert found.returncode == 0 and "occurrences" in found.stderr, found.stderr


def test_a_command_needs_only_the_extra_it_asks_for(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (bgrecord[plot])")
    done = run("stats", str(SAMPLES), "-o", str(tmp_path / "games.csv"), "--plot", str(tmp_path / "plot.png"), allowed=("matplotlib",))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "plot.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["--dice", "{tmp}/dice.csv"], "bgrecord[dice]"),
        (["--plot", "{tmp}/plot.html"], "bgrecord[plot]"),
        (["--format", "parquet"], "bgrecord[parquet]"),
        (["--scheduler", "local"], "bgrecord[dask]"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(tmp_path: Path, args: list[str], extra: str) -> None:
    done = run("stats", str(SAMPLES), "-o", str(tmp_path / "games.out"), *(arg.format(tmp=tmp_path) for arg in args))
    assert done.returncode == 2 and extra in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "error" not in done.stdout


def test_an_index_into_duckdb_needs_the_db_extra_only(tmp_path: Path) -> None:
    done = run("index", str(SAMPLES), "-o", str(tmp_path / "archive.duckdb"))
    assert done.returncode == 2 and "bgrecord[db]" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    pytest.importorskip("duckdb", reason="DuckDB needs duckdb (bgrecord[db])")
    done = run("index", str(SAMPLES), "-o", str(tmp_path / "archive.duckdb"), allowed=("duckdb",))
    assert done.returncode == 0, done.stderr


def test_files_that_give_no_games_are_named_counted_and_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "match.mat").write_bytes((SAMPLES / "gnubg-5pt-crawford.mat").read_bytes())
    (folder / "notes.txt").write_text("Notes about the club\nsee you on Tuesday\n")
    (folder / "empty.mat").write_text("")
    done = run("stats", str(folder), "-o", str(tmp_path / "games.csv"))
    assert done.returncode == 1, done.stderr
    assert f"{folder / 'notes.txt'}: warning: no games: " in done.stderr and f"{folder / 'empty.mat'}: warning: no games: the file is empty" in done.stderr
    assert "3 files (2 gave no games), 3 games" in done.stderr
    database = tmp_path / "archive.sqlite"
    done = run("index", str(folder), "-o", str(database))
    assert done.returncode == 1 and "(2 files gave no games: read again next time)" in done.stderr, done.stderr
    import sqlite3

    with sqlite3.connect(database) as connection:
        rows = dict(connection.execute("SELECT file, file_key IS NULL FROM files").fetchall())
        problems = dict(connection.execute("SELECT file, problem FROM files").fetchall())
    assert rows == {str(folder / "match.mat"): 0, str(folder / "notes.txt"): 1, str(folder / "empty.mat"): 1}
    assert problems[str(folder / "empty.mat")] == "no games: the file is empty" and problems[str(folder / "match.mat")] is None
    done = run("index", str(folder), "-o", str(database))
    assert "0 files added, 0 changed, 1 unchanged, 2 read again" in done.stderr, done.stderr


def test_stats_says_how_many_games_are_copies(tmp_path: Path) -> None:
    done = run("stats", str(SAMPLES / "gnubg-5pt-crawford.mat"), str(SAMPLES / "gnubg-5pt-crawford.sgf"), "-o", str(tmp_path / "g.csv"))
    assert done.returncode == 0 and "3 games are copies of others (the same moves and dice): see --dedupe" in done.stderr, done.stderr
    done = run("stats", str(SAMPLES / "gnubg-5pt-crawford.mat"), str(SAMPLES / "gnubg-5pt-crawford.sgf"), "-o", str(tmp_path / "g.csv"),
               "--dedupe", "--overwrite")  # fmt: skip
    assert done.returncode == 0 and "copies" not in done.stderr and "2 files, 3 games" in done.stderr


def test_a_str_is_a_path_and_text_has_its_own_function(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_match(str(tmp_path / "typo.mat"))
    with pytest.raises(FileNotFoundError):
        read_match("typo.mat")
    text = (SAMPLES / "gnubg-5pt-crawford.mat").read_text()
    assert read_match_text(text).games == read_match(SAMPLES / "gnubg-5pt-crawford.mat").games
    one_line = read_match_text(" 3 point match", "note.mat")
    assert one_line.length == 3 and [i.code for i in one_line.issues] == ["no-games"] and one_line.issues[0].path == "note.mat"


def test_the_package_carries_its_type_hints() -> None:
    assert (Path(bgrecord.__file__).parent / "py.typed").is_file()
