"""Players are people: a name is compared in Unicode NFC without its invisible characters, an
aliases table makes names one person for stats, index and analyze, and ``bgrecord players``
lists the names that may be one person (bgrecord.names)."""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from bgrecord.cli import main
from bgrecord.escapes import one_line, shown
from bgrecord.names import NO_ALIASES, AliasError, People, alias_file, alias_rows, look_alike, named, person, read_aliases
from bgrecord.tables import stats

MULLER_NFC = unicodedata.normalize("NFC", "Jürgen Müller")
MULLER_NFD = unicodedata.normalize("NFD", "Jürgen Müller")


def record(left: str, right: str, winner: int = 0) -> str:
    """A clean 1-point match between ``left`` and ``right``, ``winner`` winning a dropped double."""
    rows = "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                 Drops\n" if winner == 0 else \
        "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops\n"  # fmt: skip
    result = "      Wins 1 point\n" if winner == 0 else "                                  Wins 1 point\n"
    return f" 3 point match\n\n Game 1\n {left} : 0                      {right} : 0\n{rows}{result}"


def test_one_name_in_two_forms_or_with_invisible_characters_is_one_person() -> None:
    assert MULLER_NFC != MULLER_NFD and person(MULLER_NFC) == person(MULLER_NFD) == MULLER_NFC
    assert person("Ann\u200b") == person("\ufeffAnn") == person("A\u00adnn") == person("Ann  ") == "Ann"
    assert person("Ann Lee") == person("Ann \u2060 Lee") == "Ann Lee"
    assert person("ann") != person("Ann")  # case is the user's to confirm (bgrecord players)
    assert named("", 0) == named(" \u200b", 0) == "(no name, left)" and named("", 1) == "(no name, right)" and named("Bo", 1) == "Bo"


def test_text_outputs_show_the_invisible_characters() -> None:
    assert shown("Ann\u200b") == one_line("Ann\u200b") == "Ann\\u200b"
    assert shown("\u00ad\u2060\ufeff") == "\\u00ad\\u2060\\ufeff"
    assert shown("a\u200db") == "a\u200db"  # the joiner emoji and scripts need stays


def test_stats_counts_a_person_however_the_name_is_written(tmp_path: Path) -> None:
    for number, (left, right) in enumerate([(MULLER_NFC, "Bob"), (MULLER_NFD, "Bob"), ("Jürgen\u200b Müller", "Bob\ufeff")]):
        (tmp_path / f"m{number}.mat").write_text(record(left, right), encoding="utf-8")
    table = stats.players(sorted(tmp_path.glob("*.mat")))
    assert list(table["player"]) == ["Bob", MULLER_NFC] and list(table["games"]) == [3, 3] and list(table["wins"]) == [0, 3]
    games = stats.games(sorted(tmp_path.glob("*.mat")))
    assert list(games["player0"]) == [MULLER_NFC, MULLER_NFD, "Jürgen\u200b Müller"]  # the games table keeps the record's text


def test_an_aliases_file_reads_as_said_and_refuses_what_is_not() -> None:
    text = "name,person\n# nicknames\nAl,Alice Smith\n\nAlice,Alice Smith\n Bob\u200b , Robert \n"
    assert read_aliases(text) == {"Al": "Alice Smith", "Alice": "Alice Smith", "Bob": "Robert"}
    assert read_aliases("a,b\nb,c\n") == {"a": "c", "b": "c"}  # a chain ends at its last name
    assert read_aliases("a,b\nb,a\n") == {"a": "a", "b": "b"}  # a loop, at its first name again
    for bad, said in (("a,b,c\n", "aliases:1:"), ("a,\n", "aliases:1:"), ("a,b\na,c\n", "'a' is already 'b' (line 1)"),
                      ('"a,b\n', "aliases:")):  # fmt: skip
        with pytest.raises(AliasError, match=re.escape(said)):
            read_aliases(bad)
    with pytest.raises(AliasError, match="more than"):
        read_aliases("a,b\n" * 100_001)
    chain = read_aliases("".join(f"n{i},n{i + 1}\n" for i in range(99_999)))  # resolved in linear time (a quadratic walk: hours)
    assert chain["n0"] == chain["n50000"] == "n99999"
    assert read_aliases("x,a\na,b\nb,a\n") == {"x": "a", "a": "a", "b": "b"}  # a chain into a loop ends where it meets it
    rows = [("=cmd", "@x"), ("a,b", 'say "hi"')]
    assert read_aliases(alias_file(rows)) == dict(rows)  # a formula's cell guarded, read back as written


