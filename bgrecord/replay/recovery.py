"""Recovery after an error: what the record goes on from, so that checking goes on.

At an action that does not replay (:class:`~bgrecord.replay.state.Stop`), the replay asks
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
cleanly are replayed to the end of the game (a later defect on the way mended by its own
cheapest reading, and counted), and the one that goes furthest, with the fewest errors after it,
then the cheapest, is taken. A later error is therefore one that fails under every reading: one cause
is one error. Where no reading fits, the game is not checked past the error (as before). The
work is bounded: :data:`MAX_REPAIRS` repairs a game, each found by trials of at most twice
:func:`budget` actions.
"""

from __future__ import annotations

from typing import Callable

from bgrecord.formats.issues import Issue, Severity
from bgrecord.formats.records import Action, Roll
from bgrecord.replay.lost import missing_row, unknown_plays
from bgrecord.replay.readings import duplicates, readings_of, row_starts
from bgrecord.replay.repairs import AS_MADE, CUBE_ERRORS, LOOK, MENDS, NEAR, PLAY_ERRORS, SEEN, Repair, Replaying, State, budget
from bgrecord.replay.rows import skips
from bgrecord.replay.state import Stop


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
    """The best reading of the error at action ``index``: first those that cost no search (and a
    row left out where the row numbers say so), then, where none replays cleanly to the end of
    the game, the rows and plays the record may have lost; None where none fits."""
    actions = replayer.game.actions
    code = issue.code if issue is not None else "unreadable"
    if code not in PLAY_ERRORS | AS_MADE | CUBE_ERRORS | {"roll-without-play", "unreadable"}:
        return None
    limit = replayer.work + budget(replayer.game)  # this search's trials
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
    readings = readings_of(replayer, index, code)
    starts = row_starts(actions, index, latest, SEEN)
    # how far back a row may be missing or written twice: three rows, or to the row before the first
    # play since the last repair whose hit marks disagree (the record's own sign of a position gone astray)
    marked = {issue.line for issue in replayer.out.issues if issue.code == "hit-mark"}
    astray = next((back for back in range(len(starts) - 1, -1, -1) if actions[starts[back]].line in marked), -1)
    near = starts[: max(NEAR, astray + 2)]
    gaps = [start for start in starts if skips(actions, start)]
    again = [start for start in starts if skips(actions, start, -1)]  # a row numbered as the row before it
    for start in dict.fromkeys(near + again):  # a row written twice, before the action that failed
        readings += duplicates(actions, start)
    for start in gaps:  # a row whose number skips one: a row may be missing before it
        state(start)
        readings += missing_row(replayer, start, starts.index(start))
    best = _best(replayer, readings, state, limit)
    if best is None or best[0] < len(actions) or best[1]:  # not to the end, or only with later errors: search further
        more = []
        for back, start in enumerate(near if code != "turn-order" else []):  # (a turn out of order: one play lost, not a row)
            if start not in gaps:
                state(start)
                more += missing_row(replayer, start, back)
        state(index)
        more += unknown_plays(replayer, index, code)
        found = _best(replayer, readings + more, state, limit + budget(replayer.game))  # the searched readings: a budget of their own
        if found is not None:
            best = found
    if gaps and (best is None or best[0] < len(actions)):
        # the numbers say where a row is missing, and no reading replays the game to its end (the two
        # plays it held may be beyond the search): that is said, and the game is not checked on
        return Repair(gaps[0], "halt", 0.0, "skipped-row")
    return best[2] if best is not None else None


def _best(replayer: Replaying, readings: list[Repair], state: Callable[[int], State], limit: int) -> tuple[int, int, Repair] | None:
    """The reading that goes furthest, then with the fewest errors after it, then the cheapest,
    among those that replay the next :data:`LOOK` actions cleanly; None when none does. The
    horizon grows fourfold a round, and each round keeps the readings that go furthest: most wrong
    readings fail soon. Past the first look, a later error on the way is mended by its cheapest
    reading that fits (:func:`_mend`), counted, and the trial goes on: a defect further on, which
    every reading meets, does not hide what lies beyond it."""
    actions = replayer.game.actions
    scored = []
    for order, reading in enumerate(readings):
        look = reading.index + 1 + reading.skipped + LOOK
        reach = _reach(replayer, reading, state, look, 1, cube=True)  # a cube action near it, wrong on its own, aside
        if reach[0] >= min(look, len(actions)):
            scored.append((reach, -reading.cost, -order, reading))
    top = max((reading.index for *_, reading in scored), default=0)  # the horizon is counted from the latest reading
    horizon = LOOK
    while scored and top + horizon < len(actions) and replayer.work <= limit:
        horizon = horizon * 4 if len(scored) > 1 else len(actions)  # one reading left: to the end at once
        scored = [(_reach(replayer, reading, state, top + horizon, MENDS), cost, order, reading) for _, cost, order, reading in scored]
        furthest = max(score[0][0] for score in scored)
        scored = [score for score in scored if score[0][0] == furthest]
    if not scored:
        return None
    reach, _, _, reading = max(scored, key=lambda score: score[:3])
    return reach[0], -reach[1], reading  # how far, how many later errors mended on the way, the reading


def _reach(replayer: Replaying, reading: Repair, state: Callable[[int], State], end: int, mends: int = 0,
           cube: bool = False) -> tuple[int, int, int]:  # fmt: skip
    """How far the game replays from ``reading`` on: the index of the first action that fails, or
    ``end`` (less one where it is the game's end and that disagrees with its result lines); minus
    the later errors mended on the way (at most ``mends``); and, to tell readings that go as far
    apart, minus how many plays disagree with their hit marks."""
    actions = replayer.game.actions
    end = min(len(actions), end)
    added = [reading.index]
    replayer.repairs[reading.index] = reading
    issues = replayer.out.issues
    try:
        while True:
            state(reading.index)
            mark = len(issues)
            try:
                replayer.play_from(reading.index, end)
                reached = end
                if end == len(actions) and not replayer.ended_cleanly():
                    reached -= 1
                break
            except Stop as stop:
                reached = stop.index
                mend = _mend(replayer, reading, state, stop, cube) if len(added) <= mends and stop.index > reading.index + reading.skipped else None
                if mend is None or mend.index in replayer.repairs:
                    break
                replayer.repairs[mend.index] = mend
                added.append(mend.index)
            finally:
                replayer.work += max(0, reached - reading.index) + 1
    finally:
        for index in added:
            del replayer.repairs[index]
    marks = sum(1 for issue in issues[mark:] if issue.code == "hit-mark")  # the record's own hit marks, as evidence
    return reached, 1 - len(added), -marks


def _mend(replayer: Replaying, reading: Repair, state: Callable[[int], State], stop: Stop, cube: bool = False) -> Repair | None:
    """In a trial of ``reading``, the cheapest reading of the later error ``stop`` that replays the
    next :data:`LOOK` actions (none searched for: as made, repaired, recognised); with ``cube``,
    only a cube action taken as made (it moves no checker: it says nothing of the reading tried)."""
    code = stop.issue.code if stop.issue is not None else "unreadable"
    if code not in (CUBE_ERRORS if cube else PLAY_ERRORS | AS_MADE | CUBE_ERRORS | {"unreadable"}):
        return None
    state(reading.index)
    replayer.play_from(reading.index, stop.index)  # as far as the trial went: no error before it
    here = replayer.snapshot()
    actions = replayer.game.actions
    found = readings_of(replayer, stop.index, code)
    for mend in sorted([m for m in found if m.then == "lenient"] if cube else found, key=lambda repair: repair.cost)[:12]:
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
