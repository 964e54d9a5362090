"""``bgrecord report``: every number on the page is the tables' (read back from the page, against
analyze's tables read with pandas), each game's figures add up to the match's to the last bit,
the page loads in a real browser with its charts and boards drawn, stays under 2 MB for 100
Galaxy matches, and says the same as text; the same report from files, from tables and from a
database. Tests that run gnubg skip where it is not installed (CI installs it)."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest
from conftest import CORPUS, DATA, GNUBG, launch_chromium, needs_chromium
from test_analysis import run

from bgrecord.analysis.measures import Sums
from bgrecord.core.ids import MatchState
from bgrecord.formats.reader import read_match
from bgrecord.report.figures import Collector
from bgrecord.report.sources import read_analysis, record_date

FIXTURES = DATA / "analysis"
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) is not installed")
SUMMARY = ("pr", "rating", "error_rate", "snowie_er", "checker_decisions", "checker_error", "cube_decisions", "cube_error",
           "doubtful", "bad", "very_bad", "missed_doubles_below_cp", "missed_doubles_above_cp", "wrong_doubles_below_dp",
           "wrong_doubles_above_tg", "wrong_takes", "wrong_passes", "moves", "luck", "luck_rate", "actual_result",
           "luck_adjusted_result")  # fmt: skip
GAME = ("decisions", "error", "error_rate", "pr", "rating", "luck")  # each player's columns of a game, in the page's order


def said(column: str, value: Any, length: int | None) -> str:
    """A figure as docs/analysis.md ("The report") says the report writes it."""
    if value is None or pd.isna(value):
        return "n/a"
    formats = {"pr": "{:.2f}", "error_rate": "{:.1f}", "snowie_er": "{:.1f}", "luck_rate": "{:+.1f}", "checker_error": "{:.3f}",
               "cube_error": "{:.3f}", "error": "{:.3f}", "luck": "{:+.3f}"}  # fmt: skip
    if column in ("actual_result", "luck_adjusted_result"):
        return f"{100 * value:+.2f}%" if length else f"{value:+.3f}"
    if column in formats:
        return formats[column].format(value)
    return str(int(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


# --- the page read back ---


class Node:
    def __init__(self, tag: str, attributes: dict[str, str | None]) -> None:
        self.tag, self.attributes, self.children, self.text = tag, attributes, [], ""

    def all(self, tag: str, **wanted: str) -> Iterator[Node]:
        for child in self.children:
            if child.tag == tag and all(child.attributes.get(k.replace("_", "-")) == v for k, v in wanted.items()):
                yield child
            yield from child.all(tag, **wanted)

    def words(self) -> str:
        return self.text + "".join(child.words() for child in self.children)


class _Tree(HTMLParser):
    VOID = {"meta", "use", "rect", "circle", "line", "polygon", "polyline", "br", "img", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        while self.stack[-1].tag != tag:
            self.stack.pop()
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(Node("#text", {}))
        self.stack[-1].children[-1].text = data


def tree(page: str) -> Node:
    parser = _Tree()
    parser.feed(page)
    return parser.root


def cells(row: Node) -> list[str]:
    return [cell.words() for cell in row.children if cell.tag in ("td", "th")]


# --- the tables the pages are checked against ---


def galaxy_files() -> list[Path]:
    """The first 100 Galaxy matches of the shared corpus (SOURCES.tsv's order)."""
    sources = CORPUS / "SOURCES.tsv"
    if not sources.exists():
        pytest.skip(f"corpus absent: {CORPUS}")
    with sources.open(encoding="utf-8", newline="") as rows:
        found = [CORPUS / row["file"] for row in csv.DictReader(rows, delimiter="\t") if row["producer_guess"] == "Backgammon Galaxy export"]
    return found[:100]


class Analysed:
    """Files analysed by ``analyze`` into CSV tables, and the report made from them."""

    def __init__(self, files: list[Path], folder: Path) -> None:
        self.files, self.folder = [str(f) for f in files], folder
        self.tables = [str(folder / f"{kind}.csv") for kind in ("decisions", "players", "matches")]
        status, _, err = run("analyze", *self.files, "-o", self.tables[0], "--players", self.tables[1], "--matches", self.tables[2])
        assert "decisions ->" in err, err
        self.decisions = pd.read_csv(self.tables[0], dtype={"match_key": str, "game_key": str})
        self.players = pd.read_csv(self.tables[1], dtype={"match_key": str})
        self.matches = pd.read_csv(self.tables[2], dtype={"match_key": str})
        self.page_path = folder / "report.html"
        code, _, err = run("report", *self.files, *(f"--analysis={t}" for t in self.tables), "-o", str(self.page_path))
        assert code == status and "player" in err, err  # what gnubg could not analyse, it cannot again: the same status
        self.page = self.page_path.read_text(encoding="utf-8")


@pytest.fixture(scope="module", params=["fixtures", "galaxy"])
def analysed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Analysed:
    if GNUBG is None:
        pytest.skip("GNU Backgammon (Debian package gnubg) is not installed")
    files = sorted(FIXTURES.glob("noisy-*.mat")) if request.param == "fixtures" else galaxy_files()
    return Analysed(files, tmp_path_factory.mktemp(request.param))


def test_every_number_on_the_page_is_the_tables(analysed: Analysed) -> None:
    root = tree(analysed.page)
    players, decisions = analysed.players, analysed.decisions
    sections = {section.attributes["data-key"]: section for section in root.all("section", **{"class": "match"})}
    told = players.dropna(subset=["match_key"]).drop_duplicates(["match_key", "player"])
    assert set(sections) == set(told["match_key"]) and len(sections) >= 5
    lengths = dict(zip(analysed.matches["match_key"], analysed.matches["match_length"]))
    compared = 0
    for key, section in sections.items():
        rows = told[told["match_key"] == key].sort_values("player")
        length = lengths[key]
        summary = {row.attributes["data-column"]: cells(row)[1:] for row in section.all("tr") if "data-column" in row.attributes}
        assert tuple(summary) == SUMMARY
        for column in SUMMARY:
            assert summary[column] == [said(column, value, length) for value in rows[column]], (key, column)
            compared += 2
        # each game: the decisions table's rows of the game, summed here with pandas
        games = decisions[decisions["match_key"] == key]
        for row in section.all("tr"):
            if "data-game" not in row.attributes:
                continue
            game = games[games["game_in_match"] == int(row.attributes["data-game"])]
            shown = cells(row)[2:]
            for side in (0, 1):
                mine = game[game["player"] == side]
                checker, cube = mine[mine["kind"] == "checker"], mine[mine["kind"] != "checker"]
                count = int(mine["counted"].sum())
                error = checker.loc[checker["counted"], "error"].sum() + cube.loc[cube["category"].notna(), "error"].sum()
                expected = {"decisions": count, "error": error, "error_rate": 1000 * error / count if count else None,
                            "pr": 500 * error / count if count else None, "luck": checker["luck"].sum()}  # fmt: skip
                for index, column in enumerate(GAME):
                    page = shown[6 * side + index]
                    if column == "rating":
                        continue
                    if expected[column] is None:
                        assert page == "n/a"
                        continue
                    digits = len(page.split(".")[1]) if "." in page else 0
                    assert abs(float(page) - expected[column]) <= 0.5 * 10**-digits + 1e-6, (key, side, column, page, expected[column])
                    compared += 1
        # the luck chart: a bar a player a game, its value the game's luck
        bars = [float(bar.attributes["data-value"] or "nan") for bar in section.all("rect", **{"class": "bar"})]
        expected_luck = [games[(games["game_in_match"] == g) & (games["player"] == side) & (games["kind"] == "checker")]["luck"].sum()
                         for g in sorted(games["game_in_match"].unique()) for side in (0, 1)]  # fmt: skip
        assert bars == pytest.approx(expected_luck, abs=1e-6)
        # the worst decisions: each player's worst marked ones, the worst first
        for side in (0, 1):
            shown_errors = [float(f.attributes["data-error"] or "nan") for f in section.all("figure") if f.attributes.get("id", "").startswith(
                f"{section.attributes['id']}-worst-{side}-")]  # fmt: skip
            marked = games[(games["player"] == side) & games["mark"].notna()]["error"].sort_values(ascending=False)
            assert shown_errors == list(marked[:3]), (key, side)
    assert compared > 100
    # the players of the archive: the players table summed by name
    table = next(t for t in root.all("table") if "Each player over" in next(t.all("caption")).words())
    by_name = told.groupby("name").agg(matches=("match_key", "size"), decisions=("checker_decisions", "sum"),
                                       cube=("cube_decisions", "sum"), error=("error", "sum"), luck=("luck", "sum"))  # fmt: skip
    for row in table.all("tr", **{}):
        if "data-name" not in row.attributes:
            continue
        expected_row = by_name.loc[row.attributes["data-name"]]
        count = int(expected_row["decisions"] + expected_row["cube"])
        found = {cell.attributes["data-column"]: cell.words() for cell in row.children if "data-column" in cell.attributes}
        assert found["matches"] == str(int(expected_row["matches"])) and found["decisions"] == str(count)
        assert found["pr"] == said("pr", 500 * expected_row["error"] / count if count else None, None)
        assert found["luck"] == said("luck", expected_row["luck"], None)
    # each point of a player's chart is the players table's PR of that match
    for point in root.all("circle", **{"class": "point"}):
        assert float(point.attributes["data-value"] or "nan") in set(told["pr"])


def test_the_games_add_up_to_the_matchs_totals_to_the_last_bit(analysed: Analysed) -> None:
    collector = Collector()
    for table in analysed.tables:
        read_analysis(table, collector)
    report = collector.report()
    assert report.matches and report.without_players == 0
    for match in report.matches:
        for side in (0, 1):
            total = Sums()
            for game in match.games:
                total.add(game.sums[side])
            row = match.players[side]
            assert (total.checker_decisions, total.cube_decisions, total.moves) == (
                row["checker_decisions"], row["cube_decisions"], row["moves"])
            assert (total.checker_error, total.cube_error, total.luck) == (row["checker_error"], row["cube_error"], row["luck"])
            assert [total.marks(m) for m in ("doubtful", "bad", "very bad")] == [row["doubtful"], row["bad"], row["very_bad"]]


def test_a_hundred_galaxy_matches_make_a_page_under_2_mb(analysed: Analysed) -> None:
    if len(analysed.files) < 100:
        pytest.skip("the fixtures are few: the size is measured on the Galaxy matches")
    assert analysed.page_path.stat().st_size < 2_000_000
    assert analysed.page.count("<figure id='match-") > 300  # boards drawn, each one small
    assert re.search(r"point match, 20\d\d-\d\d-\d\d", analysed.page)  # the records' dates


@needs_chromium
def test_the_page_loads_in_a_browser_with_its_charts_and_boards_drawn(analysed: Analysed) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as driver:
        browser = launch_chromium(driver)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            problems: list[str] = []
            page.on("console", lambda message: problems.append(message.text) if message.type in ("error", "warning") else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("request", lambda request: problems.append(request.url) if not request.url.startswith("file:") else None)
            page.goto(analysed.page_path.as_uri())
            assert problems == []
            drawn = page.evaluate("""() => {
                const size = (e) => { const b = e.getBBox(); return b.width * b.height; };
                const bars = [...document.querySelectorAll('svg.chart rect.bar')].filter((e) => size(e) > 0).length;
                const points = [...document.querySelectorAll('svg.chart circle.point')].filter((e) => size(e) > 0).length;
                const boards = [...document.querySelectorAll('.boards svg')];
                const placed = boards.filter((svg) => [...svg.querySelectorAll('use')].every((u) => size(u) > 0)).length;
                const named = [...document.querySelectorAll('svg[role=img]')].every((svg) => svg.querySelector('title').textContent
                    && svg.querySelector('desc').textContent);
                const captioned = [...document.querySelectorAll('table')].every((t) => t.querySelector('caption').textContent);
                return {bars, points, boards: boards.length, placed, named, captioned,
                        charts: document.querySelectorAll('svg.chart').length, h1: document.querySelectorAll('h1').length};
            }""")
            games = analysed.decisions.drop_duplicates(["match_key", "game_in_match"]).shape[0]
            assert drawn["bars"] >= games and drawn["boards"] > 0 and drawn["placed"] == drawn["boards"]
            assert drawn["named"] and drawn["captioned"] and drawn["h1"] == 1 and drawn["charts"] > 0
            if len(analysed.files) == 100:
                assert drawn["points"] > 80  # lasse's PR over 89 matches
            page.screenshot(path=str(analysed.folder / "report.png"))
        finally:
            browser.close()


def test_the_text_says_what_the_page_says(analysed: Analysed) -> None:
    code, text, err = run("report", *(f"--analysis={t}" for t in analysed.tables), "--format", "text")
    assert code == 0, err
    assert "<" not in text.replace("<stdin>", "") and text.startswith("Backgammon analysis report\n")
    blocks = text.split("\nMatch ")[1:]
    assert len(blocks) == analysed.page.count("<section class='match'")
    for row in analysed.players.dropna(subset=["match_key"]).drop_duplicates(["match_key", "player"]).itertuples():
        block = next(b for b in blocks if f"{row.file}, match {row.match};" in b)
        line = next(line for line in block.splitlines() if line.startswith("PR "))
        assert said("pr", row.pr, None) in line.split()
    assert "Points from" in text and "Position ID" in text


# --- the same report whatever the path ---


@needs_gnubg
def test_files_tables_and_a_database_give_the_same_page(tmp_path: Path) -> None:
    files = [str(FIXTURES / "noisy-3pt.mat"), str(FIXTURES / "noisy-money.mat")]
    code, _, err = run("report", *files, "-o", str(tmp_path / "files.html"), "-j", "2")
    assert code == 0, err
    code, _, err = run("analyze", *files, "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"))
    assert code == 0, err
    code, _, err = run("report", *files, "--analysis", str(tmp_path / "d.csv"), "--analysis", str(tmp_path / "p.csv"),
                       "-o", str(tmp_path / "tables.html"))  # fmt: skip
    assert code == 0, err
    code, _, _ = run("analyze", *files, "-o", str(tmp_path / "a.sqlite"))
    code, _, err = run("report", *files, "--analysis", str(tmp_path / "a.sqlite"), "-o", str(tmp_path / "db.html"), "-j", "1")
    assert code == 0, err
    page = (tmp_path / "files.html").read_bytes()
    assert page == (tmp_path / "tables.html").read_bytes() == (tmp_path / "db.html").read_bytes()
    assert b"money session" in page and b"Wrong takes" in page


# --- without gnubg ---


def test_the_command_says_what_it_needs_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("report")
    assert code == 2 and "give match files" in err
    players = tmp_path / "p.csv"
    pd.DataFrame(columns=list(__import__("bgrecord.analysis.tables", fromlist=["x"]).PLAYER_COLUMNS)).to_csv(players, index=False)
    code, _, err = run("report", "--analysis", str(players))
    assert code == 2 and "decisions and players tables" in err and "Traceback" not in err
    (tmp_path / "x.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    code, _, err = run("report", "--analysis", str(tmp_path / "x.csv"))
    assert code == 2 and "not a table written by bgrecord analyze" in err
    code, _, err = run("report", "--analysis", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no such database" in err
    (tmp_path / "out.html").write_text("mine", encoding="utf-8")
    code, _, err = run("report", "--analysis", str(players), "-o", str(tmp_path / "out.html"))
    assert code == 2 and "exists" in err and (tmp_path / "out.html").read_text(encoding="utf-8") == "mine"


def _rows(key: str, file: str, plies: int, error: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    players = [{"file": file, "match_key": key, "match": 1, "player": side, "name": "AB"[side], "plies": plies, "engine": "gnubg",
                "checker_decisions": 2, "cube_decisions": 0, "error": error, "moves": 2, "pr": 250 * error} for side in (0, 1)]  # fmt: skip
    decisions = [{"file": file, "match_key": key, "match": 1, "game_in_match": 1, "player": side, "kind": "checker", "error": e,
                  "counted": True, "mark": "bad" if e > 0.06 else None, "luck": 0.1, "luck_cost": 0.0, "plies": plies,
                  "match_id": MatchState(length=1).id(), "step": step, "move": step}
                 for step, (side, e) in enumerate([(0, 0.07), (1, 0.0), (0, 0.07), (1, 0.0)], 1)]  # fmt: skip
    return players, decisions


def test_a_match_is_told_once_at_its_deepest_analysis() -> None:
    collector = Collector(worst=1)
    for key, file, plies, error in (("k", "a.mat", 0, 0.14), ("k", "copy.mat", 0, 0.5), ("k", "a.mat", 2, 0.2)):
        players, decisions = _rows(key, file, plies, error)
        collector.add_players(players)
        collector.add_decisions(decisions)
    collector.add_dates({"k": "2024-01-02"})
    report = collector.report()
    (match,) = report.matches
    assert (match.plies, match.file, match.date, match.players[0]["error"]) == (2, "a.mat", "2024-01-02", 0.2)
    assert [row["step"] for row in match.worst[0]] == [1]  # of two alike, the earlier
    assert match.games[0].sums[0].checker_error == pytest.approx(0.14) and match.games[0].score == (0, 0)
    assert [p["name"] for p in report.players] == ["A", "B"] and report.players[0]["matches"] == 1


def test_a_records_date_whatever_its_format() -> None:
    mat = read_match(b'; [EventDate "2024.07.08"]\n; [EventTime "10.26"]\n\n 1 point match\n\n Game 1\n A : 0   B : 0\n')
    assert record_date(mat) == "2024-07-08 10:26"
    sgf = read_match(b"(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]DT[2023-09-06]RU[])")
    assert record_date(sgf) == "2023-09-06"
    assert record_date(read_match(b'; [EventDate "someday"]\n\n 1 point match\n')) is None


# --- analyze's summary of the players ---


@needs_gnubg
def test_analyze_ends_with_each_player_or_the_archives_players(tmp_path: Path) -> None:
    two = [str(FIXTURES / "noisy-3pt.mat"), str(FIXTURES / "noisy-5pt.mat")]
    code, _, err = run("analyze", *two, "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"))
    players = pd.read_csv(tmp_path / "p.csv")
    lines = err.splitlines()
    assert code == 0 and len(lines) == 2 + len(players) and lines[1] == "The players:"
    for line, row in zip(lines[2:], players.itertuples()):
        assert line == (f"  {row.name} (against {row.opponent}, {row.file} match {row.match}): PR {row.pr:.2f}, {row.rating}; "
                        f"error rate {row.error_rate:.1f}; luck {row.luck:+.3f}")  # fmt: skip
    code, _, err = run("analyze", *two, "-o", str(tmp_path / "d.csv"), "--players", str(tmp_path / "p.csv"), "--overwrite", "-q")
    assert code == 0 and err == ""


def test_many_matches_end_with_the_head_of_the_players_table() -> None:
    from bgrecord.report.text import RunSummary

    summary = RunSummary()
    for match in range(12):  # player P0 in every match, P1 ... P12 in one each
        summary.add([{"file": "f.mat", "match": match + 1, "name": name, "opponent": "x", "checker_decisions": 10, "cube_decisions": 0,
                      "error": 0.1 * (match + 1), "moves": 10, "games": 1, "luck": 0.0} for name in ("P0", f"P{match + 1}")])  # fmt: skip
    lines = summary.lines()
    assert lines[0] == "The 10 players of the most matches, of 13:" and len(lines) == 12
    assert lines[2].split()[:3] == ["P0", "12", "12"] and lines[2].split()[6] == f"{500 * 7.8 / 120:.2f}"
    assert [line.split()[0] for line in lines[3:]] == ["P1", "P10", "P11", "P12", "P2", "P3", "P4", "P5", "P6"]  # alike: by name


def test_no_line_of_the_summary_starts_with_a_records_text() -> None:
    """A name that reads as bgrecord's own message (the long fuzz's forged line) stays inside a line."""
    from bgrecord.report.text import RunSummary

    for matches in (1, 12):
        summary = RunSummary()
        for match in range(matches):
            summary.add([{"file": "f.mat", "match": match + 1, "name": name, "opponent": "x", "checker_decisions": 10, "cube_decisions": 0,
                          "error": 0.1, "moves": 10, "games": 1, "luck": 0.0} for name in ("FORGED: error[internal] x", f"P{match}")])  # fmt: skip
        lines = summary.lines()
        assert lines and not any(line.startswith("FORGED") for line in lines) and any("FORGED" in line for line in lines), lines


def test_rows_no_analyze_writes_are_passed_over_and_worst_0_tells_none() -> None:
    collector = Collector(worst=0)
    players, decisions = _rows("k", "a.mat", 0, 0.14)
    collector.add_players([*players, {**players[0], "player": 7}])
    collector.add_decisions([*decisions, {**decisions[0], "player": -1}, {**decisions[0], "match_id": "not an id", "game_in_match": 2}])
    report = collector.report()
    (match,) = report.matches
    assert [game.game for game in match.games] == [1, 2] and match.games[1].score is None and match.worst == ([], [])
    from bgrecord.report.page import page
    from bgrecord.report.text import report_text

    assert "worst decisions" not in page(report, "t") and "worst decisions" not in report_text(report, "t")
