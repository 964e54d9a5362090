"""The ``bgrecord`` command: a thin click layer over the library."""

from __future__ import annotations

import random
import re

import click

from bgrecord import __version__
from bgrecord.board import ascii_board
from bgrecord.demo import random_game
from bgrecord.ids import XGID, MatchState
from bgrecord.position import Dice, Position

_KINDS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
_NAMES = ("O", "X")


def _parse_dice(text: str) -> Dice:
    if not re.fullmatch(r"[1-6]{2}", text):
        raise click.BadParameter(f"dice are two digits from 1 to 6, like 31, not {text!r}")
    return Dice(int(text[0]), int(text[1]))


def _parse_identifier(text: str, turn: int | None) -> tuple[Position, MatchState | None]:
    """A Position ID, a gnubg ID (``PositionID:MatchID``) or an XGID."""
    try:
        if text.upper().startswith("XGID=") or text.count(":") >= 9:
            xgid = XGID.parse(text)
            return xgid.position, xgid.match
        if ":" in text:
            position_id, match_id = text.split(":", 1)
            match = MatchState.from_id(match_id)
            return Position.from_id(position_id, match.player if turn is None else turn), match
        return Position.from_id(text, turn or 0), None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="IDENTIFIER") from None


# A fixed width keeps --help identical everywhere, so docs/cli.md can be checked against it.
@click.group(name="bgrecord", context_settings={"help_option_names": ["-h", "--help"], "terminal_width": 100, "max_content_width": 100})
@click.version_option(__version__, prog_name="bgrecord")
def main() -> None:
    """Read, re-validate, replay and mine backgammon match records."""


@main.command()
@click.argument("identifier")
@click.option("--dice", help="A roll such as 31: also list the legal plays for it.")
@click.option("--turn", type=click.IntRange(0, 1), help="Player on roll (0 = O, 1 = X) for a bare Position ID.")
def board(identifier: str, dice: str | None, turn: int | None) -> None:
    """Draw the board of a Position ID, a gnubg ID or an XGID.

    \b
    Examples:
      bgrecord board 4HPwATDgc/ABMA --dice 31
      bgrecord board 4HPwATDgc/ABMA:cAkAAAAAAAAE
      bgrecord board 'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
    """
    position, match = _parse_identifier(identifier, turn)
    click.echo(ascii_board(position, match), nl=False)
    outcome = position.outcome()
    if outcome:
        click.echo(f"Game over: {_NAMES[outcome.winner]} has won {_KINDS[outcome.kind]}.")
    elif dice:
        roll = _parse_dice(dice)
        plays = position.legal_plays(roll)
        if not plays[0].play:
            click.echo(f"{_NAMES[position.turn]} cannot move with {roll}.")
        else:
            count = "1 legal play" if len(plays) == 1 else f"{len(plays)} legal plays"
            click.echo(f"{count} for {_NAMES[position.turn]} with {roll}:")
            for number, legal in enumerate(plays, 1):
                click.echo(f"{number:4}. {legal}")


@main.command()
@click.option("--seed", default=1, show_default=True, help="Seed of the random game.")
@click.option("--boards/--no-boards", default=False, show_default=True, help="Draw the board after every turn.")
def demo(seed: int, boards: bool) -> None:
    """Replay a built-in sample: a random legal game played by the rules core."""
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
        points = "1 point" if outcome.kind == 1 else f"{outcome.kind} points"
        click.echo(f"{_NAMES[outcome.winner]} wins {_KINDS[outcome.kind]} ({points}).")
