"""``bgrecord replay --format text``: each step in words, the issues that stand at it (said in
words, as the keyboard viewer says them), and the board after it, or before it where the action
does not replay as written (GNU Backgammon's ASCII drawing with the cube as it stands, or the
board in words for a screen reader)."""

from __future__ import annotations

from bgrecord.core.ids import MatchState
from bgrecord.show.board import ascii_board
from bgrecord.show.steps import StepRecord
from bgrecord.show.words import board_words, issue_words

_SHOWN = ("move", "take", "drop", "setup", "beaver", "raccoon")  # the actions after which the board is drawn


def heading(record: StepRecord) -> str:
    """``Game 1, move 3`` (no move for a step without a row number)."""
    return f"Game {record.game}" + (f", move {record.move}" if record.move else "")


def ascii_shown(record: StepRecord) -> str:
    """The board of ``record`` (:attr:`StepRecord.board`: after it, or before an action that does
    not replay as written) as gnubg draws it, with the cube as it stands there, score and length."""
    position = record.board
    assert position is not None
    after = record.shows_after
    on_roll = position.turn
    state = MatchState(cube=record.cube_after if after else record.cube, cube_owner=record.cube_owner_after if after else record.cube_owner,
                       player=on_roll, turn=on_roll, crawford=record.match_state.crawford, length=record.length, score=record.score)  # fmt: skip
    return ascii_board(position, state, record.names)


def text_lines(record: StepRecord, board: str = "ascii", viewpoint: int | None = None) -> list[str]:
    """The lines ``replay --format text`` writes for ``record``; ``board``: ``ascii``, ``words``
    or ``none``; ``viewpoint``: the player whose numbering the words keep (the board in words,
    the analysis' best play), by default the player on roll's."""
    lines = [f"{record.opening}."] if record.opening else []
    lines.append(f"{heading(record)}: {record.words}.")
    if record.analysis:
        from bgrecord.show.annotate import analysis_words

        lines.append(f" {analysis_words(record.analysis, record.player, viewpoint)}")
    lines += [f" {issue_words(issue)}" for issue in record.issues]
    if board != "none" and record.board is not None and record.action in _SHOWN:
        lines.append(f" {board_words(record.board, record.names, viewpoint)}" if board == "words" else ascii_shown(record).rstrip("\n"))
    if record.closing:
        lines.append(f"{record.closing}.")
    return lines
