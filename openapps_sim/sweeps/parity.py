"""Parity of the two backends, measured: the same actions, the same world, the same text?

For one task instance, an agent (the oracle by default) runs the episode under Chromium; the
actions it took are then replayed, one by one, under the text backend in the *same* world
(reset to the same variation and seed, so every URL is identical). After every step the two
observations are flattened with BrowserGym's ``flatten_axtree_to_str`` — exactly what agents
read — and compared as they are: nothing is normalised on either side. Rewards, termination
and the action errors are compared too, and so is what scripts read from the DOM snapshot
(every test id's text nodes and attributes).

:func:`check` returns a :class:`Parity` with one :class:`Difference` per step where the texts
differ (the first differing lines of each), which ``openapps parity`` prints and
``tests/test_text_parity.py`` asserts on.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from browsergym.utils.obs import flatten_axtree_to_str

from openapps_sim.config.world import WorldSpec


@dataclass
class Difference:
    task: str
    variation: str
    seed: int
    step: int  # 0: after reset
    action: str
    url: str
    what: str  # "tree", "reward", "terminated" or "error"
    detail: str

    def line(self) -> str:
        return f"{self.task} {self.variation} seed {self.seed} step {self.step} ({self.action or 'reset'}) {self.url}: {self.what}\n{self.detail}"


@dataclass
class Parity:
    pages: int = 0  # observations compared
    identical: int = 0
    episodes: int = 0
    rewards_equal: int = 0
    differences: list[Difference] = field(default_factory=list)

    def add(self, other: Parity) -> None:
        self.pages += other.pages
        self.identical += other.identical
        self.episodes += other.episodes
        self.rewards_equal += other.rewards_equal
        self.differences += other.differences

    @property
    def share(self) -> float:
        return self.identical / self.pages if self.pages else 1.0


def flat(obs: dict) -> str:
    tree = obs.get("axtree_object") or {"nodes": []}
    return flatten_axtree_to_str(tree) if tree.get("nodes") else ""


def dom_view(obs: dict) -> dict:
    """What scripts read from ``dom_object``: every test id's text nodes and attributes."""
    from openapps_sim.taskkit.observation import testid_attributes, testid_text_parts

    return {"text": testid_text_parts(obs), "attributes": testid_attributes(obs)}


def _dom_diff(a: dict, b: dict, limit: int = 6) -> str:
    out = []
    for part in ("text", "attributes"):
        for key in sorted(set(a[part]) | set(b[part])):
            if a[part].get(key) != b[part].get(key):
                out.append(f"{part} of {key}: chromium {a[part].get(key)!r:.200} / text {b[part].get(key)!r:.200}")
    return "\n".join(out[:limit]) + (f"\n... {len(out) - limit} more" if len(out) > limit else "")


def _diff(a: str, b: str, lines: int = 12) -> str:
    out = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "chromium", "text", n=0, lineterm=""))
    return "\n".join(out[2 : 2 + lines])


def check(task: str, world: WorldSpec, viewport: str = "1280x720", agent: str = "oracle") -> Parity:
    """Run ``agent`` on one instance (``world``: its variation and seed, made and checked by the
    caller, e.g. ``WorldSpec.make``) under Chromium, replay its actions under the text backend in
    the same world, and compare every observation."""
    from openapps_sim.sweeps.record import EpisodeSpec, parse_viewport
    from openapps_sim.web.server import app_server

    spec = EpisodeSpec(agent=agent, task=task, world=world, viewport=viewport)
    live = app_server().add()  # served: Chromium plays in it first, then the text backend replays
    options = {"world": world, "task_kwargs": {"live": live}, "viewport": parse_viewport(viewport, "viewport")}
    try:
        seen, actions = _play_chromium(spec, options)
        replay = _replay_text(spec, options, actions)
    finally:
        app_server().drop(live)
    result = Parity(episodes=1)
    for step, (a, b) in enumerate(zip(seen, replay, strict=True)):
        where = (task, world.variation, world.seed, step, actions[step - 1] if step else "", a[0].get("url", ""))
        _compare(result, where, a, b)
    if seen[-1][1] == replay[-1][1]:
        result.rewards_equal += 1
    return result


def _play_chromium(spec, options: dict) -> tuple[list[tuple], list[str]]:
    """The agent's episode under Chromium: every (observation, reward, terminated), and its actions."""
    from openapps_sim.agent import task_info_for
    from openapps_sim.envs.registration import make_env
    from openapps_sim.sweeps.runner import make_agent_for

    env = make_env(spec.task, backend="chromium", obs_mode="axtree")
    try:
        obs, info = env.reset(options=options)  # the seed: in options["world"]
        bot = make_agent_for(spec)
        bot.reset(obs["goal"], task_info_for(bot, info["task_info"]), seed=spec.agent_seed)
        seen = [(obs, 0.0, False)]
        actions: list[str] = []
        for _ in range(info["task_info"]["max_steps"]):
            action = bot.act(obs)
            actions.append(action)
            obs, reward, terminated, truncated, _ = env.step(action)
            seen.append((obs, reward, terminated))
            if terminated or truncated:
                break
    finally:
        env.close()
    return seen, actions


def _replay_text(spec, options: dict, actions: list[str]) -> list[tuple]:
    """The same actions under the text backend: every (observation, reward, terminated)."""
    from openapps_sim.envs.registration import make_env

    env = make_env(spec.task, backend="text")
    try:
        obs, _ = env.reset(options=options)
        replay = [(obs, 0.0, False)]
        for action in actions:
            obs, reward, terminated, _, _ = env.step(action)
            replay.append((obs, reward, terminated))
    finally:
        env.close()
    return replay


def _compare(result: Parity, where: tuple, chromium: tuple, text: tuple) -> None:
    """One step's two observations, rewards and errors compared; what differs noted in ``result``."""
    (a, ra, ta), (b, rb, tb) = chromium, text
    result.pages += 1
    fa, fb = flat(a), flat(b)
    if fa == fb:
        result.identical += 1
    else:
        result.differences.append(Difference(*where, "tree", _diff(fa, fb)))
    da, db = dom_view(a), dom_view(b)
    if da != db:
        result.differences.append(Difference(*where, "dom", _dom_diff(da, db)))
    if (ra, ta) != (rb, tb):
        detail = f"chromium reward {ra} terminated {ta}; text reward {rb} terminated {tb}"
        result.differences.append(Difference(*where, "reward", detail))
    if bool(a.get("last_action_error")) != bool(b.get("last_action_error")):
        detail = f"chromium: {a.get('last_action_error')!r}\ntext: {b.get('last_action_error')!r}"
        result.differences.append(Difference(*where, "error", detail))
