"""Whatever an agent returns is that agent's own outcome, never an infrastructure error (issue 42,
point 1): an action string of any length or content, any other type, any exception raised while
checking or running it is the agent's invalid action or failed step, counted in its success
rate. Infrastructure is only what the environment did. Browser-free: the text backend."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml

from openapps_sim.analysis.metrics.reliability import reliability_summary
from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.text.env import OpenAppsTextEnv
from openapps_sim.sweeps.record import EpisodeSpec
from openapps_sim.sweeps.runner import Worker, run_with_retry
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import ResultsWriter, read_results
from openapps_sim.sweeps.sweep import run_sweep
from tests.hostile_agents import HOSTILE_ACTIONS

HOSTILE = "tests.hostile_agents:HostileAgent"
STEPS = 3


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


def _episode(worker, agent: str, tmp_path, **options) -> dict:
    """One text-backend episode of ``agent``, its record written and read back as a sweep does."""
    opts = tuple(options.items())
    spec = EpisodeSpec(
        agent, "todo.add_item", WorldSpec("default", 0), backend="text", max_steps=STEPS, agent_options=opts
    )
    result = run_with_retry(worker, spec, tmp_path, "r")
    writer = ResultsWriter(tmp_path / "results.jsonl")
    writer.write(result.record)
    writer.close()
    json.dumps(result.trajectory, ensure_ascii=False).encode()  # the trajectory is written too
    [record] = read_results(tmp_path / "results.jsonl")
    return record


@pytest.mark.parametrize("kind", sorted(HOSTILE_ACTIONS))
def test_a_hostile_action_is_the_agents_malformed_action_never_infrastructure(worker, tmp_path, kind):
    record = _episode(worker, HOSTILE, tmp_path, kind=kind)
    assert record["error"] is None and record["error_kind"] is None, record["error"]
    assert record["agent_error"] is None
    assert record["success"] is False and record["reward"] == 0.0
    assert record["steps"] == STEPS
    # every step an invalid action (malformed on Python 3.11; which category can depend on the
    # version of Python's parser), none run
    assert sum(record["invalid"].values()) == STEPS and record["invalid"]["browser_error"] == 0
    # what the record keeps of the action is short text (it was written as UTF-8 and read back)
    assert all(isinstance(a, str) and len(a) <= 12_000 for a in record["actions"])


def test_the_invalid_action_says_why(worker, tmp_path):
    record = _episode(worker, HOSTILE, tmp_path, kind="one_megabyte")
    assert record["actions"][0] == "x" * 200 + "… (1000000 characters)"
    details = record["invalid_detail"]
    assert details["malformed"] == 3 and details["invalid"] == 3
    traj = run_with_retry(
        worker,
        EpisodeSpec(
            HOSTILE,
            "todo.add_item",
            WorldSpec("default", 0),
            backend="text",
            max_steps=1,
            agent_options=(("kind", "int"),),
        ),
        None,
        "r",
    ).trajectory
    assert traj["steps"][0]["error"] == "invalid action (malformed): the action must be a string, got int"


@pytest.mark.parametrize("kind", ["MemoryError", "RecursionError", "SystemExit"])
def test_an_exception_the_agent_raises_is_its_failed_episode(worker, tmp_path, kind):
    record = _episode(worker, "tests.hostile_agents:RaisesAgent", tmp_path, kind=kind)
    assert record["error"] is None and record["error_kind"] is None
    assert record["agent_error"] == f"{kind}: raised by the agent"
    assert record["success"] is False and record["steps"] == 0


def test_an_action_that_breaks_the_text_step_is_the_agents_failed_step(worker, tmp_path, monkeypatch):
    """The server still answers, so an exception of ``env.step`` was the action's doing (the text
    backend has no browser to ask about: it used to be "the browser is gone")."""

    def broken(self, action):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(OpenAppsTextEnv, "_act", broken)
    record = _episode(worker, "tests.hostile_agents:NoopAgent", tmp_path)
    assert record["error"] is None and record["error_kind"] is None
    assert record["invalid"]["browser_error"] == 1 and record["steps"] == 1
    assert record["success"] is False


def _sweep(tmp_path, agents: list[str]) -> pd.DataFrame:
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(
        yaml.safe_dump(
            {
                "name": "cheat",
                "agents": agents,
                "tasks": ["todo.add_item", "todo.count_open"],
                "variations": ["default"],
                "seeds": 2,
                "backends": ["text"],
            }
        )
    )
    run_sweep(load_spec(spec_path), tmp_path / "out", workers=1, progress=False)
    return pd.DataFrame(read_results(tmp_path / "out" / "results.jsonl"))


def test_a_cheating_lexical_agent_cannot_raise_its_success_rate(tmp_path):
    """The lexical agent adds the item (seeds 0 and 1) and gives up on counting open items (seeds 0
    and 1): 2 of 4. The cheat sends a parser-crashing action where the lexical agent gives up;
    that used to be an infrastructure error, left out of its rate (2 of 2, 100%)."""
    df = _sweep(tmp_path, ["lexical", "tests.hostile_agents:CheatingLexicalAgent"])
    assert df["error"].isna().all() and df["error_kind"].isna().all()
    s = reliability_summary(df, ["agent"], n_boot=10).set_index("agent")
    assert s.loc["lexical", "n"] == 4 and s.loc["lexical", "success_rate"] == 0.5
    cheat = s.loc["tests.hostile_agents:CheatingLexicalAgent"]
    assert cheat["n"] == 4 and cheat["success_rate"] == 0.5
    assert cheat["infrastructure"] == 0
    cheats = df[df["agent"] == "tests.hostile_agents:CheatingLexicalAgent"]
    assert sorted(r["malformed"] > 0 for r in cheats["invalid"]) == [False, False, True, True]


def test_every_reader_of_agent_text_gives_up_on_it_without_raising():
    """The LLM agents' reply reader and offline scoring read an agent's text with Python's
    parser too: text it gives up on (MemoryError on bare words) is unreadable, not a crash."""
    from openapps_sim.agents.reply import split_calls

    from openapps_sim.sweeps.gold import localise
    from openapps_sim.sweeps.stepmatch import instruction, parse_action

    for text in (" ".join(["w"] * 1500), " ".join(["字"] * 1500), "click(" + "-" * 3000 + "1)"):
        assert parse_action(text, {}).type == "unreadable"
        assert instruction(text, {}) == "Do the next step of the task."
        assert split_calls(text) == [text]
        assert localise(f"goto({text})", {}) == f"goto({text})"
