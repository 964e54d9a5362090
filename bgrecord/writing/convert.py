"""Converting a file: read it, replay it, and write it in another format (or the same one,
cleaned up): ``.mat`` in GNU Backgammon's layout, SGF, JSON, or OGXM (one ``.ogxm`` match,
or an ``.ogxms`` stream of every match).

The conversion streams: each game is written as soon as it is replayed, and memory holds a
game at a time, however many the file holds (an OGXM match is held whole: the codec takes a
match). :func:`convert_file` never writes over its input, refuses an output that exists
unless told to overwrite it, and writes through a temporary file renamed into place
(:mod:`bgrecord.outputs`), kept only when the conversion is to stand: a file with errors
without ``force``, or with no game at all, leaves nothing. A failure of bgrecord itself on
one file is reported on that file (:func:`bgrecord.replay.validate.guarded`), never raised.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator

from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.limits import MAX_ISSUES
from bgrecord.formats.records import MatchRecord
from bgrecord.formats.source import Input
from bgrecord.outputs import OutputError, atomic_output, check_target
from bgrecord.replay import GameReplay
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import guarded, replayed
from bgrecord.writing.writers import CannotWrite, json_pieces, mat_lines, sgf_trees

TARGETS = {"mat": ".mat", "sgf": ".sgf", "json": ".json", "ogxm": ".ogxm", "ogxms": ".ogxms"}


class ConversionRefused(ValueError):
    """A record the target format cannot hold (the message says why)."""


class NotConverted(Exception):
    """The conversion is not to stand (errors without ``force``, or nothing read): what was
    written goes."""


@dataclass(slots=True)
class Conversion:
    """What became of one file: ``written``, ``refused`` (an output that exists, or an
    input), ``errors`` (not written: the record has errors, and no --force; or no game could
    be read, with ``message`` saying why), ``failed`` (could not be read or written)."""

    source: str
    destination: str
    status: str = "written"
    message: str = ""
    errors: list[Issue] = field(default_factory=list)  # the first MAX_ISSUES
    more_errors: int = 0  # errors beyond them
    games: int = 0
    members: list[bytes] = field(default_factory=list)  # OGXM matches, for a stream the caller writes

    def error(self, issue: Issue) -> None:
        if len(self.errors) < MAX_ISSUES:
            self.errors.append(issue)
        else:
            self.more_errors += 1


def _by_match(source: Input | str | Path, rules: str | None, found: Conversion) -> Iterator[tuple[MatchRecord, Iterator[GameReplay]]]:
    """Each match with its replayed games, as they are replayed (each game's errors in
    ``found``; a match's own once its games are done)."""
    stream = replayed(source, rules, steps=True)
    item = next(stream, None)
    while item is not None:
        match = item[0]

        def games() -> Iterator[GameReplay]:
            nonlocal item
            while item is not None and item[0] is match:
                out = item[2]
                if out is not None:
                    found.games += 1
                    for issue in (*out.game.issues, *out.issues):
                        if issue.severity is Severity.ERROR:
                            found.error(issue)
                    yield out
                item = next(stream, None)

        each = games()
        yield match, each
        for _ in each:  # what the writer did not take
            pass
        for issue in match.issues:
            if issue.severity is Severity.ERROR:
                found.error(issue)


def write_converted(source: Input | str | Path, target: str, out: IO[Any], rules: str | None = None, found: Conversion | None = None) -> Conversion:
    """The conversion of ``source`` written into ``out`` (text; bytes for ``ogxm``) as it is
    replayed; for ``ogxms`` the matches come back in ``members``. Raises
    :class:`ConversionRefused` when the target cannot hold the record."""
    found = found if found is not None else Conversion(str(getattr(source, "name", source)), "")
    held: IO[str] | None = None  # JSON: the first match's document, until a second says it is a list
    documents = 0
    for number, (match, games) in enumerate(_by_match(source, rules, found)):
        ruleset = rules_for(match, rules)
        if target in ("mat", "sgf"):
            if number:
                out.write("\n")
            if target == "mat":
                try:
                    _joined(out, mat_lines(match, games, ruleset))
                except CannotWrite as exc:
                    raise ConversionRefused(str(exc)) from None
            else:
                for tree in sgf_trees(match, games, ruleset):
                    out.write(tree + "\n")
        elif target == "json":
            documents += 1
            if documents == 1:
                held = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8", errors="surrogatepass")
                into: IO[str] = held
            else:
                if held is not None:
                    out.write("[")
                    _copy(held, out)
                    held = None
                out.write(",")
                into = out
            for piece in json_pieces(match, games, ruleset):
                into.write(piece)
        else:
            from bgrecord.writing.ogxm import OgxmWriteError, write_ogxm

            first = next(games, None)
            if first is not None:
                if target == "ogxm" and found.members:  # refused now: encoding the other matches first was most of the work
                    raise ConversionRefused("the file holds more than one match: write it as an .ogxms stream")
                try:
                    found.members.append(write_ogxm(match, _chained(first, games), ruleset))
                except OgxmWriteError as exc:
                    raise ConversionRefused(str(exc)) from None
    if held is not None:
        _copy(held, out)
    elif documents > 1:
        out.write("]\n")
    if target == "ogxm":
        if not found.members:
            raise ConversionRefused("the file holds no match to write")
        out.write(found.members.pop())
    return found


def _joined(out: IO[str], lines: Iterator[str]) -> None:
    """``"\\n".join(lines)``, written as the lines come."""
    previous: str | None = None
    for line in lines:
        if previous is not None:
            out.write(previous + "\n")
        previous = line
    if previous:
        out.write(previous)


def _copy(held: IO[str], out: IO[Any]) -> None:
    held.seek(0)
    shutil.copyfileobj(held, out)
    held.close()


def _chained(first: GameReplay, rest: Iterator[GameReplay]) -> Iterator[GameReplay]:
    yield first
    yield from rest


def converted(source: str | Path | Input, target: str, rules: str | None = None) -> tuple[str | bytes | list[bytes], list[Issue]]:
    """The converted content of ``source`` (text; bytes for one OGXM match; a list of OGXM
    matches for a stream) and the errors found. Raises :class:`ConversionRefused` when the
    target cannot hold the record."""
    out: io.BytesIO | io.StringIO = io.BytesIO() if target == "ogxm" else io.StringIO()
    found = write_converted(source, target, out, rules)
    if target == "ogxms":
        return found.members, found.errors
    return out.getvalue(), found.errors


def convert_file(source: str, destination: str, target: str, rules: str | None = None, force: bool = False,
                 overwrite: bool = False, inputs: tuple[str, ...] = ()) -> Conversion:
    """Convert ``source`` into ``destination`` (``-``: standard output), unless the record has
    errors (then only with ``force``) or holds no game (then never); ``inputs``: every input
    of the run, never written over. For the ``ogxms`` target nothing is written: the matches
    come back in ``members``."""
    result = Conversion(source, destination)
    if target != "ogxms":
        try:
            check_target(destination, inputs or (source,), overwrite)
        except OutputError as exc:
            result.status, result.message = "refused", str(exc)
            return result
    reading = Input.stdin() if source == "-" else Input.named(source)

    def judged() -> None:
        """Raise :class:`NotConverted` when the conversion is not to stand."""
        if not result.games and result.errors:  # nothing read: even --force has nothing to write
            result.status = "errors"
            result.message = f"{source}: not converted (no game to convert: {result.errors[0].message})"
            raise NotConverted
        if result.errors and not force:
            result.status = "errors"
            raise NotConverted

    def work() -> Conversion:
        try:
            if target == "ogxms":
                write_converted(reading, target, io.BytesIO(), rules, result)
                judged()
                return result
            with atomic_output(destination, binary=target == "ogxm", hold=True) as out:
                write_converted(reading, target, out, rules, result)
                judged()
        except ConversionRefused as exc:
            result.status, result.message = "refused", f"{source}: {exc}"
            result.members = []
        except NotConverted:
            result.members = []
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


def failed_conversion(pair: tuple[str, str], exc: BaseException) -> Conversion:
    """What :func:`convert_pair` gives for a file whose work failed outside it (a worker that died)."""
    from bgrecord.replay.validate import internal_issue

    return Conversion(pair[0], pair[1], "failed", f"{pair[0]}: {internal_issue(pair[0], exc).message}")


def convert_pair(pair: tuple[str, str], target: str, rules: str | None, force: bool, overwrite: bool, inputs: tuple[str, ...]) -> Conversion:
    """:func:`convert_file` of (source, destination): the unit of work of ``convert --jobs``."""
    return convert_file(pair[0], pair[1], target, rules, force, overwrite, inputs)
