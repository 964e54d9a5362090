"""Converting a file: read it, replay it, and write it in another format (or the same one,
cleaned up): ``.mat`` in GNU Backgammon's layout, SGF, JSON, or OGXM (one ``.ogxm`` match,
or an ``.ogxms`` stream of every match).

:func:`convert_file` never writes over its input, refuses an output that exists unless told
to overwrite it, and writes through a temporary file renamed into place
(:mod:`bgrecord.outputs`). A failure of bgrecord itself on one file is reported on that
file (:func:`bgrecord.validate.guarded`), never raised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bgrecord.issues import Issue, Severity
from bgrecord.outputs import OutputError, check_target, write_output
from bgrecord.position import Variant
from bgrecord.reader import iter_matches
from bgrecord.replay import replay
from bgrecord.rules import rules_for
from bgrecord.source import Input
from bgrecord.validate import guarded
from bgrecord.writers import CannotWrite, write_json, write_mat, write_sgf

TARGETS = {"mat": ".mat", "sgf": ".sgf", "json": ".json", "ogxm": ".ogxm", "ogxms": ".ogxms"}


class ConversionRefused(ValueError):
    """A record the target format cannot hold (the message says why)."""


@dataclass(slots=True)
class Conversion:
    """What became of one file: ``written``, ``refused`` (an output that exists, or an
    input), ``errors`` (not written: the record has errors, and no --force), ``failed``
    (could not be read or written)."""

    source: str
    destination: str
    status: str = "written"
    message: str = ""
    errors: list[Issue] = field(default_factory=list)
    members: list[bytes] = field(default_factory=list)  # OGXM matches, for a stream the caller writes


def converted(source: str | Path | Input, target: str, rules: str | None = None) -> tuple[str | bytes | list[bytes], list[Issue]]:
    """The converted content of ``source`` (text; bytes for one OGXM match; a list of OGXM
    matches for a stream) and the errors found. Raises :class:`ConversionRefused` when the
    target cannot hold the record."""
    pieces: list[str] = []
    members: list[bytes] = []
    errors: list[Issue] = []
    for match in iter_matches(source):
        ruleset = rules_for(match, rules)
        games = list(replay(match, ruleset))
        errors += [i for i in match.all_issues() if i.severity is Severity.ERROR]
        errors += [i for g in games for i in g.issues if i.severity is Severity.ERROR]
        if target == "mat":
            try:
                pieces.append(write_mat(match, games))
            except CannotWrite as exc:
                raise ConversionRefused(str(exc)) from None
        elif target == "sgf":
            pieces.append(write_sgf(match, games, ruleset.crawford, ruleset.jacoby, ruleset.variant is Variant.NACKGAMMON))
        elif target == "json":
            pieces.append(write_json(match, games, ruleset.jacoby))
        elif match.games:
            from bgrecord.formats.ogxm_writer import OgxmWriteError, write_ogxm

            try:
                members.append(write_ogxm(match, games))
            except OgxmWriteError as exc:
                raise ConversionRefused(str(exc)) from None
    if target == "ogxms":
        return members, errors
    if target == "ogxm":
        if len(members) != 1:
            raise ConversionRefused(f"the file holds {len(members)} matches: write it as an .ogxms stream")
        return members[0], errors
    text = "\n".join(pieces) if target != "json" or len(pieces) == 1 else "[" + ",".join(pieces) + "]\n"
    return text, errors


def convert_file(source: str, destination: str, target: str, rules: str | None = None, force: bool = False,
                 overwrite: bool = False, inputs: tuple[str, ...] = ()) -> Conversion:
    """Convert ``source`` into ``destination`` (``-``: standard output), unless the record has
    errors (then only with ``force``); ``inputs``: every input of the run, never written over.
    For the ``ogxms`` target nothing is written: the matches come back in ``members``."""
    result = Conversion(source, destination)
    if target != "ogxms":
        try:
            check_target(destination, inputs or (source,), overwrite)
        except OutputError as exc:
            result.status, result.message = "refused", str(exc)
            return result

    def work() -> Conversion:
        try:
            content, errors = converted(Input.stdin() if source == "-" else Path(source), target, rules)
        except ConversionRefused as exc:
            result.status, result.message = "refused", f"{source}: {exc}"
            return result
        result.errors = errors
        if errors and not force:
            result.status = "errors"
            return result
        if isinstance(content, list):
            result.members = content
        else:
            write_output(destination, content)
        return result

    def failed(issue: Issue) -> Conversion:
        result.status, result.message = "failed", f"{source}: {issue.message}"
        return result

    try:
        return guarded(source, work, failed)
    except OutputError as exc:
        result.status, result.message = "failed", f"{source} -> {exc}"
    except OSError as exc:
        result.status, result.message = "failed", f"{source}: cannot read: {exc.strerror or exc}"
    return result


def convert_pair(pair: tuple[str, str], target: str, rules: str | None, force: bool, overwrite: bool, inputs: tuple[str, ...]) -> Conversion:
    """:func:`convert_file` of (source, destination): the unit of work of ``convert --jobs``."""
    return convert_file(pair[0], pair[1], target, rules, force, overwrite, inputs)
