"""The labelled archive (../shared/corpus/real-archives): real files from many producers, every
error bgrecord ever reported there labelled true (a defect of the record), false (a convention of
its producer) or repeat (a consequence of an error already told), and the defects any careful
validator must report (must-find.tsv). Every error must stand at a place labelled true, and every
must-find place must be told (an error or a warning within one line of it). Relabelling a row
needs a reason in the commit that does it."""

from __future__ import annotations

from conftest import ARCHIVE, archive_labels

from bgrecord.formats.issues import Severity
from bgrecord.formats.reader import match_files
from bgrecord.replay.validate import validate_file

TOLD = (Severity.ERROR, Severity.WARNING)


def test_every_error_is_a_labelled_defect_and_every_defect_is_told() -> None:
    labels, must = archive_labels()
    errors: list[tuple[str, int, str, str]] = []
    told: dict[str, list[int]] = {}
    files = match_files([ARCHIVE])
    assert len(files) > 400
    for path in files:
        name = path.relative_to(ARCHIVE).as_posix()
        report = validate_file(path)
        assert report.failure is None and not report.internal, (name, report.issues)
        for issue in report.issues:
            if issue.severity in TOLD:
                told.setdefault(name, []).append(issue.line or 0)
            if issue.severity is Severity.ERROR:
                errors.append((name, issue.line or 0, issue.code, issue.message))
    false = [error for error in errors if "true" not in labels.get(error[:2], set())]
    missed = [row for row in must if not any(abs(line - row[1]) <= 1 for line in told.get(row[0], []))]
    true = len(errors) - len(false)
    summary = f"{len(errors)} errors, {true} true (precision {true / max(len(errors), 1):.3f}), {len(missed)} of {len(must)} defects missed"
    assert not false and not missed, "\n".join([summary, *(f"not a defect: {e}" for e in false), *(f"missed: {m}" for m in missed)])
    # the defects told by an error, not only a warning (73 of 78: five typo'd score lines are told as
    # warnings beside the error of their root)
    by_error = [row for row in must if any(name == row[0] and abs(line - row[1]) <= 1 for name, line, _, _ in errors)]
    assert len(must) > 70 and len(by_error) >= len(must) - 5, [row for row in must if row not in by_error]
