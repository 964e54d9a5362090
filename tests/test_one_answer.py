"""One answer on every path: whatever path a record takes, its games, players and matches
tables are the same, column by column, and so are the rules it is played by.

The paths: the record and its conversion to each format (.mat, SGF, JSON, OGXM); the same match
as other producers write it (the dialect generators' output beside the match it came from); a
relative and an absolute path; one worker, two, and a Dask cluster. The records: every sample,
the generated dialects, records made to state every rule, and the shared corpus (every file but
the 1,781 Galaxy matches of ``lassehjorthmadsen__bglab``, one in ``BGRECORD_ONE_ANSWER_EVERY``
of those, 16 by default; OGXM, whose codec costs a fifth of a second a match, one record in four).
``BGRECORD_ONE_ANSWER_EVERY=1`` takes every file. What is compared, and what a format cannot say
at all, is in ``tests/one_answer.py``; docs/formats.md gives the suite's size.
"""

from __future__ import annotations

import copy
import os
import random
import shutil
from functools import cache
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import CORPUS
from one_answer import SOURCE, Reading, converted_reading, differences, format_limits, reading

from bgrecord.cli import main
from bgrecord.core.position import Variant
from bgrecord.formats.reader import match_files
from bgrecord.formats.records import GameRecord, MatchRecord, MoveToken, Result, Roll, Tag
from bgrecord.formats.issues import Severity
from bgrecord.formats.source import Input
from bgrecord.replay import replay
from bgrecord.replay.validate import validate_file
from bgrecord.show.demo import random_game
from bgrecord.writing.convert import ConversionRefused
from bgrecord.writing.writers import write_mat

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
EVERY = int(os.environ.get("BGRECORD_ONE_ANSWER_EVERY", "16"))
TARGETS = ("mat", "sgf", "json", "ogxms")


def corpus_files() -> list[Path]:
    if not CORPUS.exists():
        return []
    files = [Path(name) for name in match_files([CORPUS])]
    galaxy = [path for path in files if path.parent.name == "lassehjorthmadsen__bglab"]
    return [path for path in files if path.parent.name != "lassehjorthmadsen__bglab"] + galaxy[::EVERY]


@cache
def original_reading(path: Path) -> Reading:
    """A record's reading, read once for the four targets."""
    return reading(path)


def clean(path: Path | Input) -> bool:
    report = validate_file(path)
    return report.failure is None and report.games > 0 and not report.count(Severity.ERROR)


# --- records that state every rule ---


def random_games(seed: int, count: int, gammon: bool, variant: Variant = Variant.STANDARD, jacoby: bool = False) -> list[GameRecord]:
    """``count`` games of random legal plays from ``variant``'s start, their scores carried (a
    gammon each, when ``gammon``: the cube never turns, so that Jacoby decides the points),
    as a reader gives them."""
    rng = random.Random(seed)
    games: list[GameRecord] = []
    score = [0, 0]
    while len(games) < count:
        game = GameRecord(index=len(games) + 1, number=len(games) + 1, line=1, names=("Alice", "Bob"), scores=(score[0], score[1]))
        turn = None
        for turn in random_game(rng, variant):
            moves = tuple(MoveToken((m.source, m.target), (False, False), 1, f"{m.source}/{m.target}", 0) for m in turn.chosen.play)
            game.actions.append(Roll(turn.position.turn, None, 1, 1, "", (turn.dice.first, turn.dice.second), moves))
        assert turn is not None
        final = turn.chosen.position.outcome()
        assert final is not None
        if gammon and final.kind == 1:
            continue
        game.actions.append(Result(final.winner, None, 1, 1, "", "win", final.kind))
        games.append(game)
        score[final.winner] += 1 if jacoby else final.kind
    return games


# (length, tags): each rule a record states, in each of its values, alone and together
RULED = [
    (0, [("Jacoby", "On")]), (0, [("Jacoby", "Off")]), (0, [("Jacoby", "On"), ("Beaver", "On"), ("CubeLimit", "64")]),
    (0, [("Jacoby", "Off"), ("Beaver", "Off")]), (0, [("CubeLimit", "1")]), (0, [("Beaver", "On")]), (0, []),
    (0, [("Variation", "Nackgammon"), ("Jacoby", "On")]), (5, [("Crawford", "On")]), (5, [("Crawford", "Off"), ("CubeLimit", "8")]),
    (9, [("Variation", "NackGammon")]), (7, []),
]  # fmt: skip


def ruled_record(index: int, folder: Path) -> Path:
    """A clean .mat stating the rules ``RULED[index]``; a money session's games are gammons won
    with the cube in the middle (Jacoby counts them 1 point, no Jacoby 2)."""
    length, tags = RULED[index]
    variant = Variant.NACKGAMMON if any(key == "Variation" for key, _ in tags) else Variant.STANDARD
    games = random_games(index, 2, gammon=length == 0 and variant is Variant.STANDARD, variant=variant, jacoby=("Jacoby", "On") in tags)
    match = MatchRecord(None, "mat", "utf-8", length=length, tags=[Tag(key, value, 1) for key, value in tags], games=games)
    text = write_mat(match, list(replay(match)))
    path = folder / f"ruled-{index}.mat"
    path.write_text(text + "\n", encoding="utf-8")
    return path


