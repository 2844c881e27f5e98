"""Agents: configs and registry, the HTTP client, and end-to-end episodes through the real env.

The LLM agents talk to a real local HTTP server (tests/fake_llm_server.py) whose answers are
computed from the request: the reply functions read the accessibility tree text (or decode
the screenshot) that the agent sent, which proves that requests carry the observation.
"""

from __future__ import annotations

import io
import socket

import numpy as np
import pytest
from openapps_sim.agents import config_names, describe_agent, load_agent_config, make_agent
from openapps_sim.agents.http import LLMHTTPError, LLMUnreachable, post_json
from openapps_sim.agents.lexical import detect_verb, extract_dates_times, extract_quotes
from openapps_sim.agents.lexical_fields import goal_pairs
from openapps_sim.agents.llm import AnthropicAgent, OpenAIAgent

from openapps_sim.agent import Agent, registered_agents
from openapps_sim.envs.actions import InvalidActionCounter, classify_action
from openapps_sim.errors import ConfigError, OpenAppsError

from .fake_llm_server import FakeLLMServer, PromptReader, UITarsReader, request_images, request_texts


class EchoAgent(Agent):
    """A researcher's agent, plugged in by import path."""

    def __init__(self, word: str = "done", times: int = 1) -> None:
        self.word = word

    def reset(self, goal, task_info=None, seed=0):
        pass

    def act(self, obs):
        return f"send_msg_to_user({self.word!r})"


# -- configs and registry (no browser) ------------------------------------------------------------


