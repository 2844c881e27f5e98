"""Your own model from the command line (issue 40, points 1, 2 and 4): `--model`, `--base-url`,
`--api-key-env`, `-o KEY=VALUE` and `--label` on `openapps run` and `openapps sweep`, a spec's
inline agent options, `sweep SPEC --agent-config CFG`; every exchange with the model recorded;
labels as the agent's name in the terminal, the report and the export.

Every model here is the real HTTP server of tests/fake_llm_server.py on 127.0.0.1, reached
through the agents' own HTTP client; episodes run on the text backend.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from openapps_sim.agents import make_agent

from openapps_sim.analysis.export import COLUMNS, export_dataset
from openapps_sim.analysis.report.analysis import headline_table
from openapps_sim.cli.main import main
from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import EpisodeSpec, new_record
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.steplog import StepLog
from openapps_sim.sweeps.store import read_results

from .fake_llm_server import FakeLLMServer, request_images

SHOT = np.full((720, 1280, 3), 200, dtype=np.uint8)


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as s:
        yield s


@pytest.fixture(scope="module")
def flag_run(server, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`openapps run` with only command-line flags, as a user types it."""
    out = tmp_path_factory.mktemp("flags") / "run"
    command = [
        *("run", "--task", "todo.add_item", "--backend", "text", "--out", str(out), "--verbose"),
        *("--model", "my-model", "--base-url", server.url + "/v1", "-o", "max_obs_chars=20000", "--label", "mine"),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "openapps_sim.cli", *command], capture_output=True, text=True, timeout=300
    )
    return out, done


def test_run_with_only_command_line_flags(flag_run, server):
    out, done = flag_run
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "agent: mine (openai)"
    assert "     thought: progress: done=[]. Working on todo: click(" in done.stdout  # --verbose
    sent = [r["body"] for r in server.requests if r["body"].get("model") == "my-model"]
    assert sent and all(r["path"] == "/v1/chat/completions" for r in server.requests)
    rec = read_results(out / "results.jsonl")[-1]
    assert rec["success"] and rec["agent"] == "openai" and rec["label"] == "mine" and rec["agent_config"] is None
    assert rec["agent_overrides"] == {
        "base_url": server.url + "/v1",
        "max_obs_chars": 20000,
        "model": "my-model",
        "require_api_key": False,
    }


def test_each_step_keeps_the_exchange_with_the_model(flag_run):
    out, _ = flag_run
    rec = read_results(out / "results.jsonl")[-1]
    traj = json.loads((out / "trajectories" / f"{rec['episode_id']}.json").read_text())
    assert traj["label"] == "mine"
    (sid, system), *others = traj["system_prompts"].items()
    assert others == [] and system.startswith("You are an agent that uses a web browser")  # stored once per episode
    for step in traj["steps"]:
        ex = step["exchange"]
        messages = ex["request"]["messages"]
        assert messages[0] == {"role": "system", "content": f"[[system:{sid}]]"}
        assert messages[1]["content"][0]["text"].startswith("Task: ")
        assert ex["request"]["model"] == "my-model" and ex["images"] == {}
        (reply,) = ex["replies"]
        assert reply["text"].endswith(f"<action>{step['action']}</action>") and reply["reasked"] is None
        assert reply["prompt_tokens"] > 0 and reply["completion_tokens"] > 0 and reply["attempts"] == 1
        assert reply["latency_s"] >= 0 and step["tokens"]["prompt_tokens"] == reply["prompt_tokens"]


def test_export_carries_label_thought_reply_tokens_and_a_path_only_url(flag_run, tmp_path):
    out, _ = flag_run
    export_dataset([out], tmp_path / "ds", images="none")
    df = pd.read_parquet(tmp_path / "ds" / "data" / "train-00000.parquet")
    assert list(df.columns) == list(COLUMNS)
    for column in ("label", "thought", "reply", "prompt_tokens", "completion_tokens", "backend", "interface"):
        assert column in COLUMNS
    first = df.iloc[0]
    assert first["label"] == "mine" and first["agent"] == "openai"
    assert (first["backend"], first["interface"], first["termination"]) == ("text", "gui", "auto")
    assert first["url"] == "/" and list(df["url"])[1:] == ["/todo/"] * (len(df) - 1)
    assert first["thought"].startswith("progress: done=[]") and first["reply"].startswith("<think>progress")
    assert (df["prompt_tokens"] > 0).all() and (df["completion_tokens"] > 0).all()


