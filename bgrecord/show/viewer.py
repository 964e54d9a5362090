"""The keyboard viewer of ``bgrecord replay --interactive``: one step at a time, every
announcement one plain line of words (made for screen readers as much as for eyes), the board
only on request. Works over ssh and in tmux: keys are read from the terminal, no mouse. The
keys follow the audio game rooms players know (Enter, C, I, S, T, D, Ctrl+D); :data:`KEYS`
lists them all, and ``?`` says them.
"""

from __future__ import annotations

import os
import select
import sys
from typing import Callable, Iterator, TextIO

from bgrecord.formats.numbers import number
from bgrecord.show.steps import StepRecord
from bgrecord.show.textreplay import ascii_shown, heading
from bgrecord.show.words import board_words, dice_words, game_heading, issue_words, point_words

# (key, its name as said in the help, what it does)
KEYS = (
    ("enter", "Enter, Space or Right arrow", "next step"),
    ("back", "B or Left arrow", "step back"),
    ("home", "Home", "first step"),
    ("end", "End", "last step"),
    ("down", "Down arrow or N", "next game"),
    ("up", "Up arrow", "previous game"),
    ("ctrl-d", "Ctrl+D", "next cube action"),
    ("e", "E", "next step with an error, warning or note"),
    ("m", "M", "next decision marked doubtful or worse, its error and the best play said"),
    ("shift-m", "Shift+M", "previous decision marked doubtful or worse"),
    ("r", "R", "say the step again"),
    ("c", "C", "the last dice roll"),
    ("i", "I", "game information"),
    ("s", "S", "the score"),
    ("t", "T", "whose turn it is"),
    ("d", "D", "the cube"),
    ("p", "P", "pip counts"),
    ("w", "W", "the board in words"),
    ("o", "O", "what is on one point (asks which)"),
    ("v", "V", "view the board as drawn"),
    ("g", "G", "go to a game (asks which)"),
    ("?", "? or H", "this help"),
    ("q", "Q, Esc or Ctrl+C", "quit"),
)
HELP = "Keys: " + "; ".join(f"{name}: {what}" for _, name, what in KEYS) + "."

# Terminal escape sequences (xterm, VT100 application mode, the Linux console) and the keys they are.
_SEQUENCES = {
    "\x1b[C": "enter", "\x1bOC": "enter", "\x1b[D": "back", "\x1bOD": "back", "\x1b[A": "up", "\x1bOA": "up",
    "\x1b[B": "down", "\x1bOB": "down", "\x1b[H": "home", "\x1bOH": "home", "\x1b[1~": "home", "\x1b[7~": "home",
    "\x1b[F": "end", "\x1bOF": "end", "\x1b[4~": "end", "\x1b[8~": "end", "\x1b": "q",
}  # fmt: skip
_LETTERS = {"\n": "enter", "\r": "enter", " ": "enter", "b": "back", "n": "down", "\x04": "ctrl-d", "h": "?", "\x03": "q"}


def key_name(typed: str) -> str:
    """The key a character or an escape sequence stands for ("" for an unknown sequence); a
    letter whatever its case, but M (Shift+M: back, as a screen reader's quick keys go back)."""
    if typed.startswith("\x1b"):
        return _SEQUENCES.get(typed, "")
    if typed == "M":
        return "shift-m"
    lowered = typed.lower()
    return _LETTERS.get(lowered, lowered)


