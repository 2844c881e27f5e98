"""A sweep worker's messages to its parent (``openapps_sim.sweeps.worker_main``), in order.

The watchdog (``executors.LocalPool``) kills a worker that is silent for ``stall_s`` seconds.
Before the worker beat once started and once its server and browser were up, the first beat came
before the first step, so ``stall_s`` had to cover the whole start-up too (the watchdog tests
waited 25 s instead of 8)."""

from __future__ import annotations

import json
import subprocess
import sys

from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps.record import EpisodeSpec, spec_to_json


def test_a_worker_beats_when_started_when_ready_and_at_every_change_of_phase(tmp_path):
    spec = EpisodeSpec("oracle", "todo.add_item", WorldSpec("default", 0), backend="text")
    proc = subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.sweeps.worker_main", "--out", str(tmp_path), "--run-id", "r"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        proc.stdin.write((json.dumps({"spec": spec_to_json(spec), "attempt": 1}) + "\n").encode())
        proc.stdin.flush()
        messages = []
        for line in proc.stdout:
            messages.append(json.loads(line))
            if "result" in messages[-1]:
                break
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    beats = [(m["beat"], m["phase"]) for m in messages if "beat" in m]
    record = messages[-1]["result"]["record"]
    assert record["success"] and record["steps"] == 4
    # started, the env up; the agent's turn (agent.reset, then agent.act before each step) and the
    # env's (reset, step) told apart; the scoring; the result last
    assert beats == [
        (-1, "env"),
        (-1, "env"),
        (-1, "agent"),
        (-1, "env"),
        (0, "agent"),
        (0, "env"),
        (1, "agent"),
        (1, "env"),
        (2, "agent"),
        (2, "env"),
        (3, "agent"),
        (3, "env"),
        (4, "record"),
    ], beats
    # the agent's turn carries what its record says if it never answers
    turns = [m for m in messages if m.get("phase") == "agent"]
    assert [m["sofar"]["steps"] for m in turns] == [0, 0, 1, 2, 3]
    assert turns[-1]["sofar"]["actions"] == record["actions"][:3]
    assert all(set(m) == {"beat", "phase", "sofar"} for m in turns)
