"""Questions over apps × packs × seeds: every kind on each app's home page of each world.

Each (pack, seed) world is reset once; each kind draws from its own named random stream
(``questions:<pack>:<seed>:<app>:<kind>``), so adding a kind, an app or a pack never changes
another's questions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from openapps_sim.analysis.questions.kinds import Page, Question, make_question
from openapps_sim.analysis.questions.pagekinds import first_heading
from openapps_sim.analysis.questions.pages import FAMILY, PageSource
from openapps_sim.analysis.questions.registry import all_kinds
from openapps_sim.config.discovery import discover_apps
from openapps_sim.config.packs import list_packs


def question_apps() -> list[str]:
    """Every app with pages of its own (the start page is the launcher, not an app)."""
    return [name for name in discover_apps() if name != "start"]


def default_packs() -> list[str]:
    """The shipped packs whose pages stay as rendered: every pack but the live interruptions
    and pop-ups, which cover the page at moments of their own."""
    return [p for p in list_packs() if not p.startswith("interrupt_") and not p.startswith("popups_")]


def home(app: str) -> str:
    return f"/{app}/"


def world_pages(src: PageSource, pack: str, seed: int, apps: list[str]) -> list[Page]:
    """The home page of each app in the world of ``pack`` and ``seed``, with the facts of the
    world's other pages that kinds draw distractors from."""
    src.open(pack, seed)
    world = src.world
    pages = [
        Page(app, pack, seed, home(app), src.tree(home(app)), world.draw_all(), world.config, src.apps, {}, src.tree)
        for app in apps
    ]
    headings = [first_heading(p) for p in pages]
    for p in pages:
        p.others["headings"] = [h for h in headings if h]
    return pages


def generate(
    packs: Iterable[str],
    seeds: Iterable[int],
    apps: list[str] | None = None,
    kinds: list[str] | None = None,
    on_question: Callable[[Question], None] | None = None,
) -> list[Question]:
    """The questions of every kind about every app's home page in every (pack, seed) world."""
    chosen = all_kinds()
    chosen = {k: v for k, v in chosen.items() if kinds is None or k in kinds}
    apps = apps or question_apps()
    src = PageSource("text")
    out: list[Question] = []
    try:
        for pack in packs:
            for seed in seeds:
                for page in world_pages(src, pack, seed, apps):
                    for name, k in chosen.items():
                        rng = random.Random(f"questions:{pack}:{seed}:{page.app}:{name}")
                        q = make_question(k, page, FAMILY, rng)
                        if q is not None:
                            out.append(q)
                            if on_question:
                                on_question(q)
    finally:
        src.close()
    return out