class Viewer:
    """Steps through records; ``say`` receives each line to announce, ``ask`` asks a question;
    ``viewpoint``: the player whose numbering the points are said in, kept fixed (by default,
    the player on roll's)."""

    def __init__(self, records: list[StepRecord], say: Callable[[str], None], ask: Callable[[str], str],
                 viewpoint: int | None = None) -> None:  # fmt: skip
        self.records, self.say, self.ask, self.viewpoint = records, say, ask, viewpoint
        self.index = -1  # no step shown yet
        self.games = sorted({r.game for r in records})
        self.marked = [i for i, r in enumerate(records) if r.analysis and any(row.get("mark") for row in r.analysis)]

    @property
    def current(self) -> StepRecord | None:
        return self.records[self.index] if 0 <= self.index < len(self.records) else None

    def start(self) -> None:
        games = len(self.games)
        errors = sum(1 for r in self.records for i in r.issues if i.severity.value == "error")
        found = f" The record has {errors} error{'s' if errors != 1 else ''}: E goes to each." if errors else ""
        if self.marked:
            found += f" {len(self.marked)} decision{'s are' if len(self.marked) != 1 else ' is'} marked doubtful or worse: M goes to each."
        self.say(f"{len(self.records)} steps in {games} game{'s' if games != 1 else ''}.{found} Press Enter for the first step, ? for help.")

    def handle(self, typed: str) -> bool:
        """React to one key (a character or an escape sequence); False to quit."""
        key = key_name(typed)
        if key == "q":
            self.say("Goodbye.")
            return False
        actions: dict[str, Callable[[], None]] = {
            "enter": self.next, "back": self.back, "home": lambda: self.go_to(0), "end": lambda: self.go_to(len(self.records) - 1),
            "down": lambda: self.other_game(1), "up": lambda: self.other_game(-1), "ctrl-d": self.next_cube,
            "e": self.next_issue, "m": lambda: self.mistake(1), "shift-m": lambda: self.mistake(-1),
            "r": self.again, "c": self.dice, "i": self.info, "s": self.score, "t": self.turn,
            "d": self.cube, "p": self.pips, "w": self.board_in_words, "o": self.one_point, "v": self.board,
            "g": self.go, "?": self.help,
        }  # fmt: skip
        action = actions.get(key)
        if action is None:
            self.say("Unknown key: ? lists the keys.")
        else:
            action()
        return True

    def help(self) -> None:
        self.say(HELP)

    # --- moving ---

    def show(self, opening: bool = True, prefix: str = "") -> None:
        """Say the current step; with a ``prefix`` (a mistake gone to), its mistakes in words
        instead of the whole analysis."""
        record = self.current
        assert record is not None
        said = prefix + (f"{record.opening}. " if opening and record.opening else "")
        said += f"{heading(record)}: {record.words}."
        if record.analysis:
            from bgrecord.show.annotate import analysis_words, mistake_words

            told = mistake_words if prefix else analysis_words
            said += f" {told(record.analysis, record.player, self.viewpoint)}"
        said += "".join(f" {issue_words(issue)}" for issue in record.issues)
        if record.closing:
            said += f" {record.closing}."
        self.say(said)

    def go_to(self, index: int) -> None:
        if not self.records:
            self.say("The record has no steps.")
            return
        self.index = max(0, min(len(self.records) - 1, index))
        self.show()

    def next(self) -> None:
        if self.index + 1 >= len(self.records):
            self.say("End of the record." + (f" {self.records[-1].closing}." if self.records and self.records[-1].closing else ""))
            return
        self.index += 1
        self.show()

    def back(self) -> None:
        if self.index <= 0:
            self.index = -1
            self.say("Start of the record.")
            return
        self.index -= 1
        self.show(opening=False)

    def find(self, wanted: Callable[[StepRecord], bool], none: str) -> None:
        """The next step (after the current one) that is ``wanted``."""
        found = next((i for i in range(self.index + 1, len(self.records)) if wanted(self.records[i])), None)
        if found is None:
            self.say(none)
            return
        self.index = found
        self.show()

    def mistake(self, direction: int) -> None:
        """The next (``direction`` 1) or previous (-1) step with a decision marked doubtful or worse."""
        if not self.marked:
            analysed = any(r.analysis is not None for r in self.records)
            self.say("No decision is marked doubtful or worse." if analysed else
                     "No analysis: replay -i with --analyze, or --analysis FILE, marks the mistakes.")  # fmt: skip
            return
        found = [i for i in self.marked if (i > self.index if direction > 0 else 0 <= i < self.index)]
        if not found:
            self.say("No more mistakes." if direction > 0 else "No mistake before this step.")
            return
        self.index = found[0] if direction > 0 else found[-1]
        self.show(prefix=f"Mistake {self.marked.index(self.index) + 1} of {len(self.marked)}. ")

    def next_cube(self) -> None:
        self.find(lambda r: r.action in ("double", "take", "drop", "beaver", "raccoon"), "No more cube actions.")

    def next_issue(self) -> None:
        self.find(lambda r: bool(r.issues), "No more steps with an error, a warning or an info.")

    def other_game(self, direction: int) -> None:
        game = self.current.game if self.current else (self.games[0] - 1 if direction > 0 and self.games else 0)
        later = [g for g in self.games if (g > game if direction > 0 else g < game)]
        if not later:
            self.say("No next game." if direction > 0 else "No previous game.")
            return
        self.go_to_game(later[0] if direction > 0 else later[-1])

    def go_to_game(self, game: int) -> None:
        self.index = next(i for i, r in enumerate(self.records) if r.game == game)
        self.show()

    def go(self) -> None:
        if not self.games:
            self.say("The record has no games.")
            return
        answer = self.ask(f"Go to game ({self.games[0]}-{self.games[-1]}): ").strip()
        if not answer:
            self.say("No game chosen." if self.current is None else f"Staying at game {self.current.game}.")
            return
        chosen = number(answer, 1 << 20)
        if chosen is None or chosen not in self.games:
            self.say(f"There is no game {answer[:20]}: the games are {self.games[0]} to {self.games[-1]}.")
            return
        self.go_to_game(chosen)

    def again(self) -> None:
        if self.current is None:
            self.say("No step shown yet.")
        else:
            self.show()

    # --- questions ---

    def dice(self) -> None:
        game = self.current.game if self.current else 0
        rolls = [r for r in self.records[: self.index + 1] if r.dice and r.game == game]
        if not rolls:
            self.say("No dice rolled yet in this game.")
        else:
            self.say(f"{rolls[-1].name} rolled {dice_words(rolls[-1].dice)}.")  # type: ignore[arg-type]

    def info(self) -> None:
        record = self.current or (self.records[0] if self.records else None)
        if record is None:
            self.say("The record has no steps.")
            return
        heading = game_heading(record.game_in_match, record.length, record.match_state.crawford, record.match if record.match > 1 else None)
        self.say(f"{heading}, between {record.names[0]} and {record.names[1]}.")

    def score(self) -> None:
        record = self.current
        if record is None:
            self.say("No step shown yet.")
            return
        names = record.names
        self.say(f"Score before this game: {names[0]} {record.score[0]}, {names[1]} {record.score[1]}"
                 + (f", of {record.length}." if record.length else "."))  # fmt: skip

    def turn(self) -> None:
        record = self.current
        if record is None:
            self.say("No step shown yet.")
            return
        if record.game_over:
            self.say(f"The game is over. {record.closing or ''}".rstrip() + ("" if (record.closing or "").endswith(".") else "."))
        elif not record.checked or record.after is None and record.action != "double":
            self.say("Not known: the replay could not follow the record here.")
        elif record.action in ("double", "beaver", "raccoon") and record.player is not None:
            self.say(f"{record.names[1 - record.player]} is to answer {record.name}'s {record.action}.")
        else:
            assert record.after is not None
            self.say(f"{record.names[record.after.turn]} is on roll.")

    def cube(self) -> None:
        record = self.current
        if record is None:
            self.say("The cube is at 1, in the middle.")
            return
        owner = "in the middle" if record.cube_owner_after is None else f"owned by {record.names[record.cube_owner_after]}"
        offered = f"; {record.name} offers it at {record.cube * 2}" if record.action == "double" else ""
        self.say(f"The cube is at {record.cube_after}, {owner}{offered}.")

    def board_needed(self) -> StepRecord | None:
        """The step shown, where it has a board (:attr:`StepRecord.board`: after the step, or before
        an action that does not replay as written, which the words then say)."""
        record = self.current
        if record is None or record.board is None:
            self.say("No board here: no step shown yet." if record is None else "No board here: the replay could not follow the record.")
            return None
        return record

    def before_said(self, record: StepRecord) -> str:
        """Where the board shown stands before the step (the action did not replay as written)."""
        return "Before this step, as the record does not replay as written here. " if not record.shows_after else ""

    def pips(self) -> None:
        record = self.board_needed()
        if record is not None:
            pips = record.board.pips()  # type: ignore[union-attr]
            self.say(f"{self.before_said(record)}Pip counts: {record.names[0]} {pips[0]}, {record.names[1]} {pips[1]}.")

    def board_in_words(self) -> None:
        record = self.board_needed()
        if record is not None:
            self.say(self.before_said(record) + board_words(record.board, record.names, self.viewpoint))  # type: ignore[arg-type]

    def one_point(self) -> None:
        record = self.board_needed()
        if record is None:
            return
        answer = self.ask("Which point (1-24, or bar)? ").strip().lower()
        chosen = "bar" if answer in ("bar", "b", "0", "25") else number(answer, 24)
        if chosen is None or chosen == 0:
            self.say(f"There is no point {answer[:20] or 'given'}: the points are 1 to 24, and the bar.")
            return
        self.say(self.before_said(record) + point_words(record.board, record.names, chosen, self.viewpoint))  # type: ignore[arg-type]

    def board(self) -> None:
        record = self.board_needed()
        if record is not None:
            before = self.before_said(record)
            if before:
                self.say(before.rstrip())
            for line in ascii_shown(record).splitlines():
                self.say(line)


