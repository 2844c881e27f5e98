"""A deep copy of a world state (dicts, lists, tuples and scalars), several times faster than
``copy.deepcopy``: it keeps no memo of objects seen, since a state holds no shared or cyclic
parts (it travels as JSON). Anything else inside is copied by ``copy.deepcopy``."""

from __future__ import annotations

import copy
import json
import marshal
import threading
from collections.abc import Iterable
from typing import Any

from openapps_sim.config.catalog import Undrawn, drawn

_ATOMS = (str, int, float, bool, type(None))


def copy_state(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_state(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else copy_state(v) for v in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(copy_state(v) for v in value)
    return copy.deepcopy(value)


def copy_apps(state: dict, apps: Iterable[str]) -> dict:
    """A copy of the world ``state`` in which the states of ``apps`` are deep copies and every
    other app's state is the very object of ``state`` (so it must be read, never changed: an
    instance changes only its family's apps; the rest of a world of 64 apps is not copied). An
    app of ``apps`` the world has not drawn yet is drawn: its copy is to be changed."""
    own = set(apps)
    return {k: (drawn(v) if type(v) is Undrawn else copy_state(v)) if k in own else v for k, v in state.items()}


_PARSED: dict[str, bytes] = {}  # a JSON text -> the marshal bytes of what it parses to, last used last
PARSED_KEPT = 64
"""Texts kept (about 0.35 MB each for a world of 64 apps): enough for a run that goes round the
worlds of a few dozen seeds (a test over seeds 0-23 or 0-39, the config of each pack), which with
16 kept parsed every text again at every reset."""
_parsed_lock = threading.Lock()


def loads_fresh(text: str) -> Any:
    """``json.loads(text)``, as new objects every call: the text is parsed once (per process,
    for the :data:`PARSED_KEPT` texts used last) and its value kept as the bytes ``marshal``
    wrote of it, which load about twice as fast as JSON parses (a world's state and config at
    every reset). The key is the text itself, so a kept value is never stale."""
    with _parsed_lock:
        blob = _PARSED.pop(text, None)
        if blob is not None:
            _PARSED[text] = blob  # used last: let go last
    if blob is None:
        value = json.loads(text)
        blob = marshal.dumps(value, 2)
        with _parsed_lock:
            _PARSED.pop(text, None)
            while len(_PARSED) >= PARSED_KEPT:
                _PARSED.pop(next(iter(_PARSED)))
            _PARSED[text] = blob
        return value
    return marshal.loads(blob)


class KeptCopies:
    """Copies of a world's app states for readers (a task's state checks): an app whose state
    marshal writes to the same bytes as at the last copy (so equal, of the same types throughout)
    gets that copy again, one object to be read and never changed; only apps that changed are
    copied. Most steps change one app of a world of 64, or none."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[bytes, Any]] = {}

    def copy(self, state: dict) -> dict:
        out = {}
        for app, value in state.items():
            if type(value) is Undrawn:  # an app the world has not read: itself, as every copy of it
                out[app] = value
                continue
            try:
                blob = marshal.dumps(value, 2)
            except ValueError:  # not a plain value: copied every time
                out[app] = copy_state(value)
                continue
            kept = self._kept.get(app)
            if kept is None or kept[0] != blob:
                kept = self._kept[app] = (blob, marshal.loads(blob))
            out[app] = kept[1]
        return out
