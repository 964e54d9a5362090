"""Shared test helpers: where the third-party corpus and GNU Backgammon are, if anywhere."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
CORPUS = ROOT.parent / "shared" / "corpus"
TOOLS = ROOT.parent / "shared" / "tools"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")


def launch_chromium(driver: Any) -> Any:
    """Headless Chromium from a playwright driver, Debian's own (no browser downloaded), quiet
    (no network of its own)."""
    return driver.chromium.launch(executable_path=CHROMIUM, args=[
        "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"])  # fmt: skip


def oracle_matches() -> Iterator[dict[str, Any]]:
    """GNU Backgammon's reading of the self-play corpus, one match at a time."""
    path = CORPUS / "gnubg-selfplay" / "oracle.jsonl"
    if not path.exists():
        pytest.skip(f"corpus absent: {path}")
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def gnubg_reading(files: list[Path], tmp: Path) -> list[dict[str, Any]]:
    """GNU Backgammon's reading of ``files`` (shared/tools/oracle.sh), one dict per file."""
    out = tmp / "oracle.jsonl"
    subprocess.run(["bash", str(TOOLS / "oracle.sh"), str(out), *map(str, files)], check=True, timeout=600)
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.fixture(scope="session")
def gnubg() -> str:
    if GNUBG is None:
        pytest.skip("GNU Backgammon (Debian package gnubg) is not installed")
    return GNUBG


ARCHIVE = CORPUS / "real-archives"


def archive_labels() -> tuple[dict[tuple[str, int], set[str]], list[tuple[str, int, str]]]:
    """The labelled archive's verdicts: labels.tsv as {(path, line): labels} (true, false,
    repeat), and must-find.tsv as (path, line, code) rows; paths are relative to ARCHIVE."""
    if not (ARCHIVE / "labels.tsv").exists():
        pytest.skip(f"corpus absent: {ARCHIVE}")
    labels: dict[tuple[str, int], set[str]] = {}
    with (ARCHIVE / "labels.tsv").open(encoding="utf-8", newline="") as rows:
        for row in csv.DictReader(rows, delimiter="\t"):
            labels.setdefault((row["path"], int(row["line"])), set()).add(row["label"])
    with (ARCHIVE / "must-find.tsv").open(encoding="utf-8", newline="") as rows:
        must = [(row["path"], int(row["line"]), row["code"]) for row in csv.DictReader(rows, delimiter="\t")]
    return labels, must
