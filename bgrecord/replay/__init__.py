"""The replay: every game of a record played through the rules, with the match state.

``replay(match)`` yields one :class:`GameReplay` per game: its steps (the position before and
after each action, dice, play, cube and score), its issues and its result. Everything the
reader gave is judged here: moves, turns, the cube, results and scores (categories ``move``,
``structure``, ``cube``, ``result``, ``score``). :class:`MatchReplayer` takes a match's games
one at a time, so that a file is replayed as it is read.

The parts: :mod:`~bgrecord.replay.match` (the score and the Crawford game),
:mod:`~bgrecord.replay.game` (turns and plays), :mod:`~bgrecord.replay.cube`,
:mod:`~bgrecord.replay.results` (resignations and result lines),
:mod:`~bgrecord.replay.setup` (boards set up in a record), :mod:`~bgrecord.replay.repeats`
(one unknown convention told once, not once per game), :mod:`~bgrecord.replay.state`.
"""

from bgrecord.replay.match import MatchReplayer, replay
from bgrecord.replay.setup import read_setup
from bgrecord.replay.state import KINDS, GameReplay, GameResult, Step

__all__ = ["KINDS", "GameReplay", "GameResult", "MatchReplayer", "Step", "read_setup", "replay"]
