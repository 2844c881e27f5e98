"""A described app in a real headless Chromium: the oracle's page scripts (a form with a date,
a select of records, a review page and its confirm) work in the browser as on the text backend."""

from __future__ import annotations

import pytest

from .oracle_play import play_oracle

pytestmark = pytest.mark.browser


def test_the_oracle_books_and_transfers_in_chromium(env_on):
    env = env_on("chromium")
    for fid, pack in (
        ("banking.transfer", "mobile"),
        ("hotels.book", "dark_theme"),
        ("recipes.create_recipe", "german"),
    ):
        obs, info = env.reset(seed=1, options={"task_kwargs": {"family": fid, "variation": pack}})
        reward, _ = play_oracle(env, obs, dict(info["task_info"]))
        assert reward == 1, (fid, pack)
