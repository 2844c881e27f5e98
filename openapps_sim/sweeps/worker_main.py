"""A sweep worker process: ``python -m openapps_sim.sweeps.worker_main --out DIR --run-id ID``.

It owns one :class:`~openapps_sim.sweeps.runner.Worker` (an app server and a Chromium) and
speaks JSON lines with the sweep's parent: it reads ``{"spec": {...}, "attempt": n}`` on stdin (n = 2 when
the parent retries an episode whose first worker hung or died) and answers
``{"beat": -1, "phase": "env"}`` once it has started and again once its server and browser are
up, a beat at every change of phase (:mod:`~openapps_sim.sweeps.heartbeat`: ``agent`` before
``agent.reset`` and every ``agent.act``, with ``sofar``, the record if the agent never answers;
``model`` around its model-service calls; ``env`` once it answered; ``record`` at the end),
then ``{"result": {"record": ..., "trajectory": ...}}``, or
``{"user_errors": [{...}, ...]}`` for mistakes in the spec that no retry can fix (each problem). Nothing else is
written to its stdout (everything else goes to stderr). It ignores SIGINT and stops on SIGTERM
or when stdin closes: the parent alone decides when episodes stop, and kills the worker's whole
process group (its server and browser included) when it must.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path

from openapps_sim.errors import ConfigError, SweepStopped, problems_to_json
from openapps_sim.gcsettings import tune_gc
from openapps_sim.sweeps.heartbeat import ENV, Heartbeat
from openapps_sim.sweeps.record import spec_from_json


def _protocol_stream():
    """The real stdout for protocol lines; fd 1 then points at stderr so stray prints cannot
    corrupt the protocol (a server child, a library)."""
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="openapps-sweep-worker")
    p.add_argument("--out", required=True)
    p.add_argument("--run-id", required=True)
    p.add_argument("--headed", action="store_true")
    p.add_argument("--agent-memory-mb", type=float, default=None)
    args = p.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the parent kills the whole process group (server, browser) right after: no cleanup to do
    signal.signal(signal.SIGTERM, lambda *_: os._exit(143))
    proto = _protocol_stream()

    lock = threading.Lock()  # a beat may come from an agent's own thread (its model client)

    def send(message: dict) -> None:
        line = json.dumps(message, ensure_ascii=False, default=str) + "\n"
        with lock:
            proto.write(line)
            proto.flush()

    from openapps_sim.agent import MODEL_CALL_LISTENERS
    from openapps_sim.sweeps.runner import Worker, run_with_retry

    beat = Heartbeat(send, args.agent_memory_mb)
    MODEL_CALL_LISTENERS.append(beat.model_call)
    worker = Worker(headless=not args.headed)
    tune_gc()  # what the worker keeps is loaded: the collector need not walk it again
    beat(-1, ENV)  # started: the watchdog's next wait covers the server and browser start alone
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            message = json.loads(line)
            spec, attempt = spec_from_json(message["spec"]), int(message.get("attempt", 1))
            try:
                result = run_with_retry(
                    worker,
                    spec,
                    Path(args.out),
                    args.run_id,
                    beat=beat,
                    first_attempt=attempt,
                )
            except ConfigError as e:
                send({"user_errors": problems_to_json(e)})  # every problem (a ConfigErrors has several)
                continue
            except SweepStopped as e:  # a permanent infrastructure error: the whole sweep stops
                send({"stop": str(e)})
                continue
            send({"result": {"record": result.record, "trajectory": result.trajectory}})
    finally:
        worker.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
