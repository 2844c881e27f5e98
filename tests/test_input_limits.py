"""Every text an app takes is bounded (issue 42, point 10): a form field, a query parameter or an
app-tool argument longer than ``protocol.MAX_TEXT_CHARS`` (6000 characters) is refused with one
clear message and changes nothing, for every app alike (a 10 MB todo title used to make a 44 MB
page). The server's real ASGI app in this process, and the text backend; no browser."""

from __future__ import annotations

import copy
import re

import pytest

from openapps_sim.appkit import AppRoutes
from openapps_sim.config.catalog import discover_apps, drawn
from openapps_sim.envs.registration import make_env
from openapps_sim.errors import ConfigError
from openapps_sim.protocol import MAX_TEXT_CHARS, too_long

from .shared_fixtures import world_client
from .tested_families import tested_apps

LONG = "z" * 6001
REFUSED = "is 6001 characters long; at most 6000 are accepted. Nothing was changed."


# One world for the module: every test checks that a refused input changed nothing, against the
# state just before it (the one test that adds an item checks only that item).
client = world_client("module")


def _post_routes() -> list[tuple[str, str]]:
    """(app, URL path) of every POST route of every app, path parameters filled with ``x``."""
    out = []
    for name, spec in discover_apps().items():
        if name not in tested_apps():
            continue
        r = AppRoutes()
        spec.register_routes(r)
        for route in r.routes:
            if route.method == "POST":
                out.append((name, spec.url_prefix + re.sub(r"\{[^}]+\}", "x", route.path)))
    return out


def _text_params() -> list[tuple[str, str, str]]:
    """(app, tool, parameter) of every text or text-list parameter of every app tool."""
    return [
        (app, op.name, p.name)
        for app, spec in discover_apps().items()
        if app in tested_apps()
        for op in spec.load_operations().values()
        for p in op.params
        if p.type in ("str", "list[str]")
    ]


DUMMY = {"str": "a", "int": 1, "float": 1.0, "bool": True, "list[str]": ["a"]}


def test_the_limit_is_six_thousand_characters_of_any_script():
    assert MAX_TEXT_CHARS == 6000
    assert too_long({"title": "z" * 6000, "tags": ["字" * 6000]}) is None
    assert too_long({"title": "a", "tags": ["b", "字" * 6001]}) == ("tags", 6001)
    assert too_long({"n": 10**9, "title": "é" * 6001}) == ("title", 6001)


def test_every_app_has_post_routes_and_text_tools_to_check():
    routes, params = _post_routes(), _text_params()
    assert {a for a, _ in routes} >= {"todo", "calendar", "code_editor", "maps", "messenger", "shop"}
    assert {a for a, _, _ in params} >= {"todo", "calendar", "code_editor", "maps", "messenger", "shop"}


@pytest.mark.parametrize("app,path", _post_routes())
def test_every_form_post_refuses_an_over_long_field_and_changes_nothing(client, app, path):
    world, c = client
    state, events = copy.deepcopy(world.state), list(world.events)
    fields = ("title", "text", "content", "name", "body", "note", "q", "query", "location", "description")
    r = c.post(path, data={key: LONG for key in fields}, follow_redirects=False)
    assert r.status_code == 413, (path, r.status_code)
    assert REFUSED in r.text and 'data-testid="input-too-long"' in r.text
    assert world.state == state and world.events == events


def test_a_long_todo_title_is_refused_a_long_enough_one_is_kept(client):
    world, c = client
    r = c.post("/todo/add", data={"title": "z" * 10_000_000}, follow_redirects=False)
    assert r.status_code == 413 and "Nothing was changed" in r.text
    assert len(r.content) < 100_000  # the page says no, it does not carry the input back
    assert not any(i["title"].startswith("zzz") for i in world.app_state("todo")["items"])
    r = c.post("/todo/add", data={"title": "字" * 6000}, follow_redirects=False)
    assert r.status_code == 303
    assert world.app_state("todo")["items"][-1]["title"] == "字" * 6000


def test_a_query_parameter_is_capped_too(client):
    _, c = client
    r = c.get("/todo/?filter=" + "a" * 6001)
    assert r.status_code == 413 and "'filter' " + REFUSED in r.text


@pytest.mark.parametrize("app,tool,param", _text_params())
def test_every_text_argument_of_every_app_tool_is_capped(client, app, tool, param):
    world, c = client
    op = discover_apps()[app].load_operations()[tool]
    args = {p.name: DUMMY[p.type] for p in op.params if p.required}
    args[param] = [LONG] if op.params[[p.name for p in op.params].index(param)].type == "list[str]" else LONG
    state, events = copy.deepcopy(world.state), list(world.events)
    with pytest.raises(ConfigError) as err:
        world.call_tool(app, tool, args)
    assert str(err.value) == f"{app}.{tool}: {param}: is 6001 characters long; allowed: 6000 at most"
    assert world.state == state and world.events == events


def test_an_agent_gets_the_tools_refusal_on_the_text_backend():
    env = make_env("todo.add_item", backend="text", interface="mixed")
    try:
        env.reset(seed=0)
        obs, *_ = env.step(f"todo.add_item(title={'q' * 6001!r})")
        assert obs["last_action_error"] == (
            "ToolError: todo.add_item: title: is 6001 characters long; allowed: 6000 at most"
        )
        assert not any(
            i["title"].startswith("qqq") for i in drawn(env.unwrapped.task.live.snapshot()[1]["todo"])["items"]
        )
    finally:
        env.close()


def test_a_request_body_over_a_megabyte_is_refused_unread(client):
    world, c = client
    events = list(world.events)
    form = {"content-type": "application/x-www-form-urlencoded"}
    r = c.post("/todo/add", content=b"title=" + b"a" * 1_100_000, headers=form, follow_redirects=False)
    assert r.status_code == 413 and "at most 1000000 are accepted" in r.text
    assert world.events == events