@pytest.mark.parametrize(
    "flags, message",
    [
        (
            ["--model", "m", "-o", "temprature=0.5"],
            "-o: temprature: unknown option (did you mean temperature?); allowed: action_space, api_key_env,",
        ),
        (["--model", "m", "-o", "temperature=hot"], "-o: temperature: expected a number, got 'hot'"),
        (["--model", "m", "-o", "max_tokens=1.5"], "-o: max_tokens: expected an integer, got 1.5"),
        (
            ["--model", "m", "-o", "obs_mode=pixels"],
            "-o: obs_mode: unknown value 'pixels'; allowed: axtree, screenshot, both",
        ),
        (["--model", "m", "-o", "temperature"], "-o: temperature: expected KEY=VALUE"),
        (["--agent", "lexical", "--model", "m"], "--model: model: unknown option; allowed: max_apps, stop_message"),
        (["--agent", "lexical", "-o", "max_apps=two"], "-o: max_apps: expected an integer, got 'two'"),
        (["--label", " "], "--label: label: empty"),
    ],
)
def test_command_line_options_are_checked(flags, message, capsys):
    code = main(["run", "--task", "todo.add_item", "--backend", "text", *flags])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_option_values_are_read_in_the_options_kind(server):
    from openapps_sim.agents.llm import OpenAIAgent

    from openapps_sim.cli.agentflags import parse_options

    texts = ["system_prompt=You are: careful", "temperature=0.7", "prices={prompt: 1.5}", "image_detail=null"]
    assert parse_options(OpenAIAgent, texts) == {
        "system_prompt": "You are: careful",
        "temperature": 0.7,
        "prices": {"prompt": 1.5},
        "image_detail": None,
    }


def test_api_key_env_names_the_variable_or_none(server, monkeypatch, capsys):
    monkeypatch.delenv("MY_KEY", raising=False)
    code = main(["run", "--task", "todo.add_item", "--backend", "text", "--model", "m", "--api-key-env", "MY_KEY"])
    assert code == 2 and "api_key_env: the environment variable MY_KEY is empty or not set" in capsys.readouterr().err
    monkeypatch.setenv("MY_KEY", "sk-test")
    base = ["run", "--task", "todo.add_item", "--backend", "text", "--model", "m", "--base-url", server.url + "/v1"]
    server.requests.clear()
    assert main([*base, "--api-key-env", "MY_KEY", "--max-steps", "1"]) in (0, 1)
    assert server.requests[0]["headers"]["authorization"] == "Bearer sk-test"
    server.requests.clear()
    assert main([*base, "--api-key-env", "none", "--max-steps", "1"]) in (0, 1)
    assert "authorization" not in server.requests[0]["headers"]


# -- specs: inline options, labels, your agent in place of the spec's LLM agents -----------------------


def _config(tmp_path: Path, server) -> Path:
    path = tmp_path / "my-agent.yaml"
    path.write_text(f"agent: openai\nmodel: cfg-model\nbase_url: {server.url}/v1\nrequire_api_key: false\n")
    return path


def _spec(tmp_path: Path, agents: list, **more) -> Path:
    path = tmp_path / "spec.yaml"
    data = {"name": "t", "agents": agents, "tasks": ["todo.add_item"], "variations": ["default"], "seeds": 1}
    path.write_text(yaml.safe_dump({**data, **more}))
    return path


@pytest.mark.parametrize(
    "agents, message",
    [
        (
            [{"name": "openai", "temprature": 1}],
            "agents[0].temprature: unknown option (did you mean temperature?); allowed: name, config, label,",
        ),
        ([{"name": "openai", "temperature": "hot"}], "agents[0].temperature: expected a number, got 'hot'"),
        ([{"name": "lexical", "max_apps": 3, "model": "m"}], "agents[0].model: unknown option; allowed: name, config"),
        ([{"name": "oracle", "label": "x"}, {"name": "lexical", "label": "x"}], "agents[1].label: 'x' already labels"),
        ([{"name": "oracle", "label": ""}], "agents[0].label: expected a name, got ''"),
    ],
)
def test_inline_agent_options_are_checked(tmp_path, agents, message):
    with pytest.raises(ConfigError) as e:
        load_spec(_spec(tmp_path, agents))
    assert message in str(e.value)


