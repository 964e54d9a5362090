"""GNU Backgammon as an analysis engine, run as a program (its licence is the GPL; bgrecord
never imports it): one long-lived ``gnubg -t -q -r -p gnubg_script.py`` process fed match
after match through its standard input and output (:mod:`bgrecord.analysis.gnubg_script`
runs inside it). Starting gnubg costs about a tenth of a second; analysing a 7-point match
at 0 ply about three.

A match that makes gnubg crash or take longer than ``timeout`` seconds, or a reply of another
shape than the script's, is an :class:`~bgrecord.analysis.engine.EngineError` for that match;
the process is stopped and started again for the next one. A reply is read in linear time and
no larger than :data:`MAX_REPLY`. gnubg dies with the process that started it (Linux's
parent-death signal: a worker killed outright leaves no gnubg behind), and a run that stops
while gnubg works kills it at once. ``BGRECORD_GNUBG`` names the program where it is not
``gnubg`` on the ``PATH`` or Debian's ``/usr/games/gnubg``.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from bgrecord.analysis.engine import CubeEquities, EngineAction, EngineError, EngineGame, EngineMatch, EngineMissing
from bgrecord.escapes import cut, quoted
from bgrecord.processes import dies_with_parent

SCRIPT = Path(__file__).with_name("gnubg_script.py")
TAG = b"@bgrecord "
DEFAULT_TIMEOUT = 600.0  # seconds for one match: a long match at 2 ply takes about a minute
START_TIMEOUT = 60.0
MAX_TIMEOUT = 86_400.0  # a day: beyond it a deadline is no longer a number the system's waits take
MAX_REPLY = 256 * 1024 * 1024  # bytes of one reply: far beyond any match's (a 25-point match: about 1 MB)
INSTALL = ("analysis needs GNU Backgammon (gnubg), not found: install it (Debian, Ubuntu: apt-get install gnubg; "
           "others: https://www.gnu.org/software/gnubg/), or set BGRECORD_GNUBG to the program")  # fmt: skip
SIDES = {"X": 0, "O": 1}


def find_gnubg() -> str:
    """The gnubg program, or :class:`EngineMissing` saying how to install it."""
    named = os.environ.get("BGRECORD_GNUBG")
    if named:
        if shutil.which(named):
            return named
        raise EngineMissing(f"BGRECORD_GNUBG={named}: no such program; {INSTALL}")
    found = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
    if not found:
        raise EngineMissing(INSTALL)
    return found


class GnubgEngine:
    """One gnubg process, started on the first match and again after a failure."""

    name = "gnubg"

    def __init__(self, executable: str | None = None, timeout: float | None = None) -> None:
        self.executable = executable or find_gnubg()
        self.timeout = float(timeout) if timeout is not None else DEFAULT_TIMEOUT
        if not 0 < self.timeout <= MAX_TIMEOUT:  # NaN too
            raise ValueError(f"a timeout of {timeout!r} seconds: give one from 1 to {MAX_TIMEOUT:,.0f}")
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._busy = False  # a request is out: gnubg is working, and would not stop when asked
        self._log: IO[bytes] | None = None  # what gnubg says on standard error (a file with no name: nothing left behind)
        self.version = ""  # gnubg's version and its analysis thresholds, as its script reads them at start
        self.thresholds: dict[str, float] = {}

    # --- the process ---

    def _start(self) -> subprocess.Popen[bytes]:
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        self._buffer = bytearray()
        try:
            process = subprocess.Popen(
                [self.executable, "-t", "-q", "-r", "-p", str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._log, start_new_session=True,  # Ctrl-C is for bgrecord, which stops gnubg
                preexec_fn=dies_with_parent(signal.SIGKILL),  # no gnubg outlives the process that started it
            )  # fmt: skip
        except OSError as exc:
            raise EngineMissing(f"{self.executable}: cannot run ({exc.strerror or exc}); {INSTALL}") from None
        self._process = process
        reply = self._reply(START_TIMEOUT, "starting")
        if not reply.get("ready"):
            self._stop()
            raise EngineError("gnubg did not start its analysis script")
        self.version, self.thresholds = _settings(reply)
        return process

    def settings(self) -> tuple[str, dict[str, float]]:
        """gnubg's version and its default analysis thresholds (gnubg started when it is not)."""
        if self._process is None or self._process.poll() is not None:
            self._start()
        return self.version, self.thresholds

    def _stop(self) -> None:
        """Stop gnubg: idle, it ends when its standard input closes; at work (a run stopped
        in the middle of a match), it is killed at once."""
        process, self._process = self._process, None
        if process is not None:
            if self._busy:
                _kill(process)
            if process.stdin is not None:
                try:
                    process.stdin.close()
                except OSError:
                    pass
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                _kill(process)
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        self._busy = False
        if self._log is not None:
            self._log.close()
            self._log = None

    def close(self) -> None:
        self._stop()

    def _tail(self) -> str:
        """The last line gnubg wrote on standard error (why it stopped, when it says)."""
        if self._log is None:
            return ""
        try:
            self._log.seek(max(0, os.fstat(self._log.fileno()).st_size - 2000))
            lines = self._log.read().decode("utf-8", "replace").strip().splitlines()
        except OSError:
            return ""
        return f": {lines[-1][:200]}" if lines else ""

    def _reply(self, timeout: float, doing: str) -> dict[str, Any]:
        """The next ``@bgrecord`` line from gnubg, within ``timeout`` seconds, as a JSON object.
        Each block read is searched once for a line's end (a reply without one, however long,
        costs time in proportion to its length)."""
        process = self._process
        assert process is not None and process.stdout is not None
        stream = process.stdout.fileno()
        deadline = time.monotonic() + timeout
        searched = 0  # the bytes of the buffer known to hold no line end
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while True:
                end = self._buffer.find(b"\n", searched)
                while end >= 0:
                    line = bytes(self._buffer[:end])
                    del self._buffer[: end + 1]
                    if line.startswith(TAG):
                        try:
                            reply = json.loads(line[len(TAG) :])
                        except (ValueError, RecursionError):
                            raise self._failed(f"gnubg's reply could not be read ({doing})") from None
                        if not isinstance(reply, dict):
                            raise self._failed(f"gnubg's reply is not what bgrecord's script writes ({doing})")
                        return reply
                    end = self._buffer.find(b"\n")
                searched = len(self._buffer)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._failed(f"gnubg took longer than {timeout:g} s ({doing})")
                if not selector.select(min(left, 0.5)):
                    if process.poll() is None:
                        continue
                    block = b""  # gnubg has ended, and a process it left holds its output open: nothing more comes
                else:
                    block = os.read(stream, 1 << 20)
                if not block:
                    process.wait()
                    status = process.returncode
                    how = f"signal {-status}" if status < 0 else f"exit status {status}"
                    raise self._failed(f"gnubg stopped ({how}) {doing}{self._tail()}")
                self._buffer += block
                if len(self._buffer) > MAX_REPLY:
                    raise self._failed(f"gnubg's reply is larger than {MAX_REPLY >> 20} MB ({doing})")

    def _failed(self, message: str) -> EngineError:
        """Stop the process (the next match starts another) and say why."""
        process = self._process
        if process is not None and process.poll() is None:
            _kill(process)
        self._stop()
        return EngineError(message)

    def _forget_log(self) -> None:
        """What gnubg said about a match it analysed is no longer needed (the file is shared
        with gnubg: emptied and rewound for both)."""
        if self._log is not None:
            self._log.truncate(0)
            self._log.seek(0)

    # --- a match ---

    def analyse(self, mat: str, plies: int, jacoby: bool, cube: bool = True) -> EngineMatch:
        process = self._process if self._process is not None and self._process.poll() is None else self._start()
        request = json.dumps({"mat": mat, "plies": plies, "jacoby": jacoby, "cube": cube}) + "\n"
        assert process.stdin is not None
        self._busy = True
        try:
            process.stdin.write(request.encode())
            process.stdin.flush()
        except OSError:
            raise self._failed(f"gnubg stopped before the match was sent{self._tail()}") from None
        reply = self._reply(self.timeout, "on this match")
        self._busy = False
        self._forget_log()
        if not reply.get("ok"):
            raise EngineError(f"gnubg could not analyse the match ({cut(str(reply.get('error', 'no reason given')), 200)})")
        try:
            return _match(reply)
        except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise EngineError(f"gnubg's reply is not what bgrecord's script writes ({type(exc).__name__}: {cut(str(exc), 200)})") from None


