"""Each class the SGF dialect generator (``tests/sgf_dialects.py``) found, both ways: read where a
producer writes it legitimately, still an error where the same words say something wrong; and
the one-defect-one-error fixes it led to."""

from __future__ import annotations

from pathlib import Path

from bgrecord.formats.issues import Severity
from bgrecord.replay.validate import validate_file

ROOT = "FF[4]GM[6]CA[UTF-8]AP[test]PW[Alice]PB[Bob]"
# White (Alice) 31: 8/5 6/5; Black (Bob) 42: 8/4 6/4
OPENING = ";W[31hefe];B[42qusu]"


def report(tmp_path: Path, text: str, name: str = "t.sgf") -> tuple[list[tuple[str, int | None, int | None]], list[str], int]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = validate_file(path)
    errors = [(i.code, i.line, i.column) for i in result.issues if i.severity is Severity.ERROR]
    return errors, [i.code for i in result.issues if i.severity is not Severity.ERROR], result.games


def game(number: int, scores: tuple[int, int], body: str, result: str = "", length: int = 5) -> str:
    info = f"MI[length:{length}][game:{number}][ws:{scores[0]}][bs:{scores[1]}]"
    return f"(;{ROOT}{info}{f'RE[{result}]' if result else ''}\n{body})\n"


def test_the_main_line_goes_on_in_the_first_variation(tmp_path: Path) -> None:
    clean = f"(;{ROOT}MI[length:5][game:0][ws:0][bs:0]RE[W+1]\n;W[31hefe]\n(;B[42qusu];W[double];B[drop])\n(;B[42aa]C[what if])\n)"
    errors, notes, games = report(tmp_path, clean)
    assert (errors, games) == ([], 1) and "variations" in notes
    # a wrong move in the main line's variation is told; the analysis line's is not read
    wrong = clean.replace(";B[42qusu];W[double]", ";B[42qvsu];W[double]")
    errors, _, _ = report(tmp_path, wrong)
    assert [code for code, _, _ in errors] == ["wrong-distance"] and errors[0][1] == 3


def test_a_result_at_the_end_of_the_game_is_read(tmp_path: Path) -> None:
    errors, _, _ = report(tmp_path, f"(;{ROOT}MI[length:5][game:0][ws:0][bs:0]{OPENING};W[double];B[drop]RE[W+1])")
    assert errors == []
    errors, _, _ = report(tmp_path, f"(;{ROOT}MI[length:5][game:0][ws:0][bs:0]{OPENING};W[double];B[drop]RE[B+1])")
    assert [code for code, _, _ in errors] == ["result-winner"]


def test_re_gives_points_not_the_kind_of_win(tmp_path: Path) -> None:
    """A writer counting RE as 1, 2, 3 whatever the cube is not followed: RE gives points."""
    body = f"{OPENING};W[double];B[take];W[64xrmi];B[double];W[drop]"
    errors, _, _ = report(tmp_path, f"(;{ROOT}MI[length:9][game:0][ws:0][bs:0]RE[B+1]{body})")
    assert [code for code, _, _ in errors] == ["result-points"]  # the drop of a redouble to 4 gives 2


def test_no_match_info_is_money_play_and_match_info_tags_take_any_case(tmp_path: Path) -> None:
    errors, notes, _ = report(tmp_path, f"(;{ROOT}RE[B+4]{OPENING};W[double];B[double];W[take];W[64xrmi];B[double];W[drop])")
    assert errors == [] and "money-by-default" in notes and "inferred-beavers" in notes
    text = game(0, (0, 0), f"{OPENING};W[double];B[drop]", "W+1").replace("MI[length:5][game:0][ws:0][bs:0]", "MI[Game:0][LENGTH:5][BS:0][WS:0]")
    errors, notes, _ = report(tmp_path, text + game(1, (1, 0), f"{OPENING};W[double];B[drop]", "W+1").replace("[ws:1]", "[WS:1]"))
    assert errors == [] and "money-by-default" not in notes


def test_a_game_stopping_where_the_next_score_gives_a_resignation_ended_by_it(tmp_path: Path) -> None:
    """SGF's RE is optional: the next game's score tells a resignation's worth."""
    text = game(0, (0, 0), OPENING) + game(1, (2, 0), f"{OPENING};W[double];B[drop]")
    errors, notes, _ = report(tmp_path, text)
    assert errors == [] and "resign-from-score" in notes
    # four points at the cube 1 are no resignation: the record stops short, told once
    errors, notes, _ = report(tmp_path, game(0, (0, 0), OPENING, length=9) + game(1, (4, 0), f"{OPENING};W[double];B[drop]", length=9))
    assert [code for code, _, _ in errors] == ["no-result"] and "resign-from-score" not in notes
    # a game that stops at a double with no answer did not end by resignation
    errors, _, _ = report(tmp_path, game(0, (0, 0), f"{OPENING};W[double]") + game(1, (1, 0), f"{OPENING};W[double];B[drop]"))
    assert [code for code, _, _ in errors] == ["no-result"]


