"""Validation of whole files: what the reader could not read and what the replay found wrong.

``validate_file(path)`` reads every match of a file, replays each game and returns a
:class:`FileReport`: the number of games and every issue, in file order. It is what
``bgrecord validate`` runs, in worker processes when asked (reports come back in the order
of the files, so the output does not depend on the number of workers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgrecord.issues import Issue, Severity
from bgrecord.reader import iter_matches
from bgrecord.replay import replay
from bgrecord.rules import rules_for


@dataclass(slots=True)
class FileReport:
    path: str
    games: int = 0
    issues: list[Issue] = field(default_factory=list)
    failure: str | None = None  # the file could not be read at all (I/O)

    def count(self, severity: Severity) -> int:
        return sum(issue.severity is severity for issue in self.issues)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "games": self.games,
            "issues": [issue.to_json() for issue in self.issues],
        }


def validate_file(path: str | Path, rules: str | None = None) -> FileReport:
    """Read and replay every match of ``path``; ``rules`` as for ``--rules``."""
    report = FileReport(str(path))
    try:
        matches = iter_matches(path)
        for match in matches:
            report.issues.extend(match.all_issues())
            for game in replay(match, rules_for(match, rules), steps=False):
                report.games += 1
                report.issues.extend(game.issues)
    except OSError as exc:
        report.failure = f"cannot read: {exc.strerror or exc}"
    report.issues.sort(key=lambda issue: (issue.line or 0, issue.column or 0))
    return report
