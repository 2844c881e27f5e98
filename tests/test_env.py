"""The BrowserGym environment through gym.make: full-state rewards with bid actions."""

from __future__ import annotations

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401  (registers the ids)
from openapps_sim.envs.observe import testid_bids

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def env():
    e = gym.make("browsergym/openapps.todo.add_item", task_kwargs={"variation": "default", "seed": 3})
    yield e
    e.close()


def _click(env, obs, testid):
    return env.step(f"click('{testid_bids(obs)[testid]}')")


def _open_todo(env):
    obs, info = env.reset()
    obs, *_ = _click(env, obs, "launch-todo")
    return obs, info


def test_gym_ids_are_registered():
    ids = [i for i in gym.registry if i.startswith("browsergym/openapps.")]
    assert "browsergym/openapps.todo.add_item" in ids


def test_adding_the_item_with_bid_actions_scores_1(env):
    obs, info = _open_todo(env)
    title = info["task_info"]["params"]["title"]
    assert title in obs["goal"]
    obs, r, term, trunc, step_info = env.step(f"fill('{testid_bids(obs)['todo-new-title']}', '{title}')")
    assert r == 0 and not term
    obs, r, term, trunc, step_info = _click(env, obs, "todo-add")
    assert r == 1.0 and term
    assert step_info["task_info"]["success"]


def test_a_side_effect_fails_the_task_and_is_explained(env):
    obs, info = _open_todo(env)
    title = info["task_info"]["params"]["title"]
    obs, *_ = _click(env, obs, "todo-delete-t1")  # an unrelated deletion first
    obs, *_ = env.step(f"fill('{testid_bids(obs)['todo-new-title']}', '{title}')")
    obs, r, term, trunc, step_info = _click(env, obs, "todo-add")
    assert r == 0.0 and not term
    explanation = step_info["task_info"]["explanation"]
    assert "todo.items" in explanation and "state difference" in explanation


def test_new_episode_does_not_leak_the_previous_one(env):
    obs, info = _open_todo(env)
    obs, *_ = _click(env, obs, "todo-delete-t1")
    obs, info = env.reset(seed=3)
    assert "todo-delete-t1" in testid_bids(env.step(f"click('{testid_bids(obs)['launch-todo']}')")[0])
    assert len(env.unwrapped.context.pages) == 1


def test_observation_modes(env):
    obs, _ = env.reset(options={"obs_mode": "axtree"})
    assert obs["screenshot"].size == 0 and obs["axtree_object"]["nodes"]
    obs, _ = env.reset(options={"obs_mode": "screenshot"})
    assert obs["screenshot"].size > 0 and not obs["axtree_object"]["nodes"]
    obs, _ = env.reset(options={"obs_mode": "both"})
    assert obs["screenshot"].size > 0 and obs["axtree_object"]["nodes"]


def test_invalid_actions_do_not_raise(env):
    obs, _ = env.reset()
    obs, r, term, trunc, _ = env.step("click('99999')")
    assert obs["last_action_error"] and r == 0


def test_focused_element_matches_browsergyms_walk(env):
    from browsergym.core.observation import extract_focused_element_bid

    obs, _ = _open_todo(env)
    field = testid_bids(obs)["todo-new-title"]
    obs, *_ = env.step(f"fill('{field}', 'x')")
    assert obs["focused_element_bid"] == field
    # BrowserGym's own walk agrees (it reads the bid attributes the server wrote: no marking pass)
    assert extract_focused_element_bid(env.unwrapped.page) == field
    obs, *_ = env.step("press('" + field + "', 'Tab')")
    assert obs["focused_element_bid"] not in ("", field)


def test_screenshot_has_the_pixels_of_a_plain_png_capture_and_titles_the_pages(env):
    """The fast capture (one kept CDP session, a PNG encoded for speed) shows exactly what
    BrowserGym's default PNG capture shows; the title read with the focus equals page.title()."""
    import base64
    import io

    import numpy as np
    import PIL.Image

    obs, _ = _open_todo(env)
    page = env.unwrapped.page
    cdp = page.context.new_cdp_session(page)
    try:
        data = cdp.send("Page.captureScreenshot", {"format": "png"})["data"]
    finally:
        cdp.detach()
    plain = np.array(PIL.Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))
    assert obs["screenshot"].shape == plain.shape and obs["screenshot"].dtype == np.uint8
    assert (obs["screenshot"] == plain).all()
    assert obs["screenshot"].flags.writeable
    assert obs["open_pages_titles"] == (page.title(),) and page.title()


def test_thumbnail_is_the_screenshot_scaled_where_the_page_is_scrolled(env):
    """The step log's thumbnail, scaled and encoded by Chromium (alone, or in the observation's
    batch when the reset asks for one), shows what a full screenshot shows (scroll bar included),
    at the scroll position, not the top of the document."""
    import io

    import numpy as np
    import PIL.Image

    obs, _ = env.reset(options={"thumbnail": (360, 70)})
    env.step(f"click('{testid_bids(obs)['launch-todo']}')")
    page, thumbs = env.unwrapped.page, {}
    tall = "const d = document.createElement('div'); d.style.cssText = 'height:3000px;background:linear-gradient(red,blue)'"
    page.evaluate(f"() => {{ {tall}; document.body.appendChild(d); window.scrollTo(0, 900); }}")
    thumbs["alone"] = env.unwrapped.thumbnail_jpeg(360, 50)  # not the size the reset asked for: taken now
    shot = env.unwrapped._get_obs()["screenshot"]  # an observation: its thumbnail taken in the same batch
    thumbs["batched"] = env.unwrapped.last_thumbnail
    assert env.unwrapped.thumbnail_jpeg(360, 70) is thumbs["batched"]
    assert page.evaluate("[innerWidth, innerHeight]") == [1280, 720]  # a scaled capture leaves the layout alone
    for how, jpeg in thumbs.items():
        thumb = PIL.Image.open(io.BytesIO(jpeg))
        assert thumb.format == "JPEG" and thumb.width == 360 and abs(thumb.height - 720 * 360 / 1280) <= 1, how
        got = np.asarray(thumb.convert("RGB"), dtype=float)
        scaled = np.asarray(PIL.Image.fromarray(shot).resize(thumb.size, PIL.Image.BILINEAR), dtype=float)
        assert np.abs(got - scaled).mean() < 4, how  # JPEG and scaling noise only
        top = np.asarray(PIL.Image.fromarray(_open_todo(env)[0]["screenshot"]).resize(thumb.size), dtype=float)
        assert np.abs(got - top).mean() > 40, how  # the test can tell the top from the scrolled view
    env.reset()  # no thumbnail asked for: none taken
    assert env.unwrapped.last_thumbnail is None
