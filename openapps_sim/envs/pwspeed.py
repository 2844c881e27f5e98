"""Two costs of Playwright's Python client that buy nothing on our path, taken away.

* **Stack capture.** Every API call runs ``inspect.stack()`` only to name the caller in error
  messages; that reads source files for every frame and costs milliseconds per call (tens of
  calls per step). A plain frame walk gives Playwright the same file, line and function names.
* **Walks of plain answers.** Every message from the driver is walked, value by value, to swap
  ``{"guid": ...}`` references for Playwright objects, and a ``CDPSession.send`` answer is walked
  a second time to swap implementation objects for API ones. A CDP answer is plain JSON, and an
  accessibility tree or DOM snapshot has tens of thousands of values, so a step spent
  milliseconds copying its own observation twice. A message whose raw text holds no
  ``"guid"`` key cannot hold a reference (the driver writes keys as plain JSON strings), so it
  is passed on as parsed; :func:`cdp_send` returns a CDP answer without the second walk. Every
  other message takes Playwright's own path.

Both patches are installed once per process by :func:`speed_up_playwright`, check that the
private names they rely on exist (playwright 1.4x), and leave Playwright as it was when they
do not.
"""

from __future__ import annotations

import sys
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
    """Install both patches (idempotent)."""
    _shim_stack_capture()
    _skip_walks_of_plain_messages()


def _shim_stack_capture() -> None:
    import inspect
    import types

    from playwright._impl import _connection, _sync_base

    shim = None
    for module in (_connection, _sync_base):  # both call inspect.stack() per API call
        if getattr(module.inspect, "_openapps_fast", False):
            continue
        if shim is None:
            shim = types.SimpleNamespace(**{k: getattr(inspect, k) for k in dir(inspect) if not k.startswith("__")})
            shim.stack = _fast_stack
            shim._openapps_fast = True
        module.inspect = shim


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
    impl, run = getattr(session, "_impl_obj", None), getattr(session, "_sync", None)
    if impl is None or run is None:
        return session.send(method, params or {})
    return run(impl.send(method=method, params=params or {}))
