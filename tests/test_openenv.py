"""``openapps openenv`` driven by OpenEnv's own clients (docs/training.md, "OpenEnv").

The real server runs in a subprocess on 127.0.0.1 (``python -m openapps_sim.cli openenv --port
0``); the clients are ``openenv-core``'s: ``GenericEnvClient`` (plain dictionaries) and
:class:`~openapps_sim.service.openenv_models.OpenAppsEnvClient` (OpenEnv's typed ``EnvClient``),
async and ``.sync()``. Episodes are solved by scripted actions read from what a client sees
(the goal and the tree text), on the text backend. ``make test`` installs ``openenv-core`` (the
``openenv`` extra); where it is missing these tests fail saying why, never skip.
"""

from __future__ import annotations

import asyncio
import base64
import importlib
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager

import pytest

from openapps_sim.envs.asyncenv import run_coroutine
from openapps_sim.taskkit import all_families

INSTALL = 'pip install -e ".[openenv]" (make test installs it: the Makefile\'s .openenv-stamp)'
# seed -> the title todo.add_item's goal asks for (default pack)
TITLES = {
    0: "Defrost the freezer",
    1: "Buy oat milk",
    2: "Prepare slides for Monday",
    3: "Clean the fridge",
    4: "Schedule a car service",
    5: "Fix the leaking tap",
}
OPEN_ITEMS = {0: "4", 1: "5"}  # seed -> todo.count_open's answer in its own, untouched world


def require_openenv():
    """OpenEnv's client classes; fails (never skips) when openenv-core is not installed."""
    try:
        core = importlib.import_module("openenv.core")
        models = importlib.import_module("openapps_sim.service.openenv_models")
    except ImportError as e:
        pytest.fail(f"openenv-core is not installed ({e}); the OpenEnv tests need it: {INSTALL}", pytrace=False)
    return core.GenericEnvClient, models.OpenAppsEnvClient, models.OpenAppsAction


@contextmanager
def openenv_server(*flags: str):
    """``openapps openenv --port 0`` in a subprocess: its URL; at the end, what it printed
    (checked to hold no traceback)."""
    require_openenv()
    cmd = [sys.executable, "-m", "openapps_sim.cli", "openenv", "--port", "0", *flags]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()  # said once the port is bound and the app server is up
        m = re.search(r"OpenEnv server at (http://127\.0\.0\.1:\d+) \(sessions at ws://127\.0\.0\.1:\d+/ws\)", first)
        assert m, first + proc.stderr.read() if proc.poll() is not None else first
        yield m.group(1)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    rest = proc.stderr.read()
    assert "Traceback" not in rest and "ERROR" not in rest, rest[:3000]


@pytest.fixture(scope="module")
def server_url():
    with openenv_server() as u:
        yield u


@pytest.fixture
def url(server_url):
    """The module's server; after the test, every session it opened has dropped its world (so
    the next test starts from none)."""
    yield server_url
    assert wait_for_sessions(server_url, {"episodes": 0, "worlds": 0}) == {"episodes": 0, "worlds": 0}


def sessions(base: str) -> dict:
    """What ``GET /openapps/sessions`` says: episodes under way and worlds on the app server."""
    with urllib.request.urlopen(f"{base}/openapps/sessions", timeout=30) as r:
        return json.loads(r.read())


def wait_for_sessions(base: str, expected: dict, within: float = 60.0) -> dict:
    deadline = time.time() + within
    while True:
        got = sessions(base)
        if got == expected or time.time() > deadline:
            return got
        time.sleep(0.3)


def bid(tree: str, pattern: str) -> str:
    m = re.search(r"\[(\d+)\] " + pattern, tree)
    assert m, f"no element {pattern!r} in:\n{tree[:2000]}"
    return m.group(1)


def quoted(goal: str) -> str:
    return re.search(r"(?:^|\s)'([^']+)'", goal).group(1)


def obs_of(result) -> dict:
    """A step result's observation as a dict, from either client."""
    obs = result.observation
    return obs if isinstance(obs, dict) else obs.model_dump()