def test_a_game_stopping_with_a_wrong_score_line_after_it_is_one_error(tmp_path: Path) -> None:
    text = game(0, (0, 0), f"{OPENING};W[double];B[drop]", "W+1") + game(1, (2, 0), OPENING) + game(2, (1, 2), OPENING)
    errors, notes, _ = report(tmp_path, text)  # game 2's score says 2-0 where the count says 1-0; Alice then resigned it for 2
    assert [code for code, _, _ in errors] == ["header-score"] and "resign-from-score" in notes


def test_the_score_error_stands_at_the_match_info(tmp_path: Path) -> None:
    text = game(0, (0, 0), f"{OPENING};W[double];B[drop]", "W+1") + game(1, (0, 1), f"{OPENING};W[double];B[drop]", "W+1")
    errors, _, _ = report(tmp_path, text)
    line = text.splitlines().index(next(line for line in text.splitlines() if "[game:1]" in line)) + 1
    assert errors == [("header-score", line, text.splitlines()[line - 1].index("MI[") + 1)]


def test_an_unreadable_move_is_one_error(tmp_path: Path) -> None:
    errors, notes, _ = report(tmp_path, f"(;{ROOT}MI[length:5][game:0][ws:0][bs:0]RE[W+1]\n;W[71hefe]\n;B[42qusu];W[double];B[drop])")
    assert [code for code, _, _ in errors] == ["unreadable"] and "not-checked" not in notes  # its moves read: replayed on from there


def test_a_board_set_up_without_ae_and_with_borne_off_checkers(tmp_path: Path) -> None:
    """A writer that lists all fifteen checkers of a side, z for those borne off, in nodes of their own."""
    white = "[a][a][b][b][c][c][d][d][e][e][f][f][z][z][z]"
    black = "[x][x][w][w][v][v][u][u][t][t][s][s][z][z][z]"
    setup = f";AW{white}\n;AB{black}\n;PL[W]\n;DI[31]\n;CV[1]\n;CP[c]"
    errors, _, _ = report(tmp_path, f"(;{ROOT}MI[length:5][game:0][ws:0][bs:0]\n{setup})")
    assert errors == []
    errors, _, _ = report(tmp_path, f"(;{ROOT}MI[length:5][game:0][ws:0][bs:0]\n{setup.replace('[z][z][z]', '[z][z][z][a]', 1)})")
    assert [code for code, _, _ in errors] == ["set-position"]  # sixteen checkers are no side


def test_a_soft_line_break_in_a_comment_keeps_the_games_after_it(tmp_path: Path) -> None:
    first = game(0, (0, 0), f"{OPENING}C[a soft\\\nline break];W[double];B[drop]", "W+1")
    errors, _, games = report(tmp_path, first + game(1, (1, 0), f"{OPENING};W[double];B[drop]", "W+1"))
    assert (errors, games) == ([], 2)


def test_a_resignation_written_without_points_takes_them_from_the_next_score(tmp_path: Path) -> None:
    """RE[W+Resign] (SGF's general form: the winner only): the next game's score gives the points."""
    text = game(0, (0, 0), OPENING, "W+Resign") + game(1, (2, 0), f"{OPENING};W[double];B[drop]", "W+1")
    errors, notes, _ = report(tmp_path, text)
    assert errors == [] and "resign-from-score" in notes
    errors, _, _ = report(tmp_path, text.replace("W+Resign", "B+R"))  # the next score says White won it
    assert [code for code, _, _ in errors] == ["no-result"]
    errors, notes, _ = report(tmp_path, game(0, (0, 0), OPENING, "W+R"))  # nothing after it tells the points
    assert errors == [] and "resign-unscored" in notes


def test_an_unknown_result_is_no_claim(tmp_path: Path) -> None:
    errors, notes, _ = report(tmp_path, game(0, (0, 0), f"{OPENING};W[double];B[drop]", "?"))
    assert errors == [] and "result" not in notes
    errors, notes, _ = report(tmp_path, game(0, (0, 0), f"{OPENING};W[double];B[drop]", "W+2X"))
    assert "result" in notes  # what does not read is said
