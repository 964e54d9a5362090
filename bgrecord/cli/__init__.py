"""The ``bgrecord`` command: a thin click layer over the library, one module per group of
commands (:mod:`~bgrecord.cli.common` holds what they share)."""

from __future__ import annotations

import errno
import os
import sys

import click

from bgrecord import __version__
from bgrecord.cli.analyzing import analyze
from bgrecord.cli.board import board, demo
from bgrecord.cli.check import read, validate
from bgrecord.cli.common import Failure, worker_count
from bgrecord.cli.converting import convert
from bgrecord.cli.database import find, index
from bgrecord.cli.replaying import replay_command
from bgrecord.cli.tables import stats
from bgrecord.extras import MissingExtra


class _Commands(click.Group):
    """The command group; an optional package missing wherever a command needs it is the
    one line that names its extra (exit status 2), never an issue of a file."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except MissingExtra as exc:
            raise Failure(str(exc)) from None


# A fixed width keeps --help identical everywhere, so docs/cli.md can be checked against it.
@click.group(name="bgrecord", cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "terminal_width": 100, "max_content_width": 100})
@click.version_option(__version__, prog_name="bgrecord")
def main() -> None:
    """Read, re-validate, replay and mine backgammon match records."""


for command in (analyze, board, convert, demo, find, index, read, replay_command, stats, validate):
    main.add_command(command)


def entry() -> None:
    """The console script: ``main`` with no traceback when standard output is closed (exit
    status 141, as a program stopped by SIGPIPE) or full (exit status 2 and one line on
    standard error). Click's own ``main`` would exit 1 on a closed pipe, which reads as "the
    file has errors", so the context is made and invoked here."""
    try:
        with main.make_context("bgrecord", sys.argv[1:]) as context:
            main.invoke(context)
    except click.exceptions.Exit as done:
        _leave(done.exit_code)
    except SystemExit as done:  # a command's exit status
        _leave(done.code if isinstance(done.code, int) else 1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt, EOFError):
        click.echo("Aborted!", err=True)
        sys.exit(130)
    except OSError as exc:
        _stdout_gone(exc)
    except Exception as exc:  # noqa: BLE001 - the last guard: a bug, told in one line
        click.echo(f"bgrecord: internal error ({type(exc).__name__}: {exc}); this is a bug in bgrecord: please report it", err=True)
        sys.exit(2)
    _leave(0)


def _leave(status: int) -> None:
    """Exit once the work is done and written: without the interpreter's teardown, which
    frees every object one by one (up to a second on a large archive) for nothing. Outputs
    are complete by then (renamed into place); only the standard streams need a flush."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError as exc:
        _stdout_gone(exc)
    os._exit(status)


def _stdout_gone(exc: OSError) -> None:
    """Standard output closed (a pipe whose reader stopped) or full: stop quietly, or in one line."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(141)  # the reader has gone: nothing more to say
    click.echo(f"bgrecord: cannot write to standard output: {exc.strerror or exc}", err=True)
    sys.exit(2)


__all__ = ["entry", "main", "worker_count"]