class Player:
    """One session's episode through either client: ``send(action)`` is one step."""

    def __init__(self, client, typed_action=None):
        self.client, self.typed_action = client, typed_action

    async def send(self, action: str) -> tuple[dict, float | None, bool]:
        payload = self.typed_action(action=action) if self.typed_action else {"action": action}
        result = await self.client.step(payload)
        return obs_of(result), result.reward, result.done

    async def add_item(self, seed: int, meet, others: list[str]) -> dict:
        """todo.add_item (termination agent): add the goal's title, wait until every session
        has made its change, check the list holds this world's item and no other session's,
        then declare."""
        start = await self.client.reset(task="todo.add_item", seed=seed, termination="agent")
        obs = obs_of(start)
        assert obs.get("answer_schema") is None  # a task that returns no value
        assert (obs["task"], obs["seed"], obs["backend"], start.reward, start.done) == (
            "todo.add_item",
            seed,
            "text",
            None,
            False,
        )
        title = quoted(obs["goal"])
        assert title == TITLES[seed], obs["goal"]
        tree = (await self.send("goto('/todo/')"))[0]["axtree_txt"]
        await self.send(f"fill('{bid(tree, 'textbox')}', '{title}')")
        add = bid(tree, "button 'Add'")
        obs, reward, done = await self.send(f"click('{add}')")
        assert (obs["category"], reward, done) == ("valid", 0.0, False), obs
        await meet()
        tree = (await self.send("noop()"))[0]["axtree_txt"]
        assert f"StaticText '{title}'" in tree, tree[:3000]
        assert not [t for t in others if f"'{t}'" in tree], (title, tree[:3000])
        obs, reward, done = await self.send("send_msg_to_user('Done.')")
        return {"reward": reward, "done": done, "steps": obs["step"], "state": await self.client.state()}

    async def count_open(self, seed: int, meet) -> dict:
        """todo.count_open (termination auto), read after every other session changed its
        own list: the count of this world's own list."""
        start = obs_of(await self.client.reset(task="todo.count_open", seed=seed))
        assert start["answer_schema"] == {"type": "number", "schema": {"type": "number"}}  # issue 43, point 2
        await meet()
        tree = (await self.send("goto('/todo/')"))[0]["axtree_txt"]
        count = re.search(r"StaticText '(\d+) left'", tree).group(1)
        assert count == OPEN_ITEMS[seed], tree[:3000]
        obs, reward, done = await self.send(f"send_msg_to_user('{count}')")
        return {"reward": reward, "done": done, "steps": obs["step"], "state": await self.client.state()}


def state_dict(state) -> dict:
    return state if isinstance(state, dict) else state.model_dump()


def test_eight_sessions_at_once_each_solve_their_own_world(url):
    """Eight WebSocket sessions open at once (four GenericEnvClient, four typed clients), each
    solving a task in its own world: every reward is 1, no session's list shows another's item,
    the counts are the untouched worlds' own, and closing the sessions drops every world."""
    generic, typed, action = require_openenv()
    jobs = [("add", seed) for seed in TITLES] + [("count", seed) for seed in OPEN_ITEMS]

    async def main():
        gate, after = asyncio.Barrier(len(jobs)), asyncio.Barrier(len(jobs))
        seen: dict = {}

        async def meet():
            """Every session has made its change; one of them reads the server's count while
            the others wait."""
            if await asyncio.wait_for(gate.wait(), 240) == 0:
                seen["during"] = await asyncio.to_thread(sessions, url)
            await asyncio.wait_for(after.wait(), 240)

        async def one(n: int, kind: str, seed: int) -> dict:
            client = (
                generic(base_url=url, message_timeout_s=240) if n % 2 else typed(base_url=url, message_timeout_s=240)
            )
            async with client:
                player = Player(client, None if n % 2 else action)
                if kind == "add":
                    others = [t for s, t in TITLES.items() if s != seed]
                    return await player.add_item(seed, meet, others)
                return await player.count_open(seed, meet)

        return await asyncio.gather(*(one(n, kind, seed) for n, (kind, seed) in enumerate(jobs))), seen

    results, seen = run_coroutine(main)
    for (kind, seed), out in zip(jobs, results, strict=True):
        state = state_dict(out["state"])
        assert (out["reward"], out["done"]) == (1.0, True), (kind, seed, out)
        assert (state["reward"], state["success"], state["done"], state["seed"]) == (1.0, True, True, seed), state
        assert state["step_count"] == out["steps"] == (5 if kind == "add" else 2), (kind, state)
    ids = {state_dict(out["state"])["episode_id"] for out in results}
    assert len(ids) == len(jobs)
    assert seen["during"] == {"episodes": len(jobs), "worlds": len(jobs)}, seen
    assert wait_for_sessions(url, {"episodes": 0, "worlds": 0}) == {"episodes": 0, "worlds": 0}


