"""GNU Backgammon as an analysis engine, run as a program (its licence is the GPL; bgrecord
never imports it): one long-lived ``gnubg -t -q -r -p gnubg_script.py`` process fed match
after match through its standard input and output (:mod:`bgrecord.analysis.gnubg_script`
runs inside it). Starting gnubg costs about a tenth of a second; analysing a 7-point match
at 0 ply about three.

A match that makes gnubg crash or take longer than ``timeout`` seconds is an
:class:`~bgrecord.analysis.engine.EngineError` for that match; the process is stopped and
started again for the next one. ``BGRECORD_GNUBG`` names the program where it is not
``gnubg`` on the ``PATH`` or Debian's ``/usr/games/gnubg``.
"""

from __future__ import annotations

import json
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

SCRIPT = Path(__file__).with_name("gnubg_script.py")
TAG = b"@bgrecord "
DEFAULT_TIMEOUT = 600.0  # seconds for one match: a long match at 2 ply takes about a minute
START_TIMEOUT = 60.0
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
        self.timeout = timeout if timeout is not None else DEFAULT_TIMEOUT
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._log: IO[bytes] | None = None  # what gnubg says on standard error (a file with no name: nothing left behind)
        self.version = ""  # gnubg's version and its analysis thresholds, as its script reads them at start
        self.thresholds: dict[str, float] = {}

    # --- the process ---

    def _start(self) -> subprocess.Popen[bytes]:
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        self._buffer = b""
        try:
            process = subprocess.Popen(
                [self.executable, "-t", "-q", "-r", "-p", str(SCRIPT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._log, start_new_session=True,  # Ctrl-C is for bgrecord, which stops gnubg
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
        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                try:
                    process.stdin.close()
                except OSError:
                    pass
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except OSError:
                    process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
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
        """The next ``@bgrecord`` line from gnubg, within ``timeout`` seconds."""
        process = self._process
        assert process is not None and process.stdout is not None
        stream = process.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while True:
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    if line.startswith(TAG):
                        try:
                            reply: dict[str, Any] = json.loads(line[len(TAG) :])
                        except ValueError:
                            raise self._failed(f"gnubg's reply could not be read ({doing})") from None
                        return reply
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise self._failed(f"gnubg took longer than {timeout:g} s ({doing})")
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
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except OSError:
                process.kill()
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
        try:
            process.stdin.write(request.encode())
            process.stdin.flush()
        except OSError:
            raise self._failed(f"gnubg stopped before the match was sent{self._tail()}") from None
        reply = self._reply(self.timeout, "on this match")
        self._forget_log()
        if not reply.get("ok"):
            raise EngineError(f"gnubg could not analyse the match ({reply.get('error', 'no reason given')})")
        try:
            return _match(reply)
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError(f"gnubg's reply could not be read ({type(exc).__name__}: {exc})") from None


def _settings(reply: dict[str, Any]) -> tuple[str, dict[str, float]]:
    """The version and thresholds the script read from gnubg (an older script, or another
    program, says neither: "" and none)."""
    version = reply.get("version")
    found = reply.get("thresholds")
    thresholds = {str(k): float(v) for k, v in found.items() if isinstance(v, (int, float))} if isinstance(found, dict) else {}
    return (str(version)[:40] if isinstance(version, str) else ""), thresholds


def _pairs(moves: Any) -> tuple[tuple[int, int], ...]:
    return tuple((int(source), int(target)) for source, target in moves or ())


def _action(found: dict[str, Any]) -> EngineAction:
    cube = found.get("cube")
    dice = found.get("dice")
    return EngineAction(
        action=str(found["action"]), player=int(found["player"]),
        dice=(int(dice[0]), int(dice[1])) if dice else None, move=_pairs(found.get("move")),
        position_id=found.get("board"), candidates=int(found.get("candidates", 0)),
        best=_pairs(found["best"]) if found.get("best") is not None else None,
        best_equity=found.get("best_equity"), played_equity=found.get("played_equity"),
        luck=found.get("luck"), luck_cost=found.get("luck_cost"),
        cube=CubeEquities(float(cube["nd"]), float(cube["dt"]), float(cube["dp"]), bool(cube["available"])) if cube else None,
        cube_value=int(found.get("cube_value", 1)), beaver=bool(found.get("beaver", False)),
    )  # fmt: skip


def _match(reply: dict[str, Any]) -> EngineMatch:
    games = []
    for game in reply["games"]:
        stats = game.get("stats") or {}
        actual = tuple(float(((stats.get(side) or {}).get("dice") or {}).get("actual-result", 0.0)) for side in ("X", "O"))
        games.append(EngineGame([_action(a) for a in game["actions"]], (actual[0], actual[1]), stats))
    return EngineMatch(games, reply.get("stats") or {})
