"""The oracle solves every family through the real BrowserGym env: every case on the text
backend, a sample of them (and the slow full matrix) through the real browser."""

from __future__ import annotations

import pytest
from openapps_sim.agents.oracle import OracleAgent

from openapps_sim.envs.registration import make_env
from openapps_sim.taskkit.progress import compact_events, wlcs

from .oracle_cases import BRANCH_PACKS, branching_families, full_matrix, on_backends, representative, seeds_per_branch


@pytest.fixture(scope="module")
def env():
    e = make_env("todo.add_item", obs_mode="axtree")
    yield e
    e.close()


def run_oracle(env, family, pack, seed, language="en"):
    kwargs = {"family": family, "variation": pack, "language": language}
    obs, info = env.reset(seed=seed, options={"task_kwargs": kwargs})
    agent = OracleAgent()
    agent.reset(obs["goal"], info["task_info"])
    budget = info["task_info"]["max_steps"]
    last = {}
    for _ in range(budget):
        action = agent.act(obs)
        obs, reward, terminated, truncated, last = env.step(action)
        assert not obs["last_action_error"], f"{action}: {obs['last_action_error']}"
        if terminated:
            if reward == 1.0:
                _assert_gold_operations(env.unwrapped.task)
            return reward, last
    return 0.0, last


def _assert_gold_operations(task):
    """The oracle's episode matches the family's declared operations: W-LCS is 1 (for every
    family, so the gold sequences the metric reads are right)."""
    ops = compact_events(task.events())
    gold = task.instance.oracle_ops
    assert gold is not None and wlcs(ops, gold) == 1.0, f"event log {ops} vs gold {[str(o) for o in gold]}"


@pytest.mark.parametrize("family,pack,seed,backend", on_backends(representative()))
def test_oracle_representative(env_on, family, pack, seed, backend):
    reward, info = run_oracle(env_on(backend), family, pack, seed)
    assert reward == 1.0, info.get("task_info", {}).get("explanation")


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("family,pack,seed", full_matrix())
def test_oracle_full_matrix(env, family, pack, seed):
    reward, info = run_oracle(env, family, pack, seed)
    assert reward == 1.0, info.get("task_info", {}).get("explanation")


@pytest.mark.parametrize("pack", BRANCH_PACKS)
@pytest.mark.parametrize("family", branching_families())
def test_oracle_takes_every_branch(env_on, family, pack):
    """Every branch of every branching family, on the text backend (on every run)."""
    env = env_on("text")
    seeds = seeds_per_branch(family, pack)
    assert len(seeds) >= 2, f"{family}/{pack}: one branch only: {seeds}"
    for branch, seed in seeds.items():
        reward, info = run_oracle(env, family, pack, seed)
        assert reward == 1.0, f"{branch} (seed {seed}): " + str(info.get("task_info", {}).get("explanation"))


# Italian is a pack and two task files, no engine code: the oracle solves families that bring
# content in (todo titles, events, messages, pins, lines in files) with Italian goals.
ITALIAN_FAMILIES = [
    "todo.add_item",
    "todo.edit_item",
    "calendar.add_event",
    "messenger.send_message",
    "maps.drop_pin",
    "code_editor.edit_file",
    "shop.add_to_cart",
    "multi.cancel_event_and_tell",
]


@pytest.mark.parametrize("family,backend", on_backends([(f,) for f in ITALIAN_FAMILIES]))
def test_oracle_in_a_language_added_as_data(env_on, family, backend):
    env = env_on(backend)
    obs, info = env.reset(
        seed=1, options={"task_kwargs": {"family": family, "variation": "italian", "language": "auto"}}
    )
    assert info["task_info"]["language"] == "it"
    reward, info = run_oracle(env, family, "italian", 1, "auto")
    assert reward == 1.0, info.get("task_info", {}).get("explanation")
