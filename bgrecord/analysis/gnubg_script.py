"""Run by GNU Backgammon's embedded Python (``gnubg -t -q -r -p gnubg_script.py``), never
imported by bgrecord: bgrecord talks to it through the process's standard streams.

Requests come on standard input, one JSON object a line: ``{"mat": TEXT, "plies": N,
"jacoby": bool, "cube": bool}`` (``cube`` false: no cube decision is analysed). For each, the
match (a .mat text, written to a temporary file for gnubg's ``import mat`` and removed as soon
as it is read) is imported, analysed and its facts written on
standard output as one line ``@bgrecord {json}``: per game, per action, what GNU Backgammon
found (equities already normalised to money equity, EMG) and the match state it judged the
action in; and gnubg's own statistics of each game and of the match, to check against. The
first line is ``@bgrecord {"ready": true, "version": V, "thresholds": {...}}``: gnubg's
version and its analysis thresholds (its defaults: its start-up files are not read), as its
``show version`` and ``show analysis`` say them. Every other line on standard output (gnubg's
own messages) is to be ignored; the script sends gnubg's output to standard error.

It computes nothing bgrecord computes (errors, totals, ratings): only what needs gnubg's
match equity table (the normalised cube equities at a match score, the luck in match
winning chances). It does not check the match: bgrecord has.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import struct
import sys
import tempfile
from typing import Any

import gnubg

_FLOAT = struct.Struct("f")
SIDE = {"X": 0, "O": 1}
_THRESHOLD = re.compile(r"^\s*-(\d+\.\d+) (doubtful|bad|very bad)\s*$", re.M)
_VERSION = re.compile(r"GNU Backgammon (\d[\w.]*)")


def f32(value: float) -> float:
    """``value`` rounded to a C float, as gnubg computes."""
    return float(_FLOAT.unpack(_FLOAT.pack(value))[0])


_TABLES: dict[int, Any] = {}


def match_equity(length: int, score: tuple[int, int], player: int, points: int, winner: int, crawford: int) -> float:
    """``player``'s match winning chances once ``winner`` wins ``points`` (gnubg's getME)."""
    tables = _TABLES.get(length)
    if tables is None:
        tables = _TABLES[length] = gnubg.met(length)
    away0 = length - (score[0] + (winner == 0) * points) - 1
    away1 = length - (score[1] + (winner == 1) * points) - 1
    if away0 < 0:
        return 0.0 if player else 1.0
    if away1 < 0:
        return 1.0 if player else 0.0
    if crawford or length - score[0] == 1 or length - score[1] == 1:
        if not away0:
            return float(tables[2][away1]) if player else f32(1.0 - tables[2][away1])
        return f32(1.0 - tables[1][away0]) if player else float(tables[1][away0])
    return f32(1.0 - tables[0][away0][away1]) if player else float(tables[0][away0][away1])


class State:
    """The match state gnubg judges an action in: the cube, its owner, the score."""

    def __init__(self, length: int, info: dict[str, Any]) -> None:
        self.length = length
        self.score = (int(info.get("score-X", 0)), int(info.get("score-O", 0)))
        self.crawford = 1 if info.get("crawford") else 0
        self.cube = int(info.get("initial-cube", 1))
        self.owner = -1
        self.doubled = False  # a double stands, not yet answered

    def cubeinfo(self, mover: int) -> Any:
        return gnubg.cubeinfo(self.cube, self.owner, mover, self.length, self.score, self.crawford, 0)

    def available(self, mover: int) -> bool:
        """May ``mover`` double (gnubg's GetDPEq)?"""
        mine = self.owner in (-1, mover)
        if not self.length:
            return mine
        post_crawford = not self.crawford and self.length - 1 in self.score
        return (not self.crawford and self.score[mover] + self.cube < self.length
                and not (post_crawford and self.score[mover] == self.length - 1) and mine)  # fmt: skip

    def cube_equities(self, analysis: dict[str, Any], mover: int) -> dict[str, Any]:
        """No double, double/take and double/pass, normalised as gnubg's FindCubeDecision."""
        nd, dt = float(analysis["nd-cubeful-eq"]), float(analysis["dt-cubeful-eq"])
        if not self.length:
            return {"nd": nd, "dt": dt, "dp": 1.0, "available": self.available(mover)}
        info = self.cubeinfo(mover)
        cash = match_equity(self.length, self.score, mover, self.cube, mover, self.crawford)
        return {"nd": gnubg.mwc2eq(nd, info), "dt": gnubg.mwc2eq(dt, info), "dp": gnubg.mwc2eq(cash, info),
                "available": self.available(mover)}  # fmt: skip

    def luck_cost(self, luck: float, mover: int) -> float:
        """The luck in match winning chances (points of the cube in money play)."""
        if not self.length:
            return f32(self.cube * luck)
        info = self.cubeinfo(mover)
        return f32(gnubg.eq2mwc(luck, info) - gnubg.eq2mwc(0.0, info))


def _move(action: dict[str, Any], state: State, mover: int) -> dict[str, Any]:
    analysis = action.get("analysis") or {}
    found: dict[str, Any] = {"action": "move", "player": mover, "dice": list(action.get("dice", ())),
                             "move": [list(m) for m in action.get("move", ())], "board": action.get("board")}  # fmt: skip
    moves = analysis.get("moves") or ()
    found["candidates"] = len(moves)
    if moves:
        index = analysis.get("imove")
        best = moves[0]
        found["best"] = [list(m) for m in best["move"]]
        found["best_equity"] = float(best["score"])
        if index is not None and 0 <= index < len(moves):
            found["played_equity"] = float(moves[index]["score"])
    luck = analysis.get("luck-value")
    if luck is not None:
        found["luck"] = float(luck)
        found["luck_cost"] = state.luck_cost(float(luck), mover)
    if "nd-cubeful-eq" in analysis:
        found["cube"] = state.cube_equities(analysis, mover)
    found["cube_value"] = state.cube
    return found


def game_facts(length: int, game: dict[str, Any]) -> dict[str, Any]:
    info = game.get("info") or {}
    state = State(length, info)
    actions = []
    doubler = -1
    for action in game.get("game") or ():
        kind = action.get("action")
        player = SIDE.get(action.get("player"), -1)
        if kind == "move":
            actions.append(_move(action, state, player))
            state.doubled = False
        elif kind == "double":
            entry: dict[str, Any] = {"action": "double", "player": player, "beaver": state.doubled, "cube_value": state.cube}
            analysis = action.get("analysis") or {}
            if not state.doubled:
                doubler = player
                if "nd-cubeful-eq" in analysis:
                    entry["cube"] = state.cube_equities(analysis, player)
            else:  # a beaver or raccoon: the cube doubles again, the beaverer owns it
                state.cube *= 2
                state.owner = player
            state.doubled = True
            actions.append(entry)
        elif kind in ("take", "drop"):
            actions.append({"action": kind, "player": player, "doubler": doubler, "cube_value": state.cube})
            if kind == "take":
                state.cube *= 2
                state.owner = player
            state.doubled = False
        else:
            actions.append({"action": kind or "?", "player": player})
    stats = game.get("stats") or {}
    return {"info": {k: v for k, v in info.items() if isinstance(v, (int, float, str, bool)) or v is None},
            "actions": actions, "stats": stats}  # fmt: skip


def analyse(request: dict[str, Any]) -> dict[str, Any]:
    plies = int(request.get("plies", 0))
    for kind in ("chequerplay", "cubedecision"):
        gnubg.command(f"set analysis {kind} evaluation plies {plies}")
    gnubg.command("set jacoby " + ("on" if request.get("jacoby") else "off"))
    gnubg.command("set cube use " + ("on" if request.get("cube", True) else "off"))
    handle, path = tempfile.mkstemp(prefix="bgrecord-", suffix=".mat")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(str(request["mat"]))
        gnubg.command(f'import mat "{path}"')
    finally:
        os.unlink(path)
    gnubg.command("analyse match")
    match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)
    if not match:
        return {"ok": False, "error": "gnubg could not import the match"}
    info = match.get("match-info") or {}
    length = int(info.get("match-length") or 0)
    return {"ok": True, "length": length, "rules": list(info.get("rules") or ()),
            "games": [game_facts(length, game) for game in match.get("games") or ()], "stats": match.get("stats") or {}}  # fmt: skip


