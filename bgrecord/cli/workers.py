"""The worker processes of one run (``--jobs``): each started with the stopping signals held
until its own handlers stand, and with SIGTERM coming when the main process ends, however it
ends; a batch handed over; the pool ended when the run is done, or at once when it stops (each
worker told once, killed :data:`STOP_GRACE` seconds later); a batch whose worker failed it
tried again file by file, each alone in a new process. :func:`bgrecord.cli.common.each_file`
is what commands use.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any, Callable, NoReturn

STOP_GRACE = 1.5  # seconds a stopped worker has to remove its temporary files before it is killed


def start(jobs: int) -> Any:
    """A pool of ``jobs`` workers (each started when the first batch is handed over)."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=jobs, initializer=_started, initargs=(os.getpid(),))


def submit(pool: Any, work: Callable[..., Any], files: list[Any], arguments: tuple[Any, ...]) -> Any:
    """A batch for the pool's workers. The stopping signals are held while it is handed over:
    a worker forked then starts with them held, until its handlers stand (a stop before that
    would be the main process's handler's, in a process that is not the main one)."""
    from bgrecord.outputs import held_signals

    with held_signals():
        return pool.submit(_task, work, files, arguments)


def _task(work: Callable[..., Any], files: list[Any], arguments: tuple[Any, ...]) -> list[Any]:
    """A batch in a worker (:func:`bgrecord.tables.cluster.run_batch`); a stopping signal there
    ends the worker once the batch's work has unwound (its temporary files removed), and its
    engines with it, rather than leave it to wait for the next batch."""
    from bgrecord.tables.cluster import run_batch

    try:
        return run_batch(work, files, arguments)
    except SystemExit as stop:  # only a stopping signal raises it in a worker (streams.stop_on_signals)
        _exit_for(stop)


def end(pool: Any, stopping: bool) -> None:
    """End a pool of workers: when the run goes on, once they are done; when it stops, now:
    each is told to stop (SIGTERM: it removes its temporary files) and killed if it has not
    ended within :data:`STOP_GRACE` seconds. The engines a worker started die with it."""
    if not stopping:
        pool.shutdown(cancel_futures=True)
        return
    from multiprocessing.connection import wait

    workers = [worker for worker in (getattr(pool, "_processes", None) or {}).values() if worker.exitcode is None]
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        try:
            os.kill(worker.pid, signal.SIGTERM)
        except OSError:  # ended already
            pass
    running = {worker.sentinel: worker for worker in workers}
    deadline = time.monotonic() + STOP_GRACE
    while running and (left := deadline - time.monotonic()) > 0:
        for ended in wait(list(running), left):  # those that have ended, as soon as one has
            del running[ended]
    for worker in running.values():
        worker.kill()


def alone(work: Callable[..., Any], arguments: tuple[Any, ...], failed: Callable[[Any, BaseException], Any] | None,
          pool: list[Any], sources: Callable[[list[Any]], list[Any]], batch: list[Any], exc: Exception) -> list[Any]:  # fmt: skip
    """A batch whose worker failed it: each file again, alone in a new process, and
    ``failed(file, exception)`` for one that fails again. A broken pool is replaced."""
    from concurrent.futures.process import BrokenProcessPool

    if failed is None:
        raise exc
    if pool and isinstance(exc, BrokenProcessPool):
        pool[0].shutdown(wait=False, cancel_futures=True)
        pool[0] = start(pool[1])
    found = []
    for file in batch:
        single = start(1)
        stopping = True
        try:
            found += submit(single, work, sources([file]), arguments).result()
            stopping = False
        except Exception as again:  # noqa: BLE001 - this file's failure, whatever it is
            found.append(failed(file, again))
            stopping = False
        finally:
            end(single, stopping)
    return found


def _started(parent: int) -> None:
    """In a worker: Ctrl-C is for the main process, which stops the workers without a
    traceback; SIGTERM and SIGHUP stop a worker as they stop the main process (its temporary
    files removed); and SIGTERM comes when the main process ends, however it ends (a second
    Ctrl-C, SIGKILL): no worker is left waiting for work that never comes."""
    from bgrecord.cli.streams import stop_on_signals
    from bgrecord.outputs import HELD
    from bgrecord.processes import die_with_parent

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop_on_signals(worker=True)
        die_with_parent(signal.SIGTERM, parent)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)  # held since the fork (submit): what came meanwhile comes now
    except SystemExit as stop:  # stopped while it started: nothing to clean up yet
        _exit_for(stop)


def _exit_for(stop: SystemExit) -> NoReturn:
    """The worker ends at once with the stop's status (no cleanup of the parent's state)."""
    os._exit(stop.code if isinstance(stop.code, int) else 1)
