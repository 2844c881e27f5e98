"""Child processes that never outlive their parent.

On Linux a child started with :func:`die_with_parent` as its ``preexec_fn`` gets
``PR_SET_PDEATHSIG``: the kernel sends it a signal when the thread that started it goes away,
however that happens (a normal exit, an exception, SIGKILL). The engine starts its app servers
and its sweep workers this way, so nothing of a sweep, a test run or an MCP server is left
behind. Elsewhere (macOS, Windows) it does nothing and the usual ``atexit`` clean-up remains.

The signal follows the *thread* that started the child: start long-lived children from a
thread that lives as long as you need them (the main thread, or a pool thread that is never
shut down).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Callable

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    return getattr(libc, "prctl", None)


_PRCTL = _prctl()


def die_with_parent(sig: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child receive ``sig`` when its parent dies (None where the
    platform has no such thing, so ``Popen(preexec_fn=die_with_parent())`` works everywhere)."""
    if _PRCTL is None:
        return None
    parent = os.getpid()
    prctl = _PRCTL

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the line above: go now
            os.kill(os.getpid(), sig)

    return preexec
