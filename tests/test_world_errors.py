"""A world given a malformed call (a reset, a state, an app tool) raises one ConfigError naming
the call and the key (never a bare exception), and keeps working; a served world answers its
pages only: no path reads, resets or drops it."""

from __future__ import annotations

import http.client

import pytest

from openapps_sim.errors import ConfigError
from openapps_sim.web.server import AppServer
from openapps_sim.web.world import World


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda w: w.reset("default", "abc"), ["reset: seed: expected a whole number, got 'abc'"]),
        (lambda w: w.reset("default", 1.5), ["seed: expected a whole number"]),
        (lambda w: w.reset("darktheme", 0), ["unknown name 'darktheme' (did you mean dark_theme?)", "allowed:"]),
        (lambda w: w.reset(7, 0), ["variation: expected a string"]),
        (lambda w: w.reset("default", 0, "todo.x=1"), ["overrides: expected a list of strings"]),
        (lambda w: w.set_state({"todo": {}}), ["set_state:", "missing app state"]),
        (lambda w: w.call_tool("todo", "add_item", {}), ["title: missing argument"]),
        (lambda w: w.call_tool("todo", "read", []), ["args: expected an object"]),
        (lambda w: w.call_tool("nope", "read", {}), ["app: unknown name 'nope'"]),
    ],
)
def test_malformed_world_calls_are_one_config_error(call, words):
    world = World()
    with pytest.raises(ConfigError) as err:
        call(world)
    for w in words:
        assert w in str(err.value), str(err.value)
    assert world.server_errors == 0  # nothing counted as a server fault
    world.reset("dark_theme", 3)  # and it keeps working
    assert (world.variation, world.seed) == ("dark_theme", 3)


def _get(port: int, host: str, path: str, method: str = "GET") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, headers={"Host": host}, body=b"{}" if method != "GET" else None)
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/_admin/state", "/_admin/reset", "/_admin/worlds", "/_admin/health"])
def test_no_path_of_a_served_world_reads_or_changes_it_but_its_pages(path):
    server = AppServer()
    world = server.add()
    try:
        host = world.url.split("//")[1]
        assert _get(server.port, host, "/todo/") == 200
        for method in ("GET", "POST", "PUT", "DELETE"):
            assert _get(server.port, host, path, method) in (404, 405), (method, path)
    finally:
        server.stop()


def test_a_crashed_handler_is_its_steps_error_page_and_the_env_goes_on(monkeypatch):
    """A handler that raises answers its request with the 500 page (counted in the world's
    ``server_errors``); the text env's step shows that page, the next step works."""
    import sys

    from openapps_sim.envs.observe import testid_bids
    from openapps_sim.envs.registration import make_env

    env = make_env("todo.add_item", backend="text")
    try:
        obs, _ = env.reset(seed=0)
        launch = f"click('{testid_bids(obs)['launch-todo']}')"

        def broken(*args, **kwargs):
            raise RuntimeError("a bug in the app")

        routes = sys.modules["openapps_sim.apps.todo.routes"]
        monkeypatch.setattr(routes, "index_page", broken)
        obs, reward, terminated, truncated, _ = env.step(launch)
        assert obs["open_pages_titles"] == ("",) and "Internal error" in str(obs["axtree_object"])
        assert env.unwrapped.world.server_errors == 1 and not (terminated or truncated)
        monkeypatch.undo()
        obs, *_ = env.step("go_back()")
        obs, *_ = env.step(launch)
        assert "todo-new-title" in testid_bids(obs)  # the next steps work
    finally:
        env.close()