# --- generated dialects: the same match as other producers write it ---


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Path, bool, bool]]:
    return dialect_files(tmp_path_factory.mktemp("dialects"))


def dialect_files(folder: Path) -> list[tuple[Path, Path, bool, bool]]:
    """(dialect file, the source it was made from, whether the dialect writes other names, and
    a money session's running net for its scores)
    for every .mat and SGF dialect, each on two source matches, and the FIBS and .gam
    writings of matches they can hold."""
    import dialects
    import sgf_dialects
    import text_dialects
    from test_dialects import models

    every = models()
    sources = {stem: path for path in sorted(SAMPLES.glob("gnubg-*.mat")) + sorted((SAMPLES.parent / "tests" / "data" / "gnubg").glob("*.mat"))
               for stem in [path.stem]}  # fmt: skip
    made: list[tuple[Path, Path, bool, bool]] = []
    folder.mkdir(parents=True, exist_ok=True)
    for at, (name, mat_dialect) in enumerate(sorted(dialects.DIALECTS.items())):
        if mat_dialect.resign:
            continue  # games cut short by a resignation: another match
        for stem, match in (every[at % len(every)], every[(at + 7) % len(every)]):
            path = dialects.write(folder / f"mat-{name}-{stem}.mat", copy.deepcopy(match), mat_dialect)
            made.append((path, sources[stem], mat_dialect.names is not None, mat_dialect.money_net))
    for at, (name, sgf_dialect) in enumerate(sorted(sgf_dialects.DIALECTS.items())):
        if name.startswith("positions") or name == "per-game-files" or sgf_dialect.resign or sgf_dialect.result in ("none", "unknown"):
            continue  # a position, a game a file, games cut short by a resignation, or with no result: not the whole match
        if sgf_dialect.setup == "edited":
            continue  # a board set up mid-game (to the position it was in): a set-up the record holds, and its key counts
        for stem, match in (every[at % len(every)], every[(at + 5) % len(every)]):
            paths = sgf_dialects.write(folder / f"sgf-{name}-{stem}.sgf", copy.deepcopy(match), sgf_dialect)
            made.append((paths[0], sources[stem], sgf_dialect.names is not None, False))
    fibs = [(stem, match) for stem, match in every if not any(cell.kind in ("beaver", "raccoon") for game in match.games for cell in game.cells)]
    for at, (name, fibs_dialect) in enumerate(sorted(text_dialects.FIBS_DIALECTS.items())):
        stem, match = fibs[at % len(fibs)]
        path = folder / f"fibs-{name}-{stem}.txt"
        path.write_text(text_dialects.render_fibs(copy.deepcopy(match), fibs_dialect), encoding="utf-8", newline="")
        made.append((path, sources[stem], False, False))
    return made


# --- the tests ---


def test_every_rule_is_read_and_written_by_every_format(tmp_path: Path) -> None:
    """Each rule a record states (Jacoby, beavers, the cube limit, Crawford, the variant; on and
    off), through every format and from each format into two others (every pair, over the
    records): the same rules, the same tables (a money gammon with the cube in the middle is 1 point with Jacoby, 2
    without, whatever the format)."""
    for index in range(len(RULED)):
        path = ruled_record(index, tmp_path)
        assert clean(path), path.read_text()
        original = reading(path)
        assert original.rules and (original.rules[0] or not RULED[index][1]), RULED[index]
        for target in TARGETS:
            try:
                first = converted_reading(path, target)
            except ConversionRefused:
                assert target == "ogxms" and RULED[index][0] == 0 and "Beaver" in dict(RULED[index][1])
                continue
            limits = format_limits(path, target)
            assert differences(original, first, **limits) == [], (RULED[index], target)
            content = tmp_path / f"ruled-{index}.{target}"
            content.write_bytes(_bytes(path, target))
            for again in (TARGETS[(TARGETS.index(target) + index) % 4], TARGETS[(TARGETS.index(target) + index + 1) % 4]):
                # and from that format into two others (in turn, every pair over the records)
                try:
                    second = converted_reading(content, again)
                except ConversionRefused:
                    continue
                second_limits = {**limits, "ogxm": limits["ogxm"] or again == "ogxms", "warnings_may_go": None}
                assert differences(original, second, **second_limits) == [], (RULED[index], target, again)


def _bytes(path: Path, target: str) -> bytes:
    from bgrecord.writing.convert import converted
    from bgrecord.writing.ogxm import write_stream

    content, _ = converted(path, target)
    return write_stream(content) if isinstance(content, list) else content if isinstance(content, bytes) else content.encode()