def test_names_that_may_be_one_person_are_listed_not_merged() -> None:
    games = {"Alice": 5, "alice": 2, "Masayuki": 3, "Masayuki Mochizuki": 9, "John": 1, "John Smith": 2, "John Doe": 4, "Cy": 1}
    found = {(each.why, tuple(n for n, _ in each.names), each.person) for each in look_alike(games)}
    assert found == {("case", ("Alice", "alice"), "Alice"), ("short", ("Masayuki", "Masayuki Mochizuki"), "Masayuki Mochizuki"),
                     ("short", ("John", "John Doe", "John Smith"), "John Doe")}  # fmt: skip
    # a short name that may be several people is left to the user
    assert alias_rows(look_alike(games)) == [("alice", "Alice"), ("Masayuki", "Masayuki Mochizuki")]


def test_players_lists_and_drafts_an_aliases_file_that_stats_index_and_analyze_take(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    for number, (left, right) in enumerate([("Masayuki", "Bob"), ("Masayuki Mochizuki", "bob"), ("Ann\u200b", "Bob"), ("Ann", "")]):
        (archive / f"m{number}.mat").write_text(record(left, right, number % 2), encoding="utf-8")
    runner = CliRunner()
    listed = runner.invoke(main, ["players", str(archive), "-o", str(tmp_path / "aliases.csv")])
    assert listed.exit_code == 0, listed.output
    assert "Ann, Ann\\u200b: read as one name" in listed.output
    assert "Bob (2 games), bob (1 game): one name in different cases" in listed.output
    assert "Masayuki (1 game), Masayuki Mochizuki (1 game): a name and longer ones that start with it" in listed.output
    assert (tmp_path / "aliases.csv").read_text() == "name,person\nbob,Bob\nMasayuki,Masayuki Mochizuki\n"
    document = json.loads(runner.invoke(main, ["players", str(archive), "--format", "json", "-q"]).output)
    assert {row["name"] for row in document["players"]} == {"Ann", "Bob", "bob", "Masayuki", "Masayuki Mochizuki"}
    # confirmed: given back, nothing is left to list
    again = runner.invoke(main, ["players", str(archive), "--aliases", str(tmp_path / "aliases.csv"), "-q"])
    assert again.exit_code == 0 and "may be one" not in again.output and "cases" not in again.output
    result = runner.invoke(main, ["stats", str(archive), "-q", "-o", str(tmp_path / "g.csv"), "--players", str(tmp_path / "p.csv"),
                                  "--aliases", str(tmp_path / "aliases.csv")])  # fmt: skip
    assert result.exit_code == 0, result.output
    players = pd.read_csv(tmp_path / "p.csv")
    assert dict(zip(players["player"], players["games"])) == {"(no name, right)": 1, "Ann": 2, "Bob": 3, "Masayuki Mochizuki": 2}
    result = runner.invoke(main, ["index", str(archive), "-q", "-o", str(tmp_path / "db.sqlite"), "--aliases", str(tmp_path / "aliases.csv")])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(tmp_path / "db.sqlite") as database:
        assert dict(database.execute("SELECT player, games FROM players")) == dict(zip(players["player"], players["games"]))
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,c\n")
    refused = runner.invoke(main, ["stats", str(archive), "-o", str(tmp_path / "x.csv"), "--aliases", str(bad)])
    assert refused.exit_code == 2 and "bad.csv:1:" in refused.output and not (tmp_path / "x.csv").exists()


def test_analyze_names_its_players_as_people() -> None:
    from bgrecord.cli.analyzing import _named

    people = People({"Al": "Alice"})
    rows = [{"player": 0, "name": "Al", "opponent": ""}, {"player": 1, "name": "", "opponent": "Al\u200b"}, {"player": 0, "name": "Bo"}]
    assert _named(rows, people) == [{"player": 0, "name": "Alice", "opponent": "(no name, right)"},
                                    {"player": 1, "name": "(no name, right)", "opponent": "Alice"},
                                    {"player": 0, "name": "Bo"}]  # fmt: skip
    assert _named([{"player": 1, "name": "x"}], NO_ALIASES) == [{"player": 1, "name": "x"}]
