"""The keyboard viewer of ``bgrecord replay --interactive``: one step at a time, every
announcement one plain line of words (made for screen readers as much as for eyes), the board
only on request. Works over ssh and in tmux: keys are read from the terminal, no mouse.

Keys: Enter next step, B back, C last dice roll, I game information, S score, T whose turn,
D cube, P pip counts, V view the board, G go to a game, ? help, Q quit.
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from bgrecord.board import ascii_board
from bgrecord.formats.numbers import number
from bgrecord.steps import StepRecord

HELP = (
    "Keys: Enter next step, B back, C last dice roll, I game information, S score, T whose turn, "
    "D cube, P pip counts, V view the board, G go to a game, ? this help, Q quit."
)


class Viewer:
    """Steps through records; ``say`` receives each line to announce."""

    def __init__(self, records: list[StepRecord], say: Callable[[str], None], ask: Callable[[str], str]) -> None:
        self.records, self.say, self.ask = records, say, ask
        self.index = -1  # no step shown yet

    @property
    def current(self) -> StepRecord | None:
        return self.records[self.index] if 0 <= self.index < len(self.records) else None

    def start(self) -> None:
        games = len({r.game for r in self.records})
        self.say(f"{len(self.records)} steps in {games} game{'s' if games != 1 else ''}. Press Enter for the first step, ? for help.")

    def handle(self, key: str) -> bool:
        """React to one key; False to quit."""
        key = key.lower()
        if key in ("q", "\x04"):
            self.say("Goodbye.")
            return False
        actions: dict[str, Callable[[], None]] = {
            "\n": self.next, "\r": self.next, " ": self.next, "b": self.back, "c": self.dice, "i": self.info,
            "s": self.score, "t": self.turn, "d": self.cube, "p": self.pips, "v": self.board, "g": self.go,
            "?": self.help,
        }  # fmt: skip
        action = actions.get(key)
        if action is None:
            self.say(f"Unknown key {key!r}. {HELP}")
        else:
            action()
        return True

    def help(self) -> None:
        self.say(HELP)

    def show(self) -> None:
        record = self.current
        assert record is not None
        issues = "".join(f" Note: {issue.severity} {issue.code}, {issue.message}." for issue in record.issues)
        self.say(f"Game {record.game}, move {record.move or '-'}: {record.words}.{issues}")

    def next(self) -> None:
        if self.index + 1 >= len(self.records):
            self.say("End of the record.")
            return
        self.index += 1
        self.show()

    def back(self) -> None:
        if self.index <= 0:
            self.index = -1
            self.say("Start of the record.")
            return
        self.index -= 1
        self.show()

    def dice(self) -> None:
        rolls = [r for r in self.records[: self.index + 1] if r.dice and r.game == (self.current.game if self.current else 0)]
        if not rolls:
            self.say("No dice rolled yet in this game.")
        else:
            last = rolls[-1]
            self.say(f"{last.name} rolled {last.dice[0]}-{last.dice[1]}.")  # type: ignore[index]

    def info(self) -> None:
        record = self.current or (self.records[0] if self.records else None)
        if record is None:
            self.say("The record has no steps.")
            return
        state = record.match_state
        length = f"a {state.length} point match" if state.length else "money play"
        names = [r.name for r in self.records if r.game == record.game]
        players = " and ".join(dict.fromkeys(names))
        crawford = ", the Crawford game" if state.crawford else ""
        self.say(f"Game {record.game} of {length}{crawford}, between {players}.")

    def score(self) -> None:
        record = self.current
        if record is None:
            self.say("No step shown yet.")
            return
        names = record.names
        self.say(f"Score before this game: {names[0]} {record.score[0]}, {names[1]} {record.score[1]}.")

    def turn(self) -> None:
        record = self.current
        if record is None or record.after is None:
            self.say("No step shown yet.")
            return
        self.say(f"{record.names[record.after.turn]} is on roll.")

    def cube(self) -> None:
        record = self.current
        if record is None:
            self.say("The cube is at 1, in the middle.")
            return
        owner = "in the middle" if record.cube_owner is None else f"owned by {record.names[record.cube_owner]}"
        self.say(f"The cube is at {record.cube}, {owner}.")

    def pips(self) -> None:
        record = self.current
        if record is None or record.after is None:
            self.say("No step shown yet.")
            return
        names, pips = record.names, record.after.pips()
        self.say(f"Pip counts: {names[0]} {pips[0]}, {names[1]} {pips[1]}.")

    def board(self) -> None:
        record = self.current
        if record is None or record.after is None:
            self.say("No step shown yet.")
            return
        for line in ascii_board(record.after, names=record.names).splitlines():
            self.say(line)

    def go(self) -> None:
        games = sorted({r.game for r in self.records})
        answer = self.ask(f"Go to game ({games[0]}-{games[-1]}): ").strip() if games else ""
        chosen = number(answer, 1 << 20)
        if chosen is None or chosen not in games:
            self.say(f"No game {answer[:20] or '?'}.")
            return
        self.index = next(i for i, r in enumerate(self.records) if r.game == chosen)
        self.show()


def run(records: list[StepRecord], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
    """The viewer on a terminal (keys without Enter) or on plain input (a key per line)."""

    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    if stdin.isatty():
        import termios
        import tty

        fd = stdin.fileno()
        saved = termios.tcgetattr(fd)

        def ask(prompt: str) -> str:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)  # a whole line, echoed
            stdout.write(prompt)
            stdout.flush()
            try:
                return stdin.readline()
            finally:
                tty.setcbreak(fd)

        try:
            tty.setcbreak(fd)
            viewer = Viewer(records, say, ask)
            viewer.start()
            while viewer.handle(stdin.read(1) or "q"):
                pass
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        return

    def ask_line(prompt: str) -> str:
        stdout.write(prompt)
        stdout.flush()
        return stdin.readline()

    viewer = Viewer(records, say, ask_line)
    viewer.start()
    for line in stdin:
        if not viewer.handle(line[:1] or "\n"):
            break
