"""One environment, one world (issue 10, point 2): envs of one process never share state,
variation or event log, and an in-process vector env scores each world on its own."""

from __future__ import annotations

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401  (registers the ids)
from openapps_sim.envs.observe import testid_bids
from openapps_sim.web.server import app_server

pytestmark = pytest.mark.browser

ID = "browsergym/openapps.todo.add_item"


def _step(env, obs, action):
    return env.step(action.format(**testid_bids(obs)))


def test_two_envs_with_different_packs_in_one_process_differ():
    german = gym.make(ID, task_kwargs={"variation": "german"}, obs_mode="axtree")
    default = gym.make(ID, task_kwargs={"variation": "default"}, obs_mode="axtree")
    try:
        g_obs, _ = german.reset(seed=1)
        d_obs, _ = default.reset(seed=1)  # used to reset the shared world to `default`
        g_world, d_world = german.unwrapped.world, default.unwrapped.world
        assert g_world.url != d_world.url and g_obs["url"].startswith(g_world.url)
        assert g_world.config["todo"]["title"] != d_world.config["todo"]["title"]
        g_obs, *_ = _step(german, g_obs, "click('{launch-todo}')")
        g_text = german.unwrapped.page.inner_text("body")
        d_obs, *_ = _step(default, d_obs, "click('{launch-todo}')")
        d_text = default.unwrapped.page.inner_text("body")
        assert g_world.config["todo"]["title"] in g_text
        assert d_world.config["todo"]["title"] in d_text and g_world.config["todo"]["title"] not in d_text
        # A change in one world is not seen in the other, nor in its event log.
        _step(german, g_obs, "click('{todo-delete-t1}')")
        assert [e["op"] for e in g_world.events] and not d_world.events
        assert "todo-delete-t1" in testid_bids(default.step("noop()")[0])
        assert len(g_world.app_state("todo")["items"]) == len(d_world.app_state("todo")["items"]) - 1
        worlds = len(app_server().worlds)
    finally:
        german.close()
        default.close()
    assert len(app_server().worlds) == worlds - 2  # closing an env drops its world


def test_a_sync_vector_env_of_four_scores_each_world():
    vec = gym.vector.SyncVectorEnv([lambda: gym.make(ID, obs_mode="axtree") for _ in range(4)])
    try:
        obs, info = vec.reset(seed=[10, 11, 12, 13])
        titles = [str(t) for t in info["task_info"]["params"]["title"]]  # vector infos are merged by key
        assert len({env.world.url for env in (e.unwrapped for e in vec.envs)}) == 4

        def per_env(obs, i):
            return {key: value[i] for key, value in obs.items()}

        def actions(template_for):
            return [template_for(i).format(**testid_bids(per_env(obs, i))) for i in range(4)]

        obs, *_ = vec.step(actions(lambda i: "click('{launch-todo}')"))
        # envs 0-2 add their own goal's item; env 3 adds env 0's item: a wrong one
        wrong = [titles[0], titles[1], titles[2], titles[0]]
        obs, *_ = vec.step(actions(lambda i: "fill('{todo-new-title}', " + repr(wrong[i]) + ")"))
        obs, reward, terminated, truncated, info = vec.step(actions(lambda i: "click('{todo-add}')"))
        assert list(reward) == [1.0, 1.0, 1.0, 0.0]
        assert list(terminated) == [True, True, True, False]
    finally:
        vec.close()
