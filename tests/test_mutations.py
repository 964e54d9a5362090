"""Mutation suite: one defect injected into a clean GNU Backgammon record at a time; bgrecord
must report it as an error at the defect's line, and with at most one error in that game."""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path
from typing import Callable, Optional

from conftest import CORPUS, DATA

from bgrecord import read_match
from bgrecord.formats.issues import Severity
from bgrecord.formats.records import CubeAction, GameRecord, MatchRecord, Result, Roll
from bgrecord.replay import replay
from bgrecord.replay.rules import rules_for
from bgrecord.replay.validate import validate_file

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
Mutation = tuple[list[str], int, int]  # the new lines, the defect's line, the game index
Mutator = Callable[[list[str], MatchRecord, random.Random], Optional[Mutation]]


def sources() -> list[Path]:
    """Clean GNU Backgammon records: the samples and tests/data/gnubg (made by
    tests/data/make-gnubg-matches.sh), and the shared self-play corpus where it is."""
    files = sorted(SAMPLES.glob("gnubg-*.mat")) + sorted((DATA / "gnubg").glob("*.mat"))
    if (CORPUS / "gnubg-selfplay").exists():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))
    return files


def replace_at(lines: list[str], line: int, column: int, old: str, new: str) -> list[str]:
    text = lines[line - 1]
    start = column - 1
    assert text[start : start + len(old)] == old, (text, column, old)
    changed = list(lines)
    changed[line - 1] = text[:start] + new + text[start + len(old) :]
    return changed


def rolls(match: MatchRecord, rng: random.Random, test: Callable[[Roll], bool]) -> Optional[tuple[GameRecord, Roll]]:
    found = [(g, a) for g in match.games for a in g.actions if isinstance(a, Roll) and test(a)]
    return rng.choice(found) if found else None


def single_steps(action: Roll) -> list[int]:
    return [i for i, t in enumerate(action.moves) if len(t.points) == 2 and t.repeat == 1 and not any(t.hits)]


def wrong_distance(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: bool(single_steps(a)))
    if pick is None:
        return None
    game, action = pick
    token = action.moves[rng.choice(single_steps(action))]
    a, b = token.points
    d1, d2 = action.dice
    reachable = {d1, d2, d1 + d2} | ({d1 * k for k in (2, 3, 4)} if d1 == d2 else set())
    choices = [t for t in range(1, a) if t != b and a - t not in reachable and a - t <= 24]
    if not choices:
        return None
    new = token.text.replace(f"/{b}", f"/{rng.choice(choices)}", 1)
    return replace_at(lines, action.line, action.column + token.offset, token.text, new), action.line, game.index


def bad_die(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: True)
    if pick is None:
        return None
    game, action = pick
    dice = f"{action.dice[0]}{action.dice[1]}"
    return replace_at(lines, action.line, action.column, dice, f"7{dice[1]}"), action.line, game.index


