"""The reader on every real transcript of ../shared/corpus: no format error but in files that
are not backgammon (and, in the labelled archive, files whose format error is a defect labelled
true), and as many games and actions as an independent count finds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ARCHIVE, CORPUS, archive_labels

from bgrecord.formats.issues import Severity
from bgrecord.formats.reader import iter_matches, match_files
from bgrecord.formats.records import CubeAction, Result, Roll, SetPosition
from bgrecord.formats.source import decode

NOT_BACKGAMMON = {
    "zmetcalf__backgammon_sgf/tests__demo_file.sgf": "a Go game (GM[1]): refused as not backgammon",
}

TEXT_SUFFIXES = (".mat", ".txt", ".gam", ".sgf")
_GAME = re.compile(r"\s*game\s+\d+", re.I)
_ROLL = re.compile(r"\d\d\s*:")
_CUBE = re.compile(r"(?i)\b(doubles?|beavers|raccoons|takes?|drops?|accepts|rejects|passes)\b")
_RESULT = re.compile(r"(?i)\b(wins\s+\d+|losses|resigns|resigned)\b")


def independent_count(text: str, sgf: bool) -> tuple[int, int]:
    """Games and actions (rolls, cube actions, results) by plain pattern counting."""
    if sgf:
        # a game's last node saying only who rolled what (PL[B]DI[33]) is dice rolled and not played: a roll
        unplayed = len(re.findall(r";\s*PL\[[WB]\]\s*DI\[[1-6]{2}\](?:\s*(?:LU|C|DA|A)\[[^\]]*\])*\s*\)", text))
        return text.count("GM[6]"), len(re.findall(r";\s*[WB]\[", text)) + len(re.findall(r"RE\[[WB]\+", text)) + unplayed
    games = actions = 0
    score_line_next = False
    for line in re.split(r"\r\n|\r|\n", text):
        if _GAME.match(line):
            games, score_line_next = games + 1, True
        elif score_line_next and line.strip():
            score_line_next = False
        elif games and not line.lstrip().startswith(";"):  # a comment line may say "wins by forfeit"
            actions += len(_ROLL.findall(line)) + len(_CUBE.findall(line)) + len(_RESULT.findall(line))
    return games, actions


def corpus_files() -> list[Path]:
    if not CORPUS.exists():
        pytest.skip(f"corpus absent: {CORPUS}")
    return match_files([CORPUS])


def test_every_corpus_file_reads_and_counts_agree() -> None:
    files = corpus_files()
    assert len(files) > 1800
    labels, must = archive_labels() if ARCHIVE.exists() else ({}, [])
    defects = {(path, line) for (path, line), verdicts in labels.items() if "true" in verdicts} | {row[:2] for row in must}
    refused: dict[str, str] = {}
    total_games = 0
    for path in files:
        name = str(path.relative_to(CORPUS))
        matches = list(iter_matches(path))
        errors = [i for m in matches for i in m.all_issues() if i.severity is Severity.ERROR and i.category == "format"]
        if errors:
            refused[name] = errors[0].code
            if path.is_relative_to(ARCHIVE):  # the labelled archive: a refusal must be a labelled defect
                assert (path.relative_to(ARCHIVE).as_posix(), errors[0].line or 0) in defects, (name, errors[0])
                del refused[name]
            continue
        games = [g for m in matches for g in m.games]
        total_games += len(games)
        if path.suffix.lower() not in TEXT_SUFFIXES:  # the binary formats: tests/test_formats_binary.py
            continue
        # a set-up written in a roll cell (Snowie's "21: Illegal play (...)") holds that cell's dice
        actions = sum(isinstance(a, (Roll, CubeAction, Result)) or isinstance(a, SetPosition) and a.dice is not None and a.kind == "snowie"
                      for g in games for a in g.actions)  # fmt: skip
        text, _ = decode(path.read_bytes())
        assert (len(games), actions) == independent_count(text, path.suffix == ".sgf"), name
        assert "".join(m.text() for m in matches) == text, name
    assert sorted(refused) == sorted(NOT_BACKGAMMON)
    assert set(refused.values()) == {"not-backgammon"}
    assert total_games > 5000


def test_selfplay_mat_and_sgf_give_the_same_games() -> None:
    from test_reader_samples import game_summary

    pairs = sorted((CORPUS / "gnubg-selfplay").glob("*.mat")) if CORPUS.exists() else []
    if not pairs:
        pytest.skip("corpus absent")
    for mat_path in pairs:
        mat, sgf = next(iter_matches(mat_path)), next(iter_matches(mat_path.with_suffix(".sgf")))
        assert len(mat.games) == len(sgf.games), mat_path.name
        for game_mat, game_sgf in zip(mat.games, sgf.games):
            assert game_summary(game_mat.actions) == game_summary(game_sgf.actions), (mat_path.name, game_mat.index)
            assert game_mat.scores == game_sgf.scores and game_mat.names == game_sgf.names
    assert len(pairs) == 40
