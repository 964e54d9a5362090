"""Hostile inputs, a generator for each class of attack of issue 21, and a way to run any
command on them as a user runs it, under a time and a memory limit.

A generator takes a ``random.Random`` and a ``size`` (a scale: 0.25 for CI, small and quick;
1 to 3 in the long run of ``tests/fuzz_long.py``, where the attacks pass every limit) and gives a :class:`Case`: a file's name and bytes
(the name may be the attack), and where a database is the attack, its bytes. Every input is
made here: nothing third-party is committed.

:class:`Runner` runs ``bgrecord`` through its console entry in a process forked from a lean
server (one process that imported bgrecord and the libraries its commands use, and runs no
threads, so that forking it is safe): the real exit status, standard streams written to
files, the wall time, and the peak resident memory of that process (``ru_maxrss``, which
counts what the server held when it forked: :attr:`Runner.base`). A run past its time is
stopped as a user's system stops it (SIGTERM, which must leave nothing behind), then killed
(SIGKILL) when it has not stopped a few seconds later; past a hard cap of address space its
allocations fail.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
OPENING = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
POSITION = "4HPwATDgc/ABMA"  # the starting position: every index holds it
RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")  # C0 (but tab, line feed), DEL, C1 in UTF-8


@dataclass
class Case:
    """One hostile input: a file ``name`` holding ``data``; ``database``: the bytes of a file
    given to ``index``/``find`` as their database, when that is the attack."""

    kind: str
    name: str
    data: bytes
    database: bytes | None = None
    note: str = ""


# --- building blocks ---


def mat(body: str = OPENING, names: tuple[str, str] = ("A", "B"), length: str = "5", header: str = "") -> str:
    left = f"{names[0]} : 0"
    return f"{header} {length} point match\n\n Game 1\n {left:<31}{names[1]} : 0\n{body}"


def sgf(names: tuple[str, str] = ("a", "b"), nodes: str = ";W[31hefe];B[42qusu]", root: str = "") -> str:
    return f"(;FF[4]GM[6]CA[UTF-8]MI[length:5][game:0][ws:0][bs:0]PW[{names[0]}]PB[{names[1]}]{root}{nodes})\n"


def bgf_json(doc: Any, compress: bool = False) -> bytes:
    """A BGBlitz file of JSON (``json`` may hold lone surrogates: escaped as ``\\ud800``)."""
    header = json.dumps({"format": "BGF", "version": "1.0", "compress": compress, "useSmile": False}).encode()
    body = json.dumps(doc).encode("ascii")
    return header + b"\n" + (gzip.compress(body) if compress else body)


def bgf_smile(body: bytes, compress: bool = False) -> bytes:
    header = json.dumps({"format": "BGF", "version": "1.0", "compress": compress, "useSmile": True}).encode()
    data = b":)\n\x00" + body
    return header + b"\n" + (gzip.compress(data, 1) if compress else data)


def match_doc(names: tuple[str, str] = ("Green", "Red"), games: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A BGBlitz match: one short game unless told."""
    moves = [{"player": -1, "green": 3, "red": 1, "from": [8, 6, -1, -1], "to": [5, 5, -1, -1]},
             {"player": 1, "green": 4, "red": 2, "from": [8, 6, -1, -1], "to": [4, 4, -1, -1]}]  # fmt: skip
    return {"matchlen": 5, "nameGreen": names[0], "nameRed": names[1], "games": games if games is not None else [{"moves": moves}], **extra}


