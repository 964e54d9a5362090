"""The promises on bad input and on outputs: any bytes in, a clean answer out (no traceback,
exit 0, 1 or 2, a located message); no file a user owns destroyed; each file isolated."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from bgrecord.cli import main
from bgrecord.formats import source
from bgrecord.replay.validate import validate_file

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CLEAN = SAMPLES / "bbgt-two-matches.mat"
OPENING = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"


def invoke(*args: str, input: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.output
    return result


def command(*args: str, stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """``bgrecord`` as a user runs it: no traceback on standard error, whatever happens."""
    done = subprocess.run([sys.executable, "-m", "bgrecord", *args], stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def match(scores: str = "A : 0                      B : 0", length: str = "5", body: str = OPENING) -> str:
    return f" {length} point match\n\n Game 1\n {scores}\n{body}"


# --- 1. numbers beyond what backgammon can mean: a located format error ---

BEYOND = {
    "long-score.mat": match(scores="A : " + "9" * 5000 + "                      B : 0"),
    "long-length.mat": match(length="7" * 5000),
    "superscript-tag.mat": '; [Match Length "²"]\n; [CubeLimit "1²"]\n' + match(length="²"),
    "score-32768.mat": match(scores="A : 32768                      B : 0", length="40000"),
    "long-sgf.sgf": "(;FF[4]GM[6]MI[length:" + "9" * 5000 + "][game:0][ws:0][bs:0]PW[a]PB[b];W[31hefe])",
    "superscript-sgf.sgf": "(;FF[4]GM[6]MI[length:²][game:²]PW[a]PB[b]RE[W+²];W[31hefe])",
    "many-moves.mat": match(body="  1) 31: " + " ".join(["8/5"] * 1000) + "\n"),
    "long-roll.mat": match(body="  1) 31: 8/5" + " 6/5" * 20000 + "\n"),
}


@pytest.mark.parametrize("name", sorted(BEYOND))
def test_numbers_beyond_backgammon_are_located_errors_in_every_command(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, BEYOND[name])
    result = invoke("validate", "--format", "json", str(path))
    assert result.exit_code == 1 and '"internal"' not in result.output
    assert '"line": ' in result.output  # located
    for args in (["replay", str(path), "--format", "jsonl"], ["stats", str(path), "-o", str(tmp_path / "g.csv")],
                 ["convert", str(path), "-o", str(tmp_path / "out" / "x.sgf")]):  # fmt: skip
        assert "internal" not in invoke(*args).output


def test_a_number_beyond_the_match_id_is_a_format_error_at_its_place(tmp_path: Path) -> None:
    report = validate_file(write(tmp_path, "big.mat", match(scores="A : 33000                      B : 0", length="40000")))
    located = [(i.category, i.line, i.column) for i in report.issues if i.severity.value == "error"]
    assert ("format", 1, 2) in located and ("format", 4, 6) in located


def test_counts_beyond_int64_reach_no_table(tmp_path: Path) -> None:
    path = write(tmp_path, "x.mat", match(scores="A : 9223372036854775808                      B : 0"))
    assert invoke("stats", str(path), "-o", str(tmp_path / "g.csv")).exit_code == 0
    assert pd.read_csv(tmp_path / "g.csv")["score1"].max() < 2**15


# --- 2. every regex on input is linear ---


@pytest.mark.parametrize("text", [
    '; [Event "' + " " * 1_000_000 + 'x"]\n 5 point match\n',
    " 5 point match\n\n Game 1\n" + " A" * 500_000 + " : 0\n",
    " 5 point match\n\n Game 1\n A : 0   B : 0\n  1)" + " " * 1_000_000 + "31:\n",
    "(;FF[4]GM[6]" + "C[" + "\\" * 1_000_000 + "]" + ")",
])  # fmt: skip
def test_a_megabyte_of_one_character_reads_in_linear_time(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "x.sgf" if text.startswith("(") else "x.mat", text)
    started = time.perf_counter()
    validate_file(path)
    assert time.perf_counter() - started < 10  # quadratic takes minutes; linear well under a second


# --- 3. one bad file never stops the others ---


@pytest.fixture
def one_file_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Two good files and ``boom.mat``, on which the replay has a bug."""
    from bgrecord.replay import game

    original = game.GameReplayer.run

    def run(self: Any) -> None:
        if (self.match.path or "").endswith("boom.mat"):
            raise ZeroDivisionError("a bug")
        original(self)

    monkeypatch.setattr(game.GameReplayer, "run", run)
    for name in ("a.mat", "boom.mat", "c.mat"):
        write(tmp_path / "in", name, CLEAN.read_text())
    return tmp_path / "in"


