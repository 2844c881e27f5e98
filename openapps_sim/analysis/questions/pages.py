"""The pages questions are about, opened in an environment: a world reset to a pack and seed,
and any page of it by path, as its accessibility tree (and, on Chromium, its screenshot).

The environment is that of one fixed family (:data:`FAMILY`); after the env's reset the world
is reset again to the pack and seed, so the state a question is derived from and asked about is
the world's state after reset, with no task's instance in it. No task is scored.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

from openapps_sim.analysis.questions.tree import PageTree
from openapps_sim.config.discovery import discover_apps
from openapps_sim.config.limits import MAX_STEPS
from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.observe import axtree_text
from openapps_sim.envs.registration import make_env

FAMILY = "maps.save_place"  # the env's family: only its world is used
BACKENDS = ("text", "chromium")


@dataclass
class Shown:
    """One page as an agent is shown it."""

    tree: PageTree
    screenshot: str | None  # base64 PNG (Chromium), else None
    obs: dict  # the environment's observation of the page


class PageSource:
    """Pages of worlds, one world at a time, in one environment."""

    def __init__(self, backend: str = "text", screenshots: bool = False) -> None:
        obs_mode = "both" if screenshots and backend == "chromium" else "axtree"
        self.env = make_env(FAMILY, backend=backend, obs_mode=obs_mode)
        self.screenshots = screenshots and backend == "chromium"
        self.key: tuple[str, int] | None = None
        self.steps = 0
        self.cache: dict[str, Shown] = {}
        self.apps = discover_apps()

    def open(self, pack: str, seed: int) -> None:
        """The world of ``pack`` and ``seed``, freshly reset (kept when it is already open)."""
        if self.key == (pack, seed) and self.steps < MAX_STEPS - 20:
            return
        spec = WorldSpec.make("--packs", pack, seed)
        self.env.reset(seed=seed, options={"max_steps": MAX_STEPS, "world": spec})
        self.world.reset(spec)
        self.key, self.steps, self.cache = (pack, seed), 0, {}

    @property
    def world(self):
        return self.env.unwrapped.task.live

    def show(self, path: str) -> Shown:
        """The page at ``path`` (``/todo/``) of the open world."""
        if path not in self.cache:
            obs, *_ = self.env.step(f"goto({self.world.url + path!r})")
            self.steps += 1
            shot = png_base64(obs.get("screenshot")) if self.screenshots else None
            self.cache[path] = Shown(PageTree(axtree_text(obs)), shot, obs)
        return self.cache[path]

    def tree(self, path: str) -> PageTree:
        return self.show(path).tree

    def close(self) -> None:
        self.env.close()


def png_base64(array) -> str | None:
    """A screenshot array as base64 PNG (None when there are no pixels)."""
    if array is None or getattr(array, "size", 0) == 0:
        return None
    from PIL import Image  # only Chromium runs have pixels to encode

    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")
