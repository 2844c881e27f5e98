"""What the text backend reuses between steps, and that reusing changes nothing an agent or a
task sees (issue 22, point 3): the parsed page for the same HTML, the tree per page state, the
state check while the world's revision stands still."""

from __future__ import annotations

import socket

import gymnasium as gym
from browsergym.utils.obs import flatten_axtree_to_str

import openapps_sim  # noqa: F401 - registers the envs
from openapps_sim.envs.observe import testid_bids
from openapps_sim.envs.registration import make_env
from openapps_sim.envs.text.actions import TextBrowser
from openapps_sim.envs.text.axtree import build
from openapps_sim.envs.text.cascade import compute_styles
from openapps_sim.envs.text.dom import parse
from openapps_sim.envs.text.snapshot import dom_snapshot


def todo_env(seed: int = 0):
    env = gym.make("browsergym/openapps.todo.add_item", task_kwargs={"seed": seed}, backend="text")
    obs, _ = env.reset()
    obs, *_ = env.step(f"click('{testid_bids(obs)['launch-todo']}')")
    return env, obs


def fresh_observation(env) -> tuple[dict, dict]:
    """The page as a first load shows it: parsed and observed from nothing."""
    page = env.unwrapped.browser_tabs.page
    doc = parse(page._html, page.url)
    compute_styles(doc.root, doc.stylesheet, 1280, doc.focused)
    return build(doc), dom_snapshot(doc)


def test_the_same_page_loaded_again_is_the_page_as_loaded_not_as_left():
    env, obs = todo_env()
    try:
        ids = testid_bids(obs)
        obs, *_ = env.step(f"click('{ids['todo-filter-all']}')")  # the page the link opens
        obs, *_ = env.step(f"fill('{ids['todo-new-title']}', 'Buy oat milk')")
        assert "Buy oat milk" in flatten_axtree_to_str(obs["axtree_object"])
        doc = env.unwrapped.browser_tabs.page.doc
        obs, *_ = env.step(f"click('{ids['todo-filter-all']}')")  # a link to the page shown
        assert env.unwrapped.browser_tabs.page.doc is doc  # not parsed again ...
        assert "Buy oat milk" not in flatten_axtree_to_str(obs["axtree_object"])  # ... but as loaded
        axtree, snapshot = fresh_observation(env)
        assert obs["axtree_object"] == axtree and obs["dom_object"] == snapshot
        assert obs["focused_element_bid"] == ""
    finally:
        env.close()


def test_a_page_whose_attributes_an_action_changed_is_parsed_again():
    """An opened <details> changes an attribute, which restoring the live state cannot undo."""
    tabs = TextBrowser("http://127.0.0.1:9", {"width": 1280})  # no request is made
    page = tabs.page
    html = '<html><body><details bid="2"><summary bid="3">More</summary><p bid="4">Hidden</p></details></body></html>'
    page._show(html, "http://127.0.0.1:9/x")
    doc = page.doc
    tabs.activate(doc.by_bid["3"])
    assert doc.by_bid["2"].has("open")
    page._show(html, "http://127.0.0.1:9/x")
    assert page.doc is not doc and not page.doc.by_bid["2"].has("open")
    tabs.activate(page.doc.by_bid["3"])
    tabs.activate(page.doc.by_bid["3"])  # closed again: the page as parsed, kept
    kept = page.doc
    page._show(html, "http://127.0.0.1:9/x")
    assert page.doc is kept


def test_observations_are_new_objects_every_step():
    env, obs = todo_env()
    try:
        before = flatten_axtree_to_str(obs["axtree_object"])
        obs["axtree_object"]["nodes"].clear()  # an agent may change what it got
        obs["dom_object"]["strings"].clear()
        again, *_ = env.step("noop()")
        assert flatten_axtree_to_str(again["axtree_object"]) == before
        assert again["dom_object"]["strings"]
    finally:
        env.close()


def test_a_step_that_changes_nothing_copies_no_state_and_scores_the_same():
    env, obs = todo_env()
    task = env.unwrapped.task
    copies: list[int] = []
    world = task.live
    snapshot = world.snapshot

    def recording():
        got = snapshot()
        copies.append(got[0])
        return got

    world.snapshot = recording
    try:
        ids = testid_bids(obs)
        _, reward, terminated, _, info = env.step(f"fill('{ids['todo-new-title']}', 'x')")
        _, reward2, _, _, info2 = env.step(f"click('{ids['todo-filter-all']}')")
        assert copies == [] and reward == reward2 == 0 and not terminated
        assert info2["task_info"]["explanation"] == info["task_info"]["explanation"]
        goal_title = task.instance.params["title"]
        obs, *_ = env.step(f"fill('{ids['todo-new-title']}', {goal_title!r})")
        obs, reward, terminated, _, info = env.step(f"click('{testid_bids(obs)['todo-add']}')")
        assert len(copies) == 1 and reward == 1 and terminated
        assert info["task_info"]["milestones"] and all(v == v for v in info["task_info"]["milestones"].values())
    finally:
        del world.snapshot
        env.close()


class NoSocket(Exception):
    pass


def test_a_text_env_opens_no_socket(monkeypatch):
    """The text backend calls its world's pages in memory: making the env, its reset, a page
    load, a form post and the state check after it open no socket (the process's app server
    need not run at all)."""

    def refused(*args, **kwargs):
        raise NoSocket("a socket was opened")

    monkeypatch.setattr(socket, "socket", refused)
    monkeypatch.setattr(socket, "create_connection", refused)
    env = make_env("todo.add_item", backend="text", obs_mode="axtree")
    try:
        obs, info = env.reset(seed=1)
        obs, *_ = env.step(f"click('{testid_bids(obs)['launch-todo']}')")  # a page load
        ids = testid_bids(obs)
        obs, *_ = env.step(f"fill('{ids['todo-new-title']}', {info['task_info']['params']['title']!r})")
        obs, reward, terminated, *_ = env.step(f"click('{testid_bids(obs)['todo-add']}')")  # a form post
        assert reward == 1 and terminated
        assert env.unwrapped.world.url.startswith("http://w") and ":" not in env.unwrapped.world.url[5:]
    finally:
        env.close()


def test_an_env_given_its_action_mapping_makes_no_action_set(monkeypatch):
    """A sweep worker keeps one mapping per action space; a new env (one per task family) made
    with it builds no action set of its own (BrowserGym's takes about 60 ms)."""
    import openapps_sim.envs.env as env_module

    kept = env_module.action_mapping("bid")

    def refused(*args, **kwargs):
        raise AssertionError("an action set was made")

    monkeypatch.setattr(env_module, "action_mapping", refused)
    env = make_env("todo.add_item", backend="text", action_space="bid", action_mapping=kept)
    try:
        obs, _ = env.reset(seed=0)
        obs, *_ = env.step(f"click('{testid_bids(obs)['launch-todo']}')")
        assert obs["last_action_error"] == "" and "todo" in obs["url"]
    finally:
        env.close()
