"""What the commands share: the options, how inputs are gathered, how files are worked on
(one by one, or by worker processes, in the order given either way), and how they fail.

Exit status, for every command: 0 success; 1 the records have errors (or, with ``--strict``,
warnings), or an input named nothing to read; 2 a usage error, an input or output that
cannot be read or written, or a failure of bgrecord itself (reported as a bug); 129, 130,
141 and 143 as :mod:`bgrecord.cli.streams` says (docs/cli.md, "Limits, exit statuses and
signals").

A command keeps the promises on hostile input by using what is here and there: its inputs
from :func:`bgrecord.cli.inputs.gather`, each file worked on by :func:`each_file` (given ``failed``, for what
escapes a worker) with a work function whose own failures are caught by
:func:`bgrecord.replay.validate.guarded` or :func:`~bgrecord.replay.validate.guarded_steps` (any exception
of a file is that file's ``internal`` issue), names and messages printed with
:func:`~bgrecord.escapes.one_line` through ``click.echo`` (the group guards and escapes the
standard streams), outputs written through :mod:`bgrecord.outputs` (all of a run's checked
together with ``check_outputs`` before any work).
"""

from __future__ import annotations

import functools
import gc
import itertools
import os
import sys
from typing import Any, Callable, Iterable, Iterator, NoReturn, TypeVar

import click

from bgrecord.cli import workers
from bgrecord.cli.inputs import STDIN, Found, Inputs, gather
from bgrecord.escapes import one_line

F = TypeVar("F", bound=Callable[..., Any])


class Failure(click.ClickException):
    """A one-line failure of the run (exit status 2): an input or output problem."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"bgrecord: {one_line(self.format_message())}", err=True)


class Nothing(Failure):
    """Nothing to do in what was given (exit status 1): a record with no game to replay."""

    exit_code = 1


def echo_json_object(fields: Iterable[tuple[str, Any]]) -> None:
    """A JSON object written as ``json.dumps(indent=2, ensure_ascii=False)`` writes it, field by
    field as ``fields`` gives them: a value that is an iterator is a list written item by item
    as it comes (an archive's files, a position's occurrences: never held whole), so a field
    after it may be made from what went before (a summary)."""
    import json

    click.echo("{", nl=False)
    written = 0
    for key, value in fields:
        click.echo(("," if written else "") + "\n  " + json.dumps(key, ensure_ascii=False) + ": ", nl=False)
        written += 1
        if not isinstance(value, Iterator):
            click.echo(json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  "), nl=False)
            continue
        items = 0
        click.echo("[", nl=False)
        for item in value:
            click.echo(("," if items else "") + "\n    " + json.dumps(item, indent=2, ensure_ascii=False).replace("\n", "\n    "), nl=False)
            items += 1
        click.echo("\n  ]" if items else "]", nl=False)
    click.echo("\n}" if written else "}")


def fail(message: str) -> NoReturn:
    raise Failure(message)


# --- options ---

MAX_COUNT = 10**9  # the most a count option may ask (a game's number, occurrences): beyond any archive
MAX_SECONDS = 86_400  # the longest a time option may be: a day


class Finite(click.FloatRange):
    """A number within bounds: NaN (which passes every comparison) and the infinities refused
    in one line, as any value out of range is (a bound is what keeps arithmetic from failing)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        found = super().convert(value, param, ctx)
        if found != found:
            self.fail(f"{value!r} is not a number", param, ctx)
        return found


def count_range(low: int = 1) -> click.IntRange:
    """A count option's type: from ``low`` to :data:`MAX_COUNT`."""
    return click.IntRange(low, MAX_COUNT)



def output_format(command: F) -> F:
    """The one output-format option every reporting command shares."""
    return click.option(
        "--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
        help="text for people (path:line:col: severity[code] message), json for programs.",
    )(command)


def jobs_option(command: F) -> F:
    """The worker-process option of the commands that read many files."""
    return click.option(
        "--jobs", "-j", type=click.IntRange(0, 64), default=0, show_default=True,
        help="Worker processes; 0: one per CPU core when the input is large enough to gain from them. "
        "The output is the same for any number.",
    )(command)


