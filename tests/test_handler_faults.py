"""A crashed or hung app handler is an error of that step, not a hung env (issue 39).

A route handler or app tool that loops forever is stopped after the handler time
(``OPENAPPS_HANDLER_TIMEOUT_S``, here 0.5 s): the step that asked for it ends with
``last_action_error`` naming the route or tool, the page is the 500 page, and the env goes on
(its next steps work, its next reset restores the world). One that raises is the same step's
error. Every env call here runs in a thread joined with a limit, so that a version that hangs
fails in seconds instead of hanging the run (its looping thread is a daemon)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from openapps_sim.envs.observe import testid_bids
from openapps_sim.envs.registration import make_env
from openapps_sim.web.world import World

LIMIT_S = 8.0  # the handler time is 0.5 s; a hung call never returns


def within(fn, *args):
    """``fn(*args)``, run in a thread given LIMIT_S: fails (never waits longer) if it hangs."""
    box: dict = {}

    def run():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # handed to the test
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(LIMIT_S)
    assert not thread.is_alive(), f"{fn.__name__} did not return within {LIMIT_S} s: the env hangs"
    if "error" in box:
        raise box["error"]
    return box["value"]


def loop_forever(*args, **kwargs):
    while True:
        pass


def crash(*args, **kwargs):
    raise RuntimeError("a bug in the app")


@pytest.fixture()
def short_handler_time(monkeypatch):
    monkeypatch.setenv("OPENAPPS_HANDLER_TIMEOUT_S", "0.5")


def todo_module(name: str):
    return sys.modules[f"openapps_sim.apps.todo.{name}"]


@pytest.mark.parametrize(
    "fault, error",
    [
        (
            loop_forever,
            "AppError: the todo app's handler of GET /todo/ did not finish within 0.5 s and was stopped",
        ),
        (crash, "AppError: the todo app's handler of GET /todo/ raised RuntimeError: a bug in the app"),
    ],
)
def test_a_page_handler_that_hangs_or_raises_is_its_steps_error_on_the_text_backend(
    fault, error, monkeypatch, short_handler_time
):
    env = make_env("todo.add_item", backend="text")
    try:
        obs, _ = within(env.reset, 0)
        launch = f"click('{testid_bids(obs)['launch-todo']}')"
        monkeypatch.setattr(todo_module("routes"), "index_page", fault)
        obs, reward, terminated, truncated, _ = within(env.step, launch)
        assert obs["last_action_error"] == error
        assert env.unwrapped.last_action_error == error
        assert "Internal error" in str(obs["axtree_object"]) and not (terminated or truncated)
        assert env.unwrapped.world.server_errors == 1
        monkeypatch.undo()
        obs, *_ = within(env.step, "go_back()")
        assert obs["last_action_error"] == ""  # the next step is no error
        obs, *_ = within(env.step, launch)
        assert "todo-new-title" in testid_bids(obs) and obs["last_action_error"] == ""
        obs, _ = within(env.reset, 0)  # and a reset starts a clean episode
        assert obs["last_action_error"] == ""
    finally:
        env.close()


@pytest.mark.parametrize(
    "fault, error",
    [
        (loop_forever, "AppError: the todo app's tool add_item did not finish within 0.5 s and was stopped"),
        (crash, "AppError: the todo app's tool add_item raised RuntimeError: a bug in the app"),
    ],
)
def test_an_app_tool_that_hangs_or_raises_is_its_steps_error(fault, error, monkeypatch, short_handler_time):
    env = make_env("todo.add_item", backend="text", interface="api")
    try:
        within(env.reset, 0)
        monkeypatch.setattr(todo_module("model"), "add_item", fault)
        obs, reward, terminated, truncated, _ = within(env.step, "todo.add_item(title='Milk')")
        assert obs["last_action_error"] == error and not (terminated or truncated)
        monkeypatch.undo()
        obs, *_ = within(env.step, "todo.add_item(title='Milk')")
        assert obs["last_action_error"] == "" and '"title": "Milk"' in obs["tool_result"]
    finally:
        env.close()


def test_a_world_tool_that_hangs_is_an_app_fault_and_the_world_goes_on(monkeypatch, short_handler_time):
    """What MCP and tasks call (``World.call_tool``): the fault names the tool, the lock is free."""
    from openapps_sim.web.bounded import AppFault

    world = World()
    monkeypatch.setattr(todo_module("model"), "add_item", loop_forever)
    with pytest.raises(AppFault, match="the todo app's tool add_item did not finish within 0.5 s"):
        within(world.call_tool, "todo", "add_item", {"title": "Milk"})
    monkeypatch.undo()
    assert within(world.call_tool, "todo", "add_item", {"title": "Milk"})["title"] == "Milk"


CHROMIUM_EPISODE = """
import json, sys
from openapps_sim.envs.observe import testid_bids
from openapps_sim.envs.registration import make_env

def loop_forever(*args, **kwargs):
    while True:
        pass

env = make_env("todo.add_item", backend="chromium", obs_mode="axtree")
obs, _ = env.reset(seed=0)
launch = f"click('{testid_bids(obs)['launch-todo']}')"
routes = sys.modules["openapps_sim.apps.todo.routes"]
index_page = routes.index_page
routes.index_page = loop_forever
obs, *_ = env.step(launch)
error = obs["last_action_error"]
routes.index_page = index_page
env.step("go_back()")
obs, *_ = env.step(launch)
print(json.dumps([error, obs["last_action_error"], "todo-new-title" in testid_bids(obs)]))
env.close()
"""


@pytest.mark.browser
def test_a_page_handler_that_hangs_is_its_steps_error_on_chromium():
    """The server's thread is stopped too: the page answers with the 500 page, the step names
    the route, and the server goes on serving (the next step's page). Playwright's calls stay in
    the thread that made the browser, so the episode runs in a child process given a limit."""
    env = {**os.environ, "OPENAPPS_HANDLER_TIMEOUT_S": "0.5"}
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHROMIUM_EPISODE], env=env, capture_output=True, text=True, timeout=90
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the Chromium episode did not end within 90 s: the env hangs")
    assert done.returncode == 0, done.stderr[-2000:]
    error, next_error, page_works = json.loads(done.stdout.strip().splitlines()[-1])
    assert error == "AppError: the todo app's handler of GET /todo/ did not finish within 0.5 s and was stopped"
    assert next_error == "" and page_works


def test_a_fault_in_a_world_the_env_was_given_is_its_steps_error(monkeypatch, short_handler_time):
    """An episode in a world given in ``task_kwargs["live"]`` (as parity gives both backends
    one): its faults are the step's error too, and a step works (the env has no world of its own)."""
    from openapps_sim.config.world import WorldSpec
    from openapps_sim.web.server import app_server

    world = app_server().add(served=False)
    env = make_env("todo.add_item", backend="text")
    try:
        obs, _ = within(env.reset, 0, {"world": WorldSpec("default", 0), "task_kwargs": {"live": world}})
        launch = f"click('{testid_bids(obs)['launch-todo']}')"
        monkeypatch.setattr(todo_module("routes"), "index_page", crash)
        obs, *_ = within(env.step, launch)
        assert obs["last_action_error"].startswith("AppError: the todo app's handler of GET /todo/ raised")
        monkeypatch.undo()
        within(env.step, "go_back()")
        obs, *_ = within(env.step, launch)
        assert obs["last_action_error"] == "" and "todo-new-title" in testid_bids(obs)
    finally:
        env.close()
        app_server().drop(world)