class Smile:
    """A Smile encoder for what the attacks need (the decoder's inverse, without sharing)."""

    @staticmethod
    def vint(number: int) -> bytes:
        out = [0x80 | (number & 0x3F)]
        number >>= 6
        while number:
            out.append(number & 0x7F)
            number >>= 7
        return bytes(reversed(out))

    @staticmethod
    def sevenbit(data: bytes) -> bytes:
        out = bytearray()
        whole = len(data) // 7
        for at in range(0, whole * 7, 7):
            bits = int.from_bytes(data[at : at + 7], "big")
            out += bytes((bits >> (7 * (7 - i))) & 0x7F for i in range(8))
        rest = data[whole * 7 :]
        if rest:
            groups = (len(rest) * 8 + 6) // 7
            bits = int.from_bytes(rest, "big") << (groups * 7 - len(rest) * 8)
            out += bytes((bits >> (7 * (groups - 1 - i))) & 0x7F for i in range(groups))
        return bytes(out)

    @classmethod
    def value(cls, value: Any) -> bytes:
        if value is None:
            return b"\x21"
        if value is True or value is False:
            return b"\x23" if value else b"\x22"
        if isinstance(value, int):
            if -16 <= value <= 15:
                return bytes([0xC0 | ((value << 1) ^ (value >> 63)) & 0x1F])
            if -(1 << 31) <= value < 1 << 31:
                return b"\x24" + cls.vint((value << 1) ^ (value >> 63))
            raw = value.to_bytes((value.bit_length() + 8) // 8, "big", signed=True)
            return b"\x26" + cls.vint(len(raw)) + cls.sevenbit(raw)
        if isinstance(value, str):
            return (b"\xe4" + value.encode("utf-8") + b"\xfc") if value else b"\x20"
        if isinstance(value, bytes):
            return b"\xe8" + cls.vint(len(value)) + cls.sevenbit(value)
        if isinstance(value, list):
            return b"\xf8" + b"".join(cls.value(item) for item in value) + b"\xf9"
        if isinstance(value, dict):
            return b"\xfa" + b"".join(cls.key(k) + cls.value(v) for k, v in value.items()) + b"\xfb"
        raise TypeError(type(value))

    @staticmethod
    def key(name: str) -> bytes:
        raw = name.encode("utf-8")
        return bytes([0x80 + len(raw) - 1]) + raw if 1 <= len(raw) <= 64 else b"\x34" + raw + b"\xfc"


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def session(games: int) -> str:
    """A valid money session of ``games`` games (the first game of a sample, again and again):
    a large, clean input, to make outputs larger than a pipe holds."""
    text = sample("gnubg-money-jacoby.mat").decode()
    game = text[text.index(" Game 1") : text.index(" Game 2")]
    return " 0 point match\n\n" + "".join(game.replace(" Game 1", f" Game {n}") for n in range(1, games + 1))


# --- the generators, by class (the numbering) ---


def _count(base: int, size: float) -> int:
    return max(1, int(base * size))


HOSTILE_TEXT = ["\x1b[2J\x1b[H", "\x1b]0;owned\x07", "\x9b31m", "\u202e", "\r", "\nFORGED: error[internal] x", "\x00", "\ud800", "\x7f"]


def surrogates(rng: random.Random, size: float) -> Case:
    """Class 2: text that no encoder writes (JSON's lone surrogates) in every text field."""
    bad = rng.choice(["\ud800", "\udfff", "a\udc80b", "\ud83d"])
    doc = match_doc((bad, "x" + bad), event=bad, comment=bad, site=bad)
    doc["games"][0]["comment"] = [bad]
    return Case("surrogates", "s.bgf", bgf_json(doc, compress=rng.random() < 0.5))


def odd_bytes(rng: random.Random, size: float) -> Case:
    """Class 2: bytes of no one encoding, NULs and byte-order marks inside a record's text."""
    names = (rng.choice(["\x00", "\ufeff", "é", "\xff"]) + "A", "B" + rng.choice(["\u0301", "\u200b", "\U0001f600"]))
    text = mat(names=names, header=f'; [Event "{rng.choice(HOSTILE_TEXT)}"]\n').encode("utf-8", "surrogatepass")
    at = rng.randrange(len(text))
    return Case("odd-bytes", "o.mat", text[:at] + rng.choice([b"\xff\xfe", b"\xef\xbb\xbf", b"\xc3", b"\x00\x00"]) + text[at:])


def open_brackets(rng: random.Random, size: float) -> Case:
    """Class 3: runs of unclosed ``[`` (and other openers) in SGF: quadratic in a regex that searches."""
    run = rng.choice(["[", "[a", "\\[", "(;", ";W[", "[\\"]) * _count(2_000, size)
    return Case("open-brackets", "b.sgf", ("(;FF[4]GM[6]" + run + rng.choice(["", ")", "]"])).encode())


def smile_numbers(rng: random.Random, size: float) -> Case:
    """Class 3: Smile's 7-bit binary and big numbers, long (quadratic when decoded as one integer)."""
    count = _count(20_000, size)
    value = rng.choice([
        bytes(rng.randrange(256) for _ in range(count)), 10 ** rng.choice([50, 999, 1200, 5000]),
        -(10 ** rng.choice([300, 1000])),
    ])  # fmt: skip
    body = Smile.value({**match_doc(), "blob": value, "matchlen": value if isinstance(value, int) and rng.random() < 0.5 else 5})
    if rng.random() < 0.3:  # a big decimal: scale, then the unscaled digits
        raw = (10**400).to_bytes(167, "big")
        body = body[:-1] + Smile.key("dec") + b"\x2a" + Smile.vint(rng.choice([0, 2, 800])) + Smile.vint(len(raw)) + Smile.sevenbit(raw) + b"\xfb"
    return Case("smile-numbers", "n.bgf", bgf_smile(body))


def runs(rng: random.Random, size: float) -> Case:
    """Class 3: long runs of one character where each reader's regexes work: blanks, digits,
    stars, slashes, colons, parentheses, row numbers, semicolons (every line shape)."""
    run = rng.choice([" ", "\t", "9", "*", "/", ":", ")", "(", "13/", "1)", "Game ", ";", "-", "x", "[", "]", ", "]) * _count(3_000, size)
    where = rng.choice([
        lambda: mat(body=f"  1) 31: {run}\n"), lambda: mat(body=f"{run}\n"), lambda: mat(names=(run, "B")),
        lambda: mat(header=f"; [Event \"{run}\"]\n"), lambda: f"Score is 0-0 in a 5 point match\n X: (3 1) {run}\n",
        lambda: run + "\n", lambda: f" 5 point match\n{run}", lambda: sgf(nodes=f";W[{run}]"), lambda: sgf(root=f"C[{run}]"),
        lambda: run.replace(" ", ";") * 2,
    ])  # fmt: skip
    return Case("runs", rng.choice(["r.mat", "r.txt", "r.sgf", "r.gam"]), where().encode())


def many_games(rng: random.Random, size: float) -> Case:
    """Class 4: a match of more games than the limit, cheap to write: empty games in Smile
    (gzip), or games of one row in a .mat or .gam."""
    if rng.random() < 0.5:  # past the limit: empty games cost nothing to read
        count = _count(12_000, size**3)
        body = b"\xfa" + Smile.key("matchlen") + Smile.value(0) + Smile.key("games") + b"\xf8" + b"\xfa\xfb" * count + b"\xf9\xfb"
        return Case("many-games", "g.bgf", bgf_smile(body, compress=True))
    count = _count(3_000, size)  # games that are replayed: within the limit, for memory to stay flat
    games = "".join(f"\n Game {n}\n A : 0                          B : 0\n  1) 31: 8/5 6/5\n" for n in range(1, count + 1))
    return Case("many-games", "g.mat", gzip.compress(f" 0 point match\n{games}".encode(), 1), note=f"{count} games")


def mat_matches(count: int) -> bytes:
    """A .mat file of ``count`` one-game matches (each a game without an end)."""
    return "".join(f" 1 point match\n\n Game 1\n A : 0                      B{n} : 0\n  1) 31: 8/5 6/5\n\n" for n in range(count)).encode()


def many_matches(rng: random.Random, size: float) -> Case:
    """Class 4: a file of many short matches (the limit itself is tested with a lower one)."""
    text = mat_matches(_count(2_000, size)).decode()
    return Case("many-matches", rng.choice(["mm.mat", "mm.mat.gz"]), text.encode() if rng.random() < 0.5 else gzip.compress(text.encode(), 1))


def long_game(rng: random.Random, size: float) -> Case:
    """Class 4: one game of many rows (past the limit on actions), compressed to a few KB."""
    count = _count(15_000, size)
    row = rng.choice(["{n:3d}) 31: 8/5 6/5                 42: 8/4 6/4\n", "{n:3d}) 66: 1/0\n", "{n:3d})  Doubles => 2\n", "{n:3d}) ????\n"])
    body = "".join(row.format(n=n) for n in range(1, count + 1))
    return Case("long-game", "l.mat.gz", gzip.compress(mat(body=body).encode(), 1))


def long_text(rng: random.Random, size: float) -> Case:
    """Class 4: a name, a tag, or a comment of many megabytes."""
    text = rng.choice("AbZ\x1b ") * _count(300_000, size)
    kind = rng.randrange(4)
    if kind == 0:
        return Case("long-text", "t.mat", mat(names=(text, "B")).encode())
    if kind == 1:
        return Case("long-text", "t.sgf", sgf(names=("a", text)).encode())
    if kind == 2:
        return Case("long-text", "t.bgf", bgf_json(match_doc((text, "R"), comment=text), compress=True))
    return Case("long-text", "t.mat", mat(header=f"; {text}\n; [Event \"{text}\"]\n").encode())


def deep(rng: random.Random, size: float) -> Case:
    """Class 4 and 8: nesting deeper than any record, in Smile, in JSON, in a BGF header."""
    depth = _count(rng.choice([300, 5_000, 100_000]), size)
    kind = rng.randrange(3)
    if kind == 0:
        return Case("deep", "d.bgf", bgf_smile(b"\xf8" * depth + b"\xf9" * depth))
    if kind == 1:
        header = json.dumps({"format": "BGF", "version": "1.0", "compress": False, "useSmile": False}).encode()
        return Case("deep", "d.bgf", header + b"\n" + b"[" * depth + b"]" * depth)
    return Case("deep", "d.bgf", b'{"format": "BGF", "x": ' + b"[" * depth + b"]" * depth + b"}\n{}")


def endless(rng: random.Random, size: float) -> Case:
    """Class 5: what an endless stream holds (zeros, one line never ended), cut to a size."""
    count = _count(2_000_000, size)
    return Case("endless", rng.choice(["z.mat", "z.sgf", "z.txt"]), rng.choice([b"\0", b"y", b" 5 point match", b"(;"]) * count)


def terminal(rng: random.Random, size: float) -> Case:
    """Class 6: control sequences in every place a record holds text."""
    bad = "".join(rng.sample(HOSTILE_TEXT, 3)).replace("\ud800", "")
    kind = rng.randrange(4)
    if kind == 0:
        return Case("terminal", "c.mat", mat(names=(f"A{bad}", f"B{bad}"), header=f'; [Event "{bad}"]\n; {bad}\n',
                                             body=OPENING + f"  2) 65: {bad}\n").encode())  # fmt: skip
    if kind == 1:
        return Case("terminal", "c.sgf", sgf(names=(bad, bad), nodes=f";W[31hefe]C[{bad}];B[{bad}]").encode())
    if kind == 2:
        doc = match_doc((bad, bad), event=bad, comment=bad)
        doc["games"][0]["moves"][0]["comment"] = bad
        return Case("terminal", "c.bgf", bgf_json(doc))
    return Case("terminal", "c.txt", f"Score is 0-0 in a 5 point match\n {bad} is X - B is O\nX: (3 1) 8-5 6-5 {bad}\n".encode())


def file_names(rng: random.Random, size: float) -> Case:
    """Class 7: a good record under a name that is the attack: a line break forging a line,
    escape sequences, a leading dash, a name that reads as record text."""
    name = rng.choice([
        "a\nFORGED: error[internal] forged.mat", "b\x1b[2J\x1b]0;x\x07.mat", "-c.mat", "d\r.mat", "e\u202e.mat",
        " 5 point match\n\n Game 1\n A : 0  B : 0\n.mat", "f\x9b31m.mat", "g\t.mat",
    ])  # fmt: skip
    return Case("file-names", name, sample(rng.choice(["bbgt-two-matches.mat", "gnubg-money-jacoby.sgf"])))


def faulty(rng: random.Random, size: float) -> Case:
    """Class 8: input at fault that once raised: numbers past 4,300 digits (a BGF header, a
    JSON body), a zstd or gzip header and garbage, a junk file given as a database."""
    digits = "9" * rng.choice([4_301, 10_000, 50_000])
    kind = rng.randrange(6)
    if kind == 0:
        return Case("faulty", "h.bgf", b'{"format": "BGF", "n": ' + digits.encode() + b"}\n{}")
    if kind == 1:
        header = json.dumps({"format": "BGF", "version": "1.0", "compress": False, "useSmile": False}).encode()
        return Case("faulty", "j.bgf", header + b'\n{"matchlen": ' + digits.encode() + b', "games": []}')
    if kind == 2:
        return Case("faulty", "z.mat.zst", b"\x28\xb5\x2f\xfd" + bytes(rng.randrange(256) for _ in range(20)))
    if kind == 3:
        good = gzip.compress(sample("bbgt-two-matches.mat"))
        return Case("faulty", "g.mat.gz", rng.choice([good + b"trailing garbage", good[:-12], good[:10] + b"\0" * 20, good * 2 + b"\x1f"]))
    junk = rng.choice([b"", b"garbage" * 100, b"SQLite format 3\x00" + bytes(200), b"DUCK" + bytes(5000), os.urandom(4096)])
    return Case("faulty", "ok.mat", sample("bbgt-two-matches.mat"), database=junk)


def mutant(content: bytes, seed: int) -> bytes:
    """``content`` with a few random edits: bytes flipped, cut, repeated or swapped in."""
    rng = random.Random(seed)
    data = bytearray(content)
    for _ in range(rng.randint(1, 8)):
        if not data:
            break
        at = rng.randrange(len(data))
        edit = rng.choice([0, 0, 1, 2, 3, 3, 4] if len(data) < 2 * len(content) else [1])
        if edit == 0:
            data[at] = rng.randrange(256)
        elif edit == 1:
            del data[at : at + rng.randint(1, 64)]
        elif edit == 2:
            data[at:at] = data[at : at + rng.randint(1, 256)] * rng.randint(1, 8)
        elif edit == 3:
            data[at:at] = rng.choice([b"99999999999999999999", b"\x00", b"\xff\xfe", b"/", b"*", b"\r", b"]", b")", b"(;", b"\n Game 2\n",
                                      b"\x1b[2J", b"["])  # fmt: skip
        elif rng.random() < 0.2:  # cut short, as a download that stopped
            data = data[:at]
    return bytes(data)


def mutants(rng: random.Random, size: float) -> Case:
    """Byte-level mutants of the samples (every class by chance)."""
    seeds = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".mat", ".sgf", ".txt", ".gam"))
    seed = rng.choice(seeds)
    return Case("mutant", "m" + seed.suffix, mutant(seed.read_bytes(), rng.getrandbits(32)))


