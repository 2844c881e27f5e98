"""What the text backend reuses between steps, and that reusing changes nothing an agent or a
task sees (issue 22, point 3): the parsed page for the same HTML, the tree per page state, the
state check while the world's revision stands still."""

from __future__ import annotations

import gymnasium as gym
from browsergym.utils.obs import flatten_axtree_to_str

import openapps_sim  # noqa: F401 - registers the envs
from openapps_sim.envs.observe import testid_bids
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


def test_a_step_that_changes_nothing_transfers_no_state_and_scores_the_same():
    env, obs = todo_env()
    task = env.unwrapped.task
    transfers: list[bool] = []
    world = task.server
    unless = world.state_unless

    def recording(revision):
        got = unless(revision)
        transfers.append(got[1] is not None)
        return got

    world.state_unless = recording
    try:
        ids = testid_bids(obs)
        _, reward, terminated, _, info = env.step(f"fill('{ids['todo-new-title']}', 'x')")
        _, reward2, _, _, info2 = env.step(f"click('{ids['todo-filter-all']}')")
        assert transfers == [False, False] and reward == reward2 == 0 and not terminated
        assert info2["task_info"]["explanation"] == info["task_info"]["explanation"]
        goal_title = task.instance.params["title"]
        obs, *_ = env.step(f"fill('{ids['todo-new-title']}', {goal_title!r})")
        obs, reward, terminated, _, info = env.step(f"click('{testid_bids(obs)['todo-add']}')")
        assert transfers[-1] is True and reward == 1 and terminated
        assert info["task_info"]["milestones"] and all(v == v for v in info["task_info"]["milestones"].values())
    finally:
        world.state_unless = unless
        env.close()


def test_a_text_step_that_reaches_no_server_asks_the_admin_api_nothing():
    """The text env is its world's only client: the revision of the last response is the
    world's, so a noop or a fill is checked without a request; a page load is checked with
    the revision its response carried, and a form that changes the state is checked anew."""
    env, obs = todo_env()
    server = env.unwrapped.task.server.server
    calls: list[str] = []
    admin_call = server.admin_call

    def recording(method, path, body=None):
        calls.append(f"{method} {path.split('?')[0]}")
        return admin_call(method, path, body)

    server.admin_call = recording
    try:
        ids = testid_bids(obs)
        env.step("noop()")
        env.step(f"fill('{ids['todo-new-title']}', 'x')")
        env.step(f"click('{ids['todo-filter-all']}')")
        assert calls == []
        obs, reward, *_ = env.step(f"click('{ids['todo-add']}')")  # adds 'x': the state moved
        assert calls == ["GET /_admin/state", "GET /_admin/events"] and reward == 0
    finally:
        server.admin_call = admin_call
        env.close()
