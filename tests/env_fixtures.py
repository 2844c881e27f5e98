"""What env tests share: one gym env for a whole test module."""

from __future__ import annotations

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401  (registers the ids)


def module_env(env_id: str, **kwargs):
    """A module-scoped fixture: ``gym.make(env_id, **kwargs)``, closed after the module's tests.
    Bind it to the fixture's name in the module (``env = module_env(...)``)."""

    @pytest.fixture(scope="module")
    def env():
        made = gym.make(env_id, **kwargs)
        yield made
        made.close()

    return env
