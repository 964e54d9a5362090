"""The binary and newer formats: eXtreme Gammon .xg and .xgp, BGBlitz .bgf, OGXM files and
streams. Each reader is checked position by position against the same match's .mat export
(shared corpus), OGXM against its fixtures' OGIDs, and the OGXM writer through the codec."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from conftest import CORPUS

from bgrecord import iter_matches, read_match
from bgrecord.formats.detect import FORMATS, Refusal, detect
from bgrecord.formats.issues import Severity
from bgrecord.formats.smile import SmileError, decode
from bgrecord.formats.source import Input
from bgrecord.replay import replay
from bgrecord.replay.rules import rules_for
from bgrecord.writing.writers import step_ogids

OTHER = CORPUS / "other-formats"
SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def other(folder: str, suffix: str) -> list[Path]:
    if not OTHER.exists():
        pytest.skip(f"corpus absent: {OTHER}")
    return sorted((OTHER / folder).glob(f"*{suffix}"))


def twin(path: Path) -> Path | None:
    """The .mat export of the same match."""
    stem = path.name.split("__")[-1].rsplit(".", 1)[0]
    found = [m for m in (OTHER / "mat-pairs").glob("*.mat") if m.name.split("__")[-1].rsplit(".", 1)[0] == stem]
    return found[0] if found else None


def positions(path: Path | str) -> list[list[str]]:
    """The gnubg Position ID before every play, game by game."""
    match = next(iter_matches(path))
    return [[s.before.id() for s in g.steps if s.kind == "move" and s.before] for g in replay(match, rules_for(match))]


def errors(path: Path | str) -> list[str]:
    found = []
    for match in iter_matches(path):
        found += [str(i) for i in match.all_issues() if i.severity is Severity.ERROR]
        found += [str(i) for g in replay(match, rules_for(match)) for i in g.issues if i.severity is Severity.ERROR]
    return found


@pytest.mark.parametrize("folder,suffix", [("xg", ".xg"), ("bgf", ".bgf")])
def test_binary_matches_replay_to_the_positions_of_their_mat_export(folder: str, suffix: str) -> None:
    compared = 0
    for path in other(folder, suffix):
        mat = twin(path)
        if mat is None:
            assert not errors(path) or "Squire" in path.name, path.name  # one .xg holds a real illegal play (record 582)
            continue
        assert positions(path) == positions(mat), path.name
        assert errors(path) == [] or errors(mat), path.name  # clean where the export is clean
        compared += 1
    assert compared >= 7


def test_xg_reads_names_rules_comments_and_locations_by_record() -> None:
    path = next(p for p in other("xg", ".xg") if "match_with_comment" in p.name)
    match = read_match(path)
    assert match.format == "xg" and match.length == 9 and match.unit == "record"
    assert match.players == ("Nicolas HARMAND", "Kévin UNGER")
    assert match.tag("Crawford") == "On" and match.tag("Event") == "Entrainement live"
    comments = [a.text for g in match.games for a in g.actions if type(a).__name__ == "Comment"]
    assert comments == ["coup assez difficile", "les double 66 sont toujpurs difficiles à trouver"]
    illegal = next(p for p in other("xg", ".xg") if "Squire" in p.name)
    (error,) = [e for e in errors(illegal)]
    assert ":record 582: error[wrong-distance]" in error and "8/5" in error


def test_xgp_files_are_positions() -> None:
    for path in other("xgp", ".xgp"):
        match = read_match(path)
        assert match.format == "xgp" and len(match.games) == 1, path.name
        (setup,) = match.games[0].actions
        assert setup.kind == "board" and setup.on_roll in (0, 1)
        assert not errors(path) and not [i for g in replay(match) for i in g.issues]
    opening = read_match(next(p for p in other("xgp", ".xgp") if "Opening" in p.name))
    assert opening.games[0].actions[0].dice == (6, 5)


def test_ogxm_positions_equal_the_fixtures_ogids_before_every_ply() -> None:
    checked = 0
    for path in other("ogxm", ".ogxm"):
        expected_file = path.with_name(path.name.replace(".ogxm", ".expected.json"))
        if not expected_file.exists():
            assert read_match(path).games, path.name  # the foreign-annotations fixture reads
            continue
        document = json.loads(expected_file.read_text())
        expected = [[p["ogid_before"] for p in g["plies"]] for g in document["games"]] if "games" in document \
            else [[before for before, _ in game] for game in document["ogids"]]  # fmt: skip
        match = read_match(path)
        for game, wanted in zip(replay(match), expected):
            ours = [text for text, step in zip(step_ogids(game, match.length or 0), game.steps) if step.kind not in ("win", "loss")]
            plies = [text for text in wanted if text]
            assert ours[: len(plies)] == plies[: len(ours)], path.name
            checked += min(len(ours), len(plies))
    assert checked >= 100


def test_an_ogxm_stream_goes_on_after_a_corrupt_member(tmp_path: Path) -> None:
    pytest.importorskip("ogxm")
    from bgrecord.writing.ogxm import write_ogxm

    members = []
    for name in ("gnubg-5pt-crawford.mat", "gnubg-money-jacoby.mat", "gibbon-fibs-roll-order.mat"):
        match = read_match(SAMPLES / name)
        members.append(write_ogxm(match, list(replay(match, rules_for(match)))))  # with a checksum: a reader resyncs on it
    broken = bytearray(members[1])
    broken[len(broken) // 2] ^= 0xFF
    stream = tmp_path / "three.ogxms"
    stream.write_bytes(members[0] + bytes(broken) + members[2])
    matches = list(iter_matches(stream))
    problems = [i for m in matches for i in m.issues if i.code == "corrupt-member"]
    assert len(problems) == 1 and problems[0].unit == "byte" and "skipped" in problems[0].message
    assert sum(1 for m in matches if m.games) == 2


def test_zstd_compressed_streams_read(tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard")
    data = b"".join(p.read_bytes() for p in other("ogxm", ".ogxm")[:2])
    path = tmp_path / "two.ogxms.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(data))
    assert len([m for m in iter_matches(path) if m.games]) == 2


def test_ogxm_written_by_bgrecord_is_accepted_by_the_codec_and_reads_back(tmp_path: Path) -> None:
    ogxm = pytest.importorskip("ogxm")
    from bgrecord.writing.ogxm import document, write_ogxm

    for name in ("gnubg-5pt-crawford.mat", "gnubg-money-jacoby.mat"):
        match = read_match(SAMPLES / name)
        games = list(replay(match, rules_for(match)))
        assert ogxm.v2_problem(document(match, games)) is None
        path = tmp_path / f"{name}.ogxm"
        path.write_bytes(write_ogxm(match, games))
        assert positions(path) == positions(SAMPLES / name)
        assert errors(path) == []


def test_bgblitz_json_body_and_smile(tmp_path: Path) -> None:
    match = {"matchlen": 3, "nameGreen": "Ann", "nameRed": "Ben", "useCrawford": True, "games": [{
        "scoreGreen": 0, "scoreRed": 0, "wonPoints": 1, "moves": [
            {"type": "amove", "player": -1, "green": 3, "red": 1, "from": [8, 6, -1, -1], "to": [5, 5, -1, -1]},
            {"type": "amove", "player": 1, "green": 7, "red": 1, "from": [-1] * 4, "to": [-1] * 4},
            {"type": "amove", "player": -1, "green": 7, "red": 3, "from": [-1] * 4, "to": [-1] * 4},
            {"type": "amove", "player": 1, "green": 7, "red": 4, "from": [-1] * 4, "to": [-1] * 4}]}]}  # fmt: skip
    path = tmp_path / "plain.bgf"
    header = b'{"format":"BGF","version":"1.0","compress":true,"useSmile":false}\n'
    path.write_bytes(header + gzip.compress(json.dumps(match).encode()))
    read = read_match(path)
    assert read.format == "bgf" and read.players == ("Ann", "Ben") and read.unit == "move"
    game = next(replay(read))
    assert game.result is not None and (game.result.winner, game.result.points, game.result.ended_by) == (1, 1, "drop")
    assert not [i for i in game.issues if i.severity is Severity.ERROR]


def test_smile_values_and_errors() -> None:
    # {"a": 1, "b": [true, null, "xy"], "c": -3}: header, short ASCII keys, small ints, an array
    data = b":)\n\x03\xfa\x80a\xc2\x80b\xf8\x23\x21\x41xy\xf9\x80c\xc5\xfb"
    assert decode(data) == {"a": 1, "b": [True, None, "xy"], "c": -3}
    with pytest.raises(SmileError):
        decode(b"not smile")
    with pytest.raises(SmileError):
        decode(data[:-3])


@pytest.mark.parametrize(
    ("content", "code", "words"),
    [
        (b"%PDF-1.7\n...", "unsupported-format", "a PDF document"),
        (b"PK\x03\x04rest", "unsupported-format", "a ZIP archive"),
        (b"\x7fELF\x02\x01\x01" + b"\x00" * 100, "unsupported-format", "an executable program"),
        (b"\x00\x01\x02\x03binary" * 50, "binary", "binary data"),
        (b"(;FF[4]GM[1]SZ[19];B[pd];W[dp])", "not-backgammon", "SGF file of Go"),
        (b"JavaFIBS internal match representation v1.1\n0:You:4 3\n", "unsupported-format", "JavaFIBS"),
        (b"RGMH\x01\x00\x00\x00" + b"\x00" * 40, "unreadable", "eXtreme Gammon"),
    ],
)
def test_what_is_not_read_gets_one_line_naming_it(content: bytes, code: str, words: str) -> None:
    matches = list(iter_matches(content))
    issues = [i for m in matches for i in m.all_issues()]
    assert len(issues) == 1 and issues[0].code == code and words.lower() in issues[0].message.lower(), issues


def test_utf16_and_utf32_with_a_byte_order_mark_are_decoded() -> None:
    text = (SAMPLES / "gnubg-5pt-crawford.mat").read_text(encoding="utf-8")
    for codec, name in (("utf-16", "utf-16-le"), ("utf-32", "utf-32-le")):
        match = read_match(text.encode(codec))
        assert match.encoding == name and len(match.games) == 3 and not match.all_issues()


def test_detect_by_content_not_extension(tmp_path: Path) -> None:
    sgf = tmp_path / "really-sgf.mat"
    sgf.write_bytes((SAMPLES / "gibbon-beaver-setup.sgf").read_bytes())
    assert detect(Input.of(sgf)) is FORMATS["sgf"]
    assert detect(Input.of((SAMPLES / "fibs-oldmoves.txt").read_bytes())) is FORMATS["fibs"]
    assert detect(Input.of((SAMPLES / "snowie-position.txt").read_bytes())) is FORMATS["snowie"]
    assert isinstance(detect(Input.of(b"%PDF")), Refusal)
    gz = tmp_path / "match.mat.gz"
    gz.write_bytes(gzip.compress((SAMPLES / "gnubg-5pt-crawford.mat").read_bytes()))
    assert len(read_match(gz).games) == 3
    assert list(iter_matches(io.BytesIO(b"").read())) and read_match(b"").issues[0].code == "no-match"
