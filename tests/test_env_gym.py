"""Gymnasium, BrowserGym and AgentLab semantics (issue 10, points 5 and 6): seeds, ids in fresh
worker processes, the chat, refused options and the action timeout."""

from __future__ import annotations

import multiprocessing
from functools import partial

import gymnasium as gym
import pytest
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.env import BrowserEnv

import openapps_sim  # noqa: F401  (registers the ids)
from openapps_sim.config.catalog import drawn
from openapps_sim.envs.browser import patch_playwright
from openapps_sim.envs.env import GREETING
from openapps_sim.envs.observe import testid_bids
from openapps_sim.envs.task import OpenAppsTask
from openapps_sim.errors import ConfigError

pytestmark = pytest.mark.browser

ID = "browsergym/openapps.todo.add_item"


@pytest.fixture(scope="module")
def env():
    e = gym.make(ID, obs_mode="axtree")
    yield e
    e.close()


def test_reset_seeds_follow_gymnasium(env):
    assert gym.spec(ID).nondeterministic
    _, info = env.reset(seed=5)
    assert info["seed"] == 5
    drawn = [env.reset()[1]["seed"] for _ in range(3)]
    assert len(set(drawn)) == 3 and 5 not in drawn  # reset() draws new instances
    _, info = env.reset(seed=5)
    assert [env.reset()[1]["seed"] for _ in range(3)] == drawn  # reset(seed=N) reproduces the sequence
    obs7, info7 = env.reset(options={"task_kwargs": {"seed": 7}})  # docs/tasks.md shows this call
    assert info7["seed"] == 7
    assert env.reset(seed=7)[0]["goal"] == obs7["goal"]


def test_a_fresh_spawned_worker_makes_the_env_by_id():
    from tests.fresh_worker import make_reset_step

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        result = pool.apply(make_reset_step, ("openapps_sim:" + ID,))
    assert result["imported_before"] is False
    assert result["url"].startswith("http://") and result["goal"] and result["error"] == ""


def test_agentlab_env_args_work_in_a_fresh_spawned_worker(tmp_path):
    pytest.importorskip("browsergym.experiments")
    import pickle

    from openapps_sim.envs.agentlab import benchmark, env_args
    from tests.fresh_worker import agentlab_env_args

    assert len(benchmark(["todo.add_item", "start.navigate_to_app"], seeds=[0, 1]).env_args_list) == 4
    payload = pickle.dumps(env_args("todo.add_item", seed=4, variation="german"))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        result = pool.apply(agentlab_env_args, (payload, str(tmp_path)))
    assert result["imported_before"] is False
    assert "NameNotFound" in result["plain_error"]  # BrowserGym's own EnvArgs cannot find the id
    assert result["seed"] == 4 and result["goal"] and result["error"] == ""


def test_the_chat_starts_with_the_greeting_and_keeps_no_info_messages(env):
    obs, _ = env.reset(seed=1)
    assert [m["role"] for m in obs["chat_messages"]] == ["assistant", "user"]
    assert obs["chat_messages"][0]["message"] == GREETING
    env.unwrapped.chat.add_message("info", "the agent thinks ...")
    obs, reward, terminated, *_ = env.step("noop()")
    assert [m["role"] for m in obs["chat_messages"]] == ["assistant", "user"] and not terminated


def test_the_task_in_a_stock_browserenv_does_not_end_at_step_one():
    patch_playwright()
    stock = BrowserEnv(
        task_entrypoint=partial(OpenAppsTask, family="todo.add_item"),
        headless=True,
        action_mapping=HighLevelActionSet(subsets=["chat", "bid"], strict=False).to_python_code,
    )
    try:
        obs, _ = stock.reset(seed=1)
        assert obs["chat_messages"][0]["role"] == "assistant"  # stock greeting
        obs, reward, terminated, *_ = stock.step("noop()")
        assert not terminated and reward == 0
        obs, reward, terminated, *_ = stock.step("send_msg_to_user('done')")
        assert terminated and reward == 0  # declared done in the wrong state
    finally:
        stock.close()


@pytest.mark.parametrize("option", [{"wait_for_user_message": True}, {"record_video_dir": "videos"}])
def test_unsupported_browserenv_options_are_refused_at_construction(option):
    with pytest.raises(ConfigError) as err:
        gym.make(ID, **option)
    assert next(iter(option)) in str(err.value)


def test_raw_page_output_is_supported():
    raw = gym.make(ID, use_raw_page_output=True)
    try:
        obs, _ = raw.reset(seed=1)
        assert obs["page"] is raw.unwrapped.page and "axtree_object" not in obs
        obs, *_ = raw.step("noop()")
        assert obs["url"].startswith(raw.unwrapped.world.url)
    finally:
        raw.close()


def _open_todo(env):
    obs, info = env.reset(seed=1)
    obs, *_ = env.step(f"click('{testid_bids(obs)['launch-todo']}')")
    return obs


def test_the_action_timeout_never_rewrites_what_the_agent_types(env):
    obs = _open_todo(env)
    text = "ping at timeout=500) sharp"
    obs, *_ = env.step(f"fill('{testid_bids(obs)['todo-new-title']}', {text!r})")
    obs, *_ = env.step(f"click('{testid_bids(obs)['todo-add']}')")
    assert text in [i["title"] for i in drawn(env.unwrapped.world.snapshot()[1]["todo"])["items"]]


def test_the_action_timeout_survives_a_harness_mapping(env):
    env.unwrapped.action_mapping = HighLevelActionSet(subsets=["chat", "bid"], strict=False).to_python_code
    try:
        obs = _open_todo(env)
        bid = testid_bids(obs)["todo-add"]
        # The button appears 1.2 s after the action starts: BrowserGym's 500 ms would give up.
        env.unwrapped.page.evaluate(
            """bid => { const b = document.querySelector(`[bid="${bid}"]`); b.style.visibility = 'hidden';
                         setTimeout(() => { b.style.visibility = 'visible'; }, 1200); }""",
            bid,
        )
        obs, *_ = env.step(f"click('{bid}')")
        assert obs["last_action_error"] == ""
    finally:
        env.unwrapped.action_mapping = openapps_sim.envs.env.action_mapping("all")
