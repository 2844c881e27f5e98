"""Three kinds of failure, recorded apart (issue 23, point 2): infrastructure (excluded, retried,
re-run on --resume), model service (excluded, re-run on --resume) and the agent's own exception
(a scored failure of that agent, never re-run)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml

from openapps_sim.analysis.metrics.rates import error_messages, error_summary
from openapps_sim.analysis.metrics.reliability import reliability_summary
from openapps_sim.analysis.metrics.table import prepare
from openapps_sim.analysis.report.analysis import HEADLINE_HEADERS, headline_rows, headline_table, integrity_notes
from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps.record import RECORD_FIELDS, EpisodeSpec, error_record, new_record
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import ResultsWriter, read_results
from openapps_sim.sweeps.sweep import run_sweep
from tests.fake_llm_server import FakeLLMServer

RAISES = "tests.sweep_agents:RaisesOnStep2Agent"
QUICK = "tests.sweep_agents:SeedRecorder"


def _llm_config(tmp_path, server) -> str:
    path = tmp_path / "agent.yaml"
    cfg = {"agent": "openai", "model": "m", "base_url": server.url + "/v1", "require_api_key": False}
    path.write_text(yaml.safe_dump({**cfg, "backoff": 0, "retries": 0}))
    return str(path)


@pytest.mark.browser
def test_three_kinds_of_failure_are_recorded_apart_and_resumed_by_their_rule(tmp_path):
    with FakeLLMServer() as server:
        server.fail_next(500, times=10)  # every request of both attempts fails: retries are spent
        spec_path = tmp_path / "spec.yaml"
        spec_path.write_text(
            yaml.safe_dump(
                {
                    "name": "kinds",
                    "agents": [RAISES, {"name": "openai", "config": _llm_config(tmp_path, server)}, QUICK],
                    "tasks": ["todo.add_item"],
                    "variations": ["default"],
                    "seeds": 1,
                    "max_steps": 6,
                }
            )
        )
        spec = load_spec(spec_path)
        out = tmp_path / "out"
        summary = run_sweep(spec, out, workers=1, progress=False)
        recs = {r["agent"]: r for r in read_results(out / "results.jsonl")}
        assert set(recs) == {RAISES, "openai", QUICK}

        # the agent's own exception: a failed episode of that agent, not an error, not retried
        own = recs[RAISES]
        assert own["error"] is None and own["error_kind"] is None, own["error"]
        assert own["agent_error"] == "ValueError: the agent's own bug on step 2"
        assert "the agent's own bug" in own["traceback"]
        assert own["success"] is False and own["reward"] == 0.0 and own["attempt"] == 1
        assert own["actions"] == ["noop(0)"] and own["steps"] == 1
        assert set(own) == set(RECORD_FIELDS)

        # the model service failed after its retries: excluded, its own kind
        llm = recs["openai"]
        assert llm["error"].startswith("LLMHTTPError") and llm["error_kind"] == "model_service"
        assert llm["agent_error"] is None
        assert summary["errors"] == 1

        # the metrics: the agent's exception is a scored failure; the model failure is excluded
        df = pd.DataFrame(list(recs.values()))
        e = error_summary(df).set_index("agent")
        assert e.loc[RAISES, "agent_errors"] == 1 and e.loc[RAISES, "errors"] == 0
        assert e.loc["openai", "model_service"] == 1 and e.loc["openai", "infrastructure"] == 0
        s = reliability_summary(df, ["agent"], n_boot=10).set_index("agent")
        assert s.loc[RAISES, "n"] == 1 and s.loc[RAISES, "success_rate"] == 0.0
        assert "openai" not in s.index  # nothing scored

        # an infrastructure error for the third agent (as a dead browser leaves it)
        quick = next(e for e in spec.episodes() if e.agent == QUICK)
        lines = [r for r in read_results(out / "results.jsonl") if r["agent"] != QUICK]
        (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
        writer = ResultsWriter(out / "results.jsonl")
        writer.write(error_record(quick, "old", 2, RuntimeError("browser gone"), 1.0))
        writer.close()

        # --resume with a healthy model server: the model-service and infrastructure episodes run
        # again; the agent's failed episode does not
        server.failures.clear()
        run_sweep(spec, out, workers=1, progress=False, resume=True)
        after = read_results(out / "results.jsonl")
    by_agent: dict[str, list[dict]] = {}
    for r in after:
        by_agent.setdefault(r["agent"], []).append(r)
    assert len(by_agent[RAISES]) == 1  # never re-run
    assert [r["error_kind"] for r in by_agent["openai"]] == ["model_service", None]
    assert by_agent["openai"][-1]["success"] is True
    assert [r["error_kind"] for r in by_agent[QUICK]] == ["infrastructure", None]


def _rec(agent: str, seed: int, **fields) -> dict:
    rec = new_record(EpisodeSpec(agent=agent, task="todo.add_item", world=WorldSpec(seed=seed)), "r", 1)
    rec.update(goal="g", task_apps=["todo"], steps=1, actions=["noop()"], **fields)
    return rec


def test_report_gives_the_agents_exceptions_their_own_column():
    records = [
        _rec("a", 0, success=True, reward=1.0),
        _rec("a", 1, agent_error="ValueError: bug", traceback="..."),
        _rec("a", 2, error="LLMTimeout: no answer", error_kind="model_service"),
        _rec("a", 3, error="TargetClosedError: browser closed"),  # an old record: no error_kind
    ]
    df = pd.DataFrame(records)
    s = reliability_summary(df, ["agent"], n_boot=10).iloc[0]
    assert s["n"] == 2 and s["success_rate"] == 0.5  # the exception counts; both errors do not
    assert (s["agent_errors"], s["infrastructure"], s["model_service"]) == (1, 1, 1)
    assert HEADLINE_HEADERS[-2:] == ["Agent exceptions", "Not scored (infra / model)"]
    [row] = headline_rows(reliability_summary(df, ["agent"], n_boot=10))
    assert row[-2:] == ["1", "1 / 1"]
    assert "Agent exceptions" in headline_table(df, n_boot=10)
    notes = " ".join(integrity_notes(prepare(df)))
    assert "model API still failed" in notes and "agent's own exception" in notes and "dead browser" in notes
    msgs = error_messages(df)
    assert set(msgs["kind"]) == {"agent", "model_service", "infrastructure"}