GENERATORS: dict[str, Callable[[random.Random, float], Case]] = {
    "surrogates": surrogates, "odd-bytes": odd_bytes, "open-brackets": open_brackets, "smile-numbers": smile_numbers,
    "runs": runs, "many-games": many_games, "many-matches": many_matches, "long-game": long_game, "long-text": long_text, "deep": deep,
    "endless": endless, "terminal": terminal, "file-names": file_names, "faulty": faulty, "mutant": mutants,
}  # fmt: skip
CLASSES = {2: ["surrogates", "odd-bytes"], 3: ["open-brackets", "smile-numbers", "runs"], 4: ["many-games", "many-matches", "long-game", "long-text", "deep"],
           5: ["endless"], 6: ["terminal"], 7: ["file-names"], 8: ["faulty", "deep"]}  # fmt: skip


# --- the commands, each run on a case ---

COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "--format", "json", "{file}"],
    "validate-text": ["validate", "{file}"],
    "read": ["read", "{file}"],
    "read-stdin": ["read", "-"],
    "replay-text": ["replay", "{file}"],
    "replay-words": ["replay", "{file}", "--board", "words", "-o", "out/replay.txt"],
    "replay-jsonl": ["replay", "{file}", "--format", "jsonl"],
    "replay-html": ["replay", "{file}", "--format", "html", "-o", "out/page.html"],
    "replay-interactive": ["replay", "-i", "{file}"],
    "stats": ["stats", "{file}", "-o", "out/games.csv", "--players", "out/players.json", "--matches", "out/matches.csv"],
    "stats-parquet": ["stats", "{file}", "-o", "out/games.parquet"],
    "convert-mat": ["convert", "{file}", "-o", "out/c.mat", "--force"],
    "convert-sgf": ["convert", "{file}", "-o", "out/c.sgf", "--force"],
    "convert-json": ["convert", "{file}", "-o", "-", "--to", "json", "--force"],
    "convert-ogxm": ["convert", "{file}", "-o", "out/c.ogxm", "--force"],
    "convert-ogxms": ["convert", "{file}", "-o", "out/c.ogxms", "--force"],
    "index-sqlite": ["index", "{file}", "-o", "{database}.sqlite"],
    "index-duckdb": ["index", "{file}", "-o", "{database}.duckdb"],
    "find": ["find", "{database}.{engine}", POSITION],
    "analyze": ["analyze", "{file}", "-o", "out/decisions.csv", "--players", "out/players.json", "--matches", "out/matches.csv", "--timeout", "15"],
    "analyze-db": ["analyze", "{file}", "-o", "{database}.sqlite", "--timeout", "15"],
    "replay-analysis": ["replay", "{file}", "--analysis", "out/decisions.csv"],
    "index-analysis": ["index", "{file}", "-o", "{database}.duckdb", "--analysis", "out/decisions.csv"],
    "report": ["report", "{file}", "-o", "out/report.html", "--timeout", "15"],
    "report-analysis": ["report", "--analysis", "out/decisions.csv", "--analysis", "out/players.json", "-o", "out/report.txt"],
}  # fmt: skip
AFTER_ANALYSIS = ("replay-analysis", "index-analysis", "report-analysis")  # run on the tables analyze wrote of the case
KEYS = b"\n\n\n?\nw\nv\ne\ng\n1\nq\n"  # what replay -i reads from a pipe


