"""The ``bgrecord`` command: a thin click layer over the library, one module per group of
commands (:mod:`~bgrecord.cli.common` holds what they share)."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

import click

from bgrecord import __version__
from bgrecord.cli import streams
from bgrecord.cli.analyzing import analyze
from bgrecord.cli.board import board, demo
from bgrecord.cli.check import read, validate
from bgrecord.cli.common import Failure, worker_count
from bgrecord.cli.converting import convert
from bgrecord.cli.database import find, index
from bgrecord.cli.people import players
from bgrecord.cli.replaying import replay_command
from bgrecord.cli.reporting import report
from bgrecord.cli.tables import stats
from bgrecord.escapes import cut
from bgrecord.extras import MissingExtra


class _Main(click.Group):
    """The group: every command runs with guarded standard streams (:mod:`bgrecord.cli.streams`),
    and ends on a closed output or a stopping signal with the documented status, whoever
    invokes it (the console script, or a test's CliRunner). An optional package missing
    wherever a command needs it is the one line that names its extra (exit status 2), never
    an issue of a file."""

    def invoke(self, ctx: click.Context) -> Any:
        streams.install()
        try:
            return super().invoke(ctx)
        except MissingExtra as exc:
            raise Failure(str(exc)) from None
        except streams.OutputGone as gone:
            if gone.status != streams.PIPE_CLOSED:
                click.echo(f"bgrecord: {gone.message}", err=True)
            raise SystemExit(gone.status) from None
        except streams.Stopped as stopped:
            raise SystemExit(stopped.status) from None
        finally:
            source = sys.modules.get("bgrecord.formats.source")  # loaded by the commands that read records
            if source is not None:
                source.forget_streams()  # the copies of the pipes read once (inputs.gather)


# A fixed width keeps --help identical everywhere, so docs/cli.md can be checked against it.
@click.group(name="bgrecord", cls=_Main, context_settings={"help_option_names": ["-h", "--help"], "terminal_width": 100, "max_content_width": 100})
@click.version_option(__version__, prog_name="bgrecord")
def main() -> None:
    """Read, re-validate, replay and mine backgammon match records."""


for command in (analyze, board, convert, demo, find, index, players, read, replay_command, report, stats, validate):
    main.add_command(command)


def entry() -> None:
    """The console script: ``main``, never a traceback. A standard stream the process was
    started without is guarded first (:func:`bgrecord.cli.streams.guard_descriptors`).
    Click's own ``main`` would exit 1 on a closed pipe, which reads as "the file has errors",
    so the context is made and invoked here; the statuses are in docs/cli.md."""
    streams.guard_descriptors()
    try:
        with main.make_context("bgrecord", sys.argv[1:]) as context:
            main.invoke(context)
    except click.exceptions.Exit as done:
        _leave(done.exit_code)
    except SystemExit as done:  # a command's exit status
        _leave(done.code if isinstance(done.code, int) else 1)
    except click.ClickException as exc:
        exc.show()
        _leave(exc.exit_code)
    except streams.Stopped as stopped:
        _leave(stopped.status)
    except (click.Abort, KeyboardInterrupt, EOFError):
        click.echo("Aborted!", err=True)
        _leave(130)
    except streams.OutputGone as gone:  # before the group's guard: in parsing the options
        if gone.status != streams.PIPE_CLOSED:
            click.echo(f"bgrecord: {gone.message}", err=True)
        _leave(gone.status)
    except OSError as exc:  # an input or output the command did not name in its own message
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"bgrecord: {where}{exc.strerror or exc}", err=True)
        _leave(2)
    except Exception as exc:  # noqa: BLE001 - the last guard: a bug, told in one line
        message = cut(str(exc))
        click.echo(f"bgrecord: internal error ({type(exc).__name__}: {message}); this is a bug in bgrecord: please report it", err=True)
        _leave(2)
    _leave(0)


def _leave(status: int) -> NoReturn:
    """Exit once the work is done and written: without the interpreter's teardown, which
    frees every object one by one (up to a second on a large archive) for nothing. Outputs
    are complete by then (renamed into place); only the standard streams need a flush, and
    standard output that could not take all it was given is status 141 or 2."""
    try:
        sys.stdout.flush()
        if status in (0, 1):
            streams.check_stdout()
    except streams.OutputGone as gone:
        if gone.status != streams.PIPE_CLOSED:
            _say(f"bgrecord: {gone.message}")
        status = gone.status
    except (OSError, ValueError, AttributeError):
        status = status or 2
    try:
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    os._exit(status)


def _say(line: str) -> None:
    try:
        click.echo(line, err=True)
    except (OSError, ValueError):
        pass


__all__ = ["entry", "main", "worker_count"]
