"""What the LLM agents count and say back to the model: one table per point of issue 11.

Multi-action answers, re-asks, merged UI-TARS lines, model-space coordinates, prompt wording
per mode, tree shortening, token cost; with a browser: valid-step counts, exit codes and
partial records of `openapps run`, sweeps that stop on 401/404, tokens kept across a restart.
Every model here is the real HTTP server of tests/fake_llm_server.py on 127.0.0.1.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from openapps_sim.agents import make_agent
from openapps_sim.agents.http import LLMHTTPError, LLMResponseError, post_json
from openapps_sim.agents.prompts import system_prompt
from openapps_sim.agents.reply import parse_reply
from openapps_sim.agents.treetext import shorten_tree
from openapps_sim.agents.uitars import CoordFrame, parse_uitars

from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.actions import classify_action
from openapps_sim.errors import SweepStopped
from openapps_sim.sweeps.store import read_results

from .fake_llm_server import FakeLLMServer, PromptReader

SHOT = np.zeros((720, 1280, 3), dtype=np.uint8)


def openai(server, **options):
    config = {"model": "m", "base_url": server.url + "/v1", "require_api_key": False, "backoff": 0.0}
    return make_agent("openai", {**config, **options})


# -- several actions in one answer --------------------------------------------------------------

MULTI = [
    # (answer, max_actions, category of what the agent returns)
    ("<think>open it</think>\n<action>click('1')</action>", 1, "valid"),
    ("Thought: x\nAction: click('1')", 1, "valid"),
    ("Action: click('1')\nAction: click('2')", 1, "malformed"),
    ("<action>click('1')\nclick('2')</action>", 1, "malformed"),
    ("<action>click('1')</action><action>fill('2', 'a')</action>", 1, "malformed"),
    ("```python\nclick('1')\nfill('2', 'a')\n```", 1, "malformed"),
    ("click('1')\nclick('2')", 1, "malformed"),
    ("<action>click('1')\nfill('2', 'a')</action>", 2, "valid"),
    ("<action>click('1')\nfill('2', 'a')\nclick('1')</action>", 2, "malformed"),
    ("<action>click('1')\nfill('9', 'a')</action>", 2, "bad_arguments"),
]


@pytest.mark.parametrize("answer,max_actions,category", MULTI)
def test_several_actions_in_one_answer_are_malformed_unless_allowed(answer, max_actions, category):
    obs = {"url": "http://h/todo/", "extra_element_properties": {"1": {}, "2": {}}}
    with FakeLLMServer([answer]) as server:
        agent = openai(server, max_actions=max_actions)
        agent.reset("goal")
        action = agent.act(obs)
    check = classify_action(action, obs, "bid", max_actions=agent.max_actions)
    assert check.category == category, (action, check.message)
    step = agent.memory.last
    assert (step.error is None) == (category == "valid")
    n = len(parse_reply(answer).actions)
    assert ("held" in step.note) == (n > max_actions)


def test_an_answer_without_an_action_is_asked_again_without_spending_a_step():
    with FakeLLMServer(["I think I should look around.", "<think>ok</think><action>click('1')</action>"]) as server:
        agent = openai(server)
        agent.reset("goal")
        assert agent.act({"url": "http://h/"}) == "click('1')"
        usage = agent.usage()
        assert usage["requests"] == 2 and usage["reasks"] == 1 and len(agent.memory) == 1
        second = server.requests[1]["body"]["messages"]
        assert second[-2] == {"role": "assistant", "content": "I think I should look around."}
        assert "<action>" in second[-1]["content"] and second[-1]["role"] == "user"
    with FakeLLMServer(["still nothing", "nothing again"]) as server:  # re-asks exhausted: malformed
        agent = openai(server, reasks=1)
        agent.reset("goal")
        action = agent.act({"url": "http://h/"})
        assert classify_action(action, None, "bid").category == "malformed"
        assert agent.usage()["reasks"] == 1 and len(server.requests) == 2


# -- UI-TARS: one call per step -----------------------------------------------------------------

FRAME = CoordFrame((1280, 720), (1280, 720), "image")
UITARS_LINES = [
    # (answer, action, ignored calls)
    ("Action: click(start_box='(660,119)')\nclick(start_box='(10,10)')", "mouse_click(660, 119)", 1),
    ("Action: click(start_box='(660,119)')\n\nclick(start_box='(10,10)')", "mouse_click(660, 119)", 1),
    ("Action: type(content='a')\nhotkey(key='enter')\nclick(start_box='(1,1)')", "keyboard_type('a')", 2),
    ("Thought: t\nAction: click(start_box='<|box_start|>(100,200)<|box_end|>')", "mouse_click(100, 200)", 0),
    ("Action: drag(start_box='(1,2)',\n end_box='(3,4)')", "mouse_drag_and_drop(1, 2, 3, 4)", 0),
]


@pytest.mark.parametrize("answer,action,ignored", UITARS_LINES)
def test_uitars_never_merges_two_lines_into_one_click(answer, action, ignored):
    parsed = parse_uitars(answer, FRAME)
    assert parsed.action == action and len(parsed.extra) == ignored


def test_uitars_ignored_calls_are_told_to_the_model():
    answer = "Thought: go\nAction: click(start_box='(660,119)')\nclick(start_box='(10,10)')"
    with FakeLLMServer([answer, "Action: wait()"]) as server:
        agent = make_agent("uitars", {"model": "u", "base_url": server.url + "/v1", "coord_frame": "image"})
        agent.reset("goal")
        assert agent.act({"url": "http://h/", "screenshot": SHOT}) == "mouse_click(660, 119)"
        agent.act({"url": "http://h/", "screenshot": SHOT, "last_action_error": ""})
        told = json.dumps(server.requests[1]["body"]["messages"])
        assert "1 more in the answer were ignored" in told
        assert agent.usage()["extra_actions"] == 1


# -- model-space coordinates ----------------------------------------------------------------------


def test_history_and_errors_speak_the_models_image_pixels():
    obs = {"url": "http://h/", "screenshot": SHOT}
    answers = ["<action>mouse_click(700, 100)</action>", "<action>mouse_click(320, 180)</action>", "noop()"]
    with FakeLLMServer(answers) as server:
        agent = openai(server, obs_mode="screenshot", action_space="coord", screenshot_max_side=640)
        agent.reset("goal")
        outside = agent.act(obs)  # outside the 640x360 image the model sees
        assert agent.memory.last.error == "not run: point (700, 100) is outside the 640x360 screenshot"
        assert outside == "mouse_click(x=1400.0, y=200.0)"
        inside = agent.act({**obs, "last_action_error": "invalid action (bad_arguments): outside the viewport"})
        assert inside == "mouse_click(x=640.0, y=360.0)"  # page pixels for the browser
        browser_error = f"TimeoutError while running {inside}: element is not visible"
        agent.act({**obs, "last_action_error": browser_error})
        steps = agent.memory.steps
        assert steps[1].action == "mouse_click(320, 180)"
        assert steps[1].error == "TimeoutError while running mouse_click(320, 180): element is not visible"
        prompt = "\n".join(p["text"] for p in server.requests[2]["body"]["messages"][1]["content"] if "text" in p)
        assert "1400" not in prompt and "viewport" not in prompt and "1280x720" not in prompt
        assert "Action: mouse_click(700, 100)" in prompt and "outside the 640x360 screenshot" in prompt
        assert "the screenshot is 640x360" in server.requests[0]["body"]["messages"][0]["content"]


# -- prompt wording per mode -------------------------------------------------------------------------

MODES = [
    # (obs_mode, action_space, size, set_of_marks)
    ("axtree", "bid", (1280, 720), False),
    ("axtree", "coord", (1280, 720), False),
    ("axtree", "all", (1280, 720), False),
    ("screenshot", "coord", (640, 360), False),
    ("screenshot", "coord", (320, 180), False),
    ("screenshot", "all", (640, 360), True),
    ("both", "all", (800, 450), False),
]


@pytest.mark.parametrize("obs_mode,space,size,marks", MODES)
def test_every_prompt_example_is_valid_for_its_mode(obs_mode, space, size, marks):
    text = system_prompt(obs_mode, space, size, marks)
    examples = re.findall(r": ([a-z_]+\(.*\))$", text, re.M) + re.findall(r"<action>(.*)</action>", text)
    examples += (
        re.findall(r"numbers: ([a-z_]+\(.*?\)), ([a-z_]+\(.*?\))\.$", text, re.M)[0] if "numbers:" in text else []
    )
    assert len(examples) >= 8
    ids_shown = obs_mode != "screenshot" or marks
    for ex in examples:
        check = classify_action(ex, None, space, viewport=size)
        assert check.valid, (ex, check.message)
    if not ids_shown or space == "coord":
        assert "click('" not in text and "[12]" not in text.split("Actions")[1]
    if obs_mode == "axtree":
        assert "screenshot" not in text
    assert "{" not in text


def test_set_of_marks_draws_the_ids_on_the_image():
    from openapps_sim.agents.images import draw_marks

    obs = {
        "axtree_object": {
            "nodes": [
                {"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"]},
                {
                    "nodeId": "2",
                    "parentId": "1",
                    "role": {"value": "button"},
                    "name": {"value": "Add"},
                    "browsergym_id": "7",
                },
            ]
        },
        "extra_element_properties": {"7": {"bbox": [100, 100, 80, 30], "visibility": 1.0, "clickable": True}},
    }
    marked = np.asarray(draw_marks(SHOT, obs))
    assert marked[100, 140].any() and not marked[300, 300].any()


# -- tree shortening ---------------------------------------------------------------------------------


def _dense_tree(items: int) -> str:
    lines = ["RootWebArea 'Chat', focused", "\t[1] main ''", "\t\t[2] list ''"]
    for i in range(items):
        lines += [
            f"\t\t\t[{100 + i}] listitem ''",
            f"\t\t\t\tStaticText 'Message number {i} with a fairly long body of text to read'",
            f"\t\t\t\tStaticText '12:{i % 60:02d}'",
            f"\t\t\t\t[{1000 + i}] link 'Forward message number {i}', url='http://127.0.0.1:5000/messenger/forward/m{i}'",
        ]
    lines += ["\t\t[3] form ''", "\t\t\t[4] textbox 'Write a message…', required", "\t\t\t[5] button 'Send'"]
    return "\n".join(lines)


@pytest.mark.parametrize("items,limit", [(50, 6000), (200, 15000), (400, 20000)])
def test_shortening_keeps_every_control_and_says_what_it_dropped(items, limit):
    tree = _dense_tree(items)
    assert "[5] button 'Send'" not in tree[:limit]  # cutting at the limit loses the Send button
    out, note = shorten_tree(tree, limit)
    assert len(out) <= limit
    for bid in ["4", "5"] + [str(1000 + i) for i in range(items)]:
        assert f"[{bid}]" in out
    assert note.startswith("(shortened") and "dropped" in note


def test_shortening_drops_text_of_later_list_items_first():
    out, note = shorten_tree(_dense_tree(200), 30000)
    assert "Message number 0 with" in out and "Message number 9 with" in out  # the window keeps its text
    assert "Message number 150 with" not in out and "[1150] link" in out  # later items keep their controls
    assert "570 text lines of list items after the first 10" in note


def test_the_tree_is_not_touched_when_it_fits():
    assert shorten_tree(_dense_tree(3), 100000) == (_dense_tree(3), "")


# -- usage and cost --------------------------------------------------------------------------------


def test_token_cost_from_the_configs_price_table():
    with FakeLLMServer(["<action>noop()</action>"]) as server:
        agent = openai(server, prices={"prompt": 2.5, "completion": 10.0})
        agent.reset("goal")
        agent.act({"url": "http://h/"})
        u = agent.usage()
        assert u["cost_usd"] == round((u["prompt_tokens"] * 2.5 + u["completion_tokens"] * 10.0) / 1e6, 6) > 0
    from openapps_sim.errors import ConfigError

    with pytest.raises(ConfigError, match="prices.input.*allowed: prompt, completion"):
        make_agent("openai", {"model": "m", "require_api_key": False, "prices": {"input": 1}})


# -- the HTTP client ---------------------------------------------------------------------------------

CONTEXT_ERROR = "This model's maximum context length is 32768 tokens. However, you requested 40211 tokens."
HTTP_FAILURES = {
    # how the server fails once: (make it fail so, what happens with retries=1)
    "non-json 200": (lambda s: s.fail_next(200, body="<html>proxy error</html>"), "retried"),
    "truncated 200": (lambda s: s.truncate_next(), "retried"),
    "401": (lambda s: s.fail_next(401), "permanent"),
    "404": (lambda s: s.fail_next(404), "permanent"),
    "400 context": (lambda s: s.fail_next(400, body=json.dumps({"error": {"message": CONTEXT_ERROR}})), "permanent"),
    "400 other": (lambda s: s.fail_next(400), "not permanent"),
    "503": (lambda s: s.fail_next(503), "retried"),
}


@pytest.mark.parametrize("failure", HTTP_FAILURES)
def test_http_failures_table(failure):
    fail, outcome = HTTP_FAILURES[failure]
    with FakeLLMServer(["<action>noop()</action>"]) as server:
        fail(server)
        url = server.url + "/v1/chat/completions"
        if outcome == "retried":
            result = post_json(url, {"model": "m"}, {}, retries=1, backoff=0.0)
            assert result.attempts == 2 and result.data["choices"]
        else:
            with pytest.raises(LLMHTTPError) as e:
                post_json(url, {"model": "m"}, {}, retries=1, backoff=0.0)
            assert e.value.permanent == (outcome == "permanent") and len(server.requests) == 1


def test_a_bad_answer_with_no_retries_left_is_a_clear_error():
    with FakeLLMServer() as server:
        server.fail_next(200, body="not json")
        with pytest.raises(LLMResponseError, match="not JSON"):
            post_json(server.url + "/v1/chat/completions", {}, {}, retries=0, backoff=0.0)


def test_permanent_errors_survive_pickling():
    import pickle

    e = pickle.loads(pickle.dumps(LLMHTTPError("x answered HTTP 401: bad key", 401)))
    assert e.status == 401 and e.permanent and str(e) == "x answered HTTP 401: bad key"


# -- with the browser: runner, CLI and sweeps ----------------------------------------------------------


def _config(tmp_path, server, **extra) -> str:
    path = tmp_path / "agent.yaml"
    lines = {"agent": "openai", "model": "m", "base_url": server.url + "/v1", "require_api_key": False, "backoff": 0}
    lines.update(extra)
    path.write_text("\n".join(f"{k}: {json.dumps(v)}" for k, v in lines.items()) + "\n")
    return str(path)


@pytest.mark.browser
def test_run_counts_valid_steps_and_exits_3_with_a_partial_record(tmp_path):
    from openapps_sim.cli.main import main

    with FakeLLMServer(default=PromptReader(clumsy=True)) as server:
        out = tmp_path / "ok"
        code = main(["run", "--agent-config", _config(tmp_path, server), "--task", "todo.add_item", "--out", str(out)])
        rec = read_results(out / "results.jsonl")[-1]
        assert code == 0 and rec["success"]
        detail = rec["invalid_detail"]
        assert detail["total"] == rec["steps"] == 4 and detail["valid"] == 3 and detail["bad_arguments"] == 1
        assert rec["tokens"]["requests"] == 4

        # the model server breaks after two answers: exit code 3, the two steps are kept
        out = tmp_path / "broken"
        cfg = _config(tmp_path, server, retries=0)
        calls = []

        def after_two(body):
            calls.append(1)
            if len(calls) == 2:
                server.fail_next(500)  # the third request fails, and no retry is allowed
            return "<action>noop()</action>"

        server.default = after_two
        code = main(["run", "--agent-config", cfg, "--task", "todo.add_item", "--out", str(out)])
        rec = read_results(out / "results.jsonl")[-1]
        assert code == 3
        assert rec["error"].startswith("LLMHTTPError") and rec["steps"] == 2 and rec["tokens"]["requests"] == 2
        assert rec["invalid_detail"]["valid"] == 2


@pytest.mark.browser
def test_a_sweep_stops_at_the_first_401_or_unknown_model(tmp_path):
    from openapps_sim.cli.main import main
    from openapps_sim.sweeps.store import read_results

    for status, message in ((401, "Incorrect API key provided"), (404, "The model `m` does not exist")):
        with FakeLLMServer() as server:
            server.fail_next(status, times=50, body=json.dumps({"error": {"message": message}}))
            spec = tmp_path / f"s{status}.yaml"
            spec.write_text(
                f"name: s{status}\nagents:\n  - name: openai\n    config: {_config(tmp_path, server)}\n"
                "tasks: [todo.add_item, todo.remove_item]\nvariations: [default]\nseeds: [0, 1]\nworkers: 1\n"
            )
            out = tmp_path / f"run{status}"
            code = main(["sweep", str(spec), "--out", str(out), "--quiet", "--no-report"])
            assert code == 3
            assert len(server.requests) == 1  # not retried, not tried again for the next episodes
            assert read_results(out / "results.jsonl") == []


@pytest.mark.browser
def test_a_restarted_episode_keeps_the_tokens_of_its_first_attempt(tmp_path):
    from openapps_sim.sweeps.record import EpisodeSpec
    from openapps_sim.sweeps.runner import Worker, run_with_retry

    reader = PromptReader()
    calls = []

    def flaky(body):
        calls.append(1)
        if len(calls) == 2:  # the second request of the first attempt fails for good
            server.fail_next(500)
        return reader(body)

    with FakeLLMServer(default=flaky) as server:
        spec = EpisodeSpec(agent="openai", task="todo.add_item", agent_config=_config(tmp_path, server, retries=0))
        worker = Worker()
        try:
            result = run_with_retry(worker, spec, None, "r")
        finally:
            worker.close()
    rec = result.record
    assert rec["attempt"] == 2 and rec["success"] and rec["error"] is None
    # attempt 1: 2 answered requests (the third failed); attempt 2: one per step
    assert rec["tokens"]["requests"] == 2 + rec["steps"]
    with pytest.raises(SweepStopped):
        with FakeLLMServer() as server:
            server.fail_next(401, times=5)
            spec = EpisodeSpec(agent="openai", task="todo.add_item", agent_config=_config(tmp_path, server))
            worker = Worker()
            try:
                run_with_retry(worker, spec, None, "r")
            finally:
                worker.close()


def test_report_sums_tokens_and_cost_per_agent():
    import pandas as pd

    from openapps_sim.analysis.report.analysis import HEADLINE_HEADERS, headline_table
    from openapps_sim.sweeps.record import EpisodeSpec, new_record

    records = []
    for agent, cost in (("openai", 0.25), ("lexical", None)):
        for seed in (0, 1):
            rec = new_record(EpisodeSpec(agent=agent, task="todo.add_item", world=WorldSpec(seed=seed)), "r", 1)
            tokens = {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
            rec.update(success=seed == 0, reward=float(seed == 0), steps=3, goal="g", task_apps=["todo"])
            rec["tokens"] = {**tokens, "cost_usd": cost} if cost else ({} if agent == "lexical" else tokens)
            records.append(rec)
    table = headline_table(pd.DataFrame(records), n_boot=50)
    assert "Tokens (USD)" in HEADLINE_HEADERS
    line = next(ln for ln in table.splitlines() if ln.lstrip().startswith("openai"))
    assert "3,000 ($0.50)" in line


def test_system_prompt_inside_the_user_message_for_templates_without_a_system_role():
    with FakeLLMServer(["<action>noop()</action>"]) as server:
        agent = openai(server, system_as_user=True)
        agent.reset("goal")
        agent.act({"url": "http://h/"})
        messages = server.requests[0]["body"]["messages"]
        assert [m["role"] for m in messages] == ["user"]
        assert messages[0]["content"][0]["text"].startswith("You are an agent that uses a web browser")
