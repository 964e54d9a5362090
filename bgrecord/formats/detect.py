"""The one place that recognises a file by its content (:func:`detect`: magic bytes first, then
the shape of the text), never by its extension alone, and reads it with its format's reader
(:func:`read`), holding every reader's records to the limits.

Every reader takes an :class:`~bgrecord.formats.source.Input` and yields ``(MatchRecord, GameRecord |
None)`` pairs as it reads: each game as soon as it is read, a match without games once with
None. Readers never raise on content: what cannot be read is an issue at its place. What a
reader does not check (the rules) the replay checks, whatever the format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from bgrecord.formats.compressed import CorruptInput, unpacked
from bgrecord.formats.issues import Severity, format_issue
from bgrecord.formats.limits import MAX_ACTIONS, MAX_COMMENT, MAX_GAMES, MAX_INPUT, MAX_MATCHES, MAX_NAME, TooLarge
from bgrecord.formats.records import Comment, GameRecord, MatchRecord
from bgrecord.formats.source import Input, has_bom

Read = Callable[[Input], Iterator[tuple[MatchRecord, GameRecord | None]]]


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
_BGF = re.compile(rb'\A\s*+\{\s*+"format"\s*+:\s*+"BGF"')  # anchored: a search through blanks stays linear
_JSON = re.compile(rb'\A\s*+\[?\s*+\{\s*+"bgrecord"\s*+:')
_SGF_GAME = re.compile(rb"GM\s*\[\s*([0-9]{1,6})\s*\]")
_FIBS = re.compile(r"^Score is [0-9]+-[0-9]+ in (?:a [0-9]+ point|an unlimited) match", re.M)
_FIBS_MONEY = re.compile(r"^Score is [0-9]++-[0-9]++\.?[ \t]*+\r?\n[ \t]*+\S++ is X - \S++ is O", re.M)  # money play: no "in a ..."
_SNOWIE = re.compile(r"\A[ \t]*+(?:[^;\n]*+;){39}")  # possessive: a line of blanks fails in one pass
_SGF = re.compile(r"\A\(\s*+;")  # a game tree opens with its first node (SGF's grammar), blanks between
# A line that only a .mat transcript holds: a move row ("  1) 31: 8/5 6/5") or a match length
# ("7 point match", "Match length: 7") at the start of a line, as grammars/mat.lark reads them.
_MAT_LENGTH = rb"[0-9]++(?:[ \t]*+-|[ \t])[ \t]*+(?i:points?|pts?\.?)[ \t]++(?i:match)|(?i:match[ \t]++(?:of|to|length))[ \t:]*+[0-9]"
_MAT = re.compile(rb"(?:^|(?<=\r))[ \t]*+(?:[0-9]++\)|" + _MAT_LENGTH + rb")", re.M)  # a line ends with LF, CRLF or CR
_MAT_TEXT = re.compile(_MAT.pattern.decode(), re.M)
SCAN = 1 << 20  # bytes of a text searched at a time for a .mat line beyond its head


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
    if _SGF.match(stripped):
        game = _SGF_GAME.search(head)
        if game and game.group(1) != b"6":
            name = _SGF_GAMES.get(game.group(1).decode(), f"game type {game.group(1).decode()}")
            return Refusal(f"an SGF file of {name} (GM[{game.group(1).decode()}]), not backgammon", "not-backgammon")
        return FORMATS["sgf"]
    if stripped.startswith("JavaFIBS internal match representation"):
        return Refusal("a JavaFIBS match log (.match)")
    # The first line that only one format writes decides, never a line in the middle (a .mat
    # may hold a note "Score is 2-0 in a 5 point match." between its games); the substring
    # first: the patterns, tried at every line start, cost more than the rest of the detection.
    fibs = (_FIBS.search(text) or _FIBS_MONEY.search(text)) if "Score is " in text else None
    if fibs is not None:
        mat = _MAT_TEXT.search(text, 0, fibs.start())
        if mat is None:
            return FORMATS["fibs"]
    if _SNOWIE.match(stripped) and "\n" not in stripped.strip()[:2000]:
        return FORMATS["snowie"]
    if _binary_looking(text):
        return Refusal("binary data, not text", "binary")
    if stripped.strip() and not _holds_mat_line(source, text, bom):
        return Refusal("a text with no move row and no 'N point match' line", "no-match")
    return FORMATS["mat"]


def _holds_mat_line(source: Input, text: str, bom: str | None) -> bool:
    """Whether the text holds a line only a .mat transcript holds (:data:`_MAT`): its head,
    then the rest of its bytes, a block at a time, for a text larger than its head (in an
    ASCII-compatible encoding; one in UTF-16 or UTF-32 is given to the .mat reader)."""
    if _MAT_TEXT.search(text):
        return True
    size = source.size
    if size <= len(source.head()) or (bom and not bom.startswith("utf-8")):
        return size > len(source.head())
    carry = b""
    with source.open() as stream:
        while block := stream.read(SCAN):
            data = carry + block
            if _MAT.search(data):
                return True
            carry = data[max(data.rfind(b"\n"), data.rfind(b"\r")) + 1 :][:256]  # the last line's start: the pattern needs it
    return False


_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x19\x1b-\x1f]")  # control characters, but not tab, line ends, form feed, Ctrl-Z
_CONTROL_BYTES = bytes(code for code in range(0x20) if _CONTROLS.match(chr(code)))  # the same, as bytes


def _binary_looking(text: str) -> bool:
    """Mostly control characters: binary data that happened to decode (judged on 64
    characters at least: a short text is given the benefit of the doubt)."""
    sample = text[:4096]
    if len(sample) < 64:
        return False
    if sample.isascii():  # the usual case: counted as bytes, at C speed
        controls = len(sample) - len(sample.encode("ascii").translate(None, _CONTROL_BYTES))
    else:
        controls = len(_CONTROLS.findall(sample))
    return controls / len(sample) > 0.1


def read(source: Input) -> Iterator[tuple[MatchRecord, GameRecord | None]]:
    """The games of ``source`` in whatever format it is (see :func:`detect`), held to the
    limits of :mod:`bgrecord.formats.limits`."""
    warning = ""
    try:
        if source.too_large:
            raise TooLarge(f"more than {MAX_INPUT >> 20} MB: not read")
        inner = unpacked(source)
    except (CorruptInput, TooLarge) as exc:  # a missing package is the environment's: it is raised
        yield refused(source, f"{exc}", "too-large" if isinstance(exc, TooLarge) else "corrupt"), None
        return
    if inner is not None:
        source, warning = inner
    found = detect(source)
    if isinstance(found, Refusal):
        yield refused(source, f"{found.what}: not a match record, not read", found.code), None
        return
    yield from bounded(source, found.reader()(source), warning)


def bounded(source: Input, pairs: Iterator[tuple[MatchRecord, GameRecord | None]],
            warning: str = "") -> Iterator[tuple[MatchRecord, GameRecord | None]]:  # fmt: skip
    """What a reader yields, held to the limits on objects (:mod:`bgrecord.formats.limits`): each past
    one is an error where it stands, and what is beyond it is not read. A reader's
    :class:`~bgrecord.formats.limits.TooLarge` (a line, a game's text, a document's size) ends the
    file with that error. ``warning``: said on the first match (what follows a compressed
    input's valid data)."""
    last: MatchRecord | None = None
    games = matches = 0
    try:
        for match, game in pairs:
            if match is not last:
                if last is None and warning:
                    match.issues.append(format_issue(Severity.WARNING, "compressed-data", warning, None, None).at(path=source.name))
                matches += 1
                if last is not None and matches > MAX_MATCHES:
                    _limit(last, "too-many-matches", f"more than {MAX_MATCHES:,} matches in one file: the rest of the file is not read", None)
                    return
                last, games = match, 0
                _bound_match(match)
            if game is not None:
                games += 1
                if games > MAX_GAMES:
                    _limit(match, "too-many-games", f"a match of more than {MAX_GAMES:,} games: the rest of the file is not read", game.line)
                    return
                _bound_game(match, game)
            yield match, game
    except TooLarge as exc:
        if last is None:
            yield refused(source, str(exc), "too-large", offset=exc.line, unit="line"), None
        else:
            _limit(last, "too-large", f"{exc}: the rest of the file is not read", exc.line)
    finally:
        close = getattr(pairs, "close", None)
        if close is not None:
            close()


def _limit(match: MatchRecord, code: str, message: str, line: int | None, game: GameRecord | None = None) -> None:
    found = format_issue(Severity.ERROR, code, message, line, None).at(path=match.path, unit=match.unit)
    (game.issues if game is not None else match.issues).append(found.at(game=game.index) if game is not None else found)


def _bound_match(match: MatchRecord) -> None:
    """A match's header: tags and comments no longer than a name or a comment may be."""
    for tag in match.tags:
        limit = MAX_NAME if tag.key.lower().startswith("player") else MAX_COMMENT
        if len(tag.value) > limit:
            _limit(match, "too-long", f"the {tag.key!r} tag's value has {len(tag.value):,} characters, more than {limit:,}: "
                   "cut there", tag.line if match.unit == "line" else None)  # fmt: skip
            tag.value = tag.value[:limit]
    for index, comment in enumerate(match.comments):
        if len(comment) > MAX_COMMENT:
            _limit(match, "too-long", f"a comment of {len(comment):,} characters, more than {MAX_COMMENT:,}: cut there", None)
            match.comments[index] = comment[:MAX_COMMENT]


def _bound_game(match: MatchRecord, game: GameRecord) -> None:
    """A game: no more actions than :data:`MAX_ACTIONS`, names and comments no longer than
    their limits."""
    if len(game.actions) > MAX_ACTIONS:
        beyond, count = game.actions[MAX_ACTIONS], len(game.actions)
        del game.actions[MAX_ACTIONS:]
        game.issues[:] = [i for i in game.issues if i.line is None or i.line < beyond.line]  # of what is not read
        _limit(match, "too-many-actions", f"a game of {count:,} actions, more than {MAX_ACTIONS:,}: the rest of the game is not read",
               beyond.line, game)  # fmt: skip
    if any(len(name) > MAX_NAME for name in game.names):
        longest = max(len(name) for name in game.names)
        _limit(match, "too-long", f"a player's name of {longest:,} characters, more than {MAX_NAME:,}: cut there", game.line, game)
        game.names = (game.names[0][:MAX_NAME], game.names[1][:MAX_NAME])
    for action in game.actions:
        if isinstance(action, Comment) and len(action.text) > MAX_COMMENT:
            _limit(match, "too-long", f"a comment of {len(action.text):,} characters, more than {MAX_COMMENT:,}: cut there",
                   action.line, game)  # fmt: skip
            action.text = action.text[:MAX_COMMENT]


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
