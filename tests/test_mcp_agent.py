"""The MCP server as the agent under test meets it, through the MCP SDK's own client: invalid
actions sorted as docs/agents.md sorts them, one-sentence mistakes, the step budget ending the
episode, and no answer key unless the server was started for an evaluator (issue 26 point 4,
issue 23 points 7 and 9)."""

from __future__ import annotations

import sys

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from openapps_sim.service.session import EXPLANATION_LINE_CHARS, shorten_explanation

from .test_mcp import _data, _text, run_async


def _error(result) -> str:
    assert result.isError, result.content
    return result.content[0].text


def test_a_long_explanation_is_cut_per_line():
    text = shorten_explanation("1 state difference(s):\n  todo.items: unexpected todo '" + "x" * 50_000 + "'")
    first, second = text.splitlines()
    assert first == "1 state difference(s):"
    assert len(second) < EXPLANATION_LINE_CHARS + 40 and second.endswith("(50032 characters in all)")
    many = shorten_explanation("\n".join(f"line {i}" for i in range(100)))
    assert many.splitlines()[-1] == "… and 60 more lines"


@pytest.mark.browser
def test_an_agent_gets_sorted_action_errors_clean_mistakes_a_step_budget_and_no_answer_key():
    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "openapps_sim.cli", "mcp"])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            nope = _error(await s.call_tool("list_tasks", {"app": "nope"}))
            assert nope.startswith("list_tasks: app: unknown app 'nope' (did you mean notes?); allowed: one of ")
            assert nope.endswith(" apps; openapps apps lists them"), nope
            text = _error(await s.call_tool("reset", {"task": "todo.add_item", "variation": "dark_theme+nope"}))
            assert (
                text.startswith("reset: variation: unknown name 'nope'; allowed: one of ") and "list_variations" in text
            )
            assert "server:" not in text and "--variation" not in text and "Error executing" not in text
            text = _error(await s.call_tool("reset", {"task": "todo.nope"}))
            assert text.startswith(
                "reset: task: unknown name 'todo.nope' (did you mean todo.count_open, todo.item_notes or todo.add_count_open?); allowed: one of "
            )
            text = _error(await s.call_tool("reset", {"task": "todo.add_item", "seed": "abc"}))
            assert text.startswith("reset: seed: expected a whole number, got 'abc'; allowed: 0, 1, 2"), text
            text = _error(await s.call_tool("reset", {"task": "todo.add_item", "seed": -2}))
            assert text.startswith("reset: seed: expected a whole number >= 0, got -2")

            families = {t["id"]: t for t in _data(await s.call_tool("list_tasks", {"app": "todo"}))["tasks"]}
            reset = _data(
                await s.call_tool("reset", {"task": "todo.add_item", "seed": 1, "variation": "interrupt_crash"})
            )
            budget = reset["max_steps"]
            assert budget > families["todo.add_item"]["max_steps"]  # the interruption's allowance is in it
            sorted_as = {
                "click 12": "malformed",
                "__import__('os').system('id')": "unknown_action",
                "fill('1')": "bad_arguments",
                "click('99999')": "bad_arguments",
            }
            for n, (action, category) in enumerate(sorted_as.items(), 1):
                step = _data(await s.call_tool("act", {"action": action}))
                assert step["category"] == category, (action, step)
                assert step["last_action_error"].startswith(f"invalid action ({category}): "), step
                assert step["steps"] == n and not step["done"]
            reward = _data(await s.call_tool("get_reward", {}))
            assert reward["reward"] == 0 and "explanation" not in reward  # the agent never sees the answer key
            steps = [_data(await s.call_tool("act", {"action": "noop(0)"})) for _ in range(budget - 4)]
            assert [st["done"] for st in steps] == [False] * (budget - 5) + [True]
            assert steps[-1]["truncated"] and steps[-1]["steps"] == budget
            over = _error(await s.call_tool("act", {"action": "noop(0)"}))
            assert over == (
                f"act: episode: the episode has ended after {budget} steps (its step budget is spent); "
                "allowed: reset to start another"
            )

    run_async(main)


@pytest.mark.browser
def test_an_evaluator_server_explains_the_reward_without_echoing_long_values():
    # a server process of its own: Playwright's sync API is bound to the thread that started it,
    # and other tests of this process may have started it on theirs
    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "openapps_sim.cli", "mcp", "--evaluator"])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            _text(await s.call_tool("reset", {"task": "todo.add_item", "seed": 1, "interface": "mixed"}))
            huge = "Buy " + "oat milk " * 600  # 5,404 characters: under the input cap (protocol.MAX_TEXT_CHARS)
            step = _data(await s.call_tool("todo_add_item", {"title": huge}))
            assert step["last_action_error"] == "" and step["category"] == "valid", step
            reward = _data(await s.call_tool("get_reward", {}))
            assert reward["reward"] == 0 and "todo.items" in reward["explanation"]
            assert len(reward["explanation"]) < 2000 and "characters in all" in reward["explanation"]

    run_async(main)


def test_an_mcp_episode_on_the_text_backend_needs_no_browser():
    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "openapps_sim.cli", "mcp"])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            text = _error(await s.call_tool("reset", {"task": "todo.add_item", "backend": "firefox"}))
            assert text.startswith("reset: backend: unknown backend 'firefox'; allowed: chromium, text")
            reset = _data(
                await s.call_tool("reset", {"task": "todo.add_item", "seed": 3, "backend": "text", "interface": "api"})
            )
            assert reset["backend"] == "text"
            tree = _text(await s.call_tool("observe", {"mode": "text"}))
            assert "RootWebArea" in tree and "[" in tree
            shot = _error(await s.call_tool("observe", {"mode": "screenshot"}))
            assert "text backend renders no pixels" in shot
            done = _data(await s.call_tool("act", {"action": "todo.add_item(title='Clean the fridge')"}))
            assert done["reward"] == 1

    run_async(main)
