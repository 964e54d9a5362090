"""Conversions keep the match (issue 22): every record that validates clean, converted to each
format bgrecord writes and read back, validates clean and has the same match keys.

    python benchmarks/conversions.py [FOLDER ...]

Counts, per target: kept (clean, the same keys), refused (what the target cannot hold: the
reasons are printed, grouped), changed (another key) and errors (the conversion does not
validate clean, or bgrecord failed). Not a speed figure: an acceptance count, measured on a
corpus the tests do not hold (by default ../shared/corpus and the samples).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bgrecord.formats.issues import Severity
from bgrecord.formats.reader import match_files
from bgrecord.formats.source import Input
from bgrecord.replay.validate import validate_file
from bgrecord.tables.stats import game_rows
from bgrecord.writing.convert import ConversionRefused, converted
from bgrecord.writing.ogxm import write_stream

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT.parent / "shared" / "corpus", ROOT / "samples"]
TARGETS = ("mat", "sgf", "json", "ogxm")


def keys(source: Path | Input) -> list[str | None]:
    return [key for _, key in sorted({(row["match"], row["match_key"]) for row in game_rows(source)})]


def one(path: Path) -> tuple[str, list[tuple[str, str, str]]] | None:
    """(path, [(target, outcome, detail)]) for a clean record, None for the others."""
    report = validate_file(path)
    if report.failure or report.internal or report.count(Severity.ERROR) or not report.games:
        return None
    before = keys(path)
    found = []
    for target in TARGETS:
        try:
            content, _ = converted(path, "ogxms" if target == "ogxm" else target)
        except ConversionRefused as exc:
            found.append((target, "refused", re.sub(r"[0-9]+", "N", str(exc).split(": ", 1)[-1] if "game" in str(exc)[:8] else str(exc))))
            continue
        data = write_stream(content) if isinstance(content, list) else content if isinstance(content, bytes) else content.encode()
        again = Input(f"{path.name}.{target}", data=data)
        checked = validate_file(again)
        if checked.failure or checked.count(Severity.ERROR):
            found.append((target, "errors", next((str(i) for i in checked.issues if i.severity is Severity.ERROR), checked.failure or "")))
        elif keys(again) != before:
            found.append((target, "changed", ""))
        else:
            found.append((target, "kept", ""))
    return str(path), found


def main() -> None:
    folders = [Path(name) for name in sys.argv[1:]] or [folder for folder in DEFAULT if folder.exists()]
    files = [path for path in match_files(folders) if path.suffix != ".json"]
    counts: Counter[tuple[str, str]] = Counter()
    reasons: Counter[tuple[str, str]] = Counter()
    clean = 0
    with ProcessPoolExecutor() as pool:
        for result in pool.map(one, files, chunksize=4):
            if result is None:
                continue
            clean += 1
            path, found = result
            for target, outcome, detail in found:
                counts[target, outcome] += 1
                if outcome == "refused":
                    reasons[target, detail] += 1
                elif outcome != "kept":
                    print(f"{path}: {target}: {outcome} {detail}")
    print(f"{len(files):,} files, {clean:,} that validate clean")
    for target in TARGETS:
        outcomes = ", ".join(f"{counts[target, outcome]:,} {outcome}" for outcome in ("kept", "refused", "changed", "errors"))
        print(f"  {target:5} {outcomes}")
    for (target, reason), count in sorted(reasons.items()):
        print(f"  {target} refused {count:,}x: {reason}")


if __name__ == "__main__":
    main()
