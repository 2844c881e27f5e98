"""A step's recorded observation text (``sweeps.steplog``): the tree an agent acted on,
flattened once per observation (the text of a step's result is the next step's), and flattened
anew when the agent may have changed it."""

from __future__ import annotations

import openapps_sim.sweeps.steplog as steplog
from openapps_sim.envs.observe import testid_bids
from openapps_sim.envs.registration import make_env
from openapps_sim.sweeps.steplog import StepLog


class Quiet:
    def usage(self) -> dict:
        return {}


def test_each_observation_is_flattened_once_and_recorded_as_acted_on(monkeypatch):
    calls: list[int] = []
    real = steplog.observation_text
    monkeypatch.setattr(steplog, "observation_text", lambda obs: calls.append(1) or real(obs))
    env = make_env("todo.add_item", backend="text")
    try:
        obs, _ = env.reset(seed=0)
        log = StepLog(None, "ep", thumbnails=False)
        log.start(obs, {})
        texts = []
        for action in (f"click('{testid_bids(obs)['launch-todo']}')", "noop()", "noop()"):
            log.before(obs)
            texts.append(real(obs))  # the text as recorded before (flattened, cut to its bound)
            obs, *_ = env.step(action)
            log.after(Quiet(), action, obs, len(texts) - 1)
        assert [s["observation"] for s in log.steps] == texts
        assert texts[0] != texts[1] == texts[2] and texts[0].startswith("RootWebArea 'Start")
        assert len(calls) == 4  # the reset's and each step's result, once each (was 7)
    finally:
        env.close()


def test_an_observation_the_agent_changed_is_flattened_again():
    env = make_env("todo.add_item", backend="text")
    try:
        obs, _ = env.reset(seed=0)
        log = StepLog(None, "ep", thumbnails=False)
        log.start(obs, {})
        log.before(obs)
        shown = steplog.observation_text(obs)
        obs["axtree_object"]["nodes"] = obs["axtree_object"]["nodes"][:1]  # the agent cut its tree
        log.after(Quiet(), "bad action", None, 0)  # refused: the same tree is shown again
        log.before(dict(obs, last_action_error="invalid"))
        log.after(Quiet(), "noop()", None, 1)
        first, second = (s["observation"] for s in log.steps)
        assert first == shown and second == f"RootWebArea 'Start · OpenApps', focused, url='{obs['url']}'"
    finally:
        env.close()