def test_registry_and_builtin_configs(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    for name in ("oracle", "random", "lexical", "openai", "anthropic", "uitars"):
        assert name in registered_agents()
        assert describe_agent(name)["class"]
    names = config_names()
    for expected in ("gpt-4o", "claude-sonnet", "vllm-qwen2.5-vl", "uitars-vllm"):
        assert expected in names
    for name in names:
        config = load_agent_config(name)
        agent = make_agent(None, config)
        assert agent.obs_mode in ("axtree", "screenshot", "both")
        assert agent.action_space in ("bid", "coord", "all")
    uitars = make_agent("uitars", load_agent_config("uitars-vllm"))
    assert (uitars.obs_mode, uitars.action_space) == ("screenshot", "coord")
    assert make_agent("openai", "gpt-4o", {"temperature": 0.7}).options["temperature"] == 0.7


def test_unknown_key_names_file_key_and_allowed(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("agent: openai\nmodel: m\nbase_url: http://x/v1\ntemprature: 0.2\n")
    with pytest.raises(ConfigError) as e:
        load_agent_config(str(path))
    err = e.value
    assert err.source == str(path) and err.path == "temprature"
    assert "temperature" in err.allowed and "model" in err.allowed
    with pytest.raises(ConfigError) as e:
        make_agent("lexical", {"max_app": 3}, "cli.yaml")
    assert "cli.yaml: max_app" in str(e.value) and "max_apps" in str(e.value)
    with pytest.raises(ConfigError, match="obs_mode: unknown value 'pixels'; allowed: axtree, screenshot, both"):
        make_agent("openai", {"model": "m", "require_api_key": False, "obs_mode": "pixels"})
    with pytest.raises(ConfigError, match="no such agent config"):
        load_agent_config("no-such-config")
    with pytest.raises(ConfigError, match="for agent 'openai'"):
        make_agent("anthropic", {"agent": "openai", "model": "m"})


def test_plug_in_agent_by_import_path():
    agent = make_agent("tests.test_agents:EchoAgent", {"word": "hello"})
    agent.reset("goal")
    assert agent.act({}) == "send_msg_to_user('hello')"
    with pytest.raises(ConfigError, match="unknown option"):
        make_agent("tests.test_agents:EchoAgent", {"wrod": "x"})
    with pytest.raises(ConfigError, match="cannot import"):
        make_agent("nowhere.module:Agent")


def test_missing_key_gives_a_clear_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError) as e:
        make_agent("openai", {"model": "gpt-4o"}, "gpt.yaml")
    assert "OPENAI_API_KEY" in str(e.value) and "require_api_key: false" in str(e.value)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        make_agent("anthropic", {"model": "claude"})
    # a local server needs no key
    agent = make_agent("openai", {"model": "m", "base_url": "http://127.0.0.1:9/v1", "require_api_key": False})
    assert agent.api_key == ""
    with pytest.raises(ConfigError, match="screenshot-only"):
        make_agent("openai", {"model": "m", "require_api_key": False, "obs_mode": "screenshot"})


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_unreachable_server_names_the_url():
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    agent = OpenAIAgent(model="m", base_url=url, require_api_key=False, retries=2, backoff=0.0)
    agent.reset("Add 'milk'.")
    with pytest.raises(LLMUnreachable) as e:
        agent.act({"url": "http://x/", "axtree_object": {"nodes": []}})
    assert f"{url}/chat/completions" in str(e.value)
    assert isinstance(e.value, OpenAppsError)


def test_retries_on_500_and_429_then_success():
    with FakeLLMServer(["Action: noop()"]) as server:
        server.fail_next(500)
        server.fail_next(429, headers={"Retry-After": "0"})
        agent = OpenAIAgent(model="m", base_url=server.url + "/v1", require_api_key=False, retries=3, backoff=0.0)
        agent.reset("goal")
        assert agent.act({"url": "http://x/"}) == "noop()"
        assert len(server.requests) == 3
        usage = agent.usage()
        assert usage["requests"] == 1 and usage["retries"] == 2
        assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
        # no retries left: the error names the URL and the status
        server.fail_next(503, times=2)
        agent = OpenAIAgent(model="m", base_url=server.url + "/v1", require_api_key=False, retries=1, backoff=0.0)
        agent.reset("goal")
        with pytest.raises(LLMHTTPError, match=r"/v1/chat/completions answered HTTP 503 after 2 attempts"):
            agent.act({"url": "http://x/"})
        # a client error is not retried
        server.fail_next(401, body='{"error": {"message": "bad key"}}')
        n = len(server.requests)
        with pytest.raises(LLMHTTPError, match="HTTP 401: bad key"):
            post_json(server.url + "/v1/chat/completions", {"model": "m"}, {}, retries=3, backoff=0.0)
        assert len(server.requests) == n + 1


def test_time_out_is_retried(monkeypatch):
    sleeps = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # accepts connections but never answers
    try:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1/chat/completions"
        with pytest.raises(OpenAppsError, match="did not answer within 0.2 s"):
            post_json(url, {}, {}, timeout=0.2, retries=2, backoff=0.5, sleep=sleeps.append)
        assert sleeps == [0.5, 1.0]
    finally:
        listener.close()


def test_headers_and_request_shape(monkeypatch):
    monkeypatch.setenv("MY_KEY", "secret-1")
    with FakeLLMServer(["Action: noop()", "Action: noop()"]) as server:
        a = OpenAIAgent(model="gpt-x", base_url=server.url + "/v1", api_key_env="MY_KEY", history=2, temperature=0.3)
        a.reset("Add 'milk' to my todo list.")
        a.act({"url": "http://x/todo/"})
        req = server.requests[-1]
        assert req["path"] == "/v1/chat/completions"
        assert req["headers"]["authorization"] == "Bearer secret-1"
        assert req["body"]["model"] == "gpt-x" and req["body"]["temperature"] == 0.3
        assert req["body"]["messages"][0]["role"] == "system"
        b = AnthropicAgent(model="claude-x", base_url=server.url, api_key_env="MY_KEY", max_tokens=77)
        b.reset("goal")
        b.act({"url": "http://x/"})
        req = server.requests[-1]
        assert req["path"] == "/v1/messages"
        assert req["headers"]["x-api-key"] == "secret-1"
        assert req["headers"]["anthropic-version"] == "2023-06-01"
        assert req["body"]["max_tokens"] == 77 and "Rules:" in req["body"]["system"]


def test_goal_analysis():
    quotes, masked = extract_quotes("It's raining. Could you add 'Fix the leaking tap' to Tom's list?")
    assert quotes == ["Fix the leaking tap"]
    assert extract_quotes('change "A b" to “C d”')[0] == ["A b", "C d"]
    assert detect_verb(extract_quotes("Mark 'X' as not done.")[1]) == "undone"
    assert detect_verb(extract_quotes("Set the todo 'X' to done.")[1]) == "done"
    assert detect_verb(extract_quotes("pls get rid of 'X' in my calendar")[1]) == "delete"
    assert detect_verb("Clear all completed items from my todo list.", 0) == "clear"
    assert detect_verb(extract_quotes("can you change 'A' to 'B'")[1], 2) == "edit"
    assert extract_dates_times("on Saturday, March 21, 2026, 6:30 pm") == ["2026-03-21", "18:30"]
    assert extract_dates_times("Copy it from 2026-07-04 to 2026-06-08") == ["2026-06-08"]


def test_goal_pairs_read_unquoted_values_after_the_labels_the_page_shows():
    goal = "Open Ledger Bank, choose 'Send money', enter Account Travel Card, Payee Green Basket · Old Town, Amount €30.08 and confirm."
    labels = ["Account", "Payee", "Amount", "Note"]
    assert goal_pairs(goal, labels, "Ledger Bank") == {
        "Account": "Travel Card",
        "Payee": "Green Basket · Old Town",
        "Amount": "€30.08",
    }
    goal = "Could you run 'Send money' in Ledger Bank for me (Account Rainy Day Savings, Amount €45.10) and confirm?"
    assert goal_pairs(goal, labels) == {"Account": "Rainy Day Savings", "Amount": "€45.10"}
    goal = "In Medina Clinic, please use 'Book appointment' with Doctor Dr. Lucas Haddad, Reason Flu symptoms, Date 2026-12-18 and confirm it."
    assert goal_pairs(goal, ["Doctor", "Reason", "Date", "Time"]) == {
        "Doctor": "Dr. Lucas Haddad",  # "Dr." ends no sentence
        "Reason": "Flu symptoms",
        "Date": "2026-12-18",
    }
    assert goal_pairs(
        "Set the Servings of 'Spinach & Feta Minestrone' (recipes, Pantry & Pan) to 8.", ["Servings"]
    ) == {"Servings": "8"}
    assert goal_pairs("can you make the Servings of 'Ginger & Sesame Gyoza' 1?", ["Servings"]) == {"Servings": "1"}
    assert goal_pairs(
        "pls change 'Interim service' in Garage Log so its Cost is €122.50", ["Cost", "Garage"], "Garage Log"
    ) == {
        "Cost": "€122.50"  # the label 'Garage' inside the app's name is none
    }
    assert goal_pairs("In Streaks, set 'Paused' of 'Late-night tidy-up' in habits to On.", ["Paused"]) == {
        "Paused": "On"
    }
    assert goal_pairs("pls set In stock of 'Recycled cookies (12)' to 33 in Stockroom", ["In stock"], "Stockroom") == {
        "In stock": "33"
    }
    assert goal_pairs("hey, can you set 'Paused' to On for 'Read before bed' in Streaks?", ["Paused"]) == {
        "Paused": "On"
    }
    assert goal_pairs("change the Note of 'Aisha – draft' in notes to Ref 9133.", ["Note"]) == {"Note": "Ref 9133"}
    # a label inside a quoted name, a lower-case word, and a lookup without a value give nothing
    assert goal_pairs("Remove 'Date night' and check the date.", ["Date"]) == {}
    assert (
        goal_pairs("Look up the Type of 'Casa Olivia' in Harbour Stays and tell me.", ["Type"], "Harbour Stays") == {}
    )


LEXICAL_DESCRIBED_CASES = [
    ("clinic.book", 0),  # a flow: open the doctor, 'Book appointment', fill, Review, Confirm
    ("banking.transfer", 0),  # the flow starts from the account the goal names
    ("flashcards.create_card", 0),  # + New, two text fields and a drop-down
    ("recipes.edit_recipe", 0),  # the record's edit link, a number field
    ("habits.toggle_habit_paused", 0),  # a 'Paused: Off' button
    ("stockroom.change_stock_item_stock", 0),  # '+ In stock' until the number is the goal's
    ("budget.delete_goal", 0),  # what it typed into the search box is not the item found
]


@pytest.mark.parametrize("family,seed", LEXICAL_DESCRIBED_CASES)
def test_lexical_agent_fills_described_apps_forms_from_the_goals_label_value_pairs(family, seed):
    from openapps_sim.envs.registration import make_env

    text_env = make_env(family, backend="text", obs_mode="axtree")
    try:
        agent = make_agent("lexical")
        reward, actions, counter, obs = run_episode(text_env, agent, family=family, seed=seed)
    finally:
        text_env.close()
    assert reward == 1.0, (obs["goal"], agent.trace)
    assert counter.summary()["unknown_action"] == counter.summary()["malformed"] == 0


# -- through the real environment -----------------------------------------------------------------


@pytest.fixture(scope="module")
def env():
    from openapps_sim.envs.registration import make_env

    e = make_env("todo.add_item", task_kwargs={"variation": "default", "seed": 0}, obs_mode="both", action_space="all")
    yield e
    e.close()


def run_episode(
    env, agent, family="todo.add_item", variation="default", seed=0, obs_mode="axtree", on_obs=None, max_steps=None
):
    obs, info = env.reset(
        seed=seed, options={"task_kwargs": {"family": family, "variation": variation}, "obs_mode": obs_mode}
    )
    agent.reset(obs["goal"], {}, seed=seed)
    counter = InvalidActionCounter()
    actions, reward = [], 0.0
    for _ in range(max_steps or info["task_info"]["max_steps"]):
        if on_obs:
            on_obs(obs)
        action = agent.act(obs)
        actions.append(action)
        check = classify_action(action, obs, agent.action_space)
        obs, reward, terminated, truncated, step_info = env.step(action)
        counter.record(check, obs["last_action_error"])
        if terminated or truncated:
            break
    return reward, actions, counter, obs


READING_CASES = [
    ("openai", "todo.add_item", 0, "axtree"),
    ("anthropic", "todo.add_item", 1, "both"),
    ("openai", "multi.todo_and_message", 0, "axtree"),
    ("anthropic", "multi.todo_and_message", 2, "axtree"),
]


@pytest.mark.browser
@pytest.mark.parametrize("agent_name,family,seed,obs_mode", READING_CASES)
def test_llm_agents_solve_tasks_for_a_model_that_reads_the_prompt(env, agent_name, family, seed, obs_mode):
    """The stand-in model reads the goal, the bids, its own earlier thoughts and the last error
    from the prompt (tests/fake_llm_server.py:PromptReader); it makes one mistake first and
    goes on only when the prompt reports that mistake's error."""
    model = PromptReader(clumsy=True)
    with FakeLLMServer(default=model) as server:
        base = server.url + ("/v1" if agent_name == "openai" else "")
        config = {"model": "reader", "base_url": base, "require_api_key": False, "obs_mode": obs_mode}
        agent = make_agent(agent_name, config)
        reward, actions, counter, obs = run_episode(env, agent, family=family, seed=seed, obs_mode=obs_mode)
        assert reward == 1.0, (obs["goal"], actions)
        summary = counter.summary()
        assert summary["bad_arguments"] == 1 and summary["malformed"] == 0, summary  # the one mistake
        assert actions[0] == "click('999999')"
        # what the model read: the goal, its own thoughts, pages and the error of its mistake
        assert model.prompts[0].goal == obs["goal"]
        later = model.prompts[-1]
        assert "no element with bid '999999'" in later.steps[0]["result"]
        assert all(s["thought"].startswith("progress:") for s in later.steps)
        assert model.prompts[1].last_error.startswith("not run: no element with bid")
        expected_path = "/v1/chat/completions" if agent_name == "openai" else "/v1/messages"
        assert {r["path"] for r in server.requests} == {expected_path}
        images = [request_images(r["body"]) for r in server.requests]
        assert all(len(i) == (1 if obs_mode == "both" else 0) for i in images)
        usage = agent.usage()
        assert usage["requests"] == len(actions) and usage["reasks"] == 0 and usage["total_tokens"] > 0


def _center(obs: dict, testid: str) -> tuple[int, int]:
    from openapps_sim.envs.observe import testid_bids

    x, y, w, h = obs["extra_element_properties"][testid_bids(obs)[testid]]["bbox"]
    return round(x + w / 2), round(y + h / 2)


def _decode(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


@pytest.mark.browser
def test_openai_vision_agent_solves_add_item_with_coordinates(env):
    """Screenshot only: the reply checks that the image sent is the page's screenshot and
    answers with coordinates of the element it needs (read from the env's own observation)."""
    state = {"obs": None}

    def reply(body):
        obs = state["obs"]
        images = request_images(body)
        assert len(images) == 1
        assert np.array_equal(_decode(images[0]), obs["screenshot"])  # the observation itself
        text = "\n".join(request_texts(body))
        assert "accessibility tree" not in text.split("Current page:")[1]
        history = text.split("Previous steps")[1].split("Current page")[0]
        if obs["url"].rstrip("/").count("/") == 2:
            return "Action: mouse_click({}, {})".format(*_center(obs, "launch-todo"))
        if "keyboard_type" in history:
            return "Action: mouse_click({}, {})".format(*_center(obs, "todo-add"))
        if history.count("mouse_click") == 2:
            title = extract_quotes(obs["goal"])[0][0]
            return f"Action: keyboard_type({title!r})"
        return "Action: mouse_click({}, {})".format(*_center(obs, "todo-new-title"))

    with FakeLLMServer(default=reply) as server:
        agent = make_agent(
            "openai",
            {
                "model": "fake-vision",
                "base_url": server.url + "/v1",
                "require_api_key": False,
                "obs_mode": "screenshot",
                "action_space": "coord",
            },
        )
        reward, actions, counter, _ = run_episode(
            env, agent, seed=2, obs_mode="both", on_obs=lambda o: state.__setitem__("obs", o)
        )
        assert reward == 1.0, actions
        # Launcher, title field, type, "Add": the step that submits the form scores it (the
        # reward used to lag one step behind a coordinate click on a loaded machine, and the
        # model clicked "Add" twice; tests/test_env_settle.py).
        assert [a.split("(")[0] for a in actions] == ["mouse_click", "mouse_click", "keyboard_type", "mouse_click"], (
            actions
        )


def _eyes(state: dict):
    """What a vision model would locate on the current screen, as fractions of the page."""

    def look() -> dict:
        from openapps_sim.envs.observe import testid_bids

        obs = state["obs"]
        h, w = obs["screenshot"].shape[:2]
        return {t: (c[0] / w, c[1] / h) for t in testid_bids(obs) for c in [_center(obs, t)]}

    return look


@pytest.mark.browser
@pytest.mark.parametrize("max_side", [None, 640])
def test_uitars_agent_solves_add_item_at_two_screenshot_sizes(env, max_side):
    """UI-TARS-1.5 style answers in the smart-resized frame of the image actually sent; the
    first answer clicks outside the image and the error must come back in the model's frame."""
    state = {"obs": None}
    model = UITarsReader(_eyes(state))
    with FakeLLMServer(default=model) as server:
        config = {"model": "ui-tars", "base_url": server.url + "/v1", "screenshot_max_side": max_side}
        agent = make_agent("uitars", config)
        reward, actions, counter, _ = run_episode(
            env, agent, seed=3, obs_mode="both", on_obs=lambda o: state.__setitem__("obs", o)
        )
        assert reward == 1.0, (actions, model.errors)
        assert counter.summary()["bad_arguments"] == 1
        assert actions[-1].startswith("keyboard_type(") and actions[-1].endswith("\\n')")
        assert "GUI agent" in request_texts(server.requests[0]["body"])[0]
        assert set(model.frames) == {(1288, 728) if max_side is None else (644, 364)}


LEXICAL_CASES = [
    ("todo.add_item", 0),
    ("todo.remove_item", 0),
    ("todo.mark_done", 0),
    ("todo.edit_item", 0),
    ("messenger.send_message", 0),
    ("calendar.add_event", 0),
]


@pytest.mark.browser
@pytest.mark.parametrize("family,seed", LEXICAL_CASES)
def test_lexical_agent_solves_english_default_tasks(env, family, seed):
    from openapps_sim.taskkit import all_families

    assert family in all_families(), f"{family} is not defined: LEXICAL_CASES names a family that is gone"
    agent = make_agent("lexical")
    reward, actions, counter, obs = run_episode(env, agent, family=family, seed=seed)
    assert reward == 1.0, (obs["goal"], agent.trace)
    assert counter.summary()["unknown_action"] == counter.summary()["malformed"] == 0


@pytest.mark.browser
def test_lexical_agent_stops_when_nothing_is_left(env):
    agent = make_agent("lexical")
    obs, info = env.reset(
        seed=0, options={"task_kwargs": {"family": "todo.add_item", "variation": "default"}, "obs_mode": "axtree"}
    )
    agent.reset("Please do something vague with nothing in particular.", {}, 0)
    actions = [agent.act(obs)]
    for _ in range(6):
        obs, *_ = env.step(actions[-1])
        actions.append(agent.act(obs))
        if actions[-1].startswith("send_msg_to_user"):
            break
    assert actions[-1] == "send_msg_to_user('done')"
    assert agent.act(obs) == "noop()"


@pytest.mark.browser
def test_random_agent_is_reproducible(env):
    runs = []
    for _ in range(2):
        agent = make_agent("random")
        _, actions, counter, _ = run_episode(env, agent, family="todo.add_item", seed=5, max_steps=5)
        runs.append(actions)
        assert counter.summary()["malformed"] == counter.summary()["unknown_action"] == 0
    assert runs[0] == runs[1] and len(runs[0]) >= 3
    other = make_agent("random")
    _, actions, _, _ = run_episode(env, other, family="todo.add_item", seed=6, max_steps=5)
    assert actions != runs[0]


def test_docs_show_the_prompts_verbatim():
    from pathlib import Path

    from openapps_sim.agents.prompts import (
        OBSERVATION_TEXT,
        SYSTEM_PROMPT,
        SYSTEM_PROMPT_API,
        TOOL_QUOTING,
        UITARS_PROMPT,
        action_help,
    )

    docs = (Path(__file__).resolve().parent.parent / "docs" / "agents.md").read_text(encoding="utf-8")
    assert SYSTEM_PROMPT in docs and SYSTEM_PROMPT_API in docs
    assert " ".join(TOOL_QUOTING.split()) in " ".join(docs.split())
    assert UITARS_PROMPT in docs
    for text in OBSERVATION_TEXT.values():
        assert f"`{text}`" in docs
    for space in ("bid", "coord"):
        assert action_help(space) in docs


def test_describe_agent_config_for_manifests():
    from openapps_sim.agents import describe_agent_config

    d = describe_agent_config("openai", "vllm-qwen2.5-vl")
    assert d["config_source"].endswith("vllm-qwen2.5-vl.yaml")
    assert d["options"]["model"] == "Qwen/Qwen2.5-VL-7B-Instruct" and d["options"]["temperature"] == 0.0
    assert d["options"]["max_tokens_param"] == "max_tokens"
    d = describe_agent_config("openai", {"model": "m", "extra_headers": {"X-Api-Key": "s3cret", "Org": "o"}})
    assert d["options"]["extra_headers"] == {"X-Api-Key": "***", "Org": "o"}
    assert describe_agent_config("lexical")["options"] == {"max_apps": 2, "stop_message": "done"}
    assert describe_agent_config("oracle")["options"] == {}


def test_an_agent_is_added_by_adding_a_file(tmp_path, monkeypatch):
    """No list in the engine names the agents: a module dropped into the agents package is found,
    and a sampling agent is told apart by its class, not by its name."""
    import openapps_sim.agents as agents_pkg

    from openapps_sim.agent import load_agent_class
    from openapps_sim.sweeps.spec import load_spec

    (tmp_path / "my_sampler.py").write_text(
        "from openapps_sim.agent import Agent\n\n\nclass MySampler(Agent):\n    name = 'my_sampler'\n    samples = True\n"
    )
    monkeypatch.setattr(agents_pkg, "__path__", [*agents_pkg.__path__, str(tmp_path)])
    registered_agents.cache_clear()
    try:
        assert registered_agents()["my_sampler"] == "openapps_sim.agents.my_sampler:MySampler"
        assert load_agent_class("my_sampler").samples and not load_agent_class("lexical").samples
        spec_file = tmp_path / "s.yaml"
        spec_file.write_text(
            "name: t\nagents: [my_sampler, lexical]\ntasks: [todo.add_item]\nvariations: [default]\nseeds: 1\n"
            "temperatures: [0.0, 0.7]\n"
        )
        episodes = load_spec(spec_file).episodes()
        # the temperature axis multiplies the sampling agent only
        assert sum(e.agent == "my_sampler" for e in episodes) == 2 and sum(e.agent == "lexical" for e in episodes) == 1
    finally:
        registered_agents.cache_clear()