def opening_double(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    game = rng.choice(match.games)
    first = next((a for a in game.actions if isinstance(a, Roll)), None)
    if first is None:
        return None
    dice = f"{first.dice[0]}{first.dice[1]}"
    return replace_at(lines, first.line, first.column, dice, dice[0] * 2), first.line, game.index


def die_unused(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: a.dice[0] != a.dice[1] and len(a.moves) == 2 and single_steps(a) == [0, 1])
    if pick is None:
        return None
    game, action = pick
    kept = action.moves[0].text
    return replace_at(lines, action.line, action.column, action.text, action.text[: action.moves[0].offset] + kept), action.line, game.index


def bear_off_early(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: a.number is not None and a.number <= 4 and any(t.points[0] <= 6 for t in a.moves))
    if pick is None:
        return None
    game, action = pick
    token = next(t for t in action.moves if t.points[0] <= 6)
    new = f"{token.points[0]}/0"
    return replace_at(lines, action.line, action.column + token.offset, token.text, new), action.line, game.index


def cubes(match: MatchRecord, kind: str) -> list[tuple[GameRecord, CubeAction]]:
    return [(g, a) for g in match.games for a in g.actions if isinstance(a, CubeAction) and a.kind == kind]


def cube_value(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    found = [(g, a) for g, a in cubes(match, "double") if a.value]
    if not found:
        return None
    game, action = rng.choice(found)
    return replace_at(lines, action.line, action.column, action.text, f"Doubles => {2 * (action.value or 1)}"), action.line, game.index


def take_without_double(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    found = cubes(match, "double")
    if not found:
        return None
    game, action = rng.choice(found)
    return replace_at(lines, action.line, action.column, action.text, "Takes"), action.line, game.index


def non_owner_rolls(match: MatchRecord) -> list[tuple[GameRecord, Roll]]:
    """Each take, and the doubler's next roll (where a double would be the non-owner's)."""
    options = []
    for game in match.games:
        for index, action in enumerate(game.actions):
            if isinstance(action, CubeAction) and action.kind == "take":
                later = [a for a in game.actions[index + 1 :] if isinstance(a, Roll) and a.player != action.player]
                if later:
                    options.append((game, later[0]))
    return options


def double_by_non_owner(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    options = non_owner_rolls(match)
    if not options:
        return None
    game, roll = rng.choice(options)
    return replace_at(lines, roll.line, roll.column, roll.text, "Doubles => 64"), roll.line, game.index


def crawford_double(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    crawford = [g.game for g in replay(match) if g.crawford]
    if not crawford:
        return None
    game = crawford[0]
    turns = [a for a in game.actions if isinstance(a, Roll)][1:]
    if not turns:
        return None
    roll = rng.choice(turns)
    return replace_at(lines, roll.line, roll.column, roll.text, "Doubles => 2"), roll.line, game.index


def known_wins(match: MatchRecord) -> list[tuple[GameRecord, Result]]:
    """The result lines whose points the replay knows: not a resignation's (its line is what says
    its level), not the last game's (the game that wins a match may be credited what it needed)."""
    known = {g.game.index for g in replay(match) if g.result and g.result.ended_by != "resign"}
    known.discard(match.games[-1].index)
    return [(g, a) for g in match.games for a in g.actions if isinstance(a, Result) and a.kind == "win" and g.index in known]


def wins_value(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    found = known_wins(match)
    if not found:
        return None
    game, action = rng.choice(found)
    points = (action.points or 0) + 1
    return replace_at(lines, action.line, action.column, action.text, f"Wins {points} points"), action.line, game.index


def header_score(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    if len(match.games) < 2:
        return None
    game = rng.choice(match.games[1:])
    line = game.line + 1
    text = lines[line - 1]
    colon = text.index(":")
    score = int(text[colon + 1 :].split()[0])
    new = text[: colon + 1] + text[colon + 1 :].replace(str(score), str(score + 1), 1)
    return lines[: line - 1] + [new] + lines[line:], line, game.index


def unreadable_row(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: bool(single_steps(a)))
    if pick is None:
        return None
    game, action = pick
    token = action.moves[single_steps(action)[0]]
    return replace_at(lines, action.line, action.column + token.offset, token.text, token.text + "x"), action.line, game.index


def move_after_end(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    game = rng.choice(match.games)
    last = game.actions[-1]
    if not isinstance(last, Result):
        return None
    return lines[: last.line] + ["  99) 31: 8/5 6/5"] + lines[last.line :], last.line + 1, game.index


def not_entering(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: any(t.points[0] == 25 and len(t.points) == 2 and t.repeat == 1 for t in a.moves))
    if pick is None:
        return None
    game, action = pick
    token = next(t for t in action.moves if t.points[0] == 25 and len(t.points) == 2 and t.repeat == 1)
    source, target = token.points
    new = f"24/{24 - (source - target)}"  # the same die, from the 24 point instead of the bar
    return replace_at(lines, action.line, action.column + token.offset, token.text, new), action.line, game.index


MUTATORS: dict[str, Mutator] = {
    "wrong-distance": wrong_distance, "bad-die": bad_die, "opening-double": opening_double, "die-unused": die_unused,
    "bear-off-early": bear_off_early, "cube-value": cube_value, "take-without-double": take_without_double,
    "double-by-non-owner": double_by_non_owner, "crawford-double": crawford_double, "wins-value": wins_value,
    "header-score": header_score, "unreadable-row": unreadable_row, "move-after-end": move_after_end,
    "not-entering": not_entering,
}  # fmt: skip


def test_injected_defects_are_found_at_their_line(tmp_path: Path) -> None:
    rng = random.Random(2026)
    tried: Counter[str] = Counter()
    missed: list[str] = []
    for source in sources():
        text = source.read_text(encoding="utf-8")
        lines = text.split("\n")
        match = read_match(source)
        assert not [g for g in replay(match, rules_for(match)) if any(i.severity is Severity.ERROR for i in g.issues)]
        for name, mutate in MUTATORS.items():
            mutation = mutate(lines, match, rng)
            if mutation is None:
                continue
            new_lines, line, game = mutation
            path = tmp_path / f"{source.stem}-{name}.mat"
            path.write_text("\n".join(new_lines), encoding="utf-8")
            report = validate_file(path)
            errors = [i for i in report.issues if i.severity is Severity.ERROR and i.game == game]
            tried[name] += 1
            if len(errors) != 1 or errors[0].line != line:
                missed.append(f"{path.name} (defect at line {line}): {[str(e) for e in errors]}")
    total = sum(tried.values())
    assert set(tried) == set(MUTATORS), tried
    assert total >= 40
    assert len(missed) <= total // 100, "\n".join(missed)


# --- the same defects in GNU Backgammon's SGF ---

SgfMutator = Callable[[list[str], MatchRecord, random.Random], Optional[Mutation]]


def sgf_sources() -> list[Path]:
    """The SGF samples, and self-play matches taken evenly: ``BGRECORD_MUTATION_SGF_FILES`` of
    them (default 10; 0 for all)."""
    files = sorted(SAMPLES.glob("gnubg-*.sgf"))
    if (CORPUS / "gnubg-selfplay").exists():
        corpus = sorted((CORPUS / "gnubg-selfplay").glob("*.sgf"))
        wanted = int(os.environ.get("BGRECORD_MUTATION_SGF_FILES", "10")) or len(corpus)
        files += corpus[:: max(1, len(corpus) // wanted)][:wanted]
    return files


def sgf_letters(action: Roll) -> str:
    return action.text[action.text.index("[") + 3 : -1]


def sgf_wrong_distance(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: bool(single_steps(a)) and all(t.points[0] != 25 for t in a.moves))
    if pick is None:
        return None
    game, action = pick
    at = single_steps(action)[0]
    a, b = action.moves[at].points
    d1, d2 = action.dice
    reachable = {d1, d2, d1 + d2} | ({d1 * k for k in (2, 3, 4)} if d1 == d2 else set())
    choices = [t for t in range(1, a) if t != b and a - t not in reachable]
    if not choices:
        return None
    letters = sgf_letters(action)
    target = rng.choice(choices)
    letter = chr(96 + target) if action.player == 0 else chr(97 + 24 - target)
    new = letters[: 2 * at + 1] + letter + letters[2 * at + 2 :]
    return replace_at(lines, action.line, action.column, action.text, action.text.replace(letters, new)), action.line, game.index


def sgf_bad_die(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: True)
    if pick is None:
        return None
    game, action = pick
    return replace_at(lines, action.line, action.column, action.text, action.text[:2] + "7" + action.text[3:]), action.line, game.index


def sgf_die_unused(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: a.dice[0] != a.dice[1] and len(a.moves) == 2 and single_steps(a) == [0, 1])
    if pick is None:
        return None
    game, action = pick
    return replace_at(lines, action.line, action.column, action.text, action.text[:-3] + "]"), action.line, game.index


def sgf_take_without_double(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    found = cubes(match, "double")
    if not found:
        return None
    game, action = rng.choice(found)
    return replace_at(lines, action.line, action.column, action.text, action.text.replace("double", "take")), action.line, game.index


def sgf_double_by_non_owner(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    options = non_owner_rolls(match)
    if not options:
        return None
    game, roll = rng.choice(options)
    return replace_at(lines, roll.line, roll.column, roll.text, roll.text[:2] + "double]"), roll.line, game.index


def sgf_wins_value(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    found = known_wins(match)
    if not found:
        return None
    game, action = rng.choice(found)
    new = f"RE[{'WB'[action.player or 0]}+{(action.points or 0) + 1}]"
    return replace_at(lines, action.line, action.column, action.text, new), action.line, game.index


def sgf_header_score(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    if len(match.games) < 2:
        return None
    game = rng.choice(match.games[1:])
    line, column = game.score_line, game.score_columns[0]
    if line is None or column is None or game.scores[0] is None or match.length and game.scores[0] + 1 >= match.length:
        return None
    old = f"[ws:{game.scores[0]}]"
    start = lines[line - 1].index(old, column - 1) + 1
    return replace_at(lines, line, start, old, f"[ws:{game.scores[0] + 1}]"), line, game.index


def sgf_unreadable_move(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    pick = rolls(match, rng, lambda a: bool(a.moves))
    if pick is None:
        return None
    game, action = pick
    return replace_at(lines, action.line, action.column, action.text, action.text[:-1] + "q]"), action.line, game.index


def sgf_move_after_end(lines: list[str], match: MatchRecord, rng: random.Random) -> Optional[Mutation]:
    ended = [g.game for g in replay(match) if g.result and g.result.ended_by in ("bearoff", "drop")]
    if not ended:
        return None
    game = rng.choice(ended)
    last = [a for a in game.actions if isinstance(a, (Roll, CubeAction))][-1]
    text = lines[last.line - 1]
    end = text.index("]", last.column - 1) + 1
    changed = list(lines)
    changed[last.line - 1] = text[:end] + "\n;W[31hefe]" + text[end:]
    return changed, last.line + 1, game.index


SGF_MUTATORS: dict[str, SgfMutator] = {
    "wrong-distance": sgf_wrong_distance, "bad-die": sgf_bad_die, "die-unused": sgf_die_unused,
    "take-without-double": sgf_take_without_double, "double-by-non-owner": sgf_double_by_non_owner,
    "wins-value": sgf_wins_value, "header-score": sgf_header_score, "unreadable-move": sgf_unreadable_move,
    "move-after-end": sgf_move_after_end,
}  # fmt: skip


def test_injected_defects_in_sgf_are_found_at_their_property(tmp_path: Path) -> None:
    """GNU Backgammon's own SGF (the samples, and the self-play corpus where it is), one defect
    at a time: an error at the defect's line (its property's), and at most one error in that game."""
    rng = random.Random(2027)
    tried: Counter[str] = Counter()
    missed: list[str] = []
    sources = sgf_sources()
    for source in sources:
        lines = source.read_text(encoding="utf-8").split("\n")
        match = read_match(source)
        for name, mutate in SGF_MUTATORS.items():
            mutation = mutate(lines, match, rng)
            if mutation is None:
                continue
            new_lines, line, game = mutation
            path = tmp_path / f"{source.stem}-{name}.sgf"
            path.write_text("\n".join(new_lines), encoding="utf-8")
            errors = [i for i in validate_file(path).issues if i.severity is Severity.ERROR and i.game == game]
            tried[name] += 1
            if len(errors) != 1 or errors[0].line != line:
                missed.append(f"{path.name} (defect at line {line}): {[str(e) for e in errors]}")
    assert set(tried) == set(SGF_MUTATORS), tried
    assert sum(tried.values()) >= len(sources) * 1.5  # most defects fit most matches (2 samples alone: 17 of 18)
    assert not missed, "\n".join(missed)
