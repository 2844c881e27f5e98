"""The world's revision and what it lets the task and the server skip (issue 22, point 3).

The revision moves on every change a task checks (state, event log, interruptions shown); the
task copies the state only when it moved (tests/test_text_reuse.py), and a GET page at an
unchanged revision is the page rendered before, unless a page view may fire an interruption.
Pure server logic: the real ASGI app in this process, no browser."""

from __future__ import annotations

from starlette.testclient import TestClient

import openapps_sim.web.server as server
from openapps_sim.config.catalog import drawn
from openapps_sim.web.world import World

from .shared_fixtures import world_client

client = world_client()


def test_the_revision_moves_with_every_change_a_task_checks_and_only_then(client):
    world, c = client
    r = world.revision
    c.get("/todo/")
    c.get("/todo/?filter=done")
    assert world.revision == r  # looking around changes nothing
    c.post("/todo/add", data={"title": "Buy oat milk"})
    assert world.revision > r and world.events[-1]["op"] == "add_item"
    r = world.revision
    world.interrupts.set_step(3)  # the actions counted: no change checked
    assert world.revision == r
    world.call_tool("todo", "add_item", {"title": "Tea"})
    assert world.revision > r
    r = world.revision
    world.set_state(world.state)
    assert world.revision > r
    r = world.revision
    world.reset("default", 1)
    assert world.revision > r


def test_a_snapshot_is_the_state_at_its_revision_and_shares_nothing_with_the_world(client):
    world, c = client
    revision, state = world.snapshot()
    assert revision == world.revision and state == world.state
    assert all(state[app] is not world.app_state(app) for app in state if isinstance(state[app], (dict, list)))
    c.post("/todo/add", data={"title": "Buy oat milk"})
    moved, after = world.snapshot()
    assert moved > revision and any(i["title"] == "Buy oat milk" for i in after["todo"]["items"])
    assert not any(i["title"] == "Buy oat milk" for i in drawn(state["todo"])["items"])  # the earlier one kept


def test_a_snapshot_copies_only_the_apps_that_changed_since_the_last(client):
    """An app whose state is the same (to its types) as at the last snapshot is that snapshot's
    object again; a changed app, even a value of another type alone (1, 1.0, True), is a new copy."""
    world, c = client
    _, first = world.snapshot()
    _, second = world.snapshot()
    assert all(second[app] is first[app] for app in first)
    c.post("/todo/add", data={"title": "Buy oat milk"})
    _, third = world.snapshot()
    assert third["todo"] is not second["todo"] and third["todo"] == world.app_state("todo")
    assert [app for app in first if third[app] is not second[app]] == ["todo"]
    item = world.app_state("todo")["items"][0]
    for value, kind in ((1, int), (1.0, float), (True, bool), (1, int)):
        item["priority_probe"] = value
        _, now = world.snapshot()
        assert type(now["todo"]["items"][0]["priority_probe"]) is kind


def _count_renders(monkeypatch) -> list[str]:
    calls: list[str] = []
    render = server.render_page

    def counting(ctx, title, children):
        calls.append(ctx.request.url.path)
        return render(ctx, title, children)

    monkeypatch.setattr(server, "render_page", counting)
    return calls


def test_a_page_at_the_same_revision_is_not_rendered_again(client, monkeypatch):
    world, c = client
    renders = _count_renders(monkeypatch)
    bids = {"x-openapps-bids": "1"}
    first = c.get("/todo/", headers=bids).text
    assert c.get("/todo/", headers=bids).text == first and renders == ["/todo/"]
    assert c.get("/todo/").text != first and len(renders) == 2  # without element ids: another page
    c.post("/todo/add", data={"title": "Buy oat milk"})  # renders /todo/ after its redirect
    after = c.get("/todo/", headers=bids).text
    assert "Buy oat milk" in after and after != first


def test_pages_are_rendered_every_time_while_interruptions_may_fire(monkeypatch):
    world = World()
    world.reset("interrupt_mixed", 0)
    assert world.interrupts.rules
    c = TestClient(server.build_app(world))
    renders = _count_renders(monkeypatch)
    views = world.interrupts.views
    c.get("/todo/")
    c.get("/todo/")
    assert len(renders) == 2 and world.interrupts.views == views + 2
