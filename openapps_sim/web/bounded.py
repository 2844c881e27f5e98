"""An app's code run for a bounded time: a handler or tool that loops or raises is an error of
the call that ran it (:class:`AppFault`, naming the route or tool), never a hung environment.

A handler runs in the thread that asked for its page: an environment's own thread on the text
backend (an in-memory call), the app server's thread for a browser. :func:`run_bounded` puts it
under the process's one watchdog thread, which after :func:`handler_timeout_s` raises
:class:`HandlerTimeout` inside it (CPython's asynchronous exception): the handler unwinds, the
world's lock is released, and the caller answers with the error page. Python code that loops is
stopped so; code blocked inside one C call (a long ``time.sleep``, a lock never released) is
stopped when that call returns, and a sweep's own watchdog still ends a worker that never returns.
"""

from __future__ import annotations

import ctypes
import html
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from starlette.responses import HTMLResponse

from openapps_sim.errors import OpenAppsError

# How long one handler or app tool may run: far beyond any page of the shipped apps (milliseconds),
# well within a sweep's watchdog. OPENAPPS_HANDLER_TIMEOUT_S overrides it (read at each call).
HANDLER_TIMEOUT_S = 10.0


def handler_timeout_s() -> float:
    return float(os.environ.get("OPENAPPS_HANDLER_TIMEOUT_S") or HANDLER_TIMEOUT_S)


class HandlerTimeout(BaseException):
    """Raised inside a handler past its time; a BaseException, so that an app's own
    ``except Exception`` does not swallow it."""


class AppFault(OpenAppsError):
    """An app's handler or tool raised or ran out of time; the message names which."""


class _Watchdog:
    """The calls running now, by thread, and the one thread that stops those past their time."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.running: dict[int, list] = {}  # thread id -> [deadline, done, fired]
        self.wake_at = float("inf")
        self.thread: threading.Thread | None = None

    def enter(self, timeout: float) -> tuple[int, list, list | None]:
        tid = threading.get_ident()
        entry = [time.monotonic() + timeout, False, False]
        with self.cond:
            previous = self.running.get(tid)
            self.running[tid] = entry
            if self.thread is None:
                self.thread = threading.Thread(target=self.watch, name="openapps-handler-watchdog", daemon=True)
                self.thread.start()
            if entry[0] < self.wake_at:  # only an earlier deadline needs the watchdog awake
                self.cond.notify()
        return tid, entry, previous

    def leave(self, token: tuple[int, list, list | None]) -> None:
        tid, entry, previous = token
        entry[1] = True  # done: no longer stopped, even before the lock is ours
        with self.cond:
            if self.running.get(tid) is entry:
                if previous is None:
                    del self.running[tid]
                else:
                    self.running[tid] = previous

    def watch(self) -> None:
        with self.cond:
            while True:
                now = time.monotonic()
                for tid, entry in self.running.items():
                    if not entry[1] and not entry[2] and entry[0] <= now:
                        entry[2] = True  # stopped once
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(tid), ctypes.py_object(HandlerTimeout)
                        )
                pending = [e[0] for e in self.running.values() if not e[1] and not e[2]]
                self.wake_at = min(pending, default=float("inf"))
                self.cond.wait(None if not pending else max(0.0, self.wake_at - now))


_watchdog = _Watchdog()


def run_bounded(what: str, fn: Callable[..., Any], *args: Any, passes: tuple = (OpenAppsError,)) -> Any:
    """``fn(*args)``, stopped after :func:`handler_timeout_s`. ``what`` names it in the
    :class:`AppFault` raised when it runs out of time or raises anything but ``passes`` (by
    default an :class:`~openapps_sim.errors.OpenAppsError`: a refusal the app meant, passed on)."""
    timeout = handler_timeout_s()
    try:
        token = _watchdog.enter(timeout)
        try:
            return fn(*args)
        finally:
            _watchdog.leave(token)
    except HandlerTimeout:
        raise AppFault(f"{what} did not finish within {timeout:g} s and was stopped") from None
    except passes:
        raise
    except Exception as e:
        raise AppFault(f"{what} raised {type(e).__name__}: {e}") from e


def fault_page(world: Any, fault: AppFault) -> HTMLResponse:
    """The 500 page of a handler's fault, counted in ``world.server_errors`` and kept as
    ``world.fault`` (the environment makes it its step's error)."""
    if fault.__cause__ is not None:
        traceback.print_exception(fault.__cause__, file=sys.stderr)
    else:
        print(f"openapps: {fault}", file=sys.stderr)
    world.server_errors += 1
    world.fault = str(fault)
    text = html.escape(str(fault))
    return HTMLResponse(f"<h1>Internal error</h1><p data-testid='app-fault'>{text}</p>", status_code=500)
