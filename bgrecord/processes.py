"""Processes that end with the process that started them: a worker, or an engine such as GNU
Backgammon, must not outlive a run, however the run ends (a second Ctrl-C, SIGKILL, the
out-of-memory killer), or it would hold its memory and its engine for ever.

Linux's parent-death signal does it (``prctl(PR_SET_PDEATHSIG)``): the kernel sends the signal
when the thread that started the process ends. Elsewhere nothing is set, and a run that ends
normally or by a stopping signal still ends its workers and engines itself.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable


def _prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


PR_SET_PDEATHSIG = 1


def _set(prctl: Any, number: int, parent: int | None, code: int) -> None:
    """The parent-death signal set; the process ended with ``code`` at once when ``parent`` has
    ended already (it died before the signal was set, which then never comes)."""
    prctl(PR_SET_PDEATHSIG, number)
    if parent is not None and os.getppid() != parent:
        os._exit(code)


def die_with_parent(number: int, parent: int | None = None) -> None:
    """In a child process: ``number`` (a signal) when its parent ends. ``parent``: the pid the
    child was started by; when the parent has ended already, the child ends at once (it has
    nothing to clean up yet)."""
    prctl = _prctl()
    if prctl is not None:
        _set(prctl, number, parent, 128 + number)


def dies_with_parent(number: int) -> Callable[[], None] | None:
    """What a child runs before the program it becomes (``subprocess.Popen``'s ``preexec_fn``)
    so that it gets ``number`` when this process ends; None where there is no such signal.
    The signal stays through ``exec``."""
    prctl = _prctl()
    if prctl is None:
        return None
    return functools.partial(_set, prctl, number, os.getpid(), 1)