def test_a_wrong_episode_scores_0_and_a_session_may_run_an_instance_again(url):
    """Through the typed client's blocking form: a wrong item declared done scores 0 (state
    too), the step after the end is one error, the same instance reset again in the same
    session is solved (reward 1), a malformed action is a step that runs nothing, and the
    step budget ends an episode (truncated, reward 0)."""
    _, typed, action = require_openenv()
    with typed(base_url=url, message_timeout_s=240).sync() as env:

        def run(*actions: str):
            return [env.step(action(action=a)) for a in actions]

        for title, expected in (("Something else", 0.0), (TITLES[2], 1.0)):
            start = env.reset(task="todo.add_item", seed=2, termination="agent")
            tree = run("goto('/todo/')")[0].observation.axtree_txt
            box, add = bid(tree, "textbox"), bid(tree, "button 'Add'")
            *_, last = run(f"fill('{box}', '{title}')", f"click('{add}')", "send_msg_to_user('Done.')")
            assert (last.reward, last.done, last.observation.truncated) == (expected, True, False), title
            state = env.state()
            assert (state.reward, state.success, state.step_count) == (expected, expected == 1.0, 4), state
            assert start.observation.goal == f"Add '{TITLES[2]}' to my todo list."
        with pytest.raises(RuntimeError) as e:
            run("noop()")
        assert "step: episode: the episode has ended after 4 steps (the task ended it); allowed: reset" in str(e.value)

        env.reset(task="todo.count_open", seed=2)
        bad = run("click 12")[0]
        assert (bad.observation.category, bad.reward, bad.done) == ("malformed", 0.0, False)
        assert bad.observation.last_action_error.startswith("invalid action (malformed): ")
        steps = [bad, *run(*["noop()"] * 5)]
        assert [s.done for s in steps] == [False] * 5 + [True]
        assert (steps[-1].reward, steps[-1].observation.truncated, steps[-1].observation.step) == (0.0, True, 6)


BAD_RESETS = [
    (
        {"task": "todo.nope"},
        "reset: task: unknown name 'todo.nope' (did you mean todo.count_open, todo.item_notes or todo.add_count_open?); "
        f"allowed: one of {len(all_families())} task ids; openapps tasks (MCP: list_tasks) lists them",
    ),
    ({}, "reset: task: expected a task family id, got nothing; allowed: todo.add_item, ... (openapps tasks)"),
    (
        {"task": "todo.add_item", "variation": "dark_them"},
        "reset: variation: unknown name 'dark_them' (did you mean dark_theme",
    ),
    ({"task": "todo.add_item", "seed": "abc"}, "reset: seed: expected a whole number, got 'abc'; allowed: 0, 1, 2"),
    # the one seed rule, as gym.make, a sweep spec and MCP's reset apply it (tests/test_one_spelling.py)
    ({"task": "todo.add_item", "seed": "3"}, "reset: seed: expected a whole number, got '3'; allowed: 0, 1, 2"),
    ({"task": "todo.add_item", "seed": 3.0}, "reset: seed: expected a whole number, got 3.0; allowed: 0, 1, 2"),
    ({"task": "todo.add_item", "seed": True}, "reset: seed: expected a whole number, got True; allowed: 0, 1, 2"),
    (
        {"task": "todo.add_item", "backend": "firefox"},
        "reset: backend: unknown backend 'firefox'; allowed: chromium, text",
    ),
    (
        {"task": "todo.add_item", "interface": "voice"},
        "reset: interface: unknown interface 'voice'; allowed: gui, api, mixed",
    ),
    (
        {"task": "todo.add_item", "termination": "never"},
        "reset: termination: unknown termination 'never'; allowed: auto, agent",
    ),
    (
        {"task": "todo.add_item", "viewport": "big"},
        "reset: viewport: expected WIDTHxHEIGHT such as 1280x720, got 'big'",
    ),
    (
        {"task": "todo.add_item", "screenshot": True},
        "reset: screenshot: the text backend renders no pixels; allowed: false",
    ),
    (
        {"task": "todo.add_item", "taks": "todo.add_item"},
        "reset: taks: unknown argument; allowed: task, seed, episode_id, variation, language, backend, interface, "
        "termination, action_space, viewport, screenshot",
    ),
]
BAD_STEPS = [
    ({"acton": "noop()"}, "step: acton: unknown key; allowed: action, screenshot, metadata"),
    ({"action": 3}, "step: action: expected a BrowserGym action string, got 3; allowed: click('12'), ..."),
    ({"action": "noop()", "screenshot": True}, "step: screenshot: the text backend renders no pixels"),
]


