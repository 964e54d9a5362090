"""Who played each game of a .mat match: its columns, read from the score lines with the slips
of a transcriber's pen told apart from what a record may really do.

Each game's score line names the left and the right player (``Alice : 2   Bob : 0``), and columns
may swap between games (a transcriber who puts his own name on the left). Against the columns of
the game before, a score line may say:

- the same two names in the other order, its numbers fitting the columns (Alice's score under
  Bob's name): the names are in the other order than the columns (``names-order``, a warning);
  the game is read with the columns' names, and nobody is credited wrongly;
- the two names in the other order with their numbers (the whole cells swapped): a swap of
  columns or a slip; the next score line tells (:meth:`Columns.judge`): where it follows the
  columns and not the names, it was a slip, said at this score line;
- one name spelt otherwise (``Alise`` for ``Alice``: a letter or two apart): the same player
  (``name-spelling``, a warning, once a match for each spelling; none where the names differ
  only by case and spacing), so that the statistics keep two players.

Anything else (other players) is taken as written. Only .mat-like records are read so: the
other formats name their players in fields of their own.
"""

from __future__ import annotations

from dataclasses import replace

from bgrecord.escapes import quoted
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import GameRecord, MatchRecord
from bgrecord.names import person

Names = tuple[str, str]


class Columns:
    """The players of the games of one match, game by game."""

    def __init__(self, match: MatchRecord) -> None:
        self.match = match
        self.on = match.format == "mat"
        self.names: Names | None = None  # the columns of the game before
        self.spelt: set[tuple[str, str]] = set()  # the other spellings said (each once a match)

    def read(self, game: GameRecord, after: dict[str, int] | None) -> tuple[GameRecord, Issue | None, GameRecord | None]:
        """``game`` with its players as its columns say, the warning where its score line's names
        are a slip, and the reading to judge by the next score line (the whole cells swapped)."""
        names, known = game.names, self.names
        people = _people(names)  # a name compared as a person (NFC, nothing invisible)
        if not self.on or known is None or people == _people(known) or "" in people or people[0] == people[1]:
            self.names = names if self.on and "" not in people and people[0] != people[1] else known
            return game, None, None
        if people == _people((known[1], known[0])):
            scores = game.scores
            by_columns = after is not None and None not in scores and scores == (after.get(known[0]), after.get(known[1]))
            by_names = after is not None and None not in scores and scores == (after.get(known[1]), after.get(known[0]))
            if by_columns and not by_names:
                said = (f"the score line names {quoted(names[0])} and {quoted(names[1])} in the other order than the columns of the game "
                        f"before, and its scores are theirs in that order: read as {quoted(known[0])} on the left, as before")  # fmt: skip
                return replace(game, names=known), self.warning(game, "names-order", said), None
            swapped = replace(game, names=known, scores=(scores[1], scores[0]), score_columns=(game.score_columns[1], game.score_columns[0]))
            return game, None, swapped  # a swap of the columns, or of the whole cells: the next score line tells (judge)
        close = [side for side in (0, 1) if people[1 - side] == person(known[1 - side]) and _close(people[side], person(known[side]))]
        if close:
            side = close[0]
            written, spelling = people[side], person(known[side])
            if written.casefold().split() == spelling.casefold().split() or (written, spelling) in self.spelt:
                return replace(game, names=known), None, None  # the same name but for case and spacing, or a spelling said once already
            self.spelt.add((written, spelling))
            said = f"{quoted(names[side])} is read as {quoted(known[side])}, the player of this column in the game before: a name spelt otherwise"
            return replace(game, names=known), self.warning(game, "name-spelling", said), None
        self.names = names
        return game, None, None

    def judge(self, held: GameRecord, swapped: GameRecord, slip: bool) -> Issue | None:
        """``held`` swapped the columns with their scores; ``slip``: the next score line follows its
        columns, not its names, so its names were a slip (the whole cells swapped), said; else the
        columns did swap, and stand so from there."""
        if not slip:
            self.names = held.names
            return None
        self.names = swapped.names
        said = (f"the score line names {quoted(held.names[0])} and {quoted(held.names[1])} in the other order than the columns of the game "
                f"before, with their scores: the next score line follows the columns, so it is read as {quoted(swapped.names[0])} on the "
                "left, as before (the game is credited to the player who played it)")  # fmt: skip
        return self.warning(held, "names-order", said)

    def warning(self, game: GameRecord, code: str, message: str) -> Issue:
        line = game.score_line if game.score_line is not None else game.line
        return Issue(Severity.WARNING, "score", code, message, self.match.path, line, game.score_columns[0], game.index, unit=self.match.unit)


def _people(names: Names) -> Names:
    return person(names[0]), person(names[1])


def _close(one: str, other: str) -> bool:
    """Whether two names are one spelt otherwise: a letter or two changed, added or left out (of a
    name of four letters or more), two letters the other way round, or the same but for case and
    spacing."""
    if one.casefold().split() == other.casefold().split():
        return True
    swapped = [at for at, (a, b) in enumerate(zip(one, other)) if a != b]
    if len(one) == len(other) >= 4 and len(swapped) == 2 and swapped[1] == swapped[0] + 1 and one[swapped[0]] == other[swapped[1]]:
        return one[swapped[1]] == other[swapped[0]]  # two letters the other way round: "gnbug" for "gnubg"
    if min(len(one), len(other)) < 4 or abs(len(one) - len(other)) > 2 or max(len(one), len(other)) > 64:
        return False
    limit = 1 if min(len(one), len(other)) < 7 else 2
    previous = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):  # edit distance, row by row
        current = [i]
        for j, b in enumerate(other, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        if min(current) > limit:
            return False
        previous = current
    return previous[-1] <= limit
