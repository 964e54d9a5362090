"""A match replayed game by game: the score, the Crawford game, and what the record says of
them.

The score is carried from the record: each game's score line is checked against the score
line before it plus that game's result (as replayed, else as the record claims it); a
disagreement is one error at the score line, and from there the record's own score is
carried on, so that one wrong line costs one error (and a line right by the count, the last
right line plus the results since, is no error: a typo costs one). A game without an end makes
the next score line the score. A gap in the game numbers is one warning
(the games left out explain the score), a score at or above the match length an error, a
game after the match was won an error, and a match that stops short of the length a notice.
In money play a score line of 0 : 0 is not checked (writers put it on every line); other
score lines are the session's running totals, checked like a match's.

Games are given one at a time (:meth:`MatchReplayer.feed`), so a match is replayed in the
memory of two games; each game's replay comes out when the next game is replayed (or at the
end): the next game shows whether it was left without an end, and whether the two fail alike
at their first move (:mod:`bgrecord.replay.repeats`). A variant the record names and bgrecord
does not play leaves every game unchecked, with one error.
"""

from __future__ import annotations

import re
from dataclasses import replace
from operator import attrgetter
from typing import Iterator

from bgrecord.core.position import Variant
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import Comment, CubeAction, GameRecord, MatchRecord, Result, Roll, SetPosition
from bgrecord.replay.columns import Columns
from bgrecord.replay.game import GameReplayer
from bgrecord.replay.repeats import OpeningRuns, Repeats, opening_failure
from bgrecord.replay.rules import RuleSet, rules_for
from bgrecord.replay.state import GameReplay, GameResult
from bgrecord.replay.variants import named_variant


