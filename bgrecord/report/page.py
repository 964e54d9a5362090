"""The report as one static HTML page (no script, no server, nothing fetched): the players of
the archive (a table, and for each player of several matches their PR match after match as a
chart, with the table of their matches), then each match: its summary (the players table's
figures, as gnubg's ``show statistics`` and eXtreme Gammon's match summary give them), its
games (each player's decisions, error, PR, rating and luck), the luck of each game as a chart,
and each player's worst decisions, each with its board.

For screen readers: headings for every part, tables with captions and headers, each board
and chart an image with a title and a description in words. Every figure cell names its
row or column (``data-column``, in the order of :mod:`~bgrecord.report.wording`), so that a
program (the tests) can read the page back against the tables.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable, Sequence

from bgrecord.core.ids import MatchState
from bgrecord.core.position import Position
from bgrecord.report import charts
from bgrecord.report.figures import MatchFigures, Report
from bgrecord.report.wording import ARCHIVE, GAME, NONE, PLAYED, SUMMARY, decision_words, figure, match_heading, told, where
from bgrecord.show import svg
from bgrecord.show.words import board_words

_STYLE = """
body { font-family: sans-serif; margin: 1em auto; max-width: 72em; padding: 0 1em; background: #faf8f2; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
caption { text-align: left; font-weight: bold; padding: 0.3em 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; }
td { text-align: right; font-variant-numeric: tabular-nums; }
td.text, th[scope=row], tr[data-game] td:nth-of-type(1) { text-align: left; }
section.match { border-top: 2px solid #6b4f2a; margin-top: 2em; }
.boards { display: flex; flex-wrap: wrap; gap: 1em; }
.boards figure { margin: 0; width: 300px; }
.boards svg { width: 100%; height: auto; }
svg.chart { max-width: 100%; height: auto; }
"""


def _attributes(attributes: dict[str, Any]) -> str:
    return "".join(f' {name}="{escape(str(value))}"' for name, value in attributes.items() if value is not None)


def _cell(text: str, tag: str = "td", **attributes: Any) -> str:
    return f"<{tag}{_attributes(attributes)}>{escape(text)}</{tag}>"


def _table(caption: str, headers: Sequence[str], rows: Iterable[str]) -> str:
    head = "".join(f'<th scope="col">{escape(header)}</th>' for header in headers)
    return f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def page(report: Report, title: str) -> str:
    """The whole page of ``report``."""
    matches = report.matches
    ids = {id(match): f"match-{number}" for number, match in enumerate(matches, 1)}
    summary = told(report)
    contents = "".join(f'<li><a href="#{ids[id(m)]}">{escape(match_heading(m))}</a></li>' for m in matches)
    parts = [
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<style>{_STYLE}</style></head><body>{svg.shared_defs()}<header><h1>{escape(title)}</h1><p>{escape(summary)}</p>",
        "<p>Figures as GNU Backgammon defines them (docs/analysis.md): errors and luck in EMG, PR = 500 &times; error per "
        "decision, error rate in mEMG per decision.</p>",
        f"<nav aria-label='Contents'><ul><li><a href='#players'>Players</a></li><li><a href='#matches'>Matches</a><ul>{contents}"
        "</ul></li></ul></nav></header><main>",
        _players(report, ids),
        "<section aria-labelledby='matches'><h2 id='matches'>Matches</h2>",
        *(_match(match, ids[id(match)], report.worst) for match in matches),
        "</section></main></body></html>\n",
    ]
    return "".join(parts)


def _players(report: Report, ids: dict[int, str]) -> str:
    rows = []
    for number, player in enumerate(report.players, 1):
        cells = [_cell(figure(key, player[key]), "th" if key == "name" else "td", scope="row" if key == "name" else None,
                       **{"data-column": key}) for _, key in ARCHIVE]  # fmt: skip
        rows.append(f'<tr data-name="{escape(player["name"])}" id="player-{number}">{"".join(cells)}</tr>')
    parts = ["<section aria-labelledby='players'><h2 id='players'>Players</h2>",
             _table("Each player over the matches of the report (PR and rates over all their decisions)", [h for h, _ in ARCHIVE], rows)]  # fmt: skip
    for number, player in enumerate(report.players, 1):
        if len(player["played"]) > 1:
            parts.append(_player(player, f"player-{number}-pr", ids))
    return "".join(parts) + "</section>"


def _player(player: dict[str, Any], ident: str, ids: dict[int, str]) -> str:
    name = player["name"]
    played: list[tuple[MatchFigures, int]] = player["played"]
    labels = [m.date[:10] if m.date else f"#{ids[id(m)][6:]}" for m, _ in played]
    values = [m.players[side].get("pr") for m, side in played]
    said = [f"{m.date or 'undated'}, against {m.names[1 - side]}: PR {figure('pr', m.players[side].get('pr'))}" for m, side in played]
    dated = [m.date for m, _ in played if m.date]
    span = f" from {dated[0][:10]} to {dated[-1][:10]}" if dated else ""
    known = [v for v in values if v is not None]
    description = (f"PR of {name} in each of {len(played)} matches{span}, in order"
                   + (f": lowest {figure('pr', min(known))}, highest {figure('pr', max(known))}" if known else "")
                   + f"; over all their decisions {figure('pr', player['pr'])}. The table below gives each match.")  # fmt: skip
    chart = charts.line(ident, f"PR of {name}, match after match", description, labels, values, said,
                        (player["pr"], f"PR over all decisions: {figure('pr', player['pr'])}") if player["pr"] is not None else None)  # fmt: skip
    rows = []
    for match, side in played:
        row = match.players[side]
        cells = []
        for _, key in PLAYED:
            if key == "date":
                cells.append(_cell(match.date or NONE, **{"class": "text"}))
            elif key == "match":
                cells.append(f'<td class="text"><a href="#{ids[id(match)]}">{escape(match_heading(match))}</a></td>')
            elif key == "opponent":
                cells.append(_cell(match.names[1 - side], **{"class": "text"}))
            else:
                cells.append(_cell(figure(key, row.get(key), match.length), **{"data-column": key}))
        rows.append(f'<tr data-key="{escape(match.key)}" data-player="{side}">{"".join(cells)}</tr>')
    return (f"<section aria-labelledby='{ident}-h'><h3 id='{ident}-h'>{escape(name)}</h3><figure>{chart}</figure>"
            + _table(f"The matches of {name}", [h for h, _ in PLAYED], rows) + "</section>")  # fmt: skip


def _match(match: MatchFigures, ident: str, worst: int) -> str:
    names = match.names
    parts = [f"<section class='match' id='{ident}' data-key='{escape(match.key)}' aria-labelledby='{ident}-h'>",
             f"<h3 id='{ident}-h'>{escape(match_heading(match))}</h3>",
             f"<p>{escape(match.file)}, match {match.match}; {escape(match.engine)} at {match.plies} ply"
             + (f"; {match.skipped} game{'s' if match.skipped != 1 else ''} not analysed (see bgrecord analyze)" if match.skipped else "")
             + ".</p>"]  # fmt: skip
    rows = []
    for label, column in SUMMARY:
        cells = "".join(_cell(figure(column, match.players[side].get(column), match.length)) for side in (0, 1))
        rows.append(f'<tr data-column="{column}"><th scope="row">{escape(label)}</th>{cells}</tr>')
    parts.append(_table("The match", ["Figure", *names], rows))
    if match.games:
        parts.append(_games(match, ident))
    parts += [_worst(match, side, f"{ident}-worst-{side}") for side in (0, 1) if worst]
    return "".join(parts) + "</section>"


def _games(match: MatchFigures, ident: str) -> str:
    names = match.names
    headers = ["Game", "Score before"] + [f"{names[side]}: {label}" for side in (0, 1) for label, _ in GAME]
    rows = []
    for game in match.games:
        score = f"{game.score[0]}-{game.score[1]}" + (" (Crawford)" if game.crawford else "") if game.score else NONE
        cells = [_cell(str(game.game), "th", scope="row"), _cell(score)]
        for side in (0, 1):
            found = game.figures(side)
            cells += [_cell(figure(key, found[key])) for _, key in GAME]
        rows.append(f'<tr data-game="{game.game}">{"".join(cells)}</tr>')
    luck = [[game.sums[side].luck for side in (0, 1)] for game in match.games]
    said = [[f"Game {game.game}: {names[side]} {figure('luck', game.sums[side].luck)}" for side in (0, 1)] for game in match.games]
    description = "Luck of each player in each game, EMG: " + "; ".join(
        f"game {game.game}, {names[0]} {figure('luck', game.sums[0].luck)}, {names[1]} {figure('luck', game.sums[1].luck)}"
        for game in match.games) + "."  # fmt: skip
    chart = charts.bars(f"{ident}-luck", "Luck per game", description, [str(game.game) for game in match.games], names, luck, said)
    return (f"<h4>Games</h4>" + _table("Each game: each player's decisions, error (EMG), error rate, PR, rating and luck (EMG)",
                                       headers, rows) + f"<figure>{chart}</figure>")  # fmt: skip


def _worst(match: MatchFigures, side: int, ident: str) -> str:
    name = match.names[side]
    heading = f"<h4 id='{ident}'>The worst decisions of {escape(name)}</h4>"
    if not match.worst[side]:
        return heading + "<p>No decision marked doubtful or worse.</p>"
    figures = [_decision(row, match.names, f"{ident}-{number}") for number, row in enumerate(match.worst[side], 1)]
    return heading + f"<div class='boards'>{''.join(figures)}</div>"


def _decision(row: dict[str, Any], names: tuple[str, str], ident: str) -> str:
    said = decision_words(row)
    board = _board(row, names, f"The board at {where(row)}, from {names[int(row.get('player') or 0)]}'s side")
    return (f"<figure id='{ident}' data-error='{row.get('error')!r}'>{board}<figcaption><strong>{escape(where(row))}</strong>: "
            f"{escape(said)}</figcaption></figure>")  # fmt: skip


def _board(row: dict[str, Any], names: tuple[str, str], title: str) -> str:
    """The board the decision was made on, numbered from the decider's side, with the dice to play."""
    player = int(row.get("player") or 0)
    on_roll = 1 - player if row.get("kind") in ("take", "pass") else player  # an answer: the doubler's position
    try:
        position = Position.from_id(str(row.get("position_id")), on_roll)
        state = MatchState.from_id(str(row["match_id"])) if row.get("match_id") else None
    except ValueError:
        return "<p>No board: the table's Position ID or Match ID is not valid.</p>"
    dice = str(row.get("dice") or "")
    rolled = (int(dice[0]), int(dice[1])) if row.get("kind") == "checker" and len(dice) == 2 and dice.isdigit() else None
    cube = state.cube if state is not None else int(row.get("cube") or 1)
    owner = state.cube_owner if state is not None else None
    words = board_words(position, names, player)
    return svg.board(position, cube, owner, rolled, (), title, player if rolled else None, words, shared=True, label_side=player)
