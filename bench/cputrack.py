"""CPU time of this process and every process below it, by kind, while a block runs.

A thread reads ``/proc/<pid>/stat`` of the whole process tree every 0.1 s and keeps each
process's last CPU time (user + system), so processes that end during the block (a sweep's
workers, their servers and browsers) count up to their last sample. ``cores`` is CPU time
over wall time: how many of the machine's cores the block kept busy. On a machine with ``n``
cores, ``n / cores`` of a one-worker run bounds what ``n`` workers can gain over one.
"""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict

_TICK = os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it (from the kernel's ``children`` lists)."""
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        out.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as fh:
                    stack += [int(c) for c in fh.read().split()]
        except OSError:
            continue
    return out


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def cmdline(pid: int) -> bytes:
    """A process's command line (NUL-separated), empty once it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def _kind(pid: int) -> str:
    cmd = cmdline(pid).replace(b"\0", b" ").decode(errors="replace")
    if not cmd:
        return "gone"
    if "chrom" in cmd or "headless_shell" in cmd:
        return "chromium-" + (cmd.split("--type=")[1].split()[0] if "--type=" in cmd else "browser")
    if "node" in cmd.split(" ")[0] or "run-driver" in cmd:
        return "playwright-driver"
    if pid == os.getpid():
        return "python (this process)"
    return "python worker" if "worker_main" in cmd else "python server" if "openapps_sim.web" in cmd else "python other"


class TreeCPU:
    """``with TreeCPU() as cpu: ...``; then ``cpu.result()``."""

    def __init__(self, interval: float = 0.1):
        self.interval = interval
        self.last: dict[int, float] = {}
        self.kinds: dict[int, str] = {}
        self.start: dict[int, float] = {}
        self._stop = threading.Event()

    def _sample(self, first: bool = False) -> None:
        for pid in process_tree(os.getpid()):
            try:
                cpu = cpu_seconds(pid)
            except OSError:
                continue
            if pid not in self.kinds:
                self.kinds[pid] = _kind(pid)
                self.start[pid] = cpu if first else 0.0  # a process born during the block counts whole
            self.last[pid] = cpu

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def __enter__(self) -> TreeCPU:
        self._sample(first=True)
        self.t0 = time.perf_counter()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        self.wall = time.perf_counter() - self.t0

    def result(self) -> dict:
        """``{"wall_s", "cpu_s", "cores", "cpu_s_by_kind"}``."""
        by_kind: dict[str, float] = defaultdict(float)
        for pid, cpu in self.last.items():
            by_kind[self.kinds[pid]] += cpu - self.start.get(pid, 0.0)
        total = sum(by_kind.values())
        return {
            "wall_s": round(self.wall, 1),
            "cpu_s": round(total, 1),
            "cores": round(total / self.wall, 2) if self.wall else 0.0,
            "cpu_s_by_kind": {k: round(v, 1) for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])},
        }
