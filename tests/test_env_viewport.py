"""Coordinate agents click the page they are shown (issue 10, point 1).

BrowserGym's screenshot extraction used to leave the first page of every episode laid out at
the browser window size (800x600) while the screenshot showed the viewport; a click at the
screenshot centre of a launcher tile then opened another app, or none.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401  (registers the ids)
from openapps_sim.config.catalog import discover_apps
from openapps_sim.envs import browser
from openapps_sim.envs.observe import testid_bids

from .tested_families import tested_apps

pytestmark = pytest.mark.browser

# the hand-built apps' and the reference described apps' tiles, and the launcher's last tile
# (the furthest a phone scrolls): a tile is the same component for each of the 64 apps
APPS = list(dict.fromkeys([*(a for a in tested_apps() if a != "start"), list(discover_apps())[-1]]))


def _tile_centre(obs: dict, app: str) -> tuple[float, float]:
    x, y, w, h = obs["extra_element_properties"][testid_bids(obs)[f"launch-{app}"]]["bbox"]
    return x + w / 2, y + h / 2


def _click_every_tile(env, width: int, height: int) -> None:
    for app in APPS:
        obs, _ = env.reset(seed=0)  # the first observation of an episode, screenshot included
        assert obs["screenshot"].shape == (height, width, 3)
        cx, cy = _tile_centre(obs, app)
        if cy >= height:  # below the fold on a phone: scroll, then read the box again
            obs, *_ = env.step(f"scroll(0, {int(cy - height / 2)})")
            cx, cy = _tile_centre(obs, app)
        assert 0 <= cx < width and 0 <= cy < height, (app, cx, cy)
        obs, *_ = env.step(f"mouse_click({cx:.1f}, {cy:.1f})")
        path = "/" + obs["url"].split("/", 3)[3]
        assert path.startswith(f"/{app}/"), f"{width}x{height}: the {app} tile's centre opened {obs['url']}"


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080), (390, 844)])
def test_clicking_the_screenshot_centre_of_every_tile_opens_that_app(width, height):
    env = gym.make("browsergym/openapps.todo.add_item", viewport={"width": width, "height": height})
    try:
        _click_every_tile(env, width, height)
        page = env.unwrapped.page
        env.reset(seed=0)
        assert page is not env.unwrapped.page
        assert env.unwrapped.page.evaluate("[innerWidth, innerHeight]") == [width, height]
    finally:
        env.close()


@pytest.mark.parametrize("obs_mode", ["both", "axtree"])
def test_the_page_keeps_its_viewport_with_full_chromium(monkeypatch, obs_mode):
    full = browser._executable("/usr/lib/chromium/chromium")
    if full is None:
        pytest.skip("no full Chromium at /usr/lib/chromium/chromium")
    monkeypatch.setenv("OPENAPPS_CHROMIUM", full)
    browser.find_chromium.cache_clear()
    env = gym.make("browsergym/openapps.todo.add_item", viewport={"width": 1280, "height": 720}, obs_mode=obs_mode)
    try:
        obs, _ = env.reset(seed=0)
        assert any(key[0] == full for key in browser._SHARED)  # this env runs the full browser
        assert env.unwrapped.page.evaluate("[innerWidth, innerHeight]") == [1280, 720]
        cx, cy = _tile_centre(obs, "maps")
        obs, *_ = env.step(f"mouse_click({cx:.1f}, {cy:.1f})")
        assert "/maps/" in obs["url"]
    finally:
        env.close()
        monkeypatch.delenv("OPENAPPS_CHROMIUM")
        browser.find_chromium.cache_clear()
