"""Grouped rollouts (k rollouts of one task instance, rewards together), envs used from asyncio
without blocking the event loop, and sessions that free their world when closed or dropped."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from openapps_sim.envs.asyncenv import make_async_env, run_coroutine
from openapps_sim.envs.registration import make_env
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.rollouts import Group, Rollout, agroup, group
from openapps_sim.web.server import app_server

GOAL_SEED_3 = (
    "My sister is visiting next week and I keep forgetting things, so please add 'Clean the fridge' to the todo list."
)


def test_a_group_is_k_rollouts_of_one_instance_with_their_rewards():
    g = group("todo.add_item", "default", 3, "oracle", k=4)
    assert g.goal == GOAL_SEED_3
    assert g.rewards == [1.0, 1.0, 1.0, 1.0]
    assert [r.steps for r in g.rollouts] == [4, 4, 4, 4]
    assert g.advantages() == [0.0, 0.0, 0.0, 0.0]
    idle = group("todo.add_item", "default", 3, lambda obs: "noop()", k=2)
    assert idle.goal == GOAL_SEED_3 and idle.rewards == [0.0, 0.0]
    assert [(r.steps, r.truncated, r.success) for r in idle.rollouts] == [(8, True, False), (8, True, False)]


def test_advantages_are_group_relative():
    g = Group("t", "default", 0, "goal", [Rollout(1.0, True, 1), Rollout(0.0, False, 1)] * 2)
    assert g.advantages() == [1.0, -1.0, 1.0, -1.0]


def test_an_agent_instance_is_refused_as_it_would_be_shared():
    from openapps_sim.agents.oracle import OracleAgent

    with pytest.raises(ConfigError, match="an Agent instance would be shared by the k rollouts"):
        group("todo.add_item", "default", 0, OracleAgent(), k=2)
    with pytest.raises(ConfigError, match="k: 0 is not a number of rollouts"):
        group("todo.add_item", "default", 0, "oracle", k=0)


def test_the_event_loop_keeps_running_while_eight_envs_step():
    """A ticker coroutine advances every 10 ms while a group of 8 rollouts plays: the env calls
    run in a thread pool, so no reset or step holds the loop (called on the loop, 8 rollouts of
    4 steps would hold it for their whole length, and the ticker would not tick in between)."""

    async def main():
        ticks: list[float] = []
        done = asyncio.Event()

        async def ticker():
            while not done.is_set():
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.01)

        async def play():
            try:
                return await agroup("todo.add_item", "default", 5, "oracle", k=8)
            finally:
                done.set()

        t0 = time.perf_counter()
        g, _ = await asyncio.gather(play(), ticker())
        return g, ticks, time.perf_counter() - t0

    g, ticks, seconds = run_coroutine(main)
    assert g.rewards == [1.0] * 8
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    # a held loop ticks at most at the start and the end; a loaded machine may slow the ticker
    # (the threads share the GIL), so the count asked is small and the gaps carry the proof
    assert len(ticks) >= 6, f"{len(ticks)} ticks in {seconds:.1f} s"
    assert max(gaps) < min(1.0, seconds / 3), f"the loop stood still for {max(gaps):.2f} s of {seconds:.1f} s"


def test_closed_and_dropped_sessions_free_their_worlds():
    """Sessions closed, and sessions dropped without a close (sync envs and AsyncEnvs), leave no
    world behind: the process's app server holds a world only while someone else does."""
    keep = make_env("todo.add_item", backend="text")
    keep.reset(seed=0)
    before = len(app_server().worlds)
    for i in range(6):
        env = make_env("todo.add_item", backend="text")
        env.reset(seed=i)
        if i % 2:
            env.close()
        del env

    async def sessions():
        for i in range(6):
            env = await make_async_env("todo.add_item")
            await env.reset(seed=i)
            if i % 2:
                await env.close()
            del env

    run_coroutine(sessions)
    gc.collect()
    last = make_env("todo.add_item", backend="text")
    last.reset(seed=0)
    assert len(app_server().worlds) == before + 1
    last.close()
    keep.close()
    assert len(app_server().worlds) == before - 1


AFTER_CHROMIUM = """
from openapps_sim.envs.registration import make_env
from openapps_sim.sweeps.rollouts import group

env = make_env("todo.add_item", backend="chromium")  # Playwright's sync API on this thread
env.reset(seed=1)
env.close()
print(group("todo.add_item", variation="default", seed=3, policy="oracle", k=2).rewards)
"""


@pytest.mark.browser
def test_a_group_runs_in_a_process_that_used_chromium_first():
    """A Chromium env leaves Playwright's event loop on its thread, where ``asyncio.run`` refuses
    to start: ``group`` used to fail there ("cannot be called from a running event loop")."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", AFTER_CHROMIUM], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("[1.0, 1.0]"), done.stdout + done.stderr[-3000:]