def _check_rules(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    if value:
        from bgrecord.replay.rules import RuleSet, apply_spec

        try:
            apply_spec(RuleSet(), value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
    return value


def scheduler_option(command: F) -> F:
    return click.option(
        "--scheduler", metavar="ADDRESS",
        help="Spread the files over a Dask cluster: a scheduler's address (tcp://host:8786), or local for one started "
        "here with --jobs workers (needs: pip install 'bgrecord[dask]'). The output is the same.",
    )(command)


def rules_option(help_text: str = "Rules over the files' tags, as for validate.") -> Callable[[F], F]:
    return click.option("--rules", "rules", metavar="SPEC", callback=_check_rules, help=help_text)


def quiet_option(command: F) -> F:
    return click.option("--quiet", "-q", is_flag=True, help="No progress, summary or info lines: for scripts (the exit status tells).")(command)


def overwrite_option(command: F) -> F:
    return click.option("--overwrite", is_flag=True, help="Replace outputs that exist (an input is never written over).")(command)


# --- working on files ---

# A worker pays off when it gets at least this much text (about a quarter of a second's work).
_BYTES_PER_WORKER = 512 * 1024


def worker_count(jobs: int, files: list[str]) -> int:
    """``jobs`` as asked, or for 0 one per core this process may run on, but no more than the
    input's size makes worth starting (a few small files are read faster by one process)."""
    if jobs:
        return jobs
    cores = _cores()
    if cores == 1:
        return 1
    return max(1, min(cores, len(files), sum(map(_size, files)) // _BYTES_PER_WORKER))


def _enough(files: Iterator[Any], name_of: Callable[[Any], Any], jobs: int) -> list[Any]:
    """The first of ``files``: as many as :func:`worker_count` needs to answer as it would for
    all (two when ``jobs`` are asked; else until there is work for every core)."""
    cores = _cores() if not jobs else 1
    first: list[Any] = []
    size = 0
    for unit in files:
        first.append(unit)
        if jobs and len(first) > 1:
            break
        name = name_of(unit)
        size += _size(name) if isinstance(name, str) and name != STDIN else 0
        if not jobs and len(first) >= cores and size >= cores * _BYTES_PER_WORKER:
            break
    return first


def _cores() -> int:
    """The CPU cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except OSError:  # reported by the reader, file by file
        return 0


def each_file(work: Callable[..., Any], files: Iterable[Any], arguments: tuple[Any, ...], jobs: int, quiet: bool = False,
              sized: Callable[[Any], Any] | None = None, scheduler: str | None = None, progress: tuple[str, int] = ("reading", 50),
              batch: int | None = None, failed: Callable[[Any, BaseException], Any] | None = None) -> Iterator[Any]:  # fmt: skip
    """``work(file, *arguments)`` for every file, yielded in file order (whatever the number of
    workers), in ``jobs`` worker processes when more than one (standard input is read here),
    or on the Dask cluster at ``scheduler``; a progress bar on stderr for long runs at a
    terminal (rich is imported only then): ``progress`` is its label and the number of files
    from which it is shown. ``files``: a list, a :class:`Found` (files found as the work
    goes: what is held is the work under way, whatever the archive's size), or an iterator of
    other units of work (never standard input); ``sized(unit)``: the file name to size a unit
    of work by, when units are not names. ``batch``: files sent to a worker at a time (by
    default a few: the work of one file is small); 1 where one file is long work. A name is
    given to ``work`` as :meth:`Input.named <bgrecord.formats.source.Input.named>` (a file,
    whatever the name holds).

    Each file's work stands alone: ``work`` reports its own failures, and what escapes it
    in a worker (a worker that dies, a result that cannot travel back) is
    ``failed(file, exception)`` after the file is tried again alone in a new process; a
    file too large for a worker to send back (``oversized``) is read again here."""
    # What is loaded so far (modules, the grammar) lives as long as the process: the collector
    # need not scan it again for every file, and forked workers keep sharing its pages. Reading
    # makes many small records that live as long as their game: a young collection every 700
    # allocations scanned them again and again (5% of the time; 50,000 costs 3 MB more).
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(50_000, *thresholds[1:])
    pool: list[Any] = []  # the worker processes, when there are: [executor, how many]
    stopping = False
    name_of = sized or (lambda unit: unit)

    def here(file: Any) -> Any:
        return work(_source(file), *arguments)

    try:
        total = len(files) if isinstance(files, list) else None
        stdin = files.stdin if isinstance(files, Found) else total is not None and any(name_of(f) == STDIN for f in files)
        if scheduler and stdin:
            fail("--scheduler reads files, not standard input")
        pending = iter(files)
        first = [] if stdin else _enough(pending, name_of, jobs or int(bool(scheduler)))  # a cluster: whether there is a file
        units, again = itertools.tee(itertools.chain(first, pending))  # again: the file of each result (a few batches behind)
        retry = functools.partial(workers.alone, work, arguments, failed, pool, _sources)
        if scheduler:
            results: Iterable[Any] = _on_cluster(work, map(_source, units), arguments, scheduler, jobs or _cores(), batch, retry) if first else ()
        elif not stdin and len(first) > 1 and (jobs := worker_count(jobs, [name_of(unit) for unit in first])) > 1:
            from bgrecord.tables.cluster import BATCH, in_order

            pool[:] = [workers.start(jobs), jobs]
            results = in_order(lambda part: workers.submit(pool[0], work, _sources(part), arguments), units, 4 * jobs, batch or BATCH, retry)
        else:
            results = (here(file) for file in units)
        results = (here(file) if getattr(result, "oversized", False) else result for file, result in zip(again, results))
        if (total is None or total >= progress[1]) and not quiet and sys.stderr.isatty():
            results = _with_progress(iter(results), total, progress)
        yield from results
    except BaseException:  # a stop (a signal, a closed output, the caller gone): the workers go now
        stopping = True
        raise
    finally:
        if pool:
            workers.end(pool[0], stopping)
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _with_progress(results: Iterator[Any], total: int | None, progress: tuple[str, int]) -> Iterator[Any]:
    """``results`` with a progress bar on stderr: from the start when their number is known,
    else once ``progress[1]`` have come (files found as the work goes: a few are done before
    a bar would show)."""
    label, threshold = progress
    done = 0
    if total is None:
        for result in results:
            yield result
            done += 1
            if done >= threshold:
                break
        else:
            return
    from rich.progress import Progress

    with Progress(console=_stderr(), transient=True) as bar:
        task = bar.add_task(label, total=total, completed=done)
        for result in results:
            yield result
            bar.advance(task)


def _source(file: Any) -> Any:
    """A name as a file (:func:`source_of`), for a worker; another unit of work as it is."""
    return source_of(file) if isinstance(file, str) else file


def _sources(files: list[Any]) -> list[Any]:
    return [_source(file) for file in files]


def _on_cluster(work: Callable[..., Any], files: Iterable[Any], arguments: tuple[Any, ...], scheduler: str, workers: int,
                batch: int | None, retry: Callable[[list[Any], Exception], list[Any]]) -> Iterator[Any]:  # fmt: skip
    """:func:`bgrecord.tables.cluster.cluster_map`, its failures one line (exit status 2)."""
    from bgrecord.tables.cluster import BATCH, ClusterError, cluster_map

    try:
        yield from cluster_map(work, files, arguments, scheduler, workers, batch or BATCH, retry)
    except (ClusterError, ImportError) as exc:
        fail(str(exc))


def _stderr() -> Any:
    from rich.console import Console

    from bgrecord.cli.streams import raw_stderr

    return Console(file=raw_stderr())


def source_of(name: str) -> Any:
    """What a reader takes for a file name: standard input for ``-``, else the file of that
    name (whatever it holds: a line break in a name is no record's text)."""
    from bgrecord.formats.source import Input

    return Input.stdin() if name == STDIN else Input.named(name)
