"""Envs made and closed one after another reuse one browser inside ``browsers_kept_open()``;
outside it (the default) the last env to close closes its browser."""

from __future__ import annotations

import pytest

import openapps_sim.envs.browser as browsers
from openapps_sim.envs.registration import make_env

pytestmark = pytest.mark.browser


def _episode():
    """Make an env, run a reset, close it; the browser it ran on."""
    env = make_env("todo.add_item", obs_mode="axtree")
    try:
        env.reset(seed=0)
        return env.unwrapped.browser
    finally:
        env.close()


def test_a_kept_browser_serves_the_next_env_and_closes_when_the_block_ends(monkeypatch):
    monkeypatch.setattr(browsers, "_KEEP_OPEN", [0])  # as outside any block (the suite keeps one)
    with browsers.browsers_kept_open():
        first = _episode()
        assert first.is_connected()
        second = _episode()
        assert second is first  # no second launch
        with browsers.browsers_kept_open():  # an inner block's end closes nothing
            pass
        assert first.is_connected()
    assert not first.is_connected()


def test_without_the_block_the_last_env_closes_its_browser(monkeypatch):
    monkeypatch.setattr(browsers, "_KEEP_OPEN", [0])
    browsers.close_idle_browsers()  # the suite's kept browser, if this process has one
    browser = _episode()
    assert not browser.is_connected()


def test_a_kept_browser_that_died_is_replaced(monkeypatch):
    monkeypatch.setattr(browsers, "_KEEP_OPEN", [0])
    with browsers.browsers_kept_open():
        first = _episode()
        first.close()  # as a crash would leave it
        second = _episode()
        assert second is not first and second.is_connected()
    assert not second.is_connected()
