"""The browser stays inside the world (issue 10, point 4): only the episode's app origin is
reachable, and a navigation goal counts only there."""

from __future__ import annotations

import pytest

from openapps_sim.envs.observe import testid_bids
from openapps_sim.web.server import app_server

from .env_fixtures import module_env

pytestmark = pytest.mark.browser


env = module_env("browsergym/openapps.start.navigate_to_app", obs_mode="axtree")


@pytest.mark.parametrize(
    "url",
    [
        "data:text/html,a//{app}/",
        "file:///etc/passwd",
        "javascript:document.body.innerHTML='x'",
        "http://127.0.0.1:9/{app}/",
        "about:blank",
    ],
)
def test_leaving_the_world_is_a_failed_action_and_never_scores(env, url):
    obs, info = env.reset(seed=0)
    app = info["task_info"]["params"]["app"]
    start_url = obs["url"]
    obs, reward, terminated, truncated, step_info = env.step(f"goto({url.format(app=app)!r})")
    assert obs["last_action_error"].startswith("BlockedNavigation: navigation to")
    assert env.unwrapped.world.url in obs["last_action_error"]
    assert obs["url"] == start_url and reward == 0 and not terminated
    obs, reward, terminated, *_ = env.step(f"click({testid_bids(obs)[f'launch-{app}']!r})")
    assert reward == 1.0 and terminated  # the episode goes on and can still succeed


def test_another_world_of_the_same_server_and_a_new_tab_are_fenced_too(env):
    obs, info = env.reset(seed=0)
    app = info["task_info"]["params"]["app"]
    other = app_server().add()
    try:
        for url in (f"{other.url}/{app}/", f"http://127.0.0.1:{app_server().port}/{app}/"):
            obs, reward, *_ = env.step(f"goto({url!r})")
            assert "BlockedNavigation" in obs["last_action_error"] and reward == 0
        obs, *_ = env.step("new_tab()")
        obs, reward, *_ = env.step("goto('data:text/html,a//x/')")
        assert "BlockedNavigation" in obs["last_action_error"]
        # a link or script on the page cannot reach another origin either: the request is aborted
        page = env.unwrapped.page
        page.goto(env.unwrapped.world.url + "/")
        fetch = "url => fetch(url, {mode: 'no-cors'}).then(() => 'ok', e => String(e))"
        assert page.evaluate(fetch, env.unwrapped.world.url + "/todo/") == "ok"
        with page.expect_event("requestfailed") as failed:
            assert page.evaluate(fetch, other.url + "/todo/") != "ok"
        assert failed.value.failure.startswith("net::ERR_BLOCKED_BY_CLIENT")
    finally:
        app_server().drop(other)


def test_a_navigation_goal_is_met_only_on_the_worlds_origin(env):
    obs, info = env.reset(seed=0)
    app = info["task_info"]["params"]["app"]
    task = env.unwrapped.task
    assert not task.evaluate_now(None, f"data:text/html,a//{app}/").success
    assert not task.evaluate_now(None, f"http://127.0.0.1:1/{app}/").success
    assert task.evaluate_now(None, f"{env.unwrapped.world.url}/{app}/").success