def test_inline_options_and_labels_name_the_agents_everywhere(tmp_path, server, capsys):
    cfg = _config(tmp_path, server)
    agents = [
        {"name": "openai", "config": str(cfg), "label": "short-tree", "max_obs_chars": 3000},
        {"name": "openai", "config": str(cfg), "label": "long-tree", "max_obs_chars": 50000},
    ]
    spec = _spec(tmp_path, agents)
    out = tmp_path / "run"
    assert main(["sweep", str(spec), "--backend", "text", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "sweep t: agents short-tree (openai), long-tree (openai); 2 episodes" in printed
    recs = read_results(out / "results.jsonl")
    assert sorted((r["label"], r["agent_overrides"]["max_obs_chars"]) for r in recs) == [
        ("long-tree", 50000),
        ("short-tree", 3000),
    ]
    table = printed.split("\n\n")[-2] if "report:" in printed else printed
    assert "short-tree" in table and "long-tree" in table and "openai (" not in printed
    report = (out / "report.md").read_text()
    assert "short-tree" in report and "long-tree" in report and f"openai ({cfg})" not in report
    manifest = json.loads((out / "manifest.json").read_text())
    assert [(a["label"], a["config"]["options"]["max_obs_chars"]) for a in manifest["agents"]] == [
        ("short-tree", 3000),
        ("long-tree", 50000),
    ]


def test_sweep_runs_a_spec_with_your_agent_in_place_of_its_llm_agents(tmp_path, server, capsys):
    cfg = _config(tmp_path, server)
    agents = ["oracle", {"name": "anthropic", "config": "claude-sonnet"}, {"name": "openai", "config": "gpt-4o"}]
    spec = _spec(tmp_path, agents)
    out = tmp_path / "run"
    code = main(["sweep", str(spec), "--agent-config", str(cfg), "--backend", "text", "--out", str(out), "--quiet"])
    assert code == 0
    assert "sweep t: agents oracle, my-agent (openai); 2 episodes" in capsys.readouterr().out
    recs = read_results(out / "results.jsonl")
    assert sorted((r["agent"], r["label"] or "", r["agent_config"] or "") for r in recs) == [
        ("openai", "my-agent", str(cfg)),
        ("oracle", "", ""),
    ]
    # a shipped spec without LLM agents gets yours beside its own
    paper = load_spec("paper").with_agent({"name": "openai", "config": None, "label": "m", "options": {}, "llm": True})
    assert [a["name"] for a in paper.agents] == ["oracle", "lexical", "random", "openai"]
    assert paper.raw["agents"][-1] == {"name": "openai", "label": "m"}


def test_secrets_given_as_options_stay_out_of_records():
    spec = EpisodeSpec(
        agent="openai",
        task="todo.add_item",
        agent_overrides=(("api_key_env", "MY_KEY"), ("extra_headers", {"Authorization": "Bearer sk-1", "X-Org": "o"})),
    )
    assert new_record(spec, "r", 1)["agent_overrides"] == {
        "api_key_env": "MY_KEY",
        "extra_headers": {"Authorization": "***", "X-Org": "o"},
    }


def test_labels_group_results_in_the_report():
    records = []
    for label, config, wins in (("small", "a.yaml", 1), ("large", "b.yaml", 2), (None, "a.yaml", 0)):
        for seed in (0, 1):
            spec = EpisodeSpec(
                agent="openai", task="todo.add_item", world=WorldSpec(seed=seed), agent_config=config, label=label
            )
            rec = new_record(spec, "r", 1)
            rec.update(success=seed < wins, reward=float(seed < wins), steps=2, goal="g", task_apps=["todo"])
            records.append(rec)
    table = headline_table(pd.DataFrame(records), n_boot=50)
    rows = {line.split()[0]: line for line in table.splitlines()[2:]}
    assert set(rows) == {"small", "large", "openai"}  # the unlabelled one keeps the agent's name
    assert rows["large"].split()[1:3] == ["2", "100.0%"] and rows["small"].split()[1:3] == ["2", "50.0%"]


# -- the exchange, by the agent itself -----------------------------------------------------------------


def test_the_exchange_keeps_the_request_images_by_hash_and_every_reask():
    answers = ["I would look around first.", "<think>the box</think><action>click('1')</action>"]
    with FakeLLMServer(answers) as server:
        agent = make_agent(
            "openai",
            {"model": "m", "base_url": server.url + "/v1", "require_api_key": False, "obs_mode": "both"},
        )
        agent.reset("Add 'milk'")
        action = agent.act({"url": "http://w1.localhost:9/todo/", "screenshot": SHOT, "axtree_object": {"nodes": []}})
        sent = [r["body"] for r in server.requests]
    ex = agent.last_exchange
    assert action == "click('1')" and len(sent) == 2
    name = hashlib.sha1(request_images(sent[0])[0]).hexdigest()[:16] + ".png"
    sid = hashlib.sha1(agent.system_text().encode()).hexdigest()[:12]
    assert ex["system"] == {sid: agent.system_text()}
    assert set(ex["images"]) == {name} and base64.b64decode(ex["images"][name]) == request_images(sent[0])[0]
    messages = ex["request"]["messages"]
    assert messages[0]["content"] == f"[[system:{sid}]]"
    assert messages[1]["content"][1] == {"type": "image_url", "image_url": {"url": f"[[image:{name}]]"}}
    assert "base64" not in json.dumps(ex["request"])
    first, second = ex["replies"]
    assert first["text"] == "I would look around first." and first["completion_tokens"] == 6
    assert first["reasked"]["reason"] == "the answer held no action"
    assert sent[1]["messages"][-1]["content"] == first["reasked"]["message"]  # the re-ask as sent
    assert second["text"] == answers[1] and second["reasked"] is None


def test_anthropic_images_are_referenced_too():
    with FakeLLMServer(["<action>noop()</action>"]) as server:
        agent = make_agent(
            "anthropic",
            {"model": "m", "base_url": server.url, "require_api_key": False, "obs_mode": "both"},
        )
        agent.reset("g")
        agent.act({"url": "http://h/", "screenshot": SHOT, "axtree_object": {"nodes": []}})
    request = agent.last_exchange["request"]
    source = request["messages"][0]["content"][1]["source"]
    (name,) = agent.last_exchange["images"]
    assert source == {"type": "base64", "media_type": "image/png", "data": f"[[image:{name}]]"}
    assert request["system"].startswith("[[system:")


def test_the_exchange_of_a_step_is_bounded():
    from openapps_sim.agents.exchange import MAX_REPLIES, REPLY_CHARS, REQUEST_CHARS

    assert (REQUEST_CHARS, REPLY_CHARS, MAX_REPLIES) == (64_000, 16_000, 4)
    rambling = "x" * 50_000
    with FakeLLMServer(default=rambling) as server:
        agent = make_agent(
            "openai",
            {"model": "m", "base_url": server.url + "/v1", "require_api_key": False, "reasks": 9},
        )
        agent.reset("g")
        tree = {
            "nodes": [
                {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "y" * 200_000}, "childIds": []}
            ]
        }
        agent.act({"url": "http://h/", "axtree_object": tree})
        assert len(server.requests) == 10
    ex = agent.last_exchange
    assert len(ex["replies"]) == 4 and ex["replies_not_recorded"] == 6
    assert all(len(r["text"]) < 16_100 for r in ex["replies"])
    assert len(json.dumps(ex["request"])) < 66_000
    assert len(json.dumps(ex)) < 150_000


def test_the_step_log_stores_images_sent_only_when_asked(tmp_path):
    class Asked:
        last_thought = "t"
        last_exchange = {
            "request": {"messages": []},
            "replies": [{"text": "a"}],
            "system": {"s1": "be brief"},
            "images": {"0123abcd.png": base64.b64encode(b"\x89PNG-bytes").decode()},
        }

        def usage(self):
            return {}

    for keep, expected in ((True, "exchanges/ep/0123abcd.png"), (False, None)):
        log = StepLog(tmp_path / str(keep), "ep", thumbnails=False, exchange_images=keep)
        log.before({"url": "http://h/"})
        entry = log.after(Asked(), "noop()", None, 0)
        assert entry["exchange"]["images"] == {"0123abcd.png": expected} and log.system_prompts == {"s1": "be brief"}
        assert (tmp_path / str(keep) / "exchanges/ep/0123abcd.png").is_file() is keep
        log.before({"url": "http://h/"})
        assert log.after(Asked(), "noop()", None, 1)["exchange"] is None  # the same exchange is not recorded twice
