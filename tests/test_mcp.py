"""The MCP server through the official MCP SDK's own client, over stdio and streamable HTTP."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
import threading
import time
from contextlib import asynccontextmanager

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

pytestmark = pytest.mark.browser

GUI_TOOLS = {
    "list_tasks",
    "list_variations",
    "reset",
    "observe",
    "act",
    "get_reward",
    "describe_action_space",
    "app_url",
    "close",
}
# app tools: generated from each app's operations module
APP_TOOLS = {"todo_read", "todo_add_item", "todo_toggle_item", "calendar_create_event", "messenger_send_message"}
APP_TOOLS |= {"maps_save_place", "shop_add_to_cart", "shop_checkout", "code_editor_create_file"}


def run_async(main) -> None:
    """Run a coroutine function in its own thread: a browser test earlier in this process leaves
    Playwright's event loop set on the main thread, where ``asyncio.run`` refuses to start."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as e:  # noqa: BLE001 - re-raised in the test's thread
            failure.append(e)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def _text(result) -> str:
    assert not result.isError, result.content
    return result.content[0].text


def _data(result) -> dict:
    """A tool's typed result: its structured content (checked against the tool's output schema
    by the SDK's client), and the same object as JSON text for clients that read only text."""
    text = _text(result)
    assert isinstance(result.structuredContent, dict) and "result" not in result.structuredContent, result
    assert json.loads(text) == result.structuredContent, (text, result.structuredContent)
    return result.structuredContent


def _bid(tree: str, role: str, name: str) -> str:
    m = re.search(rf"\[(\w+)\] {role} '{re.escape(name)}'", tree)
    assert m, f"no {role} {name!r} in the page:\n{tree[:2000]}"
    return m.group(1)


async def solve_add_item_by_gui(s: ClientSession, variation: str = "default", seed: int = 1) -> dict:
    """Read the goal and the page as text, act on bids, as a tool-calling agent would."""
    reset = _data(await s.call_tool("reset", {"task": "todo.add_item", "variation": variation, "seed": seed}))
    item = re.search(r"'([^']+)'", reset["goal"]).group(1)
    _text(await s.call_tool("act", {"action": "goto('/todo/')"}))
    tree = _text(await s.call_tool("observe", {"mode": "text"}))
    box = re.search(r"\[(\w+)\] textbox", tree).group(1)
    add = re.search(r"\[(\w+)\] button '[^']*'\n", tree[tree.index(f"[{box}]") :]).group(1)
    _text(await s.call_tool("act", {"action": f"fill('{box}', {item!r})"}))
    step = _data(await s.call_tool("act", {"action": f"click('{add}')"}))
    assert step["last_action_error"] == ""
    return {"goal": reset["goal"], "item": item, **_data(await s.call_tool("get_reward", {}))}


async def solve_add_item_by_api(s: ClientSession, interface: str = "api", seed: int = 2) -> dict:
    """The same task through the todo app's own tools, never touching the page."""
    reset = _data(await s.call_tool("reset", {"task": "todo.add_item", "seed": seed, "interface": interface}))
    assert reset["interface"] == interface
    item = re.search(r"'([^']+)'", reset["goal"]).group(1)
    if interface == "mixed":  # a page first, then the tool: the page shows the change
        _text(await s.call_tool("act", {"action": "goto('/todo/')"}))
    before = _data(await s.call_tool("todo_read", {}))["tool_result"]
    assert item not in {i["title"] for i in before["items"]}
    step = _data(await s.call_tool("todo_add_item", {"title": item}))
    assert step["last_action_error"] == "" and step["tool_result"]["title"] == item, step
    return {"item": item, "step": step, **_data(await s.call_tool("get_reward", {}))}