def test_an_internal_failure_is_an_issue_on_its_file_and_the_run_goes_on(one_file_fails: Path, tmp_path: Path) -> None:
    result = invoke("validate", "--jobs", "1", str(one_file_fails))
    assert result.exit_code == 2
    assert "boom.mat: error[internal]" in result.output and "ZeroDivisionError: a bug" in result.output
    assert "3 files" in result.output
    stats = invoke("stats", "--jobs", "1", str(one_file_fails), "-o", str(tmp_path / "g.csv"))
    assert stats.exit_code == 2 and "boom.mat" in stats.output
    assert set(pd.read_csv(tmp_path / "g.csv")["file"].map(lambda f: Path(f).name)) == {"a.mat", "c.mat"}
    replayed = invoke("replay", str(one_file_fails / "a.mat"), str(one_file_fails / "boom.mat"), str(one_file_fails / "c.mat"), "--format", "jsonl")
    assert replayed.exit_code == 2 and '"path": "' + str(one_file_fails / "c.mat") in replayed.output
    converted = invoke("convert", str(one_file_fails), "-o", str(tmp_path / "out"), "--to", "sgf")
    assert converted.exit_code == 2 and "2 written, 0 refused, 1 failed" in converted.output
    assert f"{one_file_fails / 'boom.mat'}: bgrecord failed on this file" in converted.output


def test_a_named_file_that_cannot_be_read_is_skipped_like_one_in_a_folder(tmp_path: Path) -> None:
    result = invoke("validate", str(tmp_path / "missing.mat"), str(CLEAN))
    assert result.exit_code == 2 and "missing.mat: no such file or folder" in result.output and "1 file, 2 games" in result.output


# --- 4. convert never destroys a file ---


def test_convert_never_writes_over_its_input_nor_an_output_unasked(tmp_path: Path) -> None:
    source = write(tmp_path, "x.sgf", (SAMPLES / "gibbon-beaver-setup.sgf").read_text())
    before = source.read_bytes()
    result = invoke("convert", str(source), "-o", str(source))
    assert result.exit_code == 2 and "never writes over an input" in result.output and source.read_bytes() == before
    target = write(tmp_path, "x.mat", "mine\n")
    result = invoke("convert", str(source), "-o", str(target))
    assert result.exit_code == 2 and "--overwrite" in result.output and target.read_text() == "mine\n"
    assert invoke("convert", str(source), "-o", str(target), "--overwrite").exit_code == 0
    assert target.read_text().startswith(" 0 point match") or "point match" in target.read_text()


def test_an_output_is_refused_whatever_name_or_link_says_it_is_an_input(tmp_path: Path) -> None:
    """An output is checked against every input by what the names are on the disk (the same
    file, a link to it, a folder holding it), and a name of no file is never one of them."""
    from bgrecord.outputs import OutputError, check_target

    source = write(tmp_path / "in", "x.mat", CLEAN.read_text())
    (tmp_path / "link.mat").symlink_to(source)
    (tmp_path / "folder").symlink_to(tmp_path / "in")
    inputs = [str(tmp_path / "other.mat"), str(source)]
    for name, folder in ((tmp_path / "link.mat", False), (tmp_path / "in" / ".." / "in" / "x.mat", False), (tmp_path / "folder", True)):
        with pytest.raises(OutputError, match="never writes over an input"):
            check_target(name, inputs, overwrite=True, folder=folder)
    check_target(tmp_path / "new.mat", inputs)  # names no file: none of the inputs
    check_target(tmp_path / "new", inputs, folder=True)
    check_target(tmp_path / "in-", [str(tmp_path / "in-other" / "x.mat")], folder=True)  # a folder whose name begins another's is not it


