"""openapps_sim.service.rollout: the instances an RL framework's config names, and a rollout
played from asyncio on its own world (text backend), rewarded by the env's own evaluation and
freed at its end. The verifiers environment on top of it: tests/test_verifiers_env.py."""

from __future__ import annotations

import asyncio
import re

import pytest

from openapps_sim.envs.asyncenv import run_coroutine
from openapps_sim.errors import ConfigError
from openapps_sim.service.rollout import ChatRollout, Instance, instances
from openapps_sim.web.server import app_server


def test_instances_expand_families_packs_and_seeds_in_order():
    got = instances(["todo.add_*", "todo.add_item"], ["default", " dark_theme ", "dark_theme"], 2)
    assert [i.name for i in got] == [
        "todo.add_count_open/default/0",
        "todo.add_count_open/default/1",
        "todo.add_count_open/dark_theme/0",
        "todo.add_count_open/dark_theme/1",
        "todo.add_in_order/default/0",
        "todo.add_in_order/default/1",
        "todo.add_in_order/dark_theme/0",
        "todo.add_in_order/dark_theme/1",
        "todo.add_item/default/0",
        "todo.add_item/default/1",
        "todo.add_item/dark_theme/0",
        "todo.add_item/dark_theme/1",
    ]
    assert instances(["todo.add_item"], None, [7, 3, 7], "de") == [
        Instance("todo.add_item", "default", 7, "de"),
        Instance("todo.add_item", "default", 3, "de"),
    ]
    assert instances(["todo.add_item"], None, [3], "de")[0].name == "todo.add_item/default/3/de"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((["nosuch.*"], None, 1), "cfg: tasks[0]: unknown name 'nosuch.*'; allowed: one of "),
        (("todo.add_item", None, 1), "cfg: tasks: expected a list of family ids or globs, got 'todo.add_item'"),
        ((["todo.add_item"], ["nosuchpack"], 1), "cfg: variations[0]: unknown name 'nosuchpack'; allowed: "),
        ((["todo.add_item"], None, 0), "cfg: seeds: expected a whole number from 1 to 100000, got 0"),
        (
            (["todo.add_item"], None, []),
            "cfg: seeds: the list is empty; allowed: a number n (seeds 0..n-1) or a list of seeds, 1 to 100000",
        ),
        ((["todo.add_item"], None, [1, -2]), "cfg: seeds[1]: expected a whole number >= 0, got -2"),
    ],
)
def test_instances_name_the_key_of_a_mistake(args, message):
    with pytest.raises(ConfigError) as err:
        instances(*args, source="cfg")
    assert str(err.value).startswith(message)


def test_instances_refuse_an_unknown_language():
    with pytest.raises(ConfigError, match=r"^cfg: language: unknown language 'xx'; allowed: .*\bde\b"):
        instances(["todo.add_item"], None, 1, "xx", source="cfg")


def bid(observation: str, pattern: str) -> str:
    return re.search(rf"\[(\w+)\] {pattern}", observation).group(1)


async def play(instance: Instance, title: str) -> tuple[list, dict, object]:
    """Open the todo app, fill ``title``, add it (and declare done if that did not end it)."""
    async with ChatRollout(instance) as rollout:
        first = await rollout.start()
        world = rollout.session.env.unwrapped.task.live
        steps = [await rollout.step("click('999999')")]  # checked, runs nothing, costs a step
        steps.append(await rollout.step(f"click('{bid(first, 'link .Todo')}')"))
        page = steps[-1].observation
        steps.append(await rollout.step(f"fill('{bid(page, 'textbox')}', {title!r})"))
        steps.append(await rollout.step(f"click('{bid(page, 'button .Add')}')"))
        if not steps[-1].done:
            steps.append(await rollout.step("send_msg_to_user('done')"))
        return [first, *steps], await rollout.result(), world


def test_rollouts_play_concurrently_each_on_its_own_world_and_free_it():
    async def both():
        return await asyncio.gather(
            play(Instance("todo.add_item", seed=2), "Prepare slides for Monday"),
            play(Instance("todo.add_item", seed=0), "Defrost the fridge"),
        )

    (good, good_result, good_world), (bad, bad_result, bad_world) = run_coroutine(both)
    assert good[0].startswith("Task: Add 'Prepare slides for Monday' to my todo list.\n\nCurrent page: http://")
    assert "\nAccessibility tree of the page:\n" in good[0]
    assert good[0].endswith("Answer with <think>your reasoning</think> then <action>one action</action>.")
    invalid = good[1]
    assert (invalid.category, invalid.done) == ("bad_arguments", False)
    assert "\nYour last action failed: invalid action (bad_arguments): no element with bid '999999' on this page\n" in (
        invalid.observation
    )
    assert [s.done for s in good[1:]] == [False, False, False, True]
    assert {k: good_result[k] for k in ("reward", "success", "steps", "ended")} == {
        "reward": 1.0,
        "success": True,
        "steps": 4,
        "ended": "task",
    }
    # the wrong title, then a declaration: the env ends the episode with reward 0
    assert [s.done for s in bad[1:]] == [False, False, False, False, True]
    assert {k: bad_result[k] for k in ("reward", "success", "steps", "ended")} == {
        "reward": 0.0,
        "success": False,
        "steps": 5,
        "ended": "task",
    }
    assert bad_result["explanation"] == (
        "2 state difference(s):\n  todo.items: missing todo 'defrost the freezer'\n  todo.items: extra todo 'defrost the fridge'"
    )
    assert good_world.id != bad_world.id
    for world in (good_world, bad_world):  # closed: the app server no longer has the world
        assert world.id not in app_server().worlds


def test_a_rollout_frees_its_world_when_its_body_fails():
    async def failing():
        async with ChatRollout(Instance("todo.add_item")) as rollout:
            await rollout.start()
            failing.world = rollout.session.env.unwrapped.task.live
            raise RuntimeError("the trainer stopped")

    with pytest.raises(RuntimeError, match="the trainer stopped"):
        run_coroutine(failing)
    assert failing.world.id not in app_server().worlds
