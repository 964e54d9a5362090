"""The reader on the bundled samples: one test per dialect and its quirks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bgrecord.formats.issues import Severity
from bgrecord.formats.reader import iter_matches, read_match
from bgrecord.formats.records import LEFT, RIGHT, Comment, CubeAction, MatchRecord, Result, Roll, SetPosition
from bgrecord.formats.source import HEAD, decode

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
ALL = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".mat", ".txt", ".gam", ".sgf"))


def read(name: str) -> MatchRecord:
    return read_match(SAMPLES / name)


def kinds(actions: list[object]) -> list[str]:
    out = []
    for action in actions:
        if isinstance(action, Roll):
            out.append(f"{action.player}:roll{action.dice[0]}{action.dice[1]}{':' + action.note if action.note else ''}")
        elif isinstance(action, CubeAction):
            out.append(f"{action.player}:{action.kind}{action.value or ''}")
        elif isinstance(action, Result):
            out.append(f"{action.player}:{action.kind}{action.points}{'!' if action.match else ''}")
        else:
            out.append(type(action).__name__)
    return out


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_every_sample_reads_and_gives_its_text_back(path: Path) -> None:
    text, _ = decode(path.read_bytes())
    matches = list(iter_matches(path))
    assert matches and all(match.games for match in matches)
    assert not [i for m in matches for i in m.all_issues() if i.severity is Severity.ERROR]
    assert "".join(match.text() for match in matches) == text


@pytest.mark.parametrize("padding", [0, 1000], ids=["small", "past its first bytes"])
def test_a_file_is_opened_once_when_its_first_bytes_are_all_of_it(padding: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "match.mat"
    path.write_bytes((SAMPLES / "bbgt-two-matches.mat").read_bytes() + b"; a comment line of padding\n" * padding)
    text, size = path.read_text(), path.stat().st_size
    opened: list[str] = []
    path_open = Path.open

    def counted(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(self.name)
        return path_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counted)
    matches = list(iter_matches(path))
    assert "".join(match.text() for match in matches) == text and len(matches) == 2
    assert opened.count("match.mat") == (1 if size <= HEAD else 2)  # (a larger file: its first bytes, then the whole)
    assert (size > HEAD) == (padding > 0)


def test_xg_tags_bom_crlf_cannot_move_and_losses_row() -> None:
    match = read("xg-tags-bom-crlf.mat")
    assert match.encoding == "utf-8-sig" and match.length == 5 and len(match.tags) == 13
    assert match.tag("player 1") == "Jake Jacobs" and match.players == ("Jake Jacobs", "Hosaka Noriyuki")
    first, second = match.games
    assert first.names == ("Jake Jacobs", "Hosaka Noriyuki") and first.scores == (0, 0)
    assert kinds(first.actions)[4:] == ["0:roll66:cannot move", "1:double2", "0:take", "1:roll65", "0:roll63", "1:roll51", "0:double4", "1:drop", "0:win2"]
    assert kinds(second.actions) == ["1:roll31", "0:roll42", "1:roll64", "0:roll53:unplayed", "0:loss1", "1:win1"]
    double = first.actions[5]
    assert (double.line, double.column, double.text, double.number) == (21, 35, "Doubles => 2", 3)


def test_galaxy_empty_name_and_the_match() -> None:
    match = read("galaxy-losses-row-empty-name.txt")
    assert match.length == 3 and match.tag("Player 1 Elo") == "1500,25/120"
    assert [game.names for game in match.games] == [("lasse", "")] * 3
    assert [game.scores for game in match.games] == [(0, 0), (1, 0), (1, 2)]
    assert kinds(match.games[2].actions)[-2:] == ["0:loss1", "1:win1!"]


def test_hand_transcription_notation() -> None:
    match = read("hand-transcription-notation.mat")
    assert match.length == 3 and match.comments[0].startswith("Club championship 2024")
    assert match.comments[1] == "transcribed by hand from the score sheet"
    actions = match.games[0].actions
    chain = actions[1].moves[0]
    assert (chain.points, chain.hits, chain.pairs()) == ((6, 2, 1), (False, True, True), [(6, 2), (2, 1)])
    assert [m.points for m in actions[2].moves] == [(25, 22), (25, 23)]
    assert [m.text for m in actions[3].moves] == ["6/1", "24/18"]  # "6/1, 24/18"
    repeat = actions[9].moves[1]
    assert (repeat.repeat, len(repeat.pairs()), actions[9].text[repeat.offset :]) == (3, 3, "13/7(3)")
    assert isinstance(actions[10], Comment)
    wrapped = actions[11]
    assert [m.text for m in wrapped.moves] == ["13/8", "8/3(2)", "7/2"] and wrapped.line == 14
    right = actions[12]
    assert (right.player, right.number, right.line, right.text) == (RIGHT, 6, 15, "41: 10/9 13/9")
    assert kinds(actions[13:]) == ["0:double", "1:take", "0:roll65", "1:roll64", "0:roll51", "1:double4", "0:drop", "1:win2"]
    codes = [issue.code for issue in match.all_issues()]
    assert codes == ["text-before-header", "comment-in-game", "wrapped-line"]


def test_cp1252_and_cr_only_line_endings() -> None:
    match = read("hand-cp1252-cr-only.mat")
    assert match.encoding == "cp1252"
    assert match.games[0].names == ("Kévin Unger", "José Núñez")
    assert [a.line for a in match.games[0].actions] == [5, 5, 6, 6, 7, 8]
    assert "\r" in match.text() and "\n" not in match.text()


def test_gridgammon_ratings_and_opengammon_names() -> None:
    grid = read("gridgammon-20080104-ratings.mat").games[0]
    assert grid.names == ("alice", "bob") and grid.ratings == (1712, 1650)
    open_gammon = read("opengammon-no-space-colon.mat")
    first = open_gammon.games[0]
    assert first.names == ("gopreta", "hajjs") and first.actions[1].dice == (2, 5)
    assert kinds(first.actions)[-3:] == ["0:roll13", "0:resignNone", "1:win1"]
    assert kinds(open_gammon.games[1].actions)[-2:] == ["0:resignNone!", "1:win2!"]  # Resigned Match
    assert first.actions[-2].text == "Resigned Game"


def test_fibs_client_roll_order_and_one_space_wins() -> None:
    match = read("gibbon-fibs-roll-order.mat")
    assert match.games[0].actions[0].dice == (2, 6)
    assert kinds(match.games[0].actions)[-3:] == ["0:double2", "1:drop", "0:win1"]
    assert kinds(match.games[1].actions)[-1] == "0:win2!"


def test_two_matches_in_one_file() -> None:
    matches = list(iter_matches(SAMPLES / "bbgt-two-matches.mat"))
    assert [m.tag("Round") for m in matches] == ["Round 1", "Round 2"]
    assert [m.players for m in matches] == [("Alice", "Bob"), ("Carol", "Dave")]
    first = read("bbgt-two-matches.mat")
    assert first.players == ("Alice", "Bob") and [i.code for i in first.issues] == ["more-matches"]


def test_jellyfish_gam() -> None:
    match = read("jellyfish-single-games.gam")
    assert match.format == "gam" and match.length == 0 and len(match.games) == 2
    assert [g.names for g in match.games] == [("Alice", "Bob")] * 2
    assert kinds(match.games[1].actions) == ["1:roll56", "0:roll64", "1:double2", "0:drop", "1:win1"]


def test_set_position_lines() -> None:
    xg = read("xg-set-position-line.mat").games[0].actions[2]
    assert isinstance(xg, SetPosition) and (xg.kind, xg.setup, xg.line) == ("xg", "-b----E-C---eE---c-e----B-/0", 10)
    dg = read("dailygammon-nackgammon-wide-columns.mat")
    setup = dg.games[0].actions[0]
    assert isinstance(setup, SetPosition) and setup.kind == "snowie" and setup.player == RIGHT
    assert setup.dice == (1, 2) and setup.setup.startswith("1;0;1;0;1;magic one;Pitchofbeer;")
    assert dg.games[0].names == ("magic one", "Pitchofbeer")
    assert kinds(dg.games[0].actions)[-1] == "0:win1!"


def test_beavers_and_raccoons() -> None:
    match = read("gnubg-money-beaver-raccoon.mat")
    assert match.length == 0
    assert kinds(match.games[0].actions)[2:4] == ["0:double2", "1:beaver4"]
    assert kinds(match.games[1].actions)[2:5] == ["1:double2", "0:beaver4", "1:raccoon8"]


def test_sgf_beaver_resignation_and_setup() -> None:
    match = read("gibbon-beaver-setup.sgf")
    assert match.format == "sgf" and match.length == 0 and match.players == ("alice", "bob")
    first, second = match.games
    assert kinds(first.actions) == ["0:roll31", "1:roll42", "0:double", "1:beaver", "0:take", "0:roll64", "1:roll62", "1:win4"]
    assert first.actions[-1].resigned and first.actions[0].moves[0].points == (8, 5)
    assert first.actions[1].moves[0].points == (8, 4)  # Black's points count from the other side
    assert isinstance(second.actions[0], SetPosition) and second.actions[0].kind == "sgf"
    assert second.scores == (0, 4) and second.number == 2


def game_summary(actions: list[object]) -> list[tuple[object, ...]]:
    """What a .mat and an SGF of the same game both say: plays, cube actions, the winner."""
    out: list[tuple[object, ...]] = []
    for a in actions:
        if isinstance(a, Roll):
            out.append(("roll", a.player, tuple(sorted(a.dice)), tuple(sorted(p for m in a.moves for p in m.pairs()))))
        elif isinstance(a, CubeAction):
            out.append(("cube", a.player, a.kind))
        elif isinstance(a, Result) and a.kind == "win":
            out.append(("win", a.player, a.points))
    return out


def test_gnubg_mat_and_sgf_of_one_match_agree() -> None:
    for name in ("gnubg-5pt-crawford", "gnubg-money-jacoby"):
        mat, sgf = read(f"{name}.mat"), read(f"{name}.sgf")
        assert [game_summary(g.actions) for g in mat.games] == [game_summary(g.actions) for g in sgf.games]
        assert [g.scores for g in mat.games] == [g.scores for g in sgf.games]


def test_lone_cells_are_attributed_by_column() -> None:
    match = read("gnubg-5pt-crawford.mat")
    lone_right = [a for g in match.games for a in g.actions if isinstance(a, Roll) and a.number == 1 and a.player == RIGHT]
    assert lone_right and all(a.column >= 30 for a in lone_right)
    lefts = [a for g in match.games for a in g.actions if isinstance(a, Result) and a.player == LEFT]
    assert all(a.column <= 16 for a in lefts)