def test_a_jacoby_session_keeps_its_points_in_sgf(tmp_path: Path) -> None:
    """The case seen: an XG money session with Jacoby on, converted to SGF, wrote RU[Jacoby]
    and was read back without it (a gammon with the cube in the middle: 2 points, not 1)."""
    path = ruled_record(0, tmp_path)
    original = reading(path)
    assert [row["points"] for row in original.games] == [1, 1] and [row["result"] for row in original.games] != ["single", "single"]
    sgf = converted_reading(path, "sgf")
    assert [row["points"] for row in sgf.games] == [1, 1] and original.rules == [{"jacoby": True}] and sgf.rules[0]["jacoby"] is True


@pytest.mark.parametrize("target", TARGETS)
def test_a_conversion_gives_the_same_tables(target: str) -> None:
    """Every clean record at hand (samples, the corpus) and its conversion to ``target``:
    the same games, players and matches tables and the same rules, but for what the
    target cannot say (:func:`one_answer.format_limits`)."""
    records = sorted(path for path in SAMPLES.iterdir() if path.suffix in (".mat", ".txt", ".gam", ".sgf")) + corpus_files()
    if target == "ogxms" and CORPUS.exists():  # OGXM's writer is slow: a quarter of the corpus is enough
        records = records[::4]
    compared = refused = 0
    found: dict[str, list[str]] = {}
    for path in records:
        original = original_reading(path)
        if not original.clean:
            continue
        try:
            again = converted_reading(path, target)
        except ConversionRefused:
            refused += 1
            continue
        compared += 1
        said = differences(original, again, **format_limits(path, target))
        if said:
            found[str(path)] = said[:5]
    assert not found, found
    least = {True: (150, 600), False: (3, 15)}[CORPUS.exists()]  # (OGXM, the others), with the corpus and without
    assert compared >= least[target != "ogxms"], (compared, refused)


def test_a_producers_dialect_gives_the_tables_of_the_match_it_writes(made: list[tuple[Path, Path, bool, bool]]) -> None:
    """The same match as each producer writes it (.mat and SGF dialects, FIBS logs): the tables
    of the match it came from (but for the names, where a dialect writes others, and what a
    notation says of itself: its warnings, what its result lines claim). The rules are not
    compared: a producer's format says what it can (GNU Backgammon's SGF has no word for
    beavers); bgrecord's writers state every rule (the test above)."""
    found: dict[str, list[str]] = {}
    for path, source, renamed, money_net in made:
        leave_out = SOURCE | {"warnings"} | ({"player0", "player1", "winner_name"} if renamed else set())
        leave_out |= {"score0", "score1"} if money_net else set()  # a money session's running net, as the record says it
        said = differences(reading(source), reading(path), leave_out, warnings_may_go=None, rules=False)
        if said:
            found[path.name] = said[:5]
    assert not found, found
    assert len(made) > 100


def test_paths_workers_and_a_cluster_give_the_same_tables(made: list[tuple[Path, Path, bool, bool]], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """bgrecord stats over one folder (samples, generated dialects, some of the corpus) through a
    relative path and an absolute one, with one worker, two, and a Dask cluster: the same
    tables, byte for byte but for the path the files are named by."""
    archive = tmp_path / "archive"
    shutil.copytree(SAMPLES, archive / "samples", ignore=shutil.ignore_patterns("*.py", "*.sh", "*.md"))
    for path, *_ in made[::6]:
        shutil.copy(path, archive / path.name)
    for path in corpus_files()[:: max(1, len(corpus_files()) // 40)]:
        (archive / "corpus").mkdir(exist_ok=True)
        shutil.copy(path, archive / "corpus" / path.name)
    monkeypatch.chdir(tmp_path)
    runs = {"relative": ["archive"], "absolute": [str(archive)], "-j 1": ["archive", "-j", "1"], "-j 2": ["archive", "-j", "2"]}
    try:
        import distributed  # noqa: F401

        runs["dask"] = ["archive", "--scheduler", "local", "-j", "2"]
    except ImportError:
        pass
    tables: dict[str, list[pd.DataFrame]] = {}
    for name, arguments in runs.items():
        out = tmp_path / name.replace(" ", "")
        out.mkdir()
        result = CliRunner().invoke(main, ["stats", *arguments, "-q", "-o", str(out / "games.csv"), "--players", str(out / "players.csv"),
                                           "--matches", str(out / "matches.csv")])  # fmt: skip
        assert result.exit_code in (0, 1), result.output
        read = [pd.read_csv(out / f"{table}.csv", dtype=str, keep_default_na=False) for table in ("games", "players", "matches")]
        for table in read[0], read[2]:
            for column in ("file", "duplicate_of"):
                table[column] = table[column].str.replace(str(archive), "archive", regex=False)
        tables[name] = read
    expected = tables.pop("relative")
    assert len(expected[0]) > 150
    for name, found in tables.items():
        for want, got in zip(expected, found):
            pd.testing.assert_frame_equal(want, got, obj=name)
