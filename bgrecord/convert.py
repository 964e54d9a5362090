"""Converting a file: read it, replay it, and write it in another format (or the same one,
cleaned up)."""

from __future__ import annotations

from pathlib import Path

from bgrecord.issues import Issue, Severity
from bgrecord.reader import iter_matches
from bgrecord.replay import replay
from bgrecord.rules import rules_for
from bgrecord.writers import write_json, write_mat, write_sgf


def convert_file(source: str | Path, destination: str | Path, target: str, rules: str | None = None, force: bool = False) -> list[Issue]:
    """Write ``source`` as ``target`` (mat, sgf or json) to ``destination``; the errors found.
    Nothing is written when there are errors, unless ``force``."""
    pieces: list[str] = []
    errors: list[Issue] = []
    for match in iter_matches(source):
        ruleset = rules_for(match, rules)
        games = list(replay(match, ruleset))
        errors += [i for i in match.all_issues() if i.severity is Severity.ERROR]
        errors += [i for g in games for i in g.issues if i.severity is Severity.ERROR]
        if target == "mat":
            pieces.append(write_mat(match, games))
        elif target == "sgf":
            pieces.append(write_sgf(match, games, ruleset.crawford, ruleset.jacoby))
        else:
            pieces.append(write_json(match, games, ruleset.jacoby))
    if errors and not force:
        return errors
    text = "\n".join(pieces) if target != "json" or len(pieces) == 1 else "[" + ",".join(pieces) + "]\n"
    Path(destination).write_text(text, encoding="utf-8")
    return errors
