"""The LLM agents act through app tools: under the ``api`` interface their prompt lists the app
tools of the task's apps (and no page action) and shows the last tool's result; under ``mixed`` it has both.
A sweep with ``interface: [gui, api, mixed]`` then compares a GUI agent with a tool agent on the
same model — run here against a real HTTP server on 127.0.0.1 (tests/fake_llm_server.py) whose
stand-in model reads the tools and the results from the prompt (tests/fake_tool_model.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from openapps_sim.agents.prompts import BID_ACTIONS, system_prompt

from openapps_sim.envs.apptools import app_tools
from openapps_sim.envs.registration import make_env
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .fake_llm_server import FakeLLMServer
from .fake_tool_model import ToolReader

TOOLS = [f"{app}.{tool}(" for app, tools in app_tools().items() for tool in tools]


def test_the_api_prompt_lists_every_app_tool_and_no_page_action():
    api = system_prompt("axtree", "bid", interface="api")
    assert all(t in api for t in TOOLS)
    # a page action as a word of its own (an app tool such as clinic.refill( is not fill()
    assert not re.search(r"(?<![\w.])(click|fill|goto)\(", api), re.search(r"(?<![\w.])(click|fill|goto)\(", api)
    assert "send_msg_to_user(text)" in api and "report_infeasible(reason)" in api
    mixed = system_prompt("axtree", "bid", interface="mixed")
    assert all(t in mixed for t in TOOLS) and BID_ACTIONS in mixed
    assert "tool's result, as JSON" in mixed
    gui = system_prompt("axtree", "bid")
    assert not any(t in gui for t in TOOLS)
    for prompt in (api, mixed, gui):
        assert "{" not in prompt.replace("{'", "").split("App tools")[0]


def _agent_prompt(interface: str, task_info: dict | None) -> str:
    from openapps_sim.agents import make_agent

    agent = make_agent("openai", {"model": "m", "base_url": "http://127.0.0.1:9/v1", "require_api_key": False})
    agent.interface = interface  # as the runner sets it
    agent.reset("a goal", task_info)
    return agent.system_text()


@pytest.mark.parametrize("interface", ["api", "mixed"])
def test_the_prompt_lists_only_the_tools_of_the_tasks_apps(interface):
    """With 64 apps the prompt names the tools of the task's apps (``task_info["apps"]``), not
    all 657: a todo task's none of banking's, a cross-app task's both apps' and no third's."""
    env = make_env("todo.add_item", backend="text", obs_mode="axtree", interface=interface)
    try:
        _, todo = env.reset(seed=0)
        kwargs = {"family": "banking.transfer_then_message", "variation": "default"}
        _, cross = env.reset(seed=0, options={"task_kwargs": kwargs})
    finally:
        env.close()
    assert todo["task_info"]["apps"] == ["todo"] and cross["task_info"]["apps"] == ["banking", "messenger"]
    prompt = _agent_prompt(interface, todo["task_info"])
    assert "todo.add_item(title: str" in prompt and "todo.read()" in prompt
    assert "banking." not in prompt and "messenger.send_message(" not in prompt
    assert len(re.findall(r"^\w+\.\w+\(.*\) -- ", prompt, re.M)) == 6  # todo's 6 tools, read() among them
    prompt = _agent_prompt(interface, cross["task_info"])
    assert "banking.transfer(" in prompt and "messenger.send_message(" in prompt and "messenger.read()" in prompt
    assert "todo.add_item(title: str" not in prompt and "calendar." not in prompt and "hotels." not in prompt
    assert len(re.findall(r"^\w+\.\w+\(.*\) -- ", prompt, re.M)) == 13 + 3
    assert _agent_prompt(interface, None).count(") -- ") == 657  # no task: every app's tools


def test_an_agent_on_app_tools_is_handed_the_tasks_apps_and_never_its_parameters():
    """The runner's ``task_info_for``: the oracle gets all of ``task_info``; an agent that is not
    privileged only the task's apps, and only when it acts through app tools."""
    from openapps_sim.agent import Agent, task_info_for

    info = {"apps": ["banking", "messenger"], "params": {"parts": []}, "milestones": ["banking.transfer"]}
    oracle, llm = Agent(), Agent()
    oracle.privileged = True
    assert task_info_for(oracle, info) is info
    for interface, given in (
        ("gui", {}),
        ("api", {"apps": ["banking", "messenger"]}),
        ("mixed", {"apps": ["banking", "messenger"]}),
    ):
        llm.interface = interface
        assert task_info_for(llm, info) == given, interface
    assert task_info_for(llm, None) == {}


def spec_for(tmp_path: Path, url: str, **extra) -> Path:
    agent = {"name": "openai", "config": {"model": "tools", "base_url": url + "/v1", "require_api_key": False}}
    base = {"name": "t", "agents": [agent], "tasks": ["multi.todo_and_message"], "variations": ["default"], "seeds": 1}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(base | extra))
    return path


def test_a_spec_may_put_llm_agents_on_every_interface(tmp_path):
    spec = load_spec(spec_for(tmp_path, "http://127.0.0.1:9", interface=["gui", "api", "mixed"]))
    assert [e.interface for e in spec.episodes()] == ["gui", "api", "mixed"]


@pytest.mark.browser
def test_an_llm_agent_solves_tasks_through_app_tools_alone(tmp_path):
    """Todo item plus a message to a contact, with no page action: the contact's id is read
    from ``messenger.read()``'s result in the prompt. The same model under ``gui`` sees no tool
    and says it cannot do the task; the records keep the split."""
    model = ToolReader()
    with FakeLLMServer(default=model) as server:
        spec = load_spec(spec_for(tmp_path, server.url, interface=["api", "mixed", "gui"]))
        out = tmp_path / "out"
        run_sweep(spec, out, workers=1, progress=False)
    records = {r["interface"]: r for r in read_results(out / "results.jsonl")}
    for interface in ("api", "mixed"):
        r = records[interface]
        assert r["error"] is None and r["success"], (interface, r["actions"], r["state_diff"])
        assert [a.split("(")[0] for a in r["actions"]] == [
            "todo.add_item",
            "messenger.read",
            "messenger.send_message",
        ]  # the episode ends when the whole state is right
        assert not any(r["invalid"].values()), r["invalid"]
    assert not records["gui"]["success"] and records["gui"]["actions"][0].startswith("report_infeasible(")
    assert any(isinstance(res, dict) and "contacts" in res for res in model.results_seen)
    assert {len(t) for t in model.tools_seen} == {0, 6 + 3}  # none under gui, else todo's and messenger's
