"""The formats bgrecord reads, one module each, and the one place that recognises a file by
its content (:func:`detect`: magic bytes first, then the shape of the text), never by its
extension alone.

Every reader takes an :class:`~bgrecord.source.Input` and yields ``(MatchRecord, GameRecord |
None)`` pairs as it reads: each game as soon as it is read, a match without games once with
None. Readers never raise on content: what cannot be read is an issue at its place. What a
reader does not check (the rules) the replay checks, whatever the format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterable, Iterator

from bgrecord.extras import require
from bgrecord.issues import Severity, format_issue
from bgrecord.records import GameRecord, MatchRecord
from bgrecord.source import Input, InputTooLarge, has_bom

Read = Callable[[Input], Iterator[tuple[MatchRecord, GameRecord | None]]]
MAX_INFLATED = 1 << 30  # the most a compressed input may inflate to


@dataclass(frozen=True)
class Format:
    """A format bgrecord reads: its name (``MatchRecord.format``), what it is in words, and
    its reader (imported on first use: start-up stays fast)."""

    name: str
    what: str
    module: str

    def reader(self) -> Read:
        from importlib import import_module

        read: Read = import_module(f"bgrecord.formats.{self.module}").read
        return read


@dataclass(frozen=True)
class Refusal:
    """Something that is not a match record bgrecord reads, named, and the code of the one
    error that says so."""

    what: str
    code: str = "unsupported-format"


FORMATS = {
    "mat": Format("mat", "a .mat match transcript", "mat"),
    "sgf": Format("sgf", "an SGF game collection", "sgf"),
    "xg": Format("xg", "an eXtreme Gammon file", "xg"),
    "bgf": Format("bgf", "a BGBlitz match", "bgf"),
    "ogxm": Format("ogxm", "an OGXM match or stream", "ogxm"),
    "fibs": Format("fibs", "a FIBS oldmoves log", "fibs"),
    "snowie": Format("snowie", "a Snowie text position", "snowie"),
    "json": Format("json", "bgrecord's JSON", "bgrjson"),
}

# Where a folder is searched: the endings of the files the formats above are kept in.
SUFFIXES = (".mat", ".txt", ".gam", ".sgf", ".xg", ".xgp", ".bgf", ".ogxm", ".ogxms", ".zst", ".gz", ".oldmoves")

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive"), (b"\x7fELF", "an executable program (ELF)"),
    (b"MZ", "a Windows program"), (b"\x89PNG", "a PNG picture"), (b"\xff\xd8\xff", "a JPEG picture"),
    (b"GIF8", "a GIF picture"), (b"SQLite format 3\x00", "an SQLite database"), (b"DUCK", "a DuckDB database"),
    (b"PAR1", "a Parquet table"), (b"{\\rtf", "an RTF document"), (b"\xd0\xcf\x11\xe0", "a Microsoft Office document"),
    (b"Rar!", "a RAR archive"), (b"7z\xbc\xaf", "a 7-Zip archive"), (b"BZh", "a bzip2 archive"),
)  # fmt: skip
_SGF_GAMES = {"1": "Go", "2": "Othello", "3": "chess", "4": "Gomoku", "5": "Nine Men's Morris", "7": "Chinese chess",
              "8": "Shogi", "9": "Lines of Action", "10": "Ataxx", "11": "Hex", "16": "Amazons"}  # fmt: skip
_BGF = re.compile(rb'\s*\{\s*"format"\s*:\s*"BGF"')
_JSON = re.compile(rb'\s*\[?\s*\{\s*"bgrecord"\s*:')
_SGF_GAME = re.compile(rb"GM\s*\[\s*([0-9]{1,6})\s*\]")
_FIBS = re.compile(r"^Score is [0-9]+-[0-9]+ in (?:a [0-9]+ point|an unlimited) match", re.M)
_FIBS_MONEY = re.compile(r"^Score is [0-9]+-[0-9]+\.?[ \t]*\r?\n[ \t]*\S+ is X - \S+ is O", re.M)  # money play: no "in a ..."
_SNOWIE = re.compile(r"^[ \t]*(?:[^;\n]*;){39}")


def detect(source: Input) -> Format | Refusal:
    """The format of ``source`` by its content."""
    head = source.head()
    if head.startswith(b"RGMH"):
        return FORMATS["xg"]
    if head.startswith(b"OGXM"):
        return FORMATS["ogxm"]
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return Refusal(what)
    if _BGF.match(head):
        return FORMATS["bgf"]
    if _JSON.match(head):
        return FORMATS["json"]
    bom = has_bom(head)
    if bom and not bom.startswith("utf-8"):
        text = head.decode(bom, errors="replace").lstrip("\ufeff")
    else:
        if b"\x00" in head:
            return Refusal("binary data, not text", "binary")
        text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("(") and ";" in stripped[:64]:
        game = _SGF_GAME.search(head)
        if game and game.group(1) != b"6":
            name = _SGF_GAMES.get(game.group(1).decode(), f"game type {game.group(1).decode()}")
            return Refusal(f"an SGF file of {name} (GM[{game.group(1).decode()}]), not backgammon", "not-backgammon")
        return FORMATS["sgf"]
    if stripped.startswith("JavaFIBS internal match representation"):
        return Refusal("a JavaFIBS match log (.match)")
    if _FIBS.search(text) or _FIBS_MONEY.search(text):
        return FORMATS["fibs"]
    if _SNOWIE.match(stripped) and "\n" not in stripped.strip()[:2000]:
        return FORMATS["snowie"]
    if _binary_looking(text):
        return Refusal("binary data, not text", "binary")
    return FORMATS["mat"]


_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x19\x1b-\x1f]")  # control characters, but not tab, line ends, form feed, Ctrl-Z


def _binary_looking(text: str) -> bool:
    """Mostly control characters: binary data that happened to decode (judged on 64
    characters at least: a short text is given the benefit of the doubt)."""
    sample = text[:4096]
    return len(sample) >= 64 and len(_CONTROLS.findall(sample)) / len(sample) > 0.1


def unpacked(source: Input) -> Input | None:
    """The content of a gzip or zstd compressed input (bounded by :data:`MAX_INFLATED`),
    or None when ``source`` is not compressed."""
    head = source.head(4)
    if head.startswith(b"\x1f\x8b"):
        import gzip

        return _inflate(source, lambda stream: gzip.GzipFile(fileobj=stream), "gzip")  # type: ignore[arg-type, return-value]
    if head.startswith(b"\x28\xb5\x2f\xfd"):
        zstandard = require("zstandard")
        return _inflate(source, lambda stream: zstandard.ZstdDecompressor().stream_reader(stream), "zstd")
    return None


def _inflate(source: Input, opener: Callable[[BinaryIO], BinaryIO], kind: str) -> Input:
    import zlib

    name = source.name or f"<{kind}>"
    with source.open() as raw:
        try:
            with opener(raw) as stream:
                return Input.spooled(name, stream, MAX_INFLATED)
        except InputTooLarge:
            raise InputTooLarge(27, f"inflates to more than {MAX_INFLATED >> 20} MB", name) from None
        except (OSError, EOFError, zlib.error, ValueError) as exc:
            raise CorruptInput(f"the {kind} data is corrupt or cut short ({exc})") from None


class CorruptInput(ValueError):
    """A compressed input that does not inflate."""


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """The games of ``source`` in whatever format it is (see :func:`detect`)."""
    try:
        inner = unpacked(source)
    except (CorruptInput, InputTooLarge) as exc:  # a missing package is the environment's: it is raised
        yield refused(source, f"{exc}", "corrupt"), None
        return
    if inner is not None:
        source = inner
    found = detect(source)
    if isinstance(found, Refusal):
        yield refused(source, f"{found.what}: not a match record, not read", found.code), None
        return
    yield from found.reader()(source)


def each_game(match: MatchRecord, games: Iterable[GameRecord]) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """``(match, game)`` for each game, or ``(match, None)`` once for a match with none: what a
    reader yields for one match."""
    produced = False
    for game in games:
        produced = True
        yield match, game
    if not produced:
        yield match, None


def refused(source: Input, message: str, code: str, format: str = "unknown", offset: int | None = None,
            unit: str | None = None) -> MatchRecord:  # fmt: skip
    """A match holding only the one error that says why ``source`` was not read: not a
    format bgrecord reads (``unknown``), or a file of ``format`` that does not read (at
    ``offset`` of ``unit``, where known)."""
    match = MatchRecord(source.name, format, "", unit="line" if format == "unknown" else "byte")
    found = format_issue(Severity.ERROR, code, message, offset, None)
    match.issues.append(found.at(path=source.name) if unit is None else found.at(path=source.name, unit=unit))
    return match
