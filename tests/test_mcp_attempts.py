"""An MCP client cannot retry an instance or act outside its step budget (issue 42, point 4): an
agent's session attempts a task and seed once (in any app version, language, interface or
termination), every episode it ended stays in ``get_reward``'s ``attempts``, and the world a
session drives answers no request but its own environment's, so nothing changes it but counted
steps."""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from openapps_sim.appkit import AppRoutes
from openapps_sim.config.catalog import discover_apps
from openapps_sim.web.server import app_server

from .mcp_play import error_of, memory_server, only_session, play, reset, reward, run, send, text_of

NOT_KNOWN = "send_msg_to_user('I do not know.')"
# family and how a first attempt is got wrong (as in test_mcp_reward)
CASES = [
    ("todo.count_open", {"wrong": NOT_KNOWN}),
    ("maps.distance_km", {"wrong": NOT_KNOWN}),
    ("messenger.message_unknown_contact", {"wrong": "send_msg_to_user('Done.')"}),
    ("shop.add_to_cart", {"first": "report_infeasible('This cannot be done.')"}),
]
# another way of asking for the same instance: another app version, language, interface, ...
AGAIN = [
    {},
    {"variation": "dark_theme"},
    {"variation": "german", "language": "de"},
    {"interface": "gui", "termination": "agent"},
    {"variation": "default+sparse", "action_space": "all"},
]


def refused(text: str, task: str, seed: int) -> bool:
    return text.startswith(f"reset: seed: this session has attempted {task} with seed {seed} already")


@pytest.mark.parametrize("termination", ["auto", "agent"])
@pytest.mark.parametrize("interface", ["gui", "api"])
def test_an_agents_session_attempts_each_instance_once(interface, termination):
    """After a wrong answer, report or declaration (or in the middle of an episode), a reset of
    the same task and seed is refused however it is asked for, and the first attempt's 0 stays
    in get_reward's attempts (a reset used to start the instance afresh, hiding the attempt)."""

    async def main():
        async with memory_server(evaluator=False) as (server, client):
            for n, (task, wrong) in enumerate(CASES):
                seed = 40 + n
                last = await play(server, client, task, interface, seed=seed, termination=termination, **wrong)
                assert last["reward"] == 0.0 and last["done"]
                for again in AGAIN:
                    args = {"task": task, "seed": seed, "backend": "text", **again}
                    text = error_of(await client.call_tool("reset", args))
                    assert refused(text, task, seed) and "; allowed: another seed or task" in text, (again, text)
                # mid-episode: one step taken, then the same instance asked for again
                await reset(client, task, seed=seed + 100, interface=interface, termination=termination)
                await send(client, "noop(0)", interface)
                text = error_of(await client.call_tool("reset", {"task": task, "seed": seed + 100, "backend": "text"}))
                assert refused(text, task, seed + 100), text
                got = await reward(client)  # the episode under way goes on
                assert (got["seed"], got["steps"], got["done"]) == (seed + 100, 1, False), got
            await reset(client, "todo.add_item", seed=1)  # another instance: a new attempt
            attempts = (await reward(client))["attempts"]
            summary = [(a["task"], a["seed"], a["reward"], a["ended"]) for a in attempts]
            assert summary == [
                ("todo.count_open", 40, 0.0, "task"),
                ("todo.count_open", 140, 0.0, "abandoned"),
                ("maps.distance_km", 41, 0.0, "task"),
                ("maps.distance_km", 141, 0.0, "abandoned"),
                ("messenger.message_unknown_contact", 42, 0.0, "task"),
                ("messenger.message_unknown_contact", 142, 0.0, "abandoned"),
                ("shop.add_to_cart", 43, 0.0, "task"),
                ("shop.add_to_cart", 143, 0.0, "abandoned"),
            ], summary

    run(main)


