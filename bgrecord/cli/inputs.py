"""The files a command reads: the paths given, folders walked for match files as the work asks
for them (:class:`Found`), each file once; and what was named but holds nothing to read
(:class:`Inputs`: said on stderr, and the exit status). It does not read the files: a pipe
or a device named is read once here, so that every step of a command reads the same bytes."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, Iterable, Iterator

import click

from bgrecord.escapes import one_line

STDIN = "-"


class Found:
    """The files of the paths given, found anew each time they are iterated: files as named,
    folders walked for match files (:func:`~bgrecord.formats.reader.walk_match_files`), ``-``
    for standard input (once), each file once (as named first). Only the folders being listed
    are held, never the files: an archive of any size is gone through in flat memory. What
    cannot be read, and the folders with no match file, are those of the last pass."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = list(paths)
        self.stdin = STDIN in self.paths
        self.count = 0  # files found by the last whole pass
        self.missing: list[str] = []  # paths that cannot be read (exit 2)
        self.empty: list[str] = []  # folders with no match file (exit 1)

    def __iter__(self) -> Iterator[str]:
        from bgrecord.formats.reader import walk_match_files

        self.missing, self.empty, count = [], [], 0
        named: set[str] = set()  # the files named (few): a folder's walk passes over them
        walked: list[str] = []  # the folders walked so far, spelled as their files are

        def unlisted(error: OSError) -> None:
            self.missing.append(f"{error.filename}: cannot read this folder: {error.strerror or error}")

        for name in self.paths:
            if name == STDIN:
                if STDIN not in named:
                    named.add(STDIN)
                    count += 1
                    yield STDIN
                continue
            try:
                mode = os.stat(name).st_mode
            except (FileNotFoundError, NotADirectoryError):
                self.missing.append(f"{name}: no such file or folder")
                continue
            except OSError as exc:
                self.missing.append(f"{name}: cannot read: {exc.strerror or exc}")
                continue
            if not stat.S_ISDIR(mode):
                if name in named or any(_walked_to(name, folder) for folder in walked):
                    continue
                named.add(name)
                problem = _unreadable(name, stat.S_ISREG(mode))
                if problem:
                    self.missing.append(f"{name}: cannot read: {problem}")
                else:
                    count += 1
                    yield name
                continue
            top = str(Path(name))
            within = [folder for folder in walked if folder == top or _under(folder, top) or _walked_to(top, folder, file=False)]
            walked.append(top)
            empty = True
            for file in walk_match_files(name, unlisted):
                empty = False
                if file in named or within and any(_under(file, folder) for folder in within):
                    continue  # found before
                problem = _unreadable(file, True)
                if problem:
                    self.missing.append(f"{file}: cannot read: {problem}")
                else:
                    count += 1
                    yield file
            if empty:
                self.empty.append(name)
        self.count = count


def _under(name: str, folder: str) -> bool:
    """Whether ``name`` (or a folder) is below ``folder`` as a walk of ``folder`` spells its files."""
    if folder == ".":
        return not name.startswith(("/", "../")) and name not in (".", "..")
    return name.startswith(folder if folder.endswith("/") else folder + "/")


def _walked_to(name: str, folder: str, file: bool = True) -> bool:
    """Whether the walk of ``folder`` (spelled as :class:`~pathlib.Path` spells it) found
    ``name`` spelled so: below it as spelled, a match file (``file``) or a folder, through no
    folder linked to."""
    from bgrecord.formats.reader import is_match_file

    if name != str(Path(name)) or not _under(name, folder) or file and not (is_match_file(name) and os.path.isfile(name)):
        return False
    below = name if folder == "." else name[len(folder.rstrip("/")) + 1 :]
    parts = below.split("/")
    here = "" if folder == "." else folder
    for part in parts if not file else parts[:-1]:
        here = os.path.join(here, part) if here else part
        if os.path.islink(here):
            return False
    return True


class Inputs:
    """The files a command reads (``-`` for standard input), and what was named but holds
    nothing to read. ``files``: a list, found before any work; with ``lazily``, the
    :class:`Found` itself, found as the work goes (what it found wrong is then said after)."""

    def __init__(self, paths: Iterable[str], lazily: bool = False) -> None:
        self.found = Found(paths)
        self.files: Any = self.found if lazily else list(self.found)
        self.said: set[str] = set()

    @property
    def missing(self) -> list[str]:
        return self.found.missing

    @property
    def empty(self) -> list[str]:
        return self.found.empty

    @property
    def count(self) -> int:
        """The files found (by the last pass over a lazy list)."""
        return self.found.count

    def report(self) -> None:
        """What cannot be read, each line once (a lazy list's is said after the work)."""
        for line in [*self.missing, *(f"{folder}: warning: no match file in this folder" for folder in self.empty)]:
            if line not in self.said:
                self.said.add(line)
                click.echo(f"bgrecord: {one_line(line)}", err=True)

    @property
    def problems(self) -> list[str]:
        """What was named but gives nothing to read, each in a line (for JSON outputs)."""
        return self.missing + [f"{folder}: no match file in this folder" for folder in self.empty]

    def exit(self, failed: bool, records_wrong: bool = False) -> None:
        """End the command with its exit status (the module's docstring): 2 when ``failed``
        (bgrecord on some file, or an output) or a path could not be read; 1 when
        ``records_wrong`` or a path named nothing to read; else 0."""
        status = 2 if failed or self.missing else 1 if records_wrong or self.empty or not self.count else 0
        if status:
            raise SystemExit(status)


def gather(paths: Iterable[str], lazily: bool = False) -> Inputs:
    """The files of ``paths`` (:class:`Found`). What cannot be read is said, whoever reads it
    later (exit status 2): a file without the permission, a folder below that cannot be
    listed. A pipe, a FIFO or a device is read when found, once
    (:func:`bgrecord.formats.source.read_once`): every command, and every step of one
    (``index`` hashes a file before it reads it, ``replay --analyze`` analyses it before it
    replays it), reads the same bytes. ``lazily``: found as the work asks for them (an
    archive's run in flat memory), not before."""
    return Inputs(paths, lazily)


def _unreadable(name: str, regular: bool) -> str | None:
    """Why the file ``name`` cannot be read, or None; a stream (not ``regular``) is read now."""
    from bgrecord.formats.source import read_once

    if not os.access(name, os.R_OK):
        return os.strerror(errno.EACCES)
    if not regular:
        try:
            read_once(name)
        except OSError as exc:
            return exc.strerror or str(exc)
    return None
