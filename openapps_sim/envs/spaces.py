"""The environment's action space: BrowserGym's ``Unicode`` (any action string), made
sampleable so that Gymnasium's ``check_env`` and ``action_space.sample()`` work.

A sample is an action string that is valid in the space on every page and changes no app
state: ``noop(wait_ms=...)``, a scroll (``bid`` and ``all``) or a mouse move (``coord``). An
agent's actions are not drawn from here; the space's members are all strings, as in BrowserGym.
"""

from __future__ import annotations

from browsergym.core.spaces import Unicode


class ActionStrings(Unicode):
    """Any BrowserGym action string; :meth:`sample` draws a harmless one of ``space``."""

    def __init__(self, space: str = "all", seed: int | None = None) -> None:
        super().__init__()
        self.space = space
        if seed is not None:
            self.seed(seed)

    def sample(self, mask=None, probability=None) -> str:  # noqa: ARG002 - Space.sample's signature
        rng = self.np_random
        kind = int(rng.integers(2))
        if kind == 0:
            return f"noop(wait_ms={int(rng.integers(0, 50))})"
        if self.space == "coord":
            return f"mouse_move({int(rng.integers(0, 200))}, {int(rng.integers(0, 200))})"
        return f"scroll(0, {int(rng.integers(-200, 200))})"

    def __repr__(self) -> str:
        return f"ActionStrings({self.space!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionStrings) and other.space == self.space