def terminal_keys(stdin: TextIO) -> Iterator[str]:
    """Keys typed at a terminal in cbreak mode: a character, or an escape sequence read whole."""
    fd = stdin.fileno()
    while True:
        first = os.read(fd, 1).decode("utf-8", "replace")
        if not first:
            return
        if first != "\x1b":
            yield first
            continue
        sequence = first
        while select.select([fd], [], [], 0.05)[0]:  # the rest of a sequence arrives at once
            sequence += os.read(fd, 1).decode("utf-8", "replace")
            if sequence[-1].isalpha() or sequence[-1] == "~" or len(sequence) > 6:
                break
        yield sequence


def line_keys(stdin: TextIO) -> Iterator[str]:
    """Keys from plain input (a pipe, a file): a key a line, an escape sequence as typed."""
    for line in stdin:
        text = line.rstrip("\n")
        yield text if text.startswith("\x1b") else text[:1] or "\n"


def run(records: list[StepRecord], stdin: TextIO | None = None, stdout: TextIO | None = None, viewpoint: int | None = None) -> None:
    """The viewer on a terminal (keys without Enter) or on plain input (a key a line); the
    standard streams by default, as they are when it runs. ``stdin``: where the keys are read
    (the terminal, ``/dev/tty``, when the record came on standard input)."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout

    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    if not stdin.isatty():

        def ask_line(prompt: str) -> str:
            stdout.write(prompt)
            stdout.flush()
            return stdin.readline()

        viewer = Viewer(records, say, ask_line, viewpoint)
        viewer.start()
        for key in line_keys(stdin):
            if not viewer.handle(key):
                return
        return

    import termios
    import tty

    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)

    def ask(prompt: str) -> str:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)  # a whole line, echoed and editable
        stdout.write(prompt)
        stdout.flush()
        typed = b""
        try:
            while not typed.endswith(b"\n") and len(typed) < 256:
                byte = os.read(fd, 1)
                if not byte:
                    break
                typed += byte
            return typed.decode("utf-8", "replace")
        finally:
            tty.setcbreak(fd)

    viewer = Viewer(records, say, ask, viewpoint)
    try:
        tty.setcbreak(fd)
        viewer.start()
        for key in terminal_keys(stdin):
            if not viewer.handle(key):
                return
    except KeyboardInterrupt as stop:  # Ctrl+C: quit as Q does
        viewer.handle("q")
        if type(stop) is not KeyboardInterrupt:  # SIGTERM or SIGHUP (a subclass): the run ends with its status, 143 or 129
            raise
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