def test_an_evaluators_session_may_run_an_instance_again_and_keeps_every_attempt():
    async def main():
        async with memory_server(evaluator=True) as (server, client):
            await play(server, client, "todo.count_open", "api", seed=5, wrong=NOT_KNOWN)
            await play(server, client, "todo.count_open", "api", seed=5, variation="dark_theme")
            got = await reward(client)
            assert (got["reward"], got["done"]) == (1.0, True) and got["attempts"][0]["reward"] == 0.0, got
            await client.call_tool("close", {})
            await reset(client, "todo.add_item", seed=5)
            attempts = (await reward(client))["attempts"]
            summary = [(a["variation"], a["seed"], a["reward"], a["success"], a["ended"]) for a in attempts]
            assert summary == [("default", 5, 0.0, False, "task"), ("dark_theme", 5, 1.0, True, "task")], summary

    run(main)


def app_routes() -> list[tuple[str, str]]:
    """(method, path) of every route of every app, path parameters filled in."""
    out = []
    for spec in discover_apps().values():
        routes = AppRoutes()
        spec.register_routes(routes)
        for route in routes.routes:
            path = spec.url_prefix + route.path if route.path != "/" or not spec.url_prefix else spec.url_prefix + "/"
            out.append((route.method, path.replace("{", "").replace("}", "")))
    return out


def status_of(method: str, url: str) -> int:
    """The status of a plain HTTP request to ``url`` (a world's ``*.localhost`` name is sent as
    the Host header to the loopback address, as curl and browsers resolve it)."""
    u = urlsplit(url)
    body = "title=Sneaked+in&text=hello&name=x&query=x" if method == "POST" else None
    headers = {"Host": u.netloc, "Content-Type": "application/x-www-form-urlencoded"}
    conn = http.client.HTTPConnection("127.0.0.1", u.port, timeout=10)
    try:
        conn.request(method, u.path or "/", body=body, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


FRESH = "OPENAPPS_TEST_IN_FRESH_PROCESS"


@pytest.mark.parametrize("backend", ["text", pytest.param("chromium", marks=pytest.mark.browser)])
@pytest.mark.parametrize("evaluator", [False, True], ids=["agent_server", "evaluator_server"])
def test_the_world_of_a_session_answers_its_own_environment_only(evaluator, backend):
    """Every app route, read or write, and every interruption button, reached from app_url
    directly, is refused (403; a text session's world is not served at all: 404) and changes nothing (a POST to /todo/add used to add an item
    without a step); the session's own steps still work. The Chromium case runs in a pytest
    process of its own: the in-memory server drives Chromium from its browser thread, and
    Playwright's sync API stays bound to the thread of the first browser test of a process."""
    if backend == "chromium" and not os.environ.get(FRESH):
        server_id = "evaluator_server" if evaluator else "agent_server"
        test = f"{__file__}::test_the_world_of_a_session_answers_its_own_environment_only[{server_id}-chromium]"
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", test],
            env={**os.environ, FRESH: "1"},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
        return

    async def main():
        async with memory_server(evaluator) as (server, client):
            await reset(client, "todo.add_item", seed=3, backend=backend, variation="interrupt_crash")
            url = text_of(await client.call_tool("app_url", {})).rstrip("/")
            task = only_session(server).env.unwrapped.task
            routes = [*app_routes(), ("POST", "/_interrupt/i0/dismiss"), ("GET", "/")]
            assert len(routes) > 40 and ("POST", "/todo/add") in routes
            before = (task.events(), task.interruptions())
            refused = 403  # sealed: served to the session's own browser only
            if backend == "text":  # served to no browser: the process's app server knows no such world
                url, refused = f"{url}:{app_server().start()}", 404
            statuses = {(m, p): status_of(m, url + p) for m, p in routes}
            assert set(statuses.values()) == {refused}, {k: v for k, v in statuses.items() if v != refused}
            assert (task.events(), task.interruptions()) == before
            assert (await reward(client))["steps"] == 0
            last = await play(server, client, "todo.add_item", "gui", seed=4, backend=backend)
            assert last["reward"] == 1.0

    run(main)
