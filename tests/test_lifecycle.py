"""Nothing outlives its parent: a process serves its worlds from a thread, never a child
process, and a sweep's workers go when the sweep itself is SIGKILLed (PR_SET_PDEATHSIG)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
import yaml

from .procs import cmdline, descendants

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

SERVES_A_WORLD = """
import os, time
from openapps_sim.web.server import app_server
world = app_server().add()
print(os.getpid(), world.url, flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie is gone already
    except FileNotFoundError:
        return False


def gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def test_a_process_serves_its_worlds_from_a_thread_and_starts_no_child():
    parent = subprocess.Popen([sys.executable, "-c", SERVES_A_WORLD], stdout=subprocess.PIPE, text=True)
    try:
        pid, url = parent.stdout.readline().split()
        assert url.startswith("http://w1.localhost:")
        assert descendants(int(pid)) == []  # nothing that could outlive it
    finally:
        parent.kill()
        parent.wait(10)


def test_a_process_that_exited_has_an_empty_command_line():
    """The process listing below read /proc/PID/cmdline of a process that had just exited and
    failed with FileNotFoundError (seen once in a run of the suite)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(10)
    assert cmdline(child.pid) == b""


@pytest.mark.browser
def test_a_sigkilled_sweep_leaves_no_worker_or_browser(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump({"name": "t", "agents": ["oracle"], "tasks": ["todo.*"], "seeds": 3, "workers": 2}))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "openapps_sim.cli.main", "sweep", str(spec), "--out", str(out), "--quiet"]
    sweep = subprocess.Popen(cmd + ["--no-report"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        below: list[int] = []
        while time.time() < deadline:  # until both workers run an episode (a browser each)
            below = descendants(sweep.pid)
            workers = {p for p in below if any(b"chrom" in cmdline(c) for c in descendants(p))}
            if len(workers) >= 2:
                break
            time.sleep(0.2)
        else:
            pytest.fail("the sweep's workers did not start their browsers")
        below = descendants(sweep.pid)
        os.kill(sweep.pid, signal.SIGKILL)  # the parent alone, not its process group
        sweep.wait(10)
        assert gone_within(below, 20) == [], "processes outlived the SIGKILLed sweep"
    finally:
        sweep.kill()
