"""Which (family, interruption pack) pairs the interruption tests run, and which a pack claims."""

from __future__ import annotations

from functools import cache

from openapps_sim.config.catalog import compose
from openapps_sim.config.packs import list_packs
from openapps_sim.taskkit import all_families
from openapps_sim.web.interruptions import Interruptions

from .tested_families import tested_families


def interruption_packs() -> list[str]:
    return sorted(p for p in list_packs() if _interruptions(p))


@cache
def _interruptions(pack: str, seed: int | None = None) -> tuple[dict, ...]:
    """The pack's interruptions (``seed``: those a world of that seed arms, one of each group),
    composed once (collection asks for each pack per family)."""
    rules = compose(pack)["interruptions"]
    if seed is None:
        return tuple(rules.values())
    armed = Interruptions()
    armed.reset(rules, seed)
    return tuple(armed.rules[k] for k in armed.armed)


def claims(pack: str, family: str, seed: int | None = None) -> bool:
    """A pack claims a family when one of its triggers (those a world of ``seed`` arms) may fire
    in an app the family uses (every family starts on the start page)."""
    apps = {"start", *all_families()[family].apps}
    return any(not r["trigger"]["apps"] or apps & set(r["trigger"]["apps"]) for r in _interruptions(pack, seed))


def coverage_matrix(seed: int = 0) -> list[tuple[str, str]]:
    return [(p, f) for p in interruption_packs() for f in sorted(tested_families()) if claims(p, f, seed)]


def representative() -> list[tuple[str, str, int]]:
    """Every interruption pack once, on families rotated over the apps, seeds rotated."""
    families = [
        "todo.add_item",
        "calendar.remove_event",
        "messenger.send_message",
        "maps.save_place",
        "shop.add_to_cart",
        "code_editor.create_file",
        "multi.todo_and_message",
        "start.navigate_to_app",
    ]
    out = []
    for i, pack in enumerate(interruption_packs()):
        fams = [f for f in families[i % len(families) :] + families if claims(pack, f)]
        out.append((fams[0], pack, i % 3))
    return out
