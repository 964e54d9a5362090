"""Properties of the reader: it never raises on content, any record has a repr, a clean
record read again from its own text is equal, memory stays flat, and the grammar is strict."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark

from bgrecord.formats.grammars import grammar_text
from bgrecord.formats.reader import iter_games, iter_matches, read_match
from bgrecord.formats.records import MatchRecord

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

PIECES = [
    " 7 point match", " 0 point match", "Game 1", " Game 2 (Crawford)", "Alice : 0   Bob : 3", "a,1712 : 1", "1)", " 12)",
    "52:", "13/7*", "bar/22", "25/20(2)", "13/7*/4", "6/off", "Doubles => 2", "Takes", "Drops", "Beavers => 4",
    "Wins 2 points", "Wins 1 point and the match", "Losses 1 point", "Resigned Game", "Cannot Move", "????",
    "Illegal play (1;0;2)", "; [Site \"x\"]", "; comment", "; Set Pos=abc/0", "Tom   Jerry", "(;FF[4]GM[6]", "W[52mkwr]",
    "B[double]", "RE[W+2R]", ")", "\n", "\r\n", "\r", "  ", "\t", "x", ":", "*", "/", "(",
]  # fmt: skip

format_like = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


def check(records: list[MatchRecord]) -> None:
    for record in records:
        assert repr(record)
        for issue in record.all_issues():
            assert str(issue) and issue.category == "format"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(format_like, st.text(max_size=300)))
def test_any_text_reads_without_raising(text: str) -> None:
    records = list(iter_matches(text + "\n"))
    check(records)
    assert "".join(record.text() for record in records) == text.removeprefix("\ufeff") + "\n" or records[0].format in ("sgf", "unknown")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_read_without_raising(data: bytes) -> None:
    check(list(iter_matches(data)))


def test_clean_records_read_again_from_their_text_are_equal() -> None:
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix not in (".mat", ".txt", ".gam", ".sgf"):
            continue
        records = list(iter_matches(path))
        again = list(iter_matches("".join(record.text() for record in records), path=str(path)))
        for record in again:
            record.encoding = records[0].encoding
        assert again == records, path.name


def test_path_text_and_bytes_give_the_same_record() -> None:
    path = SAMPLES / "xg-tags-bom-crlf.mat"
    from_path = read_match(path)
    from_bytes = read_match(path.read_bytes(), path=str(path))
    from_text = read_match(path.read_bytes().decode("utf-8-sig"), path=str(path))
    from_text.encoding = from_path.encoding
    assert from_path == from_bytes == from_text


def _session(games: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    rows = []
    for number in range(1, games + 1):
        rows.append(f"\n Game {number}\n Alice : {number - 1}                      Bob : 0\n")
        for row in range(1, 25):
            a, b, c, d = (rng.randint(1, 6) for _ in range(4))
            rows.append(f" {row:2}) {a}{b}: 13/{13 - a} 8/{8 - b}              {c}{d}: 13/{13 - c} 6/{6 - d}\n")
        rows.append("      Wins 1 point\n")
    return " 0 point match\n" + "".join(rows)


def _peak_beyond_text(path: Path, consume: object) -> int:
    """Peak memory while consuming, beyond the file's bytes and decoded text."""
    tracemalloc.start()
    count = sum(1 for _ in consume(path))  # type: ignore[operator]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count
    return peak - 2 * path.stat().st_size


def test_memory_stays_flat_while_streaming_games(tmp_path: Path) -> None:
    read_match(SAMPLES / "gnubg-5pt-crawford.mat")  # build the parser outside the measure
    for games in (300, 2400):
        path = tmp_path / f"session{games}.mat"
        path.write_text(_session(games))
        assert _peak_beyond_text(path, iter_games) < 1_500_000, games
    # holding every record instead (iter_matches keeps a match's games) would not pass
    assert _peak_beyond_text(path, iter_matches) > 10_000_000


def test_the_grammars_compile_in_strict_mode() -> None:
    starts = ["preamble", "game", "gam_game", "body_line", "game_line", "score_line", "names_line"]
    Lark(grammar_text("mat.lark"), parser="lalr", start=starts, strict=True)
    Lark(grammar_text("sgf.lark"), parser="lalr", start="collection", strict=True)


blanks = st.sampled_from(["", " ", "  ", "\t", "        "])
plain_move = st.builds("{}/{}{}{}".format, st.sampled_from(["13", "8", "6", "25", "0", "99", "bar", "BAR", "b"]),
                       st.sampled_from(["7", "0", "24", "off", "Off", "100"]), st.sampled_from(["", "*"]),
                       st.sampled_from(["", "(2)", "(4)", "*", "/4", ","]))  # fmt: skip
plain_cell = st.builds(lambda dice, gap, moves, after: f"{dice}{gap}:" + "".join(" " + move for move in moves) + after,
                       st.sampled_from(["52", "11", "00", "7"]), st.sampled_from(["", "", " "]), st.lists(plain_move, max_size=4),
                       st.sampled_from(["", "", " ", " Cannot Move", "  ????", " resigns", "13/8", "  Takes"]))  # fmt: skip
plain_like_row = st.builds(lambda *parts: "".join(parts), blanks, st.sampled_from(["1)", "12)", "x)"]), blanks,
                           st.one_of(plain_cell, st.just("")), blanks, st.one_of(plain_cell, st.just(""), st.just("Doubles => 2")), blanks,
                           st.sampled_from(["", "", "\n", "*"]))  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(plain_like_row)
def test_the_plain_row_pattern_reads_a_row_as_the_grammar_does(text: str) -> None:
    from bgrecord.formats.mat_grammar import grammar

    plain = grammar().plain_row.fullmatch(text)
    if plain is not None:
        full = grammar().row.fullmatch(text)
        assert full is not None and [plain.span(name) for name in ("number", "first", "second")] == [
            full.span(name) for name in ("number", "first", "second")]  # fmt: skip
