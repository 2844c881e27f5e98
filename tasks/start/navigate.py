"""Start page task families: navigation from the launcher."""

from __future__ import annotations

from openapps_sim.apps.start.model import launchable

from openapps_sim.config.catalog import discover_apps
from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import TaskFamily, family, pick


@family(
    "start.navigate_to_app",
    apps="start",
    max_steps=5,
    category="navigate",
    no_api="the goal is a page to end on, and app tools open no page",
)
class NavigateToApp(TaskFamily):
    """Open a given app from the start page; nothing may change, the browser must end on the app."""

    def sample(self, state, config, rng):
        apps = launchable(discover_apps(), config)
        counts: dict[str, int] = {}
        for name in apps:
            key = norm_text(config[name]["title"])
            counts[key] = counts.get(key, 0) + 1
        # Only apps whose title no other app shares, so the goal names exactly one tile.
        choices = sorted(name for name in apps if counts[norm_text(config[name]["title"])] == 1)
        app = pick(rng, choices, "app to open")
        return {"app": app, "title": config[app]["title"]}

    def plan(self, params, initial):
        """Navigation changes nothing: the expected state is the initial state and the gold
        sequence is empty."""
        return []

    def expected_path(self, params):
        return f"/{params['app']}/"

    def solve(self, params, ui):
        yield ui.click(f"launch-{params['app']}")
