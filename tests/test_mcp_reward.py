"""MCP's reward is the environment's own verdict, answers, infeasibility reports and declarations
included, and an agent's server shows nothing of the goal before the episode ends (issue 42,
points 2 and 3). Every episode is played through the MCP SDK's own client by the oracle (page
actions through ``act``, or the apps' own tools), on the text backend, over answer families
(numbers, times, JSON, distances; several languages), infeasible families and families whose
goal is a state, each also got wrong on purpose."""

from __future__ import annotations

import pytest

from .mcp_play import STEP_KEYS, memory_server, play, reward, run

NOT_KNOWN = "send_msg_to_user('I do not know.')"
# family, app version, and how the episode is got wrong: another answer or report instead of the
# oracle's (``wrong``), or an action before the oracle's first (``first``)
CASES = [
    ("todo.count_open", "german", {"wrong": NOT_KNOWN}),
    ("calendar.event_time", "default", {"wrong": NOT_KNOWN}),
    ("shop.cart_summary_json", "default", {"wrong": NOT_KNOWN}),
    ("maps.distance_km", "arabic", {"wrong": NOT_KNOWN}),
    ("messenger.last_from_contact", "mandarin", {"wrong": NOT_KNOWN}),
    ("todo.tick_missing_item", "default", {"wrong": "send_msg_to_user('Done.')"}),
    ("shop.add_missing_product", "french", {"wrong": "send_msg_to_user('Done.')"}),
    ("todo.add_item", "default", {"first": "report_infeasible('This cannot be done.')"}),
    ("calendar.add_event", "spanish", {"first": "report_infeasible('This cannot be done.')"}),
]
INTERFACES = ("gui", "api")
# what would tell an agent how close it is to the goal
PROGRESS_KEYS = {"partial_reward", "explanation", "milestones", "subgoals", "state_diff", "answer_ok", "goal_met"}


@pytest.mark.parametrize("termination", ["auto", "agent"])
@pytest.mark.parametrize("evaluator", [False, True], ids=["agent_server", "evaluator_server"])
def test_get_reward_is_the_episodes_own_verdict(evaluator, termination):
    """After the episode ends, get_reward says what the final step said: 1 for the oracle's
    answer, report or declared state, 0 for a wrong answer, a declaration of an infeasible task
    as done, or a feasible one reported infeasible (it read 0 after a right answer, before)."""

    async def main():
        async with memory_server(evaluator) as (server, client):
            for n, (task, variation, wrong) in enumerate(CASES):
                for i, interface in enumerate(INTERFACES):
                    seed = 10 * n + 2 * i + 1
                    kw = {"variation": variation, "termination": termination}
                    last = await play(server, client, task, interface, seed=seed, **kw)
                    got = await reward(client)
                    where = (task, interface, termination, last, got)
                    assert last["reward"] == 1.0 and last["done"], where
                    assert (got["reward"], got["success"], got["done"]) == (1.0, True, True), where
                    assert got["partial_reward"] == 1.0, where
                    assert ("explanation" in got) == evaluator, where
                    last = await play(server, client, task, interface, seed=seed + 1, **kw, **wrong)
                    got = await reward(client)
                    where = (task, interface, termination, last, got)
                    assert last["reward"] == 0.0 and last["done"], where
                    assert (got["reward"], got["success"], got["done"]) == (0.0, False, True), where

    run(main)


@pytest.mark.parametrize("termination", ["auto", "agent"])
def test_an_agents_server_shows_no_progress_before_the_episode_ends(termination):
    """On an agent's server nothing before the end says how close the goal is: get_reward is
    reward 0 without partial reward (it showed partial_reward 1.0 while the state was right but
    not yet declared), and no step result carries more than the step's own facts."""

    async def main():
        async with memory_server(evaluator=False) as (server, client):

            async def watch(step):
                assert set(step) <= STEP_KEYS and step["reward"] == 0.0, step
                got = await reward(client)
                assert (got["reward"], got["success"], got["done"]) == (0.0, False, False), got
                assert not PROGRESS_KEYS & set(got), got

            for n, (task, variation, _) in enumerate(CASES):
                for i, interface in enumerate(INTERFACES):
                    kw = {"variation": variation, "termination": termination, "seed": 10 * n + i + 500}
                    last = await play(server, client, task, interface, watch=watch, **kw)
                    assert last["reward"] == 1.0

    run(main)


@pytest.mark.parametrize("termination", ["auto", "agent"])
def test_an_evaluators_server_shows_progress_before_the_episode_ends(termination):
    """The evaluator's server keeps its use: partial reward and explanation at every step, and
    under agent termination a right state not yet declared reads partial reward 1, reward 0."""

    async def main():
        async with memory_server(evaluator=True) as (server, client):
            seen: list[dict] = []

            async def watch(step):
                seen.append(await reward(client))
                assert {"partial_reward", "explanation"} <= set(seen[-1]), seen[-1]

            for seed, task in enumerate(["todo.add_item", "calendar.add_event"], 700):
                seen.clear()
                await play(server, client, task, "api", watch=watch, seed=seed, termination=termination)
                if termination == "agent":  # the last step before the declaration: right, undeclared
                    assert (seen[-1]["reward"], seen[-1]["partial_reward"]) == (0.0, 1.0), seen[-1]
                    assert "declare" in seen[-1]["explanation"], seen[-1]["explanation"]

    run(main)
