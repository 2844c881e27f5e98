"""MCP as a typed service (issue 40, point 7), through the MCP SDK's own client in memory on the
text backend: every tool's result is a typed object (an output schema, structured content the
client checks against it, and the same object as JSON text), not a JSON string inside a
``{"result": ...}`` wrapper; ``reset``'s interface defaults to ``gui`` as a sweep's does; the
apps' own tools are listed and callable only in a session whose interface has them."""

from __future__ import annotations

import json

from mcp import types

from .mcp_play import memory_server, run

STEP = {"reward", "done", "truncated", "category", "last_action_error", "tool_result", "url", "steps", "max_steps"}
EPISODE = {"goal", "url", "task", "variation", "seed", "interface", "backend", "termination", "max_steps"}
EPISODE |= {"answer_schema"}  # only for a task that returns a value
REWARD = {"task", "variation", "seed", "language", "interface", "backend", "termination", "reward", "success"}
REWARD |= {"partial_reward", "explanation", "steps", "max_steps", "done", "attempts"}
SOME_APP_TOOLS = {"todo_read", "todo_add_item", "shop_checkout", "calendar_create_event", "code_editor_create_file"}
TODO_TOOLS = {"todo_read", "todo_add_item", "todo_toggle_item"}


def typed(result) -> dict:
    """The structured content of a result, which its text repeats as one JSON object."""
    assert not result.isError, result.content
    data = result.structuredContent
    assert isinstance(data, dict) and list(data) != ["result"], data
    assert len(result.content) == 1 and json.loads(result.content[0].text) == data
    return data


async def listed(client) -> dict[str, types.Tool]:
    return {t.name: t for t in (await client.list_tools()).tools}


def test_tool_results_are_typed_objects():
    async def main():
        async with memory_server() as (_, client):
            tools = await listed(client)
            assert set(tools["reset"].outputSchema["properties"]) == EPISODE
            assert set(tools["act"].outputSchema["properties"]) == STEP
            assert set(tools["get_reward"].outputSchema["properties"]) == REWARD
            assert set(tools["list_tasks"].outputSchema["properties"]) == {"tasks"}
            assert set(tools["list_variations"].outputSchema["properties"]) == {"variations"}
            assert tools["observe"].outputSchema is None  # a page's text and image, as content blocks
            tasks = typed(await client.call_tool("list_tasks", {"app": "maps"}))["tasks"]
            assert {"id": "maps.distance_km", "apps": ["maps"]}.items() <= next(
                t for t in tasks if t["id"] == "maps.distance_km"
            ).items()
            packs = typed(await client.call_tool("list_variations", {}))["variations"]
            assert {"name", "description"} == set(packs[0]) and "german" in {p["name"] for p in packs}
            start = typed(await client.call_tool("reset", {"task": "todo.add_item", "seed": 5, "backend": "text"}))
            assert set(start) == EPISODE - {"answer_schema"} and start["seed"] == 5 and start["max_steps"] == 8
            step = typed(await client.call_tool("act", {"action": "noop(0)"}))
            assert step == {**step, "reward": 0.0, "done": False, "category": "valid", "steps": 1}
            assert set(step) == STEP - {"tool_result"}  # a page action has no tool result
            got = typed(await client.call_tool("get_reward", {}))
            # an agent's server: no partial reward before the end, never an explanation (not even null)
            assert set(got) == REWARD - {"partial_reward", "explanation"}
            assert (got["reward"], got["success"], got["steps"], got["attempts"]) == (0.0, False, 1, [])

    run(main)


def test_the_answer_schema_is_given_by_reset_and_list_tasks():
    """Issue 43, point 2: a task that returns a value gives its answer's type and JSON Schema in
    ``reset``'s result and in ``list_tasks``, as the env's ``answer_schema`` observation does."""
    number = {"type": "number", "schema": {"type": "number"}}
    summary = {
        "type": "json",
        "schema": {
            "type": "object",
            "properties": {"files": {"type": "number"}, "folders": {"type": "number"}},
            "required": ["files", "folders"],
            "additionalProperties": False,
        },
    }

    async def main():
        async with memory_server() as (_, client):
            start = typed(await client.call_tool("reset", {"task": "todo.clear_done_count", "backend": "text"}))
            assert start["answer_schema"] == number and "(a number)" in start["goal"]
            args = {"task": "code_editor.create_then_summary", "seed": 2, "backend": "text"}
            assert typed(await client.call_tool("reset", args))["answer_schema"] == summary
            start = typed(await client.call_tool("reset", {"task": "todo.add_item", "backend": "text"}))
            assert "answer_schema" not in start
            tasks = {t["id"]: t for t in typed(await client.call_tool("list_tasks", {}))["tasks"]}
            assert tasks["code_editor.create_then_summary"]["answer_schema"] == summary
            assert tasks["todo.count_open"]["answer_schema"] == number
            assert "answer_schema" not in tasks["todo.add_item"]

    run(main)


def test_reset_defaults_to_the_gui_interface_as_sweeps_do():
    async def main():
        async with memory_server() as (_, client):
            start = typed(await client.call_tool("reset", {"task": "todo.add_item", "seed": 1, "backend": "text"}))
            assert start["interface"] == "gui"
            step = typed(await client.call_tool("act", {"action": "todo.add_item(title='Oat milk')"}))
            assert step["category"] == "unknown_action" and "gui interface" in step["last_action_error"]

    run(main)


def test_app_tools_are_listed_and_callable_only_where_the_interface_has_them():
    async def main():
        changes = []

        async def on_message(message) -> None:
            if isinstance(message, types.ServerNotification):
                changes.append(message.root.method)

        async with memory_server(message_handler=on_message) as (_, client):
            assert not SOME_APP_TOOLS & set(await listed(client))  # before any reset: gui, the default
            for seed, interface in enumerate(["gui", "api", "mixed", "gui"]):
                args = {"task": "todo.add_item", "seed": seed, "backend": "text", "interface": interface}
                typed(await client.call_tool("reset", args))
                names = set(await listed(client))
                assert {"reset", "act", "observe", "get_reward"} <= names
                assert (TODO_TOOLS <= names) == (interface != "gui"), (interface, names)
                # a todo task lists todo's tools only, not the other 63 apps'
                assert not (SOME_APP_TOOLS - TODO_TOOLS | {"banking_transfer", "messenger_read"}) & names, names
                called = await client.call_tool("todo_add_item", {"title": "Oat milk"})
                if interface == "gui":
                    assert called.isError and called.content[0].text == (
                        "todo_add_item: interface: the episode's interface is 'gui', which has no app tools; "
                        "allowed: page actions through act, or reset with interface='api' or 'mixed'"
                    )
                    # refused before it ran: not a step, and the world is unchanged
                    got = typed(await client.call_tool("get_reward", {}))
                    assert got["steps"] == 0, got
                else:
                    assert typed(called)["tool_result"]["title"] == "Oat milk"
            # the list changed on gui -> api and mixed -> gui only (api -> mixed lists the same tools)
            assert changes == ["notifications/tools/list_changed"] * 2, changes
            # a cross-app task lists both its apps' tools, and the list changes with the task
            args = {"task": "banking.transfer_then_message", "seed": 0, "backend": "text", "interface": "api"}
            typed(await client.call_tool("reset", args))
            names = set(await listed(client))
            assert {"banking_read", "banking_transfer", "messenger_read", "messenger_send_message"} <= names
            assert not {"todo_add_item", "calendar_create_event", "hotels_book"} & names, names
            assert changes == ["notifications/tools/list_changed"] * 3, changes

    run(main)
