"""Start page task families: navigation from the launcher."""

from __future__ import annotations

from openapps_sim.config.catalog import discover_apps
from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import TaskFamily, family, pick


@family
class NavigateToApp(TaskFamily):
    id = "start.navigate_to_app"
    category = "navigate"
    apps = ("start",)
    max_steps = 5
    description = "Open a given app from the start page; nothing may change, the browser must end on the app."
    phrasings = {
        "plain": [
            'Open the "{title}" app.',
            'Go to the "{title}" app.',
            'Navigate to "{title}".',
        ],
        "casual": [
            'take me to "{title}" pls',
            'can you pull up the "{title}" app for me?',
            'Just open "{title}", I want to look at something.',
        ],
        "context": [
            'I have a few minutes before my next meeting, so open the "{title}" app for me.',
            'The coffee machine is broken again. While I wait, please go to "{title}".',
            'My laptop battery is almost dead, quick: open "{title}" and nothing else.',
        ],
        "de": [
            "Öffne die App „{title}“.",
            "Geh zur App „{title}“.",
            "Kannst du bitte „{title}“ aufmachen?",
        ],
        "fr": [
            "Ouvre l’application « {title} ».",
            "Va dans l’application « {title} ».",
            "Peux-tu afficher « {title} », s’il te plaît ?",
        ],
    }

    def sample(self, state, config, rng):
        apps = [name for name in discover_apps() if name != "start" and name in config]
        counts: dict[str, int] = {}
        for name in apps:
            key = norm_text(config[name]["title"])
            counts[key] = counts.get(key, 0) + 1
        # Only apps whose title no other app shares, so the goal names exactly one tile.
        choices = sorted(name for name in apps if counts[norm_text(config[name]["title"])] == 1)
        app = pick(rng, choices, "app to open")
        return {"app": app, "title": config[app]["title"]}

    def apply(self, state, params):
        """Navigation changes nothing: the expected state is the initial state."""

    def expected_path(self, params):
        return f"/{params['app']}/"

    def solve(self, params, ui):
        yield ui.click(f"launch-{params['app']}")
