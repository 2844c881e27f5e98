"""A hang or a death is the agent's failure when it happens in the agent's own turn, and
infrastructure only when it happens in the environment (issue 42, point 1).

The sweep's watchdog used to file every stalled or dead worker as an infrastructure error: an
agent that never answered, or ate memory until its worker was killed, was left out of every
metric and run again by every ``--resume``. The worker's heartbeat now names its phase
(openapps_sim/sweeps/heartbeat.py). Text backend, one worker, a stall time-out of 10 s."""

from __future__ import annotations

import socket
import uuid

import pandas as pd
import pytest
import yaml

from openapps_sim.analysis.metrics.rates import error_summary
from openapps_sim.analysis.metrics.reliability import reliability_summary
from openapps_sim.sweeps.executors import execute_local
from openapps_sim.sweeps.record import RECORD_FIELDS, EpisodeSpec
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .test_sweep_stop import wait_until_gone

HANGS_IN_RESET = "tests.hang_agents:HangsInReset"
HANGS = "tests.hang_agents:HangsOnStep2"
KILLED = "tests.hang_agents:KilledOnStep2"


@pytest.fixture
def tag(monkeypatch) -> str:
    """A short stall time-out, and a tag on this test's processes (workers, app servers)."""
    monkeypatch.setenv("OPENAPPS_STALL_S", "10")  # above a worker's start on a busy machine
    value = uuid.uuid4().hex
    monkeypatch.setenv("OPENAPPS_TEST_TAG", value)
    return value


def _sweep(tmp_path, agents: list, resume: bool = False) -> tuple[dict, list[dict]]:
    spec_path = tmp_path / "spec.yaml"
    spec = {"name": "hangs", "agents": agents, "tasks": ["todo.add_item"], "seeds": 1, "backends": ["text"]}
    spec_path.write_text(yaml.safe_dump(spec))
    summary = run_sweep(load_spec(spec_path), tmp_path / "out", workers=1, progress=False, resume=resume)
    return summary, read_results(tmp_path / "out" / "results.jsonl")


def _is_the_agents_failure(record: dict, agent_error: str, steps: int) -> None:
    assert record["error"] is None and record["error_kind"] is None, record["error"]
    assert record["agent_error"] == agent_error
    assert record["success"] is False and record["reward"] == 0.0
    assert record["attempt"] == 1  # never retried
    assert record["steps"] == steps and record["actions"] == ["noop(0)"] * steps
    assert record["goal"] and record["task_apps"] == ["todo"]
    assert set(record) == set(RECORD_FIELDS)


def test_an_agent_that_never_answers_fails_its_episode_and_resume_leaves_it(tmp_path, tag):
    summary, records = _sweep(tmp_path, [HANGS_IN_RESET, HANGS])
    by_agent = {r["agent"]: r for r in records}
    assert len(records) == 2 and summary["errors"] == 0
    _is_the_agents_failure(by_agent[HANGS_IN_RESET], "the agent did not answer within 10 s (agent.reset)", 0)
    _is_the_agents_failure(by_agent[HANGS], "the agent did not answer within 10 s (agent.act at step 2)", 1)

    # counted in each agent's success rate, as failures of its own
    df = pd.DataFrame(records)
    s = reliability_summary(df, ["agent"], n_boot=10).set_index("agent")
    assert list(s["n"]) == [1, 1] and list(s["success_rate"]) == [0.0, 0.0]
    e = error_summary(df).set_index("agent")
    assert list(e["agent_errors"]) == [1, 1] and list(e["infrastructure"]) == [0, 0]

    # finished episodes: --resume runs neither again
    summary, again = _sweep(tmp_path, [HANGS_IN_RESET, HANGS], resume=True)
    assert summary["ran"] == 0 and again == records
    assert wait_until_gone(tag) == []


def test_a_worker_killed_while_its_agent_acts_is_the_agents_failed_episode(tmp_path, tag):
    """SIGKILL in the agent's turn, as the OOM killer or a memory limit ends a process that
    ate the memory."""
    summary, records = _sweep(tmp_path, [KILLED])
    (record,) = records
    _is_the_agents_failure(
        record, "the worker died while the agent was acting (signal 9, SIGKILL; agent.act at step 2)", 1
    )
    summary, again = _sweep(tmp_path, [KILLED], resume=True)
    assert summary["ran"] == 0 and again == records
    assert wait_until_gone(tag) == []


def test_an_agent_over_its_memory_bound_fails_with_a_memory_error_of_its_own(tmp_path, tag, monkeypatch):
    """OPENAPPS_AGENT_MEMORY_MB bounds what an agent may take in one turn: past it, the agent's
    own allocation fails (it wanted 1.5 GB), before the machine's OOM killer steps in."""
    monkeypatch.setenv("OPENAPPS_AGENT_MEMORY_MB", "200")
    _, records = _sweep(tmp_path, ["tests.hang_agents:EatsMemory"])
    (record,) = records
    assert record["error"] is None and record["error_kind"] is None
    assert record["agent_error"] == "MemoryError: out of memory"
    assert record["success"] is False and record["steps"] == 0
    assert wait_until_gone(tag) == []