class MatchReplayer:
    def __init__(self, match: MatchRecord, rules: RuleSet | None = None, steps: bool = True, repeats: Repeats | None = None,
                 recover: bool = True) -> None:  # fmt: skip
        self.match = match
        self.recover = recover  # False: each game stops at its first error (no repair)
        self.rules = rules or rules_for(match)
        self.repeats = repeats or Repeats()  # the file's: one unknown convention told once
        self.openings = OpeningRuns()
        named = named_variant(match)
        self.unsupported = named if named is not None and named.variant is None else None
        self.steps = steps
        self.length = match.length or 0
        self.after: dict[str, int] | None = None  # the score after the last game, by name
        self.claimed_after: dict[str, int] | None = None  # the same by the result the record claims
        # the score by the count: the last score line found right, plus the results since (a
        # score line with a typo is one error, and the line after it, right again, none)
        self.counted_after: dict[str, int] | None = None
        self.net_after: dict[str, int] | None = None  # money play: the running net (the loser's total goes down)
        self.counted_before: tuple[int, int] | None = None  # the count before the game, where its score line is wrong
        self.previous: GameRecord | None = None
        self.held: GameReplay | None = None
        self.crawford_done = False
        self.match_over = False
        self.past_end = False  # games follow the one that won the match
        self.marks_seen = False
        self.columns = Columns(match)  # who played each game (the score lines' names, their slips told apart)
        self.length_wrong = False  # the scores went on past the match length: it is written wrong (said once)
        self.first_line: int | None = None  # the first game's line (the header stands before it)
        # a game whose score line swaps the columns with their scores: the afters were it a slip, the game, and it so read
        self.swapped: tuple[tuple[dict[str, int] | None, ...], GameReplay, GameRecord] | None = None

    def issue(self, out: GameReplay, severity: Severity, category: str, code: str, message: str,
              line: int | None = None, column: int | None = None) -> None:
        game = out.game
        out.issues.append(Issue(severity, category, code, message, self.match.path, line if line is not None else game.line,
                                column, game=game.index, unit=self.match.unit))  # fmt: skip

    def feed(self, game: GameRecord) -> Iterator[GameReplay]:
        """Replay ``game``; yields the game before it, now that its end can be judged."""
        held = self.held
        if held is not None and held.result is None and held.checked and _claimed(held) is None and self.unsupported is None:
            if not self.resigned_by_score(held, game) and not self.resigned_unscored(held, game):
                self.issue(held, Severity.ERROR, "structure", "no-result", "the game has no end: no result, and the next game starts")
        out = self.unplayed(game) if self.unsupported is not None else self.play(game)
        self.repeats.fold(game, game.issues, out.issues)
        if held is not None:
            yield held
        self.previous = game
        self.held = out

    def resigned_by_score(self, held: GameReplay, game: GameRecord) -> bool:
        """SGF's result (``RE``) is optional, and some writers leave it out or write no points
        (``RE[W+Resign]``, ``RE[?]``): a game that stops with no result, where the next game's
        score gives one player (the one ``RE`` names, if it does) 1, 2 or 3 times the cube (a
        resignation's worth), ended by that resignation (info); if the other player's score moved
        too, the next score line is wrong there, and its check says so."""
        if self.match.format != "sgf":
            return False
        from bgrecord.formats.sgf import unscored_result  # an SGF's: other formats do not import its reader

        unscored, named = unscored_result((held.game.properties.get("RE") or ("",))[0])
        if not unscored or None in game.scores or not _played(held.game):
            return False
        last = next((a for a in reversed(held.game.actions) if not isinstance(a, Comment)), None)
        if isinstance(last, CubeAction) and last.kind in ("double", "beaver", "raccoon"):
            return False  # a double left unanswered: no resignation
        keys, next_keys = _keys(held.game), _keys(game)
        if set(keys) != set(next_keys):
            return False
        worth = (held.cube, 2 * held.cube, 3 * held.cube)
        readings = []  # (whether the other player's score stays, the winner, the points), by each start
        for start in filter(None, (held.score, self.counted_before)):  # the game's score line, or the count where that line is wrong
            before = dict(zip(keys, start))
            gained = {key: int(value) - before[key] for key, value in zip(next_keys, game.scores)}  # type: ignore[arg-type]
            winners = [key for key, points in gained.items() if points in worth and (named is None or keys.index(key) == named)]
            if len(winners) == 1:
                other = next(key for key in keys if key != winners[0]) if keys[0] != keys[1] else winners[0]
                readings.append((gained[other] == 0, winners[0], gained[winners[0]]))
        if not readings:
            return False
        # a resignation; where the other player's score moved too, the next score line is wrong there (its error)
        _, key, points = max(readings, key=lambda reading: reading[0])
        winner = keys.index(key)
        held.result = GameResult(winner, points, points // held.cube, "resign")
        self.issue(held, Severity.INFO, "result", "resign-from-score",
                   f"the game stops with no result (RE), and the next game's score gives {held.game.names[winner] or 'the winner'} {points}"
                   f" point{'s' if points != 1 else ''}: read as a resignation")  # fmt: skip
        self.settle(held)
        return True

    def resigned_unscored(self, held: GameReplay, game: GameRecord | None) -> bool:
        """SGF's ``RE[W+Resign]`` (a winner, no points) where no score after it tells the points
        (the last game, or a next game without scores): a resignation worth what the record does
        not say (info)."""
        if self.match.format != "sgf" or game is not None and None not in game.scores:
            return False
        from bgrecord.formats.sgf import unscored_result

        _, named = unscored_result((held.game.properties.get("RE") or ("",))[0])
        if named is None:
            return False
        self.issue(held, Severity.INFO, "result", "resign-unscored",
                   f"RE[{held.game.properties['RE'][0][:20]}]: {held.game.names[1 - named] or 'the loser'} resigned; the record gives no points")  # fmt: skip
        return True

    def play(self, game: GameRecord) -> GameReplay:
        """``game`` replayed, its score checked."""
        self.judge_swap(game)
        game, slip, swapped = self.columns.read(game, self.after)
        length = self.judge_length(game)
        score, crawford, post, unknown = self.score(game)
        out = GameReplay(game, score, crawford, post, crawford_unknown=unknown)
        if slip is not None:
            out.issues.append(slip)
        if length is not None:
            out.issues.append(length)
        self.check_score(out)
        if game.number is not None:
            self.check_number(out)
        marks = self.marks_seen or _marked(game)
        self.marks_seen = marks
        before = list(out.issues)
        GameReplayer(self.match, game, self.rules, out, marks, self.steps, self.recover).run()
        if opening_failure(out, unsure=False) is not None and not self.rules.given("variant") and not self.openings.broken:  # no game has shown the start yet
            out = self.other_start(out, before, marks)
        self.openings.judge(out, self.held)
        self.settle(out)
        if swapped is not None:
            other = replace(out, game=swapped, score=(out.score[1], out.score[0]))
            self.swapped = (self.afters(other), out, swapped)
        return out

    def judge_length(self, game: GameRecord) -> Issue | None:
        """The match was won by the results, and ``game``'s score line carries the score on beyond the
        match length (not a new match at 0-0, nor a game after the match at its final score): the
        length is written wrong. One ``match-length``
        error at the line that writes it; from there no score is judged against the length (no
        Crawford game, no end of match), and the game before loses its Crawford error."""
        if self.first_line is None:
            self.first_line = game.line
        written = game.scores
        if not self.match_over or self.length_wrong or None in written or max(written) <= self.length or written != self.expected(game):  # type: ignore[type-var, operator]
            return None
        self.length_wrong, self.match_over = True, False
        held = self.held
        if held is not None:
            held.issues[:] = [issue.at(severity=Severity.WARNING, message=f"{issue.message} (the match length is written wrong: "
                                       "this may not be the Crawford game)") if issue.code == "crawford-double" else issue for issue in held.issues]  # fmt: skip
        line = _length_line(self.match, self.first_line)
        return Issue(Severity.ERROR, "score", "match-length",
                     f"the score goes on past the match length of {self.length} ({game.names[0] or 'left'} {written[0]}, "
                     f"{game.names[1] or 'right'} {written[1]} before game {game.number or game.index}): the length is written wrong"
                     "; the match's end and its Crawford game are not judged", self.match.path, line, game=game.index, unit=self.match.unit)  # fmt: skip

    def judge_swap(self, game: GameRecord) -> None:
        """The game before swapped the columns with their scores: where ``game``'s score line follows
        the columns and not the names, that was a slip (the whole cells swapped), and the game before
        is read with the columns; else the columns did swap."""
        if self.swapped is None:
            return
        afters, held, swapped = self.swapped
        self.swapped = None
        written = game.scores

        def fits(scores: tuple[dict[str, int] | None, ...]) -> bool:
            return any(written == self.expected(game, after) for after in scores if after)

        slip = None not in written and fits(afters) and not fits((self.after, self.claimed_after, self.counted_after, self.net_after))
        said = self.columns.judge(held.game, swapped, slip)
        if said is not None:
            self.after, self.claimed_after, self.counted_after, self.net_after = afters
            self.judge_end()
            held.issues.append(said)
            held.game, held.score = swapped, (held.score[1], held.score[0])
            for step in held.steps:
                step.score = held.score

    def other_start(self, out: GameReplay, before: list[Issue], marks: bool) -> GameReplay:
        """A game that fails at its first move, where the record names no variant: replayed from
        the Nackgammon start, which is taken for the match if the game then replays cleanly."""
        rules = replace(self.rules, variant=Variant.NACKGAMMON, assumed=self.rules.assumed - {"variant"})
        other = GameReplay(out.game, out.score, out.crawford, out.post_crawford, issues=list(before), crawford_unknown=out.crawford_unknown)
        GameReplayer(self.match, out.game, rules, other, marks, self.steps, self.recover).run()
        if any(issue.severity is Severity.ERROR for issue in other.issues[len(before) :]):
            return out
        self.rules = rules
        self.issue(other, Severity.INFO, "rules", "inferred-variant",
                   "the game fails at its first move from the standard start and replays from the Nackgammon start: the match is read as Nackgammon")  # fmt: skip
        return other

    def unplayed(self, game: GameRecord) -> GameReplay:
        """A game of a variant bgrecord does not play: not checked; the first says why, once."""
        named = self.unsupported
        assert named is not None
        out = GameReplay(game, (int(game.scores[0] or 0), int(game.scores[1] or 0)), False, False, checked=False)
        if self.previous is None:
            where = f" (line {named.line})" if named.line is not None else ""
            self.issue(out, Severity.ERROR, "rules", "unsupported-variant",
                       f"the record names the variant {named.written[:40]!r}{where}, which bgrecord does not play: its games are not checked",
                       named.line)  # fmt: skip
        return out

    def finish(self) -> Iterator[GameReplay]:
        """The last game, with the notice of a match (or game) left unfinished."""
        held = self.held
        if held is None:
            return
        self.openings.close()  # the match's games all fail at their first move: said once
        if self.unsupported is not None:
            self.held = None
            yield held
            return
        standing = f"{held.score[0]}-{held.score[1]}" if self.after is None else "-".join(str(self.after.get(k, 0)) for k in _keys(held.game))
        if all(isinstance(action, (SetPosition, Comment)) for action in held.game.actions):
            pass  # a position (an .xgp or Snowie file), not a game: nothing is unfinished
        elif held.result is None and held.checked and _claimed(held) is None and not self.resigned_unscored(held, None):
            where = f" (the match stands at {standing} of {self.length})" if self.length else ""
            self.issue(held, Severity.INFO, "structure", "unfinished-game", f"the last game is unfinished{where}")
        elif self.length and not self.match_over and not self.past_end and not self.length_wrong and (held.result is not None and held.checked or _claimed(held)):
            self.issue(held, Severity.INFO, "structure", "match-unfinished", f"match unfinished at {standing} of {self.length}")
        self.held = None
        yield held

    # --- the score before each game ---

    def score(self, game: GameRecord) -> tuple[tuple[int, int], bool, bool, bool]:
        """The score before ``game`` (carried from the record) and its Crawford flags:
        (score, Crawford game, post-Crawford, Crawford unknown)."""
        written = game.scores if None not in game.scores else None
        expected = self.expected(game)
        if written is None:
            score = expected or (0, 0)
        elif self.length and any(value >= self.length for value in written):  # type: ignore[operator]
            score = expected or (min(int(written[0] or 0), self.length - 1), min(int(written[1] or 0), self.length - 1))
        else:
            score = (int(written[0]), int(written[1]))  # type: ignore[arg-type]
        if not self.length:
            return score, False, False, False
        if self.match_over or self.past_end or self.length_wrong:
            return score, False, False, True  # past the match's end (or its length) there is no Crawford game to judge
        crawford, post = self.crawford_flags(score)
        unknown = False
        if self.previous is None and score != (0, 0) and crawford:
            unknown = True  # a record that starts here cannot tell whether the Crawford game was played
        elif expected is not None and expected != score and self.crawford_flags(expected) != (crawford, post):
            unknown = True  # the record's score and the replay's disagree on it
        if crawford or unknown and self.crawford_flags(expected or score)[0]:
            self.crawford_done = True
        if unknown:
            return score, False, False, True
        return score, crawford, post, False

    def crawford_flags(self, score: tuple[int, int]) -> tuple[bool, bool]:
        """(Crawford game, post-Crawford game) for a game starting at ``score``."""
        one_away = [self.length - value == 1 for value in score]
        if sum(one_away) == 1 and not self.crawford_done:
            return True, False
        return False, any(one_away) and self.crawford_done

    def expected(self, game: GameRecord, after: dict[str, int] | None = None) -> tuple[int, int] | None:
        """The score the game before leads to (by its replayed result, or by ``after``), in
        ``game``'s columns; None for the first game, or players the record has not named."""
        after, keys = after or self.after, _keys(game)
        if after is None or not set(keys) <= set(after):
            return None
        return after[keys[0]], after[keys[1]]

    def check_score(self, out: GameReplay) -> None:
        game = out.game
        self.counted_before = None
        if self.previous is None and None in game.scores or not self.length and game.scores in ((0, 0), (None, None)):
            return  # money play has no match score: writers put 0 : 0, or the session's totals
        if self.past_end:
            return  # the games after the match's end: one error at the first of them
        if self.match_over:
            winner = max(self.after or {}, key=lambda key: (self.after or {})[key], default="")
            shown = f" by {winner}" if winner and not winner.startswith("\x00") else ""
            self.issue(out, Severity.ERROR, "structure", "after-match", f"a game after the match was won{shown}")
            self.past_end = True
            return
        written = game.scores
        if None in written:
            return
        line = game.score_line if game.score_line is not None else game.line + 1
        beyond = [side for side in (0, 1) if self.length and not self.length_wrong and written[side] >= self.length]  # type: ignore[operator]
        if beyond:
            side = beyond[0]
            self.issue(out, Severity.ERROR, "score", "score-beyond-length",
                       f"a score of {written[side]} in a {self.length} point match: the match would be over",
                       line, game.score_columns[side])  # fmt: skip
            return
        expected = self.expected(game)
        claimed = self.expected(game, self.claimed_after)
        counted = self.expected(game, self.counted_after) if self.counted_after is not None else None
        net = self.expected(game, self.net_after) if self.net_after is not None else None
        if expected is None or tuple(written) in (expected, claimed, counted, net) or self.gap(game):
            return  # a score line that follows the record's own (wrong) result, or its wrong line before, repeats that one error
        self.counted_before = counted or expected
        side = 0 if written[0] != expected[0] else 1
        names = game.names
        self.issue(out, Severity.ERROR, "score", "header-score",
                   f"the score before this game is {names[0] or 'left'} {expected[0]}, {names[1] or 'right'} {expected[1]}"
                   f" (the game before and its result), not {written[0]}{', ' if '-' in str(written[1]) else '-'}{written[1]}; the record's score is carried on",
                   line, game.score_columns[side])  # fmt: skip

    def gap(self, game: GameRecord) -> bool:
        previous = self.previous
        return bool(previous and previous.number is not None and game.number is not None and game.number > previous.number + 1)

    def check_number(self, out: GameReplay) -> None:
        game, previous = out.game, self.previous
        if previous is None or previous.number is None or game.number is None:
            return
        if game.number > previous.number + 1:
            first, last = previous.number + 1, game.number - 1
            missing = f"game {first} is" if first == last else f"games {first} to {last} are"
            self.issue(out, Severity.WARNING, "structure", "missing-games", f"{missing} missing from the record (Game {game.number} follows Game {previous.number})")
        elif game.number <= previous.number:
            self.issue(out, Severity.WARNING, "structure", "game-number", f"Game {game.number} follows Game {previous.number}")

    # --- the score after each game ---

    def settle(self, out: GameReplay) -> None:
        """The score after ``out``: its score plus its result (as replayed, else as claimed),
        and beside it the score by the result the record claims. The match is over when all
        say so (a wrong result line is one error, not a second one at the next game)."""
        self.after, self.claimed_after, self.counted_after, self.net_after = self.afters(out)
        if self.after is not None:  # (a game without an end keeps the count before it: the next game's score may tell its end)
            self.counted_before = None
        self.judge_end()

    def judge_end(self) -> None:
        """Whether the match is over: when the score carried, the result claimed and the count (where
        a score line was wrong) all say so."""
        if self.length and not self.length_wrong and self.after and self.claimed_after and self.counted_after:
            self.match_over = all(max(after.values()) >= self.length for after in (self.after, self.claimed_after, self.counted_after))

    def afters(self, out: GameReplay) -> tuple[dict[str, int] | None, ...]:
        """The scores after ``out`` (see :meth:`settle`): carried, claimed, by the count, and the
        money session's running net; all None where the next score line must say."""
        keys = _keys(out.game)
        claimed = _claimed(out)
        by_claim = (keys[claimed[0]], claimed[1]) if claimed is not None else None
        by_replay = (keys[out.result.winner], out.result.points) if out.result is not None and out.checked else by_claim
        if out.repaired and by_claim is not None:
            by_replay = by_claim  # a result that rests on a repair: the record's own line stands
        if by_replay is None or any(issue.code == "resign-points" for issue in out.issues):
            # a game without an end (the record stops), or a resignation whose claimed points are no
            # resignation's: the next score line says where the match stands
            return None, None, None, None
        net = None
        if not self.length:
            net = self.add(out, by_replay)
            loser = next(key for key in keys if key != by_replay[0]) if by_replay[0] in keys and keys[0] != keys[1] else None
            if loser is not None:
                net[loser] -= by_replay[1]
        return self.add(out, by_replay), self.add(out, by_claim or by_replay), self.add(out, by_replay, self.counted_before), net

    @staticmethod
    def add(out: GameReplay, won: tuple[str, int] | None, before: tuple[int, int] | None = None) -> dict[str, int]:
        keys, score = _keys(out.game), before or out.score
        after = {keys[0]: score[0], keys[1]: score[1]}
        if won is not None:
            after[won[0]] = after.get(won[0], 0) + won[1]
        return after


def _length_line(match: MatchRecord, first_line: int | None) -> int | None:
    """The line of the header that writes the match length (``7 point match``, a ``Match Length``
    tag), or None where the header does not stand in lines."""
    lines = match.raw.splitlines()
    if first_line is None or not lines:
        return None
    start = first_line - len(lines)
    found = next((at for at, text in enumerate(lines) if _LENGTH.search(text)), None)
    return start + found if found is not None else None


_LENGTH = re.compile(r"(?i)[0-9][ \t-]*points?[ \t]+match|match[ \t]+(?:of|to|length)")


def _keys(game: GameRecord) -> tuple[str, str]:
    """Who is who from game to game: the players' names (columns may swap between games),
    or the columns when the names do not tell the players apart."""
    names = game.names
    return names if names[0] != names[1] else ("\x00left", "\x00right")


def _claimed(out: GameReplay) -> tuple[int, int] | None:
    """The winner and points the record claims, when the replay could not tell."""
    for action in out.game.actions:
        if isinstance(action, Result) and action.kind == "win" and action.player is not None and action.points is not None:
            return action.player, action.points
    return None


def _played(game: GameRecord) -> bool:
    return any(isinstance(action, (Roll, CubeAction)) for action in game.actions)


_TEXT = attrgetter("text")


def _marked(game: GameRecord) -> bool:
    """Whether the game writes hit marks (then they are checked)."""
    if "*" not in "".join(map(_TEXT, game.actions)):  # no mark at all: many writers never mark hits
        return False
    return any(isinstance(a, Roll) and "*" in a.text and any(True in t.hits for t in a.moves) for a in game.actions)


def replay(match: MatchRecord, rules: RuleSet | None = None, steps: bool = True) -> Iterator[GameReplay]:
    """Each game of ``match`` replayed, in order. ``steps=False`` keeps only issues and
    results (validation needs no steps)."""
    replayer = MatchReplayer(match, rules, steps)
    for game in match.games:
        yield from replayer.feed(game)
    yield from replayer.finish()