def _kill(process: subprocess.Popen[bytes]) -> None:
    """gnubg killed outright, with what it started (it leads a session of its own)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        try:
            process.kill()
        except OSError:
            pass


# --- the reply, read as the script writes it: anything else is an EngineError, never bgrecord's failure ---


def _number(value: Any, what: str) -> float | None:
    """A finite number, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{what} is {quoted(value, 40)}, not a number")
    return float(value)


def _integer(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} is {quoted(value, 40)}, not a whole number from {low} to {high}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{what} is {quoted(value, 40)}, not a list")
    return value


def _object(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{what} is {quoted(value, 40)}, not an object")
    return value


def _settings(reply: dict[str, Any]) -> tuple[str, dict[str, float]]:
    """The version and thresholds the script read from gnubg (an older script, or another
    program, says neither: "" and none)."""
    version = reply.get("version")
    found = reply.get("thresholds")
    thresholds = {str(k): float(v) for k, v in found.items() if isinstance(v, (int, float))} if isinstance(found, dict) else {}
    return (str(version)[:40] if isinstance(version, str) else ""), thresholds


def _pairs(moves: Any) -> tuple[tuple[int, int], ...]:
    pairs = []
    for move in _list(moves, "a move"):
        source, target = _list(move, "a move's hop")
        pairs.append((_integer(source, "a point", 0, 25), _integer(target, "a point", 0, 25)))
    return tuple(pairs)


def _action(found: Any) -> EngineAction:
    found = _object(found, "an action")
    kind = found["action"]
    if not isinstance(kind, str):
        raise ValueError(f"an action's kind is {quoted(kind, 40)}")
    analysed = kind in ("move", "double", "take", "drop")
    cube = _object(found.get("cube"), "a cube decision")
    dice = _list(found.get("dice"), "the dice")
    if dice and len(dice) != 2:
        raise ValueError(f"the dice are {quoted(dice, 40)}")
    return EngineAction(
        action=kind, player=_integer(found["player"], "a player", 0 if analysed else -1, 1),
        dice=(_integer(dice[0], "a die", 1, 6), _integer(dice[1], "a die", 1, 6)) if dice else None, move=_pairs(found.get("move")),
        position_id=_text(found.get("board"), "a position"), candidates=_integer(found.get("candidates", 0), "the candidates", 0, 10**6),
        best=_pairs(found["best"]) if found.get("best") is not None else None,
        best_equity=_number(found.get("best_equity"), "an equity"), played_equity=_number(found.get("played_equity"), "an equity"),
        luck=_number(found.get("luck"), "the luck"), luck_cost=_number(found.get("luck_cost"), "the luck"),
        cube=CubeEquities(_equity(cube["nd"]), _equity(cube["dt"]), _equity(cube["dp"]), bool(cube["available"])) if cube else None,
        cube_value=_integer(found.get("cube_value", 1), "the cube", 1, 1 << 30), beaver=bool(found.get("beaver", False)),
    )  # fmt: skip


def _equity(value: Any) -> float:
    found = _number(value, "a cube equity")
    if found is None:
        raise ValueError("a cube equity is missing")
    return found


def _text(value: Any, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"{what} is {quoted(value, 40)}, not text")


def _match(reply: dict[str, Any]) -> EngineMatch:
    games = []
    for game in _list(reply["games"], "the games"):
        game = _object(game, "a game")
        stats = _object(game.get("stats"), "a game's statistics")
        actual = tuple(_number(_object(_object(stats.get(side), "a side's statistics").get("dice"), "the dice statistics")
                               .get("actual-result", 0.0), "a result") or 0.0 for side in ("X", "O"))  # fmt: skip
        games.append(EngineGame([_action(a) for a in _list(game["actions"], "the actions")], (actual[0], actual[1]), stats))
    return EngineMatch(games, _object(reply.get("stats"), "the statistics"))
