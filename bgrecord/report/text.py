"""The report as text for a terminal (``report --format text``): what the page says, in the
same order and with the same figures; each chart is said by its table (a player's matches,
each game's luck), each board in words with its Position ID and Match ID (``bgrecord board
ID`` draws it). Plain lines, read as well by a screen reader as by eyes."""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from bgrecord.core.position import Position
from bgrecord.report.figures import ArchivePlayers, MatchFigures, Report
from bgrecord.report.wording import ARCHIVE, GAME, NONE, PLAYED, SUMMARY, decision_words, figure, match_heading, told, where
from bgrecord.show.words import board_words


def columns(headers: Sequence[str], rows: Sequence[Sequence[str]], first_left: bool = True) -> list[str]:
    """A table as aligned lines: the first column to the left, numbers to the right."""
    widths = [max(len(row[i]) for row in (headers, *rows)) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 and first_left else cell.rjust(w) for i, (cell, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(headers), *(line(row) for row in rows)]


def _heading(text: str, underline: str) -> list[str]:
    return ["", text, underline * len(text)]


def report_text(report: Report, title: str) -> str:
    """The whole report as text."""
    return "\n".join(_lines(report, title)) + "\n"


def _lines(report: Report, title: str) -> Iterator[str]:
    matches = report.matches
    numbers = {id(match): number for number, match in enumerate(matches, 1)}
    yield title
    yield "=" * len(title)
    yield told(report)
    yield from _heading("Players", "-")
    rows = [[figure(key, player[key]) for _, key in ARCHIVE] for player in report.players]
    yield from columns([h for h, _ in ARCHIVE], rows)
    for player in report.players:
        played: list[tuple[MatchFigures, int]] = player["played"]
        if len(played) < 2:
            continue
        yield from _heading(f"{player['name']}: each match (PR over all decisions {figure('pr', player['pr'])})", "~")
        table = []
        for match, side in played:
            row = match.players[side]
            found = {"date": match.date or NONE, "opponent": match.names[1 - side], "match": f"match {numbers[id(match)]}"}
            table.append([found[key] if key in found else figure(key, row.get(key), match.length) for _, key in PLAYED])
        yield from columns([h for h, _ in PLAYED], table)
    yield from _heading("Matches", "-")
    for match in matches:
        yield from _match(match, numbers[id(match)], report.worst)


def _match(match: MatchFigures, number: int, worst: int) -> Iterator[str]:
    names = match.names
    yield from _heading(f"Match {number}: {match_heading(match)}", "~")
    skipped = f"; {match.skipped} games not analysed" if match.skipped else ""
    yield f"{match.file}, match {match.match}; {match.engine} at {match.plies} ply{skipped}."
    yield ""
    rows = [[label, *(figure(column, match.players[side].get(column), match.length) for side in (0, 1))] for label, column in SUMMARY]
    yield from columns(["Figure", *names], rows)
    for side in (0, 1) if match.games else ():
        yield ""
        yield f"The games of {names[side]}:"
        table = []
        for game in match.games:
            score = f"{game.score[0]}-{game.score[1]}{' (Crawford)' if game.crawford else ''}" if game.score else NONE
            found = game.figures(side)
            table.append([str(game.game), score, *(figure(key, found[key]) for _, key in GAME)])
        yield from columns(["Game", "Score before", *(label for label, _ in GAME)], table)
    for side in (0, 1) if worst else ():
        yield ""
        yield f"The worst decisions of {names[side]}:" if match.worst[side] else f"{names[side]}: no decision marked doubtful or worse."
        for row in match.worst[side]:
            yield from _decision(row, names)


def _decision(row: dict[str, Any], names: tuple[str, str]) -> Iterator[str]:
    yield f"- {where(row)}: {decision_words(row)}"
    player = int(row.get("player") or 0)
    on_roll = 1 - player if row.get("kind") in ("take", "pass") else player
    try:
        position = Position.from_id(str(row.get("position_id")), on_roll)
    except ValueError:
        return
    yield f"  {board_words(position, names, player)}"
    yield f"  Position ID {row.get('position_id')}, Match ID {row.get('match_id') or NONE}."


class RunSummary:
    """What ``bgrecord analyze`` says of its players at the end, at a terminal: a line for each
    player of each match when the matches are few, else the head of the archive's players
    table (the players of the most matches). Memory holds each name's sums and the first few
    matches' rows."""

    FEW = 4  # matches told player by player
    HEAD = 10  # players told of a larger archive

    def __init__(self) -> None:
        self.archive = ArchivePlayers()
        self.first: list[dict[str, Any]] = []
        self.matches: set[tuple[str, int]] = set()

    def add(self, rows: list[dict[str, Any]]) -> None:
        """Rows of the players table."""
        for row in rows:
            self.matches.add((str(row.get("file")), int(row.get("match") or 0)))
            self.archive.add(row)
            if len(self.matches) <= self.FEW:
                self.first.append(row)

    def lines(self) -> list[str]:
        if not self.matches:
            return []
        # Each player's line is indented under its heading: a line never starts with a record's text
        # (a name that reads "x.mat: error[...]" would pass for bgrecord's own message).
        if len(self.matches) <= self.FEW:
            return ["The players:", *(f"  {figure('name', row.get('name'))} (against {figure('name', row.get('opponent'))}, "
                                      f"{figure('file', row.get('file'))} match {row.get('match')}): PR {figure('pr', row.get('pr'))}, "
                                      f"{figure('rating', row.get('rating'))}; error rate {figure('error_rate', row.get('error_rate'))}; "
                                      f"luck {figure('luck', row.get('luck'))}" for row in self.first)]  # fmt: skip
        players = self.archive.figures()
        shown = players[: self.HEAD]
        said = f"The {len(shown)} players of the most matches, of {len(players)}:" if len(players) > len(shown) else "The players:"
        return [said, *(f"  {line}" for line in columns([h for h, _ in ARCHIVE], [[figure(key, p[key]) for _, key in ARCHIVE] for p in shown]))]
