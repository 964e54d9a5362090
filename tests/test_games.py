"""Hypothesis: random legal games from the start keep every invariant of the rules."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrecord import BAR, Dice, Move, Play, Position, Variant
from bgrecord.core.position import _hop_error
from bgrecord.show.demo import random_game


def random_candidate(position: Position, dice: Dice, rng: random.Random) -> Play:
    """A random sequence of single-die moves each allowed on its own, stopping anywhere:
    sometimes a legal play, often one that breaks a whole-turn rule."""
    me, opp = list(position.on_roll), list(position.opponent)
    pips = dice.pips()
    rng.shuffle(pips)
    moves = []
    for die in pips[: rng.randint(0, len(pips))]:
        sources = [s for s in range(1, 26) if me[s] and _hop_error(me, opp, s, die) is None]
        if not sources:
            break
        source = rng.choice(sources)
        target = max(source - die, 0)
        me[source] -= 1
        me[target] += 1
        if target and opp[BAR - target] == 1:
            opp[BAR - target], opp[BAR] = 0, opp[BAR] + 1
        moves.append(Move(source, target))
    return Play(tuple(moves))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(list(Variant)))
def test_random_games_keep_the_invariants(seed: int, variant: Variant) -> None:
    rng = random.Random(seed)  # a whole game from one seed: Hypothesis shrinks the seed
    turns = 0
    for turn in random_game(rng, variant):
        position, dice = turn.position, turn.dice
        turns += 1
        assert position.is_valid()
        assert sum(position.sides[0]) == sum(position.sides[1]) == 15
        assert Position.from_id(position.id(), position.turn) == position
        assert eval(repr(position), {"Position": Position}) == position
        legal = position.legal_plays(dice)
        results = {p.position for p in legal}
        assert len(results) == len(legal)
        for each in legal:
            assert position.play_error(dice, each.play) is None
            assert position.play(each.play, dice) == each.position
        # the rule check accepts exactly the plays that lead where a legal play leads
        for _ in range(3):
            candidate = random_candidate(position, dice, rng)
            error = position.play_error(dice, candidate)
            reached = position.play(candidate)
            assert (error is None) == (reached in results), (position, dice, candidate, error)
    final = turn.chosen.position
    assert final.outcome() is not None or turns == 2000