def test_a_bad_memory_bound_is_one_sentence(tmp_path, monkeypatch):
    from openapps_sim.errors import ConfigError

    for text in ("lots", "-5", "0", "inf", "nan"):
        monkeypatch.setenv("OPENAPPS_AGENT_MEMORY_MB", text)
        with pytest.raises(ConfigError, match=r"^environment: OPENAPPS_AGENT_MEMORY_MB: expected a number of"):
            execute_local([EpisodeSpec("oracle", "todo.add_item", backend="text")], tmp_path, "r", 1, print)


def test_a_hang_in_the_environment_is_still_infrastructure_and_retried_once(tmp_path, tag, monkeypatch):
    """The agent answers at once, but the environment it acts on hangs (its state check never
    returns): the step hangs in the environment. The episode runs once more on a fresh worker and, hanging
    again, is an infrastructure error; one whose retry goes through is recorded as attempt 2."""
    monkeypatch.setenv("HANG_MARKER", str(tmp_path / "hung-once"))
    got: list[dict] = []
    todo = [
        EpisodeSpec("tests.hang_agents:StopsItsServer", "todo.add_item", backend="text"),
        EpisodeSpec("tests.hang_agents:StopsItsServerOnce", "todo.add_item", backend="text"),
    ]
    execute_local(todo, tmp_path, "r", 1, lambda rec, traj: got.append(rec))
    hung, retried = got
    assert hung["error"] == "RuntimeError: the environment did not answer within 10 s (a hung app server or browser)"
    assert hung["error_kind"] == "infrastructure" and hung["agent_error"] is None and hung["attempt"] == 2
    assert retried["error"] is None and retried["attempt"] == 2
    assert retried["actions"] == ["send_msg_to_user('done')"]
    assert wait_until_gone(tag) == []


def test_a_model_service_that_does_not_answer_stays_a_model_service_error(tmp_path, tag):
    """The agent waits on its model service (a server that takes the request and never answers,
    with the client's time-out above the stall time-out): the model service's time, not the
    agent's -- an error of kind model_service, left out of the metrics and run again on resume."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # connections complete in the kernel; nothing ever answers
    config = tmp_path / "agent.yaml"
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
    config.write_text(
        yaml.safe_dump({"agent": "openai", "model": "m", "base_url": url, "require_api_key": False, "timeout": 60})
    )
    got: list[dict] = []
    try:
        spec = EpisodeSpec("openai", "todo.add_item", agent_config=str(config), backend="text")
        execute_local([spec], tmp_path, "r", 1, lambda rec, traj: got.append(rec))
    finally:
        silent.close()
    (record,) = got
    assert record["error"] == "RuntimeError: the agent's model service did not answer within 10 s (agent.act at step 1)"
    assert record["error_kind"] == "model_service" and record["agent_error"] is None and record["attempt"] == 2
    assert wait_until_gone(tag) == []


def test_the_heartbeat_names_the_model_services_time_only_within_the_agents_turn():
    """A model call announced outside the agent's turn (a judge scoring the episode) leaves the
    phase alone; within it, it is the model service's time, then the agent's again. The memory
    bound holds through the agent's turn and is lifted after it."""
    import resource

    from openapps_sim.agent import MODEL_CALL_LISTENERS, calling_model_service
    from openapps_sim.sweeps.heartbeat import Heartbeat

    sent: list[dict] = []
    beat = Heartbeat(sent.append, memory_mb=100_000)
    before = resource.getrlimit(resource.RLIMIT_AS)
    MODEL_CALL_LISTENERS.append(beat.model_call)
    try:
        beat(-1, "env")
        with calling_model_service():
            pass
        beat(0, "agent", lambda: {"steps": 0})
        bounded = resource.getrlimit(resource.RLIMIT_AS)
        with calling_model_service():
            pass
        beat(0, "env")
        with calling_model_service():
            pass
    finally:
        MODEL_CALL_LISTENERS.remove(beat.model_call)
        beat.lift_bound()
    assert sent == [
        {"beat": -1, "phase": "env"},
        {"beat": 0, "phase": "agent", "sofar": {"steps": 0}},
        {"beat": 0, "phase": "model"},
        {"beat": 0, "phase": "agent"},
        {"beat": 0, "phase": "env"},
    ]
    assert bounded[0] != before[0] and bounded[0] > 100_000 * 2**20
    assert resource.getrlimit(resource.RLIMIT_AS) == before