@dataclass
class Outcome:
    """A command's run on a case."""

    command: str
    args: list[str]
    status: int  # the exit status, or 128 + the signal that ended it
    stdout: bytes
    stderr: bytes
    seconds: float
    peak: int  # bytes: the process's peak resident memory (the server's pages included)
    timed_out: bool = False
    problems: list[str] = field(default_factory=list)


class Runner:
    """The fork server (see the module's docstring), and the checks every run must pass."""

    def __init__(self, seconds: float = 20.0, memory: int = 500 << 20) -> None:
        self.seconds, self.memory = seconds, memory
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
        self.server = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self.server.stdout is not None
        self.base = json.loads(self.server.stdout.readline())["rss"]

    def close(self) -> None:
        if self.server.poll() is None:
            assert self.server.stdin is not None
            self.server.stdin.close()
            self.server.wait(timeout=30)

    def run(self, args: list[str], folder: Path, stdin: bytes | None = None, command: str = "") -> Outcome:
        assert self.server.stdin is not None and self.server.stdout is not None
        if stdin is not None:
            (folder / ".stdin").write_bytes(stdin)
        request = {"args": args, "cwd": str(folder), "stdin": stdin is not None, "seconds": self.seconds}
        self.server.stdin.write((json.dumps(request) + "\n").encode())
        self.server.stdin.flush()
        answer = json.loads(self.server.stdout.readline())
        out, err = (folder / ".stdout").read_bytes(), (folder / ".stderr").read_bytes()
        outcome = Outcome(command, args, answer["status"], out, err, answer["seconds"], answer["peak"], answer["timed_out"])
        outcome.problems = self.problems(outcome, folder)
        return outcome

    def problems(self, outcome: Outcome, folder: Path) -> list[str]:
        """What the run did wrong: a traceback, an ``internal`` error, an exit status outside
        0, 1, 2, a raw control character on a terminal's stream, a forged line, a temporary
        file left behind, too much time or memory."""
        found = []
        text = outcome.stdout + outcome.stderr
        if b"Traceback" in text:
            found.append("traceback")
        if b"this is a bug in bgrecord" in text:  # every internal error and internal issue says so
            found.append("internal error")
        if outcome.timed_out or outcome.seconds > self.seconds:
            found.append(f"slow: {outcome.seconds:.1f} s")
        elif outcome.status not in (0, 1, 2):
            found.append(f"exit status {outcome.status}")
        if outcome.peak > self.memory:
            found.append(f"memory: {outcome.peak >> 20} MB")
        if RAW_CONTROL.search(outcome.stderr) or RAW_CONTROL.search(outcome.stdout):
            found.append("a raw control character on a terminal's stream")
        if any(line.startswith(b"FORGED") for line in text.splitlines()):
            found.append("a forged line")
        left = [p.name for p in folder.rglob(".*") if p.name.endswith((".part", ".duckdb", ".sqlite")) and p.name.startswith(".")]
        if left:
            found.append(f"left behind: {left}")
        return found


