"""What the text backend keeps across tabs, episodes and threads of one process: pages parsed
and styled, and the observations built of them, each as the bytes ``pickle`` wrote of it, so
that every use gets fresh objects (an agent, an action or a tab may change what it got; the
bytes never change).

A key holds everything its value is made of (the page's HTML, the viewport width, the page's
live state), so a value never goes stale; a process that sees many pages forgets the least
recently used once its share of bytes is spent. Each store takes a lock of its own: the 64
sessions of one MCP process step from their own threads."""

from __future__ import annotations

import gc
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

_MIB = 1 << 20


class Kept:
    """A bounded store of values by key, each kept as pickled bytes and loaded afresh on every
    :meth:`get`. With ``second_sight``, a value is pickled only when its key is asked for the
    second time (a page seen once, as most first visits are, costs no pickling)."""

    def __init__(self, max_bytes: int, second_sight: bool = False) -> None:
        self.max_bytes = max_bytes
        self.second_sight = second_sight
        self._blobs: OrderedDict[Hashable, bytes] = OrderedDict()
        self._seen: OrderedDict[int, None] = OrderedDict()  # hashes of keys asked for once
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """A fresh copy of the value kept for ``key``, else ``make()`` (kept for the next time)."""
        with self._lock:
            blob = self._blobs.get(key)
            if blob is not None:
                self._blobs.move_to_end(key)
        if blob is not None:
            return _loads(blob)
        value = make()
        if self.second_sight and not self._first_seen_before(key):
            return value
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)  # before anyone changes it
        except RecursionError:  # a page nested too deep for pickle is made anew every time
            return value
        self._put(key, blob)
        return value

    @staticmethod
    def _size(key: Hashable, blob: bytes) -> int:
        """The bytes an entry holds: its value's and its key's texts (a page's HTML)."""
        texts = key if isinstance(key, tuple) else (key,)
        return len(blob) + sum(len(t) for t in texts if isinstance(t, str))

    def _first_seen_before(self, key: Hashable) -> bool:
        h = hash(key)
        with self._lock:
            if h in self._seen:
                del self._seen[h]
                return True
            self._seen[h] = None
            if len(self._seen) > 4096:
                self._seen.popitem(last=False)
        return False

    def _put(self, key: Hashable, blob: bytes) -> None:
        size = self._size(key, blob)
        if size > self.max_bytes // 4:
            return  # one value never takes most of the share
        with self._lock:
            old = self._blobs.pop(key, None)
            if old is not None:
                self._bytes -= self._size(key, old)
            self._blobs[key] = blob
            self._bytes += size
            while self._bytes > self.max_bytes:
                dropped_key, dropped = self._blobs.popitem(last=False)
                self._bytes -= self._size(dropped_key, dropped)

    @property
    def kept_bytes(self) -> int:
        """The bytes kept now (values and the texts of their keys)."""
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._blobs.clear()
            self._seen.clear()
            self._bytes = 0


def _loads(blob: bytes) -> Any:
    """``pickle.loads`` without the collections its thousands of new containers would start
    (they are all alive: a collection among them finds nothing), as in ``gc.freeze``'s spirit
    (gcsettings); the collector runs as before once they are made. A collector someone turned
    off stays off."""
    if not gc.isenabled():
        return pickle.loads(blob)
    gc.disable()
    try:
        return pickle.loads(blob)
    finally:
        gc.enable()


# pages parsed and styled, by (HTML, viewport width); observations, by (HTML, width, live state);
# both from their second use on (a crawl's new pages are mostly seen once: pickling them was waste)
PAGES = Kept(32 * _MIB, second_sight=True)
OBSERVATIONS = Kept(32 * _MIB, second_sight=True)
