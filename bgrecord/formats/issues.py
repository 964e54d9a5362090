"""Issues: what bgrecord found wrong or noteworthy in a record, and exactly where.

Every layer reports through :class:`Issue`; none raises on bad content. An issue says
how bad (severity), what kind (category: ``format`` for what the reader could not read),
a stable code, a message in words, and where: path, line and column (1-based), game
(1-based index in the file) and move (the row number as written). In a binary file there are
no lines: ``unit`` says what ``line`` counts there ("record" in an eXtreme Gammon file, "ply"
in an OGXM match, "move" in a BGBlitz match, "byte" for an offset).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from bgrecord.escapes import one_line

MESSAGE = 1_000  # the most characters of an issue's message


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Issue:
    """One finding: how grave, its category and code (docs/checks.md), what is wrong, and where:
    the file, its line and column (or record, ply... as ``unit`` says), game and move."""

    severity: Severity
    category: str
    code: str
    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    game: int | None = None
    move: int | None = None
    excerpt: str = ""
    unit: str = "line"

    def __post_init__(self) -> None:
        # A message quotes (escapes.quoted), it never copies: past MESSAGE it is cut, whatever built it.
        if len(self.message) > MESSAGE:
            object.__setattr__(self, "message", f"{self.message[:MESSAGE]}... ({len(self.message) - MESSAGE:,} more characters)")
        if len(self.excerpt) > MESSAGE:
            object.__setattr__(self, "excerpt", self.excerpt[:MESSAGE])

    def __str__(self) -> str:
        """``path:line:column: severity[code] message``, one line whatever the path and the
        message hold (:func:`~bgrecord.escapes.one_line`)."""
        path = one_line(self.path) if self.path else None
        if self.unit == "line":
            where = ":".join(str(part) for part in (path or "<text>", self.line, self.column) if part is not None)
        else:
            where = f"{path or '<data>'}:{self.unit} {self.line}" if self.line is not None else path or "<data>"
        return f"{where}: {self.severity}[{self.code}] {one_line(self.message)}"

    def to_json(self) -> dict[str, object]:
        """The fields of the JSON outputs (docs/formats.md); the path is the report's."""
        return {
            "severity": self.severity.value, "category": self.category, "code": self.code, "message": self.message,
            "line": self.line, "column": self.column, "game": self.game, "move": self.move,
            **({"unit": self.unit} if self.unit != "line" else {}),
        }  # fmt: skip

    def at(self, **changes: object) -> Issue:
        """A copy with some fields changed (path, game, move...)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def format_issue(
    severity: Severity, code: str, message: str, line: int | None = None, column: int | None = None, excerpt: str = ""
) -> Issue:
    """An issue of the reader (category ``format``); path and game are added by the caller."""
    return Issue(severity, "format", code, message, line=line, column=column, excerpt=excerpt)


def count(number: int, word: str, plural: str | None = None) -> str:
    """A count in words, for reports and summaries: ``1 game``, ``2,262 games``, ``3 matches``."""
    return f"{number:,} {word}" if number == 1 else f"{number:,} {plural or word + 's'}"
