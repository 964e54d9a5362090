"""``bgrecord board`` and ``bgrecord demo``: positions and the rules core, without files."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from bgrecord.formats.issues import count

if TYPE_CHECKING:  # the rules core is imported by the commands that use it, not by --help
    from bgrecord.core.ids import MatchState
    from bgrecord.core.position import Dice, Position

_KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
_NAMES = ("O", "X")


_DICE = re.compile(r"([1-6])[ \t]*[-/:,x]?[ \t]*([1-6])", re.I)


def _parse_dice(context: click.Context, parameter: click.Parameter, text: str | None) -> Dice | None:
    """A roll as bgrecord prints it (``3-1``, as the replay says it) or as a .mat writes it
    (``31``); refused before anything is drawn."""
    if text is None:
        return None
    found = _DICE.fullmatch(text.strip())
    if found is None:
        raise click.BadParameter(f"a roll is two dice from 1 to 6, like 31 or 3-1, not {text[:20]!r}")
    from bgrecord.core.position import Dice

    return Dice(int(found.group(1)), int(found.group(2)))


def parse_identifier(text: str, turn: int | None) -> tuple[Position, MatchState | None]:
    """:func:`bgrecord.core.ids.identify`, a malformed identifier a usage error."""
    from bgrecord.core.ids import identify

    try:
        return identify(text, turn)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="IDENTIFIER") from None


@click.command()
@click.argument("identifier")
@click.option("--dice", callback=_parse_dice, help="A roll such as 31 or 3-1: also list the legal plays for it.")
@click.option("--turn", type=click.IntRange(0, 1), help="Player on roll (0 = O, 1 = X) for a bare Position ID.")
def board(identifier: str, dice: Dice | None, turn: int | None) -> None:
    """Draw the board of a Position ID, a gnubg ID, an XGID or an OGID.

    \b
    Examples:
      bgrecord board 4HPwATDgc/ABMA --dice 31
      bgrecord board 4HPwATDgc/ABMA:cAkAAAAAAAAE
      bgrecord board 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
      bgrecord board 11ccccchhhjjjjj:66666888dddddoo:N0N:56:W:IB:0:0:9:0
    """
    from bgrecord.show.board import ascii_board

    position, match = parse_identifier(identifier, turn)
    click.echo(ascii_board(position, match), nl=False)
    outcome = position.outcome()
    if outcome:
        click.echo(f"Game over: {_NAMES[outcome.winner]} has won {_KINDS[outcome.kind]}.")
    elif dice:
        roll = dice
        plays = position.legal_plays(roll)
        if not plays[0].play:
            click.echo(f"{_NAMES[position.turn]} cannot move with {roll}.")
        else:
            click.echo(f"{count(len(plays), 'legal play')} for {_NAMES[position.turn]} with {roll}:")
            for number, legal in enumerate(plays, 1):
                click.echo(f"{number:4}. {legal}")


@click.command()
@click.option("--seed", default=1, show_default=True, help="Seed of the random game.")
@click.option("--boards/--no-boards", default=False, show_default=True, help="Draw the board after every turn.")
def demo(seed: int, boards: bool) -> None:
    """Replay a built-in sample: a random legal game played by the rules core."""
    import random

    from bgrecord.show.board import ascii_board
    from bgrecord.show.demo import random_game

    rng = random.Random(seed)
    position = None
    for number, turn in enumerate(random_game(rng), 1):
        name = _NAMES[turn.position.turn]
        play = str(turn.chosen) or "cannot move"
        click.echo(f"{number:4}) {name} rolls {turn.dice}: {play}")
        position = turn.chosen.position
        if boards:
            click.echo(ascii_board(position))
    assert position is not None
    click.echo(ascii_board(position), nl=False)
    outcome = position.outcome()
    if outcome:
        click.echo(f"{_NAMES[outcome.winner]} wins {_KINDS[outcome.kind]} ({count(outcome.kind, 'point')}).")
