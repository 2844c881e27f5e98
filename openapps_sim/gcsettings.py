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
session call :func:`tune_gc`. A library user's own process keeps Python's settings unless it
calls it, with one exception: the first text-backend env made in a process raises the
thresholds (:func:`raise_thresholds`, nothing frozen) when they are still Python's, since a
crawl of new pages otherwise spends a fifth of its CPU in full collections walking what the
process has imported (docs/benchmarks.md). ``OPENAPPS_GC=default`` in the environment keeps
Python's settings everywhere (to compare, or to rule the collector out).
"""

from __future__ import annotations

import gc
import os

ENV = "OPENAPPS_GC"
THRESHOLDS = (50_000, 20, 100)
PYTHON_THRESHOLDS = (700, 10, 10)


def _kept_default() -> bool:
    return os.environ.get(ENV, "").strip().lower() == "default"


def tune_gc() -> bool:
    """Raises the collector's thresholds and freezes every object alive now. Call it again after
    loading more long-lived data. Returns False (and changes nothing) under ``OPENAPPS_GC=default``."""
    if _kept_default():
        return False
    gc.set_threshold(*THRESHOLDS)
    gc.freeze()
    return True


def raise_thresholds() -> bool:
    """Python's thresholds raised to :data:`THRESHOLDS`, nothing frozen (what a text env does to
    the process it is made in). Thresholds someone chose (anything but Python's) stay, and so
    does everything under ``OPENAPPS_GC=default``; returns whether it changed them."""
    if _kept_default() or gc.get_threshold() != PYTHON_THRESHOLDS:
        return False
    gc.set_threshold(*THRESHOLDS)
    return True
