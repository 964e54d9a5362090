"""Files spread over a Dask distributed cluster (the ``dask`` extra), for archives beyond one
machine: ``--scheduler tcp://host:8786`` (a scheduler and workers started with Dask's own
``dask scheduler`` and ``dask worker`` commands, bgrecord installed on every worker) or
``--scheduler local`` (a cluster of worker processes on this machine).

Files go to the workers in batches; at most a few batches per worker are out at once, and
results come back in file order as they arrive, so the client's memory stays flat and the
output is the same as a one-process run. A batch whose worker is lost is run again on
another (``retries``), not the run lost. The same batching (:func:`in_order`,
:func:`run_batch`) serves the worker processes of ``--jobs``.
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Any, Callable, Iterable, Iterator

from bgrecord.extras import require

BATCH = 8  # files a task: small enough to spread, large enough that a task's cost is the work
IN_FLIGHT = 3  # batches a worker at a time
NO_WORKER = 20.0  # seconds a scheduler may go without a worker before the run says so and ends


class ClusterError(Exception):
    """The cluster cannot be reached or started."""


def in_order(submit: Callable[[list[Any]], Any], files: Iterable[Any], window: int, batch: int = BATCH,
             retry: Callable[[list[Any], Exception], list[Any]] | None = None) -> Iterator[Any]:  # fmt: skip
    """The results of ``submit(batch)`` (a future of a list) for each batch of ``batch``
    files, in file order, with at most ``window`` batches out at once: results never pile up
    faster than they are used (``Executor.map`` submits everything at once). A batch whose
    future fails (its worker died, a result that does not travel) is ``retry(batch, exc)``,
    when given: one file's failure is not its batch's."""
    pending: deque[tuple[list[Any], Any]] = deque()

    def results(files: list[Any], future: Any) -> list[Any]:
        try:
            found: list[Any] = future.result()
            return found
        except Exception as exc:  # noqa: BLE001 - whatever the executor raises for a lost batch
            if retry is None or isinstance(exc, ClusterError):  # a cluster without workers: no batch would run
                raise
            return retry(files, exc)

    remaining = iter(files)
    while part := list(itertools.islice(remaining, batch)):
        pending.append((part, submit(part)))
        if len(pending) >= window:
            yield from results(*pending.popleft())  # the oldest batch first
    while pending:
        yield from results(*pending.popleft())


def run_batch(work: Callable[..., Any], files: list[Any], arguments: tuple[Any, ...]) -> list[Any]:
    """On a worker (a process of a pool, or of a cluster): ``work`` on each file of a batch.
    A file whose rows would not fit a worker's memory comes back ``oversized``
    (:mod:`bgrecord.tables.spool`), for the caller to read."""
    from bgrecord.tables.spool import in_worker

    in_worker()
    return [work(name, *arguments) for name in files]


def cluster_map(work: Callable[..., Any], files: Iterable[Any], arguments: tuple[Any, ...], address: str,
                workers: int = 2, batch: int = BATCH,
                retry: Callable[[list[Any], Exception], list[Any]] | None = None) -> Iterator[Any]:  # fmt: skip
    """``work(file, *arguments)`` for every file on the cluster at ``address`` (``local``: a
    cluster of ``workers`` processes started here), yielded in file order, ``batch`` files a task."""
    distributed = require("distributed")
    cluster = None
    try:
        if address == "local":
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"{address}: cannot reach the Dask scheduler ({exc})") from None
    try:
        _workers_come(client, address)
        slots = max(1, _workers(client) or workers) * IN_FLIGHT
        submit = lambda part: _Watched(client, address, client.submit(run_batch, work, part, arguments, retries=2, pure=False))  # noqa: E731
        yield from in_order(submit, files, slots, batch, retry)
    except BaseException:
        if cluster is not None:
            _kill_workers(cluster)  # a stop: the workers started here go now, not once their tasks end
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _kill_workers(cluster: Any) -> None:
    """The worker processes of a local cluster killed (the engines they started die with them:
    :mod:`bgrecord.processes`), so that closing it is quick."""
    import os
    import signal

    from distributed.core import Status

    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)  # Nanny -> WorkerProcess -> AsyncProcess
        if isinstance(pid, int):
            nanny.status = Status.closing_gracefully  # its worker's end is no failure to restart it after
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _workers(client: Any) -> int:
    try:
        return len(client.scheduler_info(n_workers=-1).get("workers", {}))
    except TypeError:  # an older distributed, whose scheduler_info lists every worker
        return len(client.scheduler_info().get("workers", {}))


def _workers_come(client: Any, address: str) -> None:
    """A scheduler with no worker would take the tasks and wait for ever: one comes within
    :data:`NO_WORKER` seconds, or :class:`ClusterError`."""
    if _workers(client):
        return
    try:
        client.wait_for_workers(1, timeout=NO_WORKER)
    except (TimeoutError, OSError) as exc:
        raise ClusterError(f"{address}: the Dask scheduler has no worker (none came in {NO_WORKER:g} s): start some "
                           f"with 'dask worker {address}' ({type(exc).__name__})") from None  # fmt: skip


class _Watched:
    """A task's future, whose result is waited for while the cluster has a worker to run it:
    a scheduler left without any for :data:`NO_WORKER` seconds is :class:`ClusterError`, not
    a wait without end."""

    def __init__(self, client: Any, address: str, future: Any) -> None:
        self.client, self.address, self.future = client, address, future

    def result(self) -> Any:
        import time

        alone_since: float | None = None
        while True:
            try:
                return self.future.result(timeout=1.0)
            except TimeoutError:
                pass
            if _workers(self.client):
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > NO_WORKER:
                raise ClusterError(f"{self.address}: the Dask scheduler lost its workers (none for {NO_WORKER:g} s)")