def test_stdio_session_lists_tools_and_solves_a_task_through_the_gui():
    async def main():
        # an evaluator's server: get_reward explains the reward
        params = StdioServerParameters(command=sys.executable, args=["-m", "openapps_sim.cli", "mcp", "--evaluator"])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            tools = {t.name for t in (await s.list_tools()).tools}
            assert GUI_TOOLS <= tools and not APP_TOOLS & tools  # the default interface, gui, has none
            tasks = _data(await s.call_tool("list_tasks", {"app": "todo"}))["tasks"]
            assert "todo.add_item" in {t["id"] for t in tasks} and all("todo" in t["apps"] for t in tasks)
            packs = {p["name"] for p in _data(await s.call_tool("list_variations", {}))["variations"]}
            assert {"default", "dark_theme", "german"} <= packs
            assert "fill(" in _text(await s.call_tool("describe_action_space", {"space": "bid"}))
            # a reward before any action is 0 with an explanation naming what is missing
            _data(await s.call_tool("reset", {"task": "todo.add_item", "seed": 1}))
            before = _data(await s.call_tool("get_reward", {}))
            assert before["reward"] == 0 and before["explanation"]
            done = await solve_add_item_by_gui(s)
            assert done["reward"] == 1 and done["success"], done
            shot = await s.call_tool("observe", {"mode": "screenshot"})
            assert shot.content[0].type == "image" and shot.content[0].mimeType == "image/png"
            bad = await s.call_tool("reset", {"task": "todo.nothing"})
            assert bad.isError and "todo.nothing" in bad.content[0].text and "allowed" in bad.content[0].text
            # the same task API-only: the app's own tool, the same full-state reward
            by_api = await solve_add_item_by_api(s)
            listed = {t.name for t in (await s.list_tools()).tools}
            assert {"todo_read", "todo_add_item", "todo_toggle_item"} <= listed  # the task's app's tools only
            assert not {"calendar_create_event", "messenger_send_message", "banking_transfer"} & listed
            assert by_api["reward"] == 1 and by_api["success"] and by_api["steps"] == 2, by_api
            # the api interface refuses page actions; a refused tool call names what is allowed
            _data(await s.call_tool("reset", {"task": "todo.add_item", "seed": 3, "interface": "api"}))
            refused = _data(await s.call_tool("act", {"action": "click('12')"}))
            assert "api interface" in refused["last_action_error"]
            wrong = _data(await s.call_tool("todo_toggle_item", {"id": "t999"}))
            assert "no item 't999'" in wrong["last_action_error"] and "allowed" in wrong["last_action_error"]
            # the gui interface lists no app tools and refuses them (through act too)
            _data(await s.call_tool("reset", {"task": "todo.add_item", "seed": 1, "interface": "gui"}))
            assert not APP_TOOLS & {t.name for t in (await s.list_tools()).tools}
            off = _data(await s.call_tool("act", {"action": "todo.add_item(title='x')"}))
            assert "gui interface" in off["last_action_error"]
            assert "interface is 'gui'" in (await s.call_tool("todo_add_item", {"title": "x"})).content[0].text
            assert _data(await s.call_tool("get_reward", {}))["reward"] == 0

    run_async(main)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@asynccontextmanager
async def http_session(url: str):
    async with streamablehttp_client(url) as (read, write, _), ClientSession(read, write) as s:
        await s.initialize()
        yield s


def test_http_sessions_each_own_a_world():
    proc = subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.cli", "mcp", "--port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = proc.stderr.readline()  # the server says where it listens before anything else
        m = re.search(r"at (http://127\.0\.0\.1:(\d+)/mcp)", first)
        assert m and "agent mode" in first, first
        url, port = m.group(1), int(m.group(2))
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.3)

        async def main():
            async with http_session(url) as a, http_session(url) as b:
                german = _data(await b.call_tool("reset", {"task": "todo.add_item", "variation": "german"}))
                solved = await solve_add_item_by_gui(a)
                assert solved["reward"] == 1
                # b's world is its own: German, and without a's new item
                _text(await b.call_tool("act", {"action": "goto('/todo/')"}))
                tree_b = _text(await b.call_tool("observe", {"mode": "text"}))
                assert solved["item"] not in tree_b
                assert "Aufgaben" in tree_b or german["goal"] != solved["goal"]
                assert _text(await a.call_tool("app_url", {})) != _text(await b.call_tool("app_url", {}))
                still = _data(await a.call_tool("get_reward", {}))
                assert still["reward"] == 1 and "explanation" not in still  # an agent's server: no answer key
                # b solves a task through app tools (mixed: the page is reloaded after the change)
                by_api = await solve_add_item_by_api(b, interface="mixed")
                assert by_api["reward"] == 1, by_api
                tree_b = _text(await b.call_tool("observe", {"mode": "text"}))
                assert by_api["item"] in tree_b
                assert _data(await a.call_tool("get_reward", {}))["reward"] == 1

        run_async(main)
        time.sleep(1)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    rest = proc.stderr.read()
    # two clients came and went: a client disconnecting is not an error of the server
    assert "Traceback" not in rest and "ClosedResourceError" not in rest, rest[:3000]


def test_the_server_says_when_its_port_is_in_use():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        done = subprocess.run(
            [sys.executable, "-m", "openapps_sim.cli", "mcp", "--port", port],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2 and f"--port: {port}: cannot listen" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
