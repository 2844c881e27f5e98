"""Three costs of Playwright's Python client that buy nothing on our path, taken away.

* **Stack capture.** Every API call runs ``inspect.stack()`` only to name the caller in error
  messages; that reads source files for every frame and costs milliseconds per call (tens of
  calls per step). A plain frame walk gives Playwright the same file, line and function names.
* **Source lines for every call.** Every call also keeps ``traceback.extract_stack()``, which
  reads the source line of every frame (a ``stat`` per file per call), only to print it should
  the call fail; the lines are now looked up when such a message is printed.
* **Walks of plain answers.** Every message from the driver is walked, value by value, to swap
  ``{"guid": ...}`` references for Playwright objects, and a ``CDPSession.send`` answer is walked
  a second time to swap implementation objects for API ones. A CDP answer is plain JSON, and an
  accessibility tree or DOM snapshot has tens of thousands of values, so a step spent
  milliseconds copying its own observation twice. A message whose raw text holds no
  ``"guid"`` key cannot hold a reference (the driver writes keys as plain JSON strings), so it
  is passed on as parsed; :func:`cdp_send` returns a CDP answer without the second walk. Every
  other message takes Playwright's own path.

The patches are installed once per process by :func:`speed_up_playwright`, check that the
private names they rely on exist (playwright 1.4x), and leave Playwright as it was when they
do not.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import traceback
import types
from typing import Any

_GUID_KEY = b'"guid"'


class _FastFrameInfo(tuple):
    """The parts of ``inspect.FrameInfo`` Playwright reads: ``[0]``, ``filename``, ``lineno`` (and ``function``)."""

    __slots__ = ()

    @property
    def filename(self) -> str:
        return self[0].f_code.co_filename

    @property
    def lineno(self) -> int:
        return self[0].f_lineno

    @property
    def function(self) -> str:
        return self[0].f_code.co_name


def _fast_stack(context: int = 1) -> list:
    frame = sys._getframe(1)
    out = []
    while frame is not None:
        out.append(_FastFrameInfo((frame,)))
        frame = frame.f_back
    return out


def speed_up_playwright() -> None:
    """Install the patches (idempotent)."""
    _shim_stack_capture()
    _skip_walks_of_plain_messages()


def _lazy_extract_stack(f=None, limit=None) -> traceback.StackSummary:
    """``traceback.extract_stack`` whose source lines are read when the summary is formatted."""
    frames = traceback.walk_stack(f if f is not None else sys._getframe(1))
    stack = traceback.StackSummary.extract(frames, limit=limit, lookup_lines=False)
    stack.reverse()
    return stack


def _shim_stack_capture() -> None:
    from playwright._impl import _connection, _sync_base

    for module in (_connection, _sync_base):  # both call inspect.stack() per API call
        if not getattr(module.inspect, "_openapps_fast", False):
            module.inspect = _namespace(inspect, stack=_fast_stack)
    if not getattr(_sync_base.traceback, "_openapps_fast", False):  # extract_stack() per API call
        _sync_base.traceback = _namespace(traceback, extract_stack=_lazy_extract_stack)


def _namespace(module: Any, **replaced: Any) -> Any:
    """A stand-in for ``module`` with some of its functions replaced."""
    shim = types.SimpleNamespace(**{k: getattr(module, k) for k in dir(module) if not k.startswith("__")})
    for name, fn in replaced.items():
        setattr(shim, name, fn)
    shim._openapps_fast = True
    return shim


def _skip_walks_of_plain_messages() -> None:
    from playwright._impl import _connection, _transport

    transport, connection = _transport.PipeTransport, _connection.Connection
    if getattr(connection._replace_guids_with_channels, "_openapps_fast", False):
        return
    if not (hasattr(transport, "deserialize_message") and hasattr(connection, "_replace_guids_with_channels")):
        return
    parse, replace = transport.deserialize_message, connection._replace_guids_with_channels

    def deserialize_message(self, data):
        # read by the dispatch this message goes to next, on the same thread, before the next read
        self._openapps_plain = _GUID_KEY not in (data if isinstance(data, bytes) else data.encode())
        return parse(self, data)

    def replace_guids_with_channels(self, payload):
        if getattr(self._transport, "_openapps_plain", False):
            return payload
        return replace(self, payload)

    replace_guids_with_channels._openapps_fast = True
    transport.deserialize_message = deserialize_message
    connection._replace_guids_with_channels = replace_guids_with_channels


def cdp_send(session: Any, method: str, params: dict | None = None) -> dict:
    """``session.send(method, params)`` of a sync-API ``CDPSession``, returning the answer as
    the driver parsed it (plain JSON, as ``send`` returns it after its copy)."""
    return cdp_send_all(session, [(method, params or {})])[0]


def cdp_send_all(session: Any, calls: list[tuple[str, dict]]) -> list[dict]:
    """Several CDP calls on one session sent at once, their answers in order: Chromium answers
    them one after the other, but the round trips through Playwright's driver overlap."""
    impl, run = getattr(session, "_impl_obj", None), getattr(session, "_sync", None)
    if impl is None or run is None:
        return [session.send(method, params) for method, params in calls]

    async def all_of() -> list:
        # every answer is awaited (no failure left unretrieved); the first failure is raised
        return list(await asyncio.gather(*(impl.send(method=m, params=p) for m, p in calls), return_exceptions=True))

    answers = run(all_of())
    failed = next((a for a in answers if isinstance(a, BaseException)), None)
    if failed is not None:
        raise failed
    return answers
