"""The garbage collector's settings for OpenApps-Sim's own long-running processes.

A process of this package holds large, long-lived object graphs: the loaded packs, the worlds'
states (a calendar of hundreds of events, the shop's catalogue), the copies the reward compares.
Under CPython's default thresholds (700, 10, 10) the collector walks those graphs again and
again while a step allocates its short-lived dicts; nothing in them is ever cyclic garbage. Two
changes remove most of that work (docs/benchmarks.md, "The garbage collector"):

* a first-generation threshold of 50,000 allocations instead of 700, so young objects are
  examined less often (the older generations follow from it);
* ``gc.freeze()`` once a process has loaded what it keeps (its imports, its server's packs, a
  test run's collected items): the collector no longer examines those objects at all.

The sweep worker (local or a Ray actor), the app server, the ``openapps`` command and the test
session call :func:`tune_gc`; a library user's own process keeps Python's settings unless it
calls it. ``OPENAPPS_GC=default`` in the environment keeps Python's settings everywhere (to
compare, or to rule the collector out).
"""

from __future__ import annotations

import gc
import os

ENV = "OPENAPPS_GC"
THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> bool:
    """Raises the collector's thresholds and freezes every object alive now. Call it again after
    loading more long-lived data. Returns False (and changes nothing) under ``OPENAPPS_GC=default``."""
    if os.environ.get(ENV, "").strip().lower() == "default":
        return False
    gc.set_threshold(*THRESHOLDS)
    gc.freeze()
    return True