def said(*commands: str) -> str:
    """What gnubg writes on its standard output for ``commands`` (its C buffers flushed)."""
    libc = ctypes.CDLL(None)
    with tempfile.TemporaryFile() as out:
        sys.stdout.flush()
        libc.fflush(None)
        saved = os.dup(1)
        os.dup2(out.fileno(), 1)
        try:
            for command in commands:
                gnubg.command(command)
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode("utf-8", "replace")


def settings() -> dict[str, Any]:
    """gnubg's version and its analysis thresholds (the error above which a decision is so marked)."""
    text = said("show version", "show analysis")
    version = _VERSION.search(text)
    return {"version": version.group(1) if version else "", "thresholds": {name: float(value) for value, name in _THRESHOLD.findall(text)}}


def main() -> None:
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # gnubg's own messages go to standard error, never between the replies
    for command in ("set threads 1", "set analysis luckanalysis plies 0", "set analysis moves on", "set analysis cube on",
                    "set analysis luck on", "set cube use on", "set variation standard", "set display off",
                    "set confirm new off", "set confirm save off"):  # never a question: standard input holds the requests  # fmt: skip
        gnubg.command(command)
    replies.write("@bgrecord " + json.dumps({"ready": True, **settings()}) + "\n")
    replies.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = analyse(json.loads(line))
        except Exception as exc:  # noqa: BLE001 - one match's failure is told, the next is analysed
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        replies.write("@bgrecord " + json.dumps(reply) + "\n")
        replies.flush()


main()