def prepare(case: Case, folder: Path) -> dict[str, str]:
    """The case's files in ``folder``; what the command templates fill in."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "out").mkdir(exist_ok=True)
    (folder / case.name).write_bytes(case.data)
    database = "out/db"
    if case.database is not None:
        database = "junk"
        for engine in ("sqlite", "duckdb"):
            (folder / f"junk.{engine}").write_bytes(case.database)
    return {"file": case.name, "database": database}


def arguments(command: str, filled: dict[str, str], engine: str = "sqlite") -> list[str]:
    return [part.format(**filled, engine=engine) if "{" in part else part for part in COMMANDS[command]]


def run_case(runner: Runner, case: Case, command: str, folder: Path) -> list[Outcome]:
    """``command`` on ``case`` (``find`` after an index of the case, into each engine; what
    reads an analysis after ``analyze`` of the case)."""
    filled = prepare(case, folder)
    stdin = case.data if command == "read-stdin" else KEYS if command == "replay-interactive" else None
    if command in AFTER_ANALYSIS:
        analysed = runner.run(arguments("analyze", filled), folder, None, "analyze")
        return [analysed, runner.run(arguments(command, filled), folder, None, command)]
    if command != "find":
        return [runner.run(arguments(command, filled), folder, stdin, command)]
    found = []
    for engine in ("sqlite", "duckdb"):
        if case.database is None:
            found.append(runner.run(arguments(f"index-{engine}", filled), folder, None, f"index-{engine}"))
        found.append(runner.run(arguments("find", filled, engine), folder, None, "find"))
    return found


# --- the fork server ---


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _serve() -> None:
    """Read requests (a JSON line each), fork a process for each, answer with its outcome."""
    import bgrecord.cli  # noqa: F401 - what every run needs, loaded once
    import bgrecord.formats.mat  # noqa: F401
    import bgrecord.formats.sgf  # noqa: F401
    import pandas  # noqa: F401

    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    answers.write((json.dumps({"rss": _rss()}) + "\n").encode())
    answers.flush()
    cap = 4 << 30  # address space: a safety net for the machine, far above what is measured
    for line in requests:
        request = json.loads(line)
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # the child: the user's process
            try:
                os.chdir(request["cwd"])
                stdin = os.open(".stdin" if request["stdin"] else os.devnull, os.O_RDONLY)
                out = os.open(".stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                err = os.open(".stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                for source, target in ((stdin, 0), (out, 1), (err, 2)):
                    os.dup2(source, target)
                    os.close(source)
                sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8")
                sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8")
                sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)), encoding="utf-8", line_buffering=True)
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
                sys.argv = ["bgrecord", *request["args"]]
                from bgrecord.cli import entry

                entry()
            finally:
                os._exit(99)
        status, usage, stopped = _waited(pid, request["seconds"] * 1.5 + 1)
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        answer = {"status": code if code >= 0 else 128 - code, "seconds": seconds, "peak": usage.ru_maxrss * 1024,
                  "timed_out": stopped}  # fmt: skip
        answers.write((json.dumps(answer) + "\n").encode())
        answers.flush()


def _waited(pid: int, seconds: float, grace: float = 5.0) -> tuple[int, Any, bool]:
    """The child's wait status and usage; past ``seconds`` it is sent SIGTERM, and SIGKILL
    ``grace`` seconds later. Whether it had to be stopped."""
    deadline, stopped, killed = time.monotonic() + seconds, False, False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, usage, stopped
        now = time.monotonic()
        if not stopped and now > deadline:
            os.kill(pid, signal.SIGTERM)
            stopped = True
        elif stopped and not killed and now > deadline + grace:
            os.kill(pid, signal.SIGKILL)
            killed = True
        time.sleep(0.02)


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    _serve()
