"""Recovery after an error: what the record goes on from, so that checking goes on.

At an action that does not replay (:class:`~bgrecord.replay.game.Stop`), the replay asks
:func:`decide` for a :class:`Repair`: a reading of the record under which the game goes on.
The readings tried, each with a cost (how far it is from what is written):

- the action as made, the rule it breaks aside: a play whose checkers can move as written, the
  dice aside; a double by the player who does not own the cube; a cube value written wrong...
- the play the dice allow that is closest to what was written (the did-you-mean, ranked by
  :func:`~bgrecord.replay.resolve.ranked`: a digit off, the dice swapped, a point in the
  opponent's numbering);
- a cause recognised and named by its own code: dice typed for a play that fits other dice
  (``wrong-dice``), a play written in the opponent's numbering (``opponent-numbering``), a row
  written twice (``duplicate-row``), a row left out (``skipped-row``, the two plays it held
  found by search);
- the action left out, read as another cube word, or standing where a play was lost.

Each reading is replayed a few actions ahead (both players' next plays); those that replay
cleanly are replayed to the end of the game, and the one that goes furthest, then the
cheapest, is taken. A later error is therefore one that fails under every reading: one cause
is one error. Where no reading fits, the game is not checked past the error (as before). The
work is bounded: :data:`MAX_REPAIRS` repairs a game, and trials of at most :func:`budget`
actions.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Protocol, Sequence

from bgrecord.core.position import Dice, LegalPlay, Position
from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import Action, CubeAction, GameRecord, MoveToken, Roll, Unreadable
from bgrecord.replay.resolve import physical, ranked, resolve
from bgrecord.replay.rows import skips
from bgrecord.replay.rules import RuleSet
from bgrecord.replay.state import GameReplay, Stop

State = tuple[object, ...]

MAX_REPAIRS = 8  # repairs one game may take; past them, the rest of the game is not checked
LOOK = 8  # actions a reading is first replayed ahead: both players' next plays, a cube action or two
PAIRS = 600  # the most pairs of plays replayed for a row left out
TRIED = 5_000  # the most pairs of plays looked at for it
MENDS = 3  # later errors a trial mends on its way to the end of the game
SEEN = 8  # rows looked back at from an error for a row whose number skips one (a row missing there)
ROLLS = [Dice(high, low) for high in range(1, 7) for low in range(1, high + 1)]
_PLAY_ERRORS = frozenset({"wrong-distance", "no-checker", "must-enter-first", "closed-point", "cannot-bear-off-yet", "bad-points",
                          "overage-not-from-highest", "more-dice-could-be-used", "larger-die-could-be-used", "too-many-moves"})  # fmt: skip
_CUBE_ERRORS = frozenset({"double-unanswered", "not-owner", "crawford-double", "holland", "match-winning-double", "cube-limit",
                          "cube-value", "answer-without-double", "answer-by-doubler", "beaver-in-match", "raccoon-in-match",
                          "beaver-out-of-turn", "raccoon-out-of-turn", "beaver-not-allowed", "raccoon-not-allowed",
                          "double-before-opening"})  # fmt: skip
# the errors whose action says what was done, the rule aside: it may be taken as made
_AS_MADE = frozenset({"bad-dice", "opening-double", "turn-order", "could-move"}) | _CUBE_ERRORS - {"answer-by-doubler", "double-before-opening",
                                                                                                    "beaver-out-of-turn", "raccoon-out-of-turn"}


@dataclass(slots=True)
class Repair:
    """How the record is read at an error so that the replay goes on. ``then``: ``play`` (the
    roll's play is ``play``), ``lenient`` (the action as made, the rule it breaks aside), ``act``
    (the action, or ``action`` in its place, after the ``inserted`` plays the record left out),
    ``skip`` (the action left out, and ``skipped`` more after it), ``halt`` (not checked past it).
    ``code`` names the cause where one is recognised; ``said`` is the reading in words, after
    "replayed" ("as 24/18 13/9", "left out", "with 63: 10/4 10/7 before it"); ``detail`` what the
    cause's message names (the dice the play fits)."""

    index: int
    then: str
    cost: float
    code: str | None = None
    said: str = ""
    detail: str = ""
    play: LegalPlay | None = None
    action: Action | None = None
    inserted: tuple[tuple[int, Dice, LegalPlay], ...] = ()
    skipped: int = 0
    issue: Issue | None = None


class Replaying(Protocol):
    """What recovery sees of the game replayer (:class:`bgrecord.replay.game.GameReplayer`)."""

    game: GameRecord
    rules: RuleSet
    position: Position | None
    turn: int | None
    unplayed: Roll | None
    repairs: dict[int, Repair]
    out: GameReplay
    quiet: bool
    keep_steps: bool
    work: int
    initial: State

    def snapshot(self) -> State: ...
    def restore(self, state: State) -> None: ...
    def play_from(self, start: int, end: int) -> None: ...
    def ended_cleanly(self) -> bool: ...


def budget(game: GameRecord) -> int:
    """The actions trials may replay in one game: linear in its length."""
    return 50_000 + 100 * len(game.actions)


def decide(replayer: Replaying, index: int, issue: Issue | None) -> Repair:
    """The reading under which the game goes on from the error at action ``index`` (``issue``:
    the error said, None where the reader said it), or a ``halt``."""
    actions = replayer.game.actions
    if issue is not None and issue.code == "roll-without-play" and replayer.unplayed is not None:
        index = next((i for i, action in enumerate(actions) if action is replayer.unplayed), index)  # the bare roll's own error
    keep_steps = replayer.keep_steps
    replayer.quiet, replayer.keep_steps = True, False
    try:
        chosen = _search(replayer, index, issue)
    finally:
        replayer.quiet, replayer.keep_steps = False, keep_steps
    if chosen is None:
        return Repair(index, "halt", 0.0, issue=issue)
    chosen.issue = _said(issue, chosen, actions[chosen.index])
    return chosen


def _search(replayer: Replaying, index: int, issue: Issue | None) -> Repair | None:
    actions = replayer.game.actions
    code = issue.code if issue is not None else "unreadable"
    if code not in _PLAY_ERRORS | _AS_MADE | _CUBE_ERRORS | {"roll-without-play", "unreadable"} or replayer.work > budget(replayer.game):
        return None
    states: dict[int, State] = {}

    def state(at: int) -> State:
        """The replay's state before the action at ``at`` (replayed once, then restored)."""
        if at not in states:
            replayer.restore(replayer.initial)
            replayer.play_from(0, at)
            states[at] = replayer.snapshot()
        replayer.restore(states[at])
        return states[at]

    latest = max(replayer.repairs, default=-1)
    state(index)
    readings = _readings(replayer, index, code)
    starts = _row_starts(actions, index, latest, SEEN)
    gaps = [start for start in starts if skips(actions, start)]
    for start in starts[:3]:  # a row written twice, before the action that failed
        state(start)
        readings += _duplicates(actions, start)
    for start in gaps:  # a row whose number skips one: a row may be missing before it
        state(start)
        readings += _missing_row(replayer, start, starts.index(start))
    best = _best(replayer, readings, state)
    if best is None or best[0] < len(actions) - best[1].index:
        more = []
        for back, start in enumerate(starts[:3]):
            if start not in gaps:
                state(start)
                more += _missing_row(replayer, start, back)
        state(index)
        more += _unknown_plays(replayer, index, code)
        found = _best(replayer, readings + more, state)
        if found is not None:
            best = found
    if best is None and gaps:  # no reading fits, but the numbers say where a row is missing: that is said
        return Repair(gaps[0], "halt", 0.0, "skipped-row")
    return best[1] if best is not None else None


def _best(replayer: Replaying, readings: list[Repair], state: Callable[[int], State]) -> tuple[int, Repair] | None:
    """The reading that goes furthest, then with the fewest errors after it, then the cheapest,
    among those that replay the next :data:`LOOK` actions cleanly; None when none does. The
    horizon grows fourfold a round, and each round keeps the readings that go furthest: most wrong
    readings fail soon. Past the first look, a later error on the way is mended by its cheapest
    reading that fits (:func:`_mend`), counted, and the trial goes on: a defect further on, which
    every reading meets, does not hide what lies beyond it."""
    actions = replayer.game.actions
    scored = []
    for order, reading in enumerate(readings):
        reach = _reach(replayer, reading, state, LOOK)
        if reach[0] >= min(LOOK, len(actions) - reading.index):
            scored.append((reach, -reading.cost, -order, reading))
    horizon = LOOK
    while scored and horizon < len(actions) and replayer.work <= budget(replayer.game):
        horizon = horizon * 4 if len(scored) > 1 else len(actions)  # one reading left: to the end at once
        scored = [(_reach(replayer, reading, state, horizon, MENDS), cost, order, reading) for _, cost, order, reading in scored]
        furthest = max(score[0][0] for score in scored)
        scored = [score for score in scored if score[0][0] == furthest]
    if not scored:
        return None
    reach, _, _, reading = max(scored, key=lambda score: score[:3])
    return reach[0], reading


def _reach(replayer: Replaying, reading: Repair, state: Callable[[int], State], horizon: int, mends: int = 0) -> tuple[int, int, int]:
    """How many actions replay from ``reading`` on (its own included), at most ``horizon`` after
    it, one less where the game's end disagrees with its result lines; minus the later errors
    mended on the way (at most ``mends``); and, to tell readings that go as far apart, minus how
    many plays disagree with their hit marks."""
    actions = replayer.game.actions
    end = min(len(actions), reading.index + 1 + reading.skipped + horizon)
    added = [reading.index]
    replayer.repairs[reading.index] = reading
    issues = replayer.out.issues
    try:
        while True:
            state(reading.index)
            mark = len(issues)
            try:
                replayer.play_from(reading.index, end)
                reached = end - reading.index
                if end == len(actions) and not replayer.ended_cleanly():
                    reached -= 1
                break
            except Stop as stop:
                reached = stop.index - reading.index
                mend = _mend(replayer, reading, state, stop) if len(added) <= mends and stop.index > reading.index + reading.skipped else None
                if mend is None or mend.index in replayer.repairs:
                    break
                replayer.repairs[mend.index] = mend
                added.append(mend.index)
            finally:
                replayer.work += max(0, reached) + 1
    finally:
        for index in added:
            del replayer.repairs[index]
    marks = sum(1 for issue in issues[mark:] if issue.code == "hit-mark")  # the record's own hit marks, as evidence
    return reached, 1 - len(added), -marks


def _mend(replayer: Replaying, reading: Repair, state: Callable[[int], State], stop: Stop) -> Repair | None:
    """In a trial of ``reading``, the cheapest reading of the later error ``stop`` that replays the
    next :data:`LOOK` actions (none searched for: as made, repaired, recognised)."""
    code = stop.issue.code if stop.issue is not None else "unreadable"
    if code not in _PLAY_ERRORS | _AS_MADE | _CUBE_ERRORS | {"unreadable"}:
        return None
    state(reading.index)
    replayer.play_from(reading.index, stop.index)  # as far as the trial went: no error before it
    here = replayer.snapshot()
    actions = replayer.game.actions
    for mend in sorted(_readings(replayer, stop.index, code), key=lambda repair: repair.cost)[:12]:
        replayer.restore(here)
        replayer.repairs[stop.index] = mend
        try:
            replayer.play_from(stop.index, min(len(actions), stop.index + 1 + mend.skipped + LOOK))
            return mend
        except Stop:
            continue
        finally:
            del replayer.repairs[stop.index]
            replayer.work += LOOK
    return None


def _row_starts(actions: Sequence[Action], index: int, latest: int, count: int) -> list[int]:
    """Where the row of the action at ``index`` starts, and the rows before it, ``count`` rows in
    all (a row is the actions of one row number on one line), all after the latest repair."""
    starts: list[int] = []
    at = index
    while len(starts) < count and at > latest:
        action = actions[at]
        if action.number is None:
            break
        while at > 0 and actions[at - 1].number == action.number and actions[at - 1].line == action.line:
            at -= 1
        if at <= latest:
            break
        starts.append(at)
        at -= 1
    return starts


def _before(replayer: Replaying, action: Roll) -> Position:
    """The position a roll is played from, in the state at hand."""
    player = action.player if action.player is not None else (replayer.turn or 0)
    position = replayer.position or Position.start(replayer.rules.variant, player)
    return Position(position.sides, player)


def _readings(replayer: Replaying, index: int, code: str) -> list[Repair]:
    """The readings of the action at ``index`` that cost no search: as made, repaired, recognised."""
    action = replayer.game.actions[index]
    found: list[Repair] = []
    if code in _AS_MADE:
        found.append(Repair(index, "lenient", 0.5 if code in _CUBE_ERRORS else 0.7, said="as written"))
    if isinstance(action, Roll):
        before = _before(replayer, action)
        if action.moves:
            found += _plays(index, before, action)
        elif code in ("could-move", "roll-without-play"):
            found += [Repair(index, "play", 1.0, said=f"as {option}", play=option) for option in before.legal_plays(Dice(*action.dice))[:40]]
        found.append(Repair(index, "skip", 1.5, said="left out"))
    elif isinstance(action, CubeAction):
        for kind in ("double", "take", "drop"):
            if kind != action.kind:
                found.append(Repair(index, "act", 1.0, said=f"as a {kind}", action=replace(action, kind=kind, value=None)))
        found.append(Repair(index, "skip", 1.5, said="left out"))
    elif isinstance(action, Unreadable):
        found.append(Repair(index, "skip", 1.0))
        dice, moves = salvaged(action)
        player = action.player if action.player is not None else replayer.turn
        if dice is not None and dice.is_valid and moves and player is not None and replayer.position is not None:
            before = Position(replayer.position.sides, player)
            found += [Repair(index, "skip", 1.0 + cost, said=f"as {dice}: {option}", inserted=((player, dice, option),))
                      for cost, option in ranked(before, dice, moves)[:24]]  # fmt: skip
    return found


_MAT_DICE = re.compile(r"(?<![0-9])([0-9])([0-9])[ \t]*:")
_MAT_MOVE = re.compile(r"(?i)(?<![0-9])(bar|[0-9]{1,2})[ \t]*/[ \t]*(off|[0-9]{1,2})(?![0-9])")
_SGF_MOVE = re.compile(r"[WB]\[([0-9])([0-9])((?:[a-z][a-z])*)[a-z]?\]")


def salvaged(action: Unreadable) -> tuple[Dice | None, tuple[MoveToken, ...]]:
    """What a text that does not read still says: its dice and moves, where they show (a .mat
    cell ``61: 13/7 8/7x``, an SGF move ``W[75mhnh]``)."""
    text = action.text[:200]
    sgf = _SGF_MOVE.fullmatch(text.strip())
    if sgf is not None and action.player is not None:
        from bgrecord.formats.sgf import point_of  # an SGF's own numbering

        letters = sgf.group(3)
        pairs = [(point_of(letters[i], action.player), point_of(letters[i + 1], action.player)) for i in range(0, len(letters), 2)]
        return Dice(int(sgf.group(1)), int(sgf.group(2))), tuple(MoveToken(pair, (False, False), 1, "", 0) for pair in pairs[:8])
    dice = _MAT_DICE.search(text)
    point = {"bar": 25, "off": 0}
    pairs = [(point.get(a.lower(), 0) if a.isalpha() else int(a), point.get(b.lower(), 0) if b.isalpha() else int(b))
             for a, b in _MAT_MOVE.findall(text)]  # fmt: skip
    moves = tuple(MoveToken((a, b), (False, False), 1, "", 0) for a, b in pairs if 0 <= b < a <= 25)[:8]
    return (Dice(int(dice.group(1)), int(dice.group(2))) if dice else None), moves


def _plays(index: int, before: Position, action: Roll) -> list[Repair]:
    """The plays a roll's written moves may have meant (none for more moves than any roll has)."""
    found: list[Repair] = []
    if sum(len(token.points) - 1 for token in action.moves) > 8:
        return found
    dice = Dice(*action.dice)
    mirrored = tuple(token._replace(points=tuple(_mirror(point) for point in token.points)) for token in action.moves)
    if dice.is_valid:
        play = resolve(before, dice, mirrored, hints=False).play
        if play is not None:
            found.append(Repair(index, "play", 0.3, "opponent-numbering", f"as {play}", play=play))
    written = sum(len(token.points) - 1 for token in action.moves)
    for roll in ROLLS:
        if roll != dice and sorted(roll) != sorted(dice):
            play = resolve(before, roll, action.moves, hints=False).play
            if play is not None:
                apart = 2 - len(list((Counter(roll) & Counter(dice)).elements()))  # the dice that differ
                fits = f"{max(roll)}{min(roll)}"
                split = abs(len(play.play.moves) - written)  # 8/5 read as 8/7 7/6 6/5: less likely than as written
                found.append(Repair(index, "play", 0.4 + 0.2 * apart + 0.05 * split, "wrong-dice" if dice.is_valid else None, f"as {fits}: {play}", play=play, detail=fits))
    made = physical(before, action.dice, action.moves)
    if made is not None:
        found.append(Repair(index, "play", 0.8, said="as written, the dice aside", play=made))
    for cost, option in ranked(before, dice, action.moves)[:24]:
        found.append(Repair(index, "play", cost, said=f"as {option}", play=option))
    return found


def _mirror(point: int) -> int:
    return point if point in (0, 25) else 25 - point


def _same_roll(one: Action, other: Action) -> bool:
    return (isinstance(one, Roll) and isinstance(other, Roll) and one.player == other.player and one.dice == other.dice
            and " ".join(one.text.split()) == " ".join(other.text.split()))  # fmt: skip


def _duplicates(actions: Sequence[Action], start: int) -> list[Repair]:
    """A row written twice: its first cell repeats the same player's roll before it (and its
    second cell, if any, the other's)."""
    action = actions[start]
    previous = next((a for a in reversed(actions[:start]) if isinstance(a, Roll) and a.player == action.player), None)
    if previous is None or not _same_roll(action, previous):
        return []
    partner = actions[start + 1] if start + 1 < len(actions) else None
    earlier = next((a for a in reversed(actions[:start]) if partner is not None and isinstance(a, Roll) and a.player == partner.player), None)
    skipped = 1 if partner is not None and earlier is not None and partner.line == action.line and _same_roll(partner, earlier) else 0
    cost = 0.1 if skips(actions, start, -1) else 0.2  # its number again
    return [Repair(start, "skip", cost, "duplicate-row", "left out: a row written twice", skipped=skipped)]


def _all_plays(position: Position) -> list[tuple[Dice, LegalPlay]]:
    """Every play of every roll from ``position``, one per resulting position."""
    seen: dict[Position, tuple[Dice, LegalPlay]] = {}
    for dice in ROLLS:
        for option in position.legal_plays(dice):
            seen.setdefault(option.position, (dice, option))
    return list(seen.values())


def _next_rolls(actions: Sequence[Action], start: int, count: int) -> list[Roll]:
    return [a for a in actions[start:] if isinstance(a, Roll) and a.moves and a.player is not None][:count]


def _legal_after(position: Position, roll: Roll) -> Position | None:
    """The position after ``roll``'s written play from ``position`` (its player on roll), or None."""
    side = position.sides[roll.player or 0]
    moved = [0] * 26
    for token in roll.moves:
        for source, target in token.pairs():
            if not 0 <= target < source <= 25:
                return None
            moved[source] += 1
            moved[target] -= 1
    if any(count > side[point] for point, count in enumerate(moved)):
        return None  # more checkers leave a point than stand there or arrive: no order of the moves is legal
    play = resolve(Position(position.sides, roll.player or 0), roll.dice, roll.moves, hints=False).play if Dice(*roll.dice).is_valid else None
    return play.position if play is not None else None


def _replays(position: Position, rolls: Sequence[Roll]) -> bool:
    """Whether ``rolls``' written plays are legal one after the other from ``position``."""
    at: Position | None = position
    for roll in rolls:
        at = _legal_after(at, roll) if at is not None else None
    return at is not None


def _lead(position: Position, player: int, rolls: Sequence[Roll]) -> int:
    """How many of ``player``'s plays among ``rolls`` (both players' next written plays, in order)
    are legal one after the other from ``position``, the other's made as written where their
    checkers can move so (a cheap sieve: the other's play that the search has not chosen yet is
    missing, so theirs are not judged)."""
    at = position
    count = 0
    for roll in rolls:
        mover = roll.player or 0
        before = Position(at.sides, mover)
        if mover == player:
            after = _legal_after(before, roll)
            if after is None:
                break
            at, count = after, count + 1
        else:
            made = physical(before, roll.dice, roll.moves) if Dice(*roll.dice).is_valid else None
            at = made.position if made is not None else at
    return count


def _sieved(position: Position, player: int, rolls: Sequence[Roll], count: int) -> list[tuple[Dice, LegalPlay]]:
    """The plays of any roll of ``player`` from ``position`` under which the most of its next plays
    among ``rolls`` (see :func:`_lead`) stay legal, at most ``count``."""
    scored = [(_lead(x.position, player, rolls), order, dice, x) for order, (dice, x) in enumerate(_all_plays(position))]
    most = max((score[0] for score in scored), default=0)
    return [(dice, x) for lead, _, dice, x in scored if lead == most and lead][:count]


def _missing_row(replayer: Replaying, start: int, back: int = 0) -> list[Repair]:
    """A row left out before the row at ``start`` (``back`` rows before the one that failed): the
    two plays it held, each of any roll, found by the written plays after it. The first mover's
    play must let its next written play be made, and rank by how many of its later plays stay
    legal (the other's checkers where they stand); the other's must let its own next play be made
    after that one (whose hits it suffers); the pairs of both replay the next four plays."""
    actions = replayer.game.actions
    first = actions[start]
    if not isinstance(first, Roll) or first.player is None or replayer.position is None or replayer.turn is None:
        return []
    mover, other = first.player, 1 - first.player
    after = _next_rolls(actions, start, 16)
    if len(after) < 2 or after[0].player != mover or after[1].player != other:
        return []
    position = replayer.position
    # its number skips one: a row is missing there; else the nearer the failure, the likelier
    cost = 0.5 if skips(actions, start) else 1.5 + 0.1 * back
    own = _sieved(Position(position.sides, mover), mover, after, PAIRS)
    groups: dict[tuple[int, ...], list[tuple[Dice, LegalPlay]]] = {}  # by the other's checkers after it (its hits)
    for dice_x, x in own:
        groups.setdefault(x.position.sides[other], []).append((dice_x, x))
    found: list[Repair] = []
    for group in groups.values():
        theirs = _sieved(Position(group[0][1].position.sides, other), other, after, PAIRS)
        # at most TRIED pairs looked at: the side with fewer plays keeps them all
        keep_theirs = min(len(theirs), max(int(TRIED**0.5), TRIED // max(1, len(group))))
        keep_own = min(len(group), max(1, TRIED // max(1, keep_theirs)))
        for dice_x, x in group[:keep_own]:
            for dice_y, y in theirs[:keep_theirs]:
                _, checked = Position(x.position.sides, other).check_play(dice_y, y.play)
                if checked is None or not _replays(checked.position, after[:4]):
                    continue
                between = f"{dice_x}: {x}, {dice_y}: {checked}"
                found.append(Repair(start, "act", cost, "skipped-row", f"with a row left out before it, {between}", detail=between,
                                    inserted=((mover, dice_x, x), (other, dice_y, checked))))  # fmt: skip
                if len(found) >= PAIRS:
                    return found
    return found


def _unknown_plays(replayer: Replaying, index: int, code: str) -> list[Repair]:
    """The action stands where a play was lost (its text unreadable, its dice no dice, a cube
    word where a roll was): any play of any roll, found by the next plays after it."""
    actions = replayer.game.actions
    action = actions[index]
    player = action.player if action.player is not None else replayer.turn
    if player is None or replayer.position is None or code in _PLAY_ERRORS | {"could-move", "roll-without-play", "opening-double"}:
        return []  # a roll whose dice and moves read: its play is one of its dice's
    if code == "turn-order" and replayer.turn is not None:  # the turn of the player on roll was lost before it
        position = Position(replayer.position.sides, replayer.turn)
        after = _next_rolls(actions, index, 2)
        return [Repair(index, "act", 2.0, said=f"with a turn left out before it, {dice}: {x}", inserted=((replayer.turn, dice, x),))
                for dice, x in _all_plays(position) if _replays(x.position, after)]  # fmt: skip
    position = Position(replayer.position.sides, player)
    after = _next_rolls(actions, index + 1, 2)
    written = action.moves if isinstance(action, Roll) else salvaged(action)[1] if isinstance(action, Unreadable) else ()
    closeness: dict[Dice, dict[Position, float]] = {}
    found = []
    for dice, x in _all_plays(position):
        if _replays(x.position, after):
            if written and dice not in closeness:
                closeness[dice] = {option.position: cost for cost, option in reversed(ranked(position, dice, written))}
            cost = 2.0 + closeness[dice].get(x.position, 4.0) / 4 if written else 2.5
            found.append(Repair(index, "skip", cost, said=f"as a lost roll, {dice}: {x}", inserted=((player, dice, x),)))
    found.sort(key=lambda repair: repair.cost)
    return found


_CAUSES = {
    "wrong-dice": "the play as written fits the dice {detail}, not {dice}: the dice are typed wrong",
    "opponent-numbering": "the play is written in the opponent's numbering: it reads {play}",
    "duplicate-row": "this row repeats the row before it (the same rolls and plays): a row written twice; it is left out",
    "skipped-row": "a row is missing before this one: the plays after it replay only with two plays between ({detail})",
}


def _said(issue: Issue | None, repair: Repair, action: Action) -> Issue | None:
    """The error at the repair: the cause it names, or the rule's error with the reading taken."""
    if repair.code is not None:
        dice = f"{action.dice[0]}{action.dice[1]}" if isinstance(action, Roll) else ""
        message = _CAUSES[repair.code].format(detail=repair.detail, dice=dice, play=repair.play)
        if repair.then == "halt":  # a row missing where the numbers say, no two plays found for it
            message = f"a row is missing before this one (its number skips one), and no two plays for it replay the game on"
        if issue is not None and repair.code in ("duplicate-row", "skipped-row"):
            message += f" (the record fails there: {issue.message})"
        base = issue or Issue(Severity.ERROR, "move", repair.code, message)
        return base.at(category="move", code=repair.code, message=message, line=action.line, column=action.column,
                       move=action.number, excerpt=action.text)  # fmt: skip
    if issue is None:
        return None
    return issue.at(message=f"{issue.message}; replayed {repair.said}")