def test_convert_mirrors_folders_so_same_names_stay_apart(tmp_path: Path) -> None:
    for folder in ("2019/a", "2020/a", "2020/b"):
        write(tmp_path / "in", f"{folder}/final.mat", CLEAN.read_text())
    write(tmp_path / "in", "notes.txt", "not a match\n")
    result = invoke("convert", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--to", "sgf")
    written = sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*.sgf"))
    assert written == ["2019/a/final.sgf", "2020/a/final.sgf", "2020/b/final.sgf"]
    assert result.output.rstrip().endswith("3 written, 0 refused, 1 not converted (errors)") and result.exit_code == 1
    again = invoke("convert", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--to", "sgf")
    assert again.exit_code == 2 and "0 written, 3 refused, 1 not converted" in again.output


# --- 5 and 6. outputs: whole or not at all, and faults in one line ---


def test_an_interrupted_table_leaves_the_old_output_and_no_partial_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bgrecord.tables import export

    out = write(tmp_path, "games.csv", "old,table\n")
    original = export.TableWriter.write

    def interrupted(self: Any, data: Any) -> None:
        original(self, data)  # the rows are in the temporary file, then the user presses Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(export.TableWriter, "write", interrupted)
    result = CliRunner().invoke(main, ["stats", "--jobs", "1", str(SAMPLES), "-o", str(out), "--overwrite"])
    assert result.exit_code != 0
    assert out.read_text() == "old,table\n" and sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]


@pytest.mark.parametrize("args", [
    ["replay", str(CLEAN), "-o", "{missing}/x.txt"],
    ["convert", str(CLEAN), "-o", "{missing}/x.sgf"],
    ["stats", str(CLEAN), "-o", "{missing}/g.csv"],
])  # fmt: skip
def test_a_missing_output_folder_is_one_line_naming_it(tmp_path: Path, args: list[str]) -> None:
    args = [a.replace("{missing}", str(tmp_path / "no" / "such")) for a in args]
    result = invoke(*args)
    assert result.exit_code == 2 and str(tmp_path / "no" / "such") in result.output


def test_a_read_only_folder_is_one_line(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.access(locked, os.W_OK):
        pytest.skip("running as root: a read-only folder is writable")
    for args in (["convert", str(CLEAN), "-o", str(locked / "x.sgf")], ["replay", str(CLEAN), "-o", str(locked / "x.txt")]):
        done = command(*args)
        assert done.returncode == 2 and "cannot write" in done.stderr and len(done.stderr.splitlines()) <= 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_or_a_closed_pipe_is_no_traceback() -> None:
    with open("/dev/full", "w") as full:
        done = command("validate", str(SAMPLES), stdout=full)
    assert done.returncode == 2 and done.stderr.strip() == "bgrecord: cannot write to standard output: No space left on device"
    done = command("replay", str(SAMPLES / "xg-tags-bom-crlf.mat"), "-o", "/dev/full")
    assert done.returncode == 2 and "No space left on device" in done.stderr
    # the samples' steps, some 440 KB: more than a pipe holds, so bgrecord is still writing when the
    # reader stops (one file's 9 KB could all be in the pipe, and the run ended, before it did)
    reader = subprocess.Popen([sys.executable, "-m", "bgrecord", "replay", str(SAMPLES), "--format", "jsonl"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.read(100)
    reader.stdout.close()  # the reader of the pipe stops, as `| head` does
    assert reader.wait(60) == 141 and reader.stderr.read() == b""


# --- 7. standard input, pipes, FIFOs ---


def test_dash_is_standard_input_for_every_command_that_reads(tmp_path: Path) -> None:
    text = CLEAN.read_text()
    assert "1 file, 2 games: 0 errors" in invoke("validate", "-", input=text).output
    assert "mat (utf-8), 1 point match" in invoke("read", "-", input=text).output
    assert '"ogid"' in invoke("replay", "-", "--format", "jsonl", input=text).output
    assert invoke("stats", "-", "-o", str(tmp_path / "g.csv"), input=text).exit_code == 0
    assert len(pd.read_csv(tmp_path / "g.csv")) == 2
    assert invoke("convert", "-", "--to", "sgf", "-o", "-", input=text).output.startswith("(;")


def test_a_process_substitution_and_a_fifo_are_read_as_files(tmp_path: Path) -> None:
    if sys.platform == "win32":
        pytest.skip("no FIFOs on Windows")
    done = subprocess.run(["bash", "-c", f'"{sys.executable}" -m bgrecord validate <(cat "{CLEAN}")'], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "1 file, 2 games: 0 errors" in done.stdout, done.stdout + done.stderr
    fifo = tmp_path / "fifo.mat"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["bash", "-c", f'cat "{CLEAN}" > "{fifo}"'])
    done = command("validate", str(fifo))
    writer.wait(30)
    assert done.returncode == 0 and "1 file, 2 games: 0 errors" in done.stdout


# --- 8. bad input that deserves one line ---


def test_binary_text_encodings_unsupported_formats_and_empty_folders(tmp_path: Path) -> None:
    program = tmp_path / "x.mat"
    program.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 40)
    result = invoke("validate", str(program))
    assert result.exit_code == 1 and result.output.count("error[") == 1 and "executable" in result.output
    for encoding in ("utf-16", "utf-32"):
        wide = tmp_path / f"{encoding}.mat"
        wide.write_bytes(CLEAN.read_text().encode(encoding))
        assert "1 file, 2 games: 0 errors" in invoke("validate", str(wide)).output
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes(b"%PDF-1.4\n" + b"\x00" * 100)
    assert "PDF" in invoke("read", str(pdf)).output
    (tmp_path / "empty").mkdir()
    write(tmp_path, "nothing/readme.md", "# notes\n")
    for folder in ("empty", "nothing"):
        result = invoke("validate", str(tmp_path / folder))
        assert result.exit_code == 1 and "no match file in this folder" in result.output


# --- 9. options ---


@pytest.mark.parametrize("rules, allowed", [
    ("jacoby=maybe", "on or off"), ("cube-limit=abc", "power of two"), ("cube-limit=3", "power of two"),
    ("automatic-doubles=99", "from 0 to 15"), ("nonsense", "money"),
])  # fmt: skip
def test_bad_rules_are_usage_errors_naming_the_allowed_values(rules: str, allowed: str) -> None:
    result = invoke("validate", "--rules", rules, str(CLEAN))
    assert result.exit_code == 2 and "Invalid value for '--rules'" in result.output and allowed in result.output


def test_the_table_format_follows_the_extension_and_plot_is_checked_first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    assert invoke("stats", str(CLEAN), "-o", str(tmp_path / "g.parquet")).exit_code == 0
    assert len(pd.read_parquet(tmp_path / "g.parquet")) == 2
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    result = invoke("stats", str(CLEAN), "-o", str(tmp_path / "h.csv"), "--plot", str(tmp_path / "r.png"))
    assert result.exit_code == 2 and "matplotlib" in result.output and not (tmp_path / "h.csv").exists()


def test_quiet_prints_only_errors() -> None:
    assert invoke("validate", "--quiet", str(SAMPLES)).output == ""
    broken = invoke("validate", "--quiet", "-", input=match(body="  1) 31: 8/5 6/x5\n"))
    assert broken.exit_code == 1 and broken.output.count("\n") == 1 and "error[unreadable]" in broken.output


# --- 10. untrusted names in outputs ---


def test_names_that_look_like_formulas_or_markup_stay_text(tmp_path: Path) -> None:
    hostile = write(tmp_path, "x.mat", match(scores="=HYPERLINK(1) : 0                      <!--<script> : 0", length="1"))
    invoke("stats", str(hostile), "-o", str(tmp_path / "g.csv"), "--players", str(tmp_path / "p.csv"))
    assert "'=HYPERLINK(1)" in (tmp_path / "g.csv").read_text() and "'=HYPERLINK(1)" in (tmp_path / "p.csv").read_text()
    invoke("replay", str(hostile), "--format", "html", "-o", str(tmp_path / "r.html"))
    page = (tmp_path / "r.html").read_text()
    data = page[page.index("id='steps'>") : page.index("</script>")]  # the steps as JSON, up to the first end of a script
    assert "<" not in data and "\\u003c!--\\u003cscript>" in data


# --- 11. memory flat in the size of the file ---


def _peak(games: int, tmp_path: Path) -> int:
    body = "".join(f"\n Game {n}\n A : 0                      B : 0\n{OPENING}      Wins 1 point\n" for n in range(1, games + 1))
    path = write(tmp_path, f"{games}.mat", " 0 point match\n" + body)
    tracemalloc.start()
    validate_file(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_validate_memory_is_bounded_by_a_match_not_by_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(source, "BLOCK", 64 * 1024)  # blocks small enough for files of a test's size
    small, large = _peak(2_000, tmp_path), _peak(8_000, tmp_path)
    assert large < 2 * small  # four times the games, not four times the memory