def test_bad_arguments_are_one_error_naming_the_key(url):
    """Each bad reset or step argument is one error naming the key and what is allowed (the
    package's ConfigError, as OpenEnv's client raises it), and the session goes on."""
    generic, _, _ = require_openenv()

    async def main():
        async with generic(base_url=url, message_timeout_s=240) as env:
            with pytest.raises(RuntimeError) as e:
                await env.step({"action": "noop()"})
            assert "step: episode: no episode yet; allowed: reset(task=..., variation=..., seed=...) first" in str(
                e.value
            )
            for kwargs, expected in BAD_RESETS:
                with pytest.raises(RuntimeError) as e:
                    await env.reset(**kwargs)
                assert expected in str(e.value) and "Traceback" not in str(e.value), (kwargs, str(e.value))
            await env.reset(task="todo.add_item", seed=3)
            for payload, expected in BAD_STEPS:
                with pytest.raises(RuntimeError) as e:
                    await env.step(payload)
                assert expected in str(e.value), (payload, str(e.value))
            result = await env.step({"action": "goto('/todo/')"})
            assert (result.observation["step"], result.done) == (1, False)

    run_coroutine(main)


ABANDON = """
import asyncio, sys
from openenv.core import GenericEnvClient
async def main():
    env = GenericEnvClient(base_url=sys.argv[1])
    await env.reset(task="todo.add_item", seed=4)
    print("ready", flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


def test_an_abandoned_session_frees_its_world(url):
    """A client killed mid-episode (SIGKILL: no close message) leaves no world behind."""
    require_openenv()
    proc = subprocess.Popen([sys.executable, "-c", ABANDON, url], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        assert sessions(url) == {"episodes": 1, "worlds": 1}
    finally:
        proc.kill()
        proc.wait()
    assert wait_for_sessions(url, {"episodes": 0, "worlds": 0}) == {"episodes": 0, "worlds": 0}


def test_an_idle_session_is_closed_and_says_so():
    """A session idle past --idle-timeout is closed by the server (its world dropped) while its
    client stays connected; its next step says why."""
    generic, _, _ = require_openenv()
    with openenv_server("--idle-timeout", "5") as base:  # long enough for a loaded machine's first check

        async def main():
            async with generic(base_url=base, message_timeout_s=240) as env:
                await env.reset(task="todo.add_item", seed=5)
                assert sessions(base) == {"episodes": 1, "worlds": 1}
                got = await asyncio.to_thread(wait_for_sessions, base, {"episodes": 0, "worlds": 0}, 60)
                assert got == {"episodes": 0, "worlds": 0}
                with pytest.raises(RuntimeError) as e:
                    await env.step({"action": "noop()"})
                assert "step: session: this session is closed (more than 5 s idle, or the server is stopping)" in str(
                    e.value
                )

        run_coroutine(main)


@pytest.mark.browser
def test_a_chromium_session_sends_screenshots_on_request(url):
    """backend='chromium' with screenshot=True: every observation carries the page as a PNG of
    the episode's viewport; without it, only a step that asks for one."""
    generic, _, _ = require_openenv()

    def size(png_b64: str) -> tuple[bytes, int, int]:
        png = base64.b64decode(png_b64)
        return png[:8], int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")

    async def main():
        async with generic(base_url=url, message_timeout_s=240) as env:
            start = await env.reset(
                task="todo.add_item", seed=1, backend="chromium", viewport="800x600", screenshot=True
            )
            assert size(start.observation["screenshot"]) == (b"\x89PNG\r\n\x1a\n", 800, 600)
            assert "textbox" in (await env.step({"action": "goto('/todo/')"})).observation["axtree_txt"]
            await env.reset(task="todo.add_item", seed=1, backend="chromium", viewport="640x480")
            plain = await env.step({"action": "noop()"})
            asked = await env.step({"action": "noop()", "screenshot": True})
            assert plain.observation["screenshot"] is None
            assert size(asked.observation["screenshot"]) == (b"\x89PNG\r\n\x1a\n", 640, 480)

    run_coroutine(main)
    assert wait_for_sessions(url, {"episodes": 0, "worlds": 0}) == {"episodes": 0, "worlds": 0}


def test_the_command_says_when_openenv_core_is_missing(monkeypatch, capsys):
    """Without the extra, ``openapps openenv`` is one error saying what to install."""
    from openapps_sim.cli.main import main

    for name in ("openenv", "openapps_sim.service.openenv_server", "openapps_sim.service.openenv_models"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["openenv", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("openapps: error: openenv: openenv-core: not installed (")
    assert err.rstrip().endswith("; allowed: pip install 'openapps-sim[openenv]'"), err


def test_a_port_in_use_is_one_sentence(capsys):
    require_openenv()
    from openapps_sim.cli.main import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        assert main(["openenv", "--port", port]) == 2
    err = capsys.readouterr().err
    assert f"openapps: error: --port: {port}: cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err
