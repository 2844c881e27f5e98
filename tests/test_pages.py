"""App pages under every pack: render, no server error, no console error, no request to another
host (every tested app's page under every pack; each other described app's under an eighth of
the packs)."""

from __future__ import annotations

import pytest

from openapps_sim.config.catalog import discover_apps
from openapps_sim.config.packs import list_packs

from .tested_families import apps_share

pytestmark = pytest.mark.browser


PACKS = sorted(list_packs()) + ["random-0-3", "dark_theme+german"]
SLICES = 8  # the other described apps come in eighths: each renders under every eighth pack


def _apps(pack: str) -> list[str]:
    """The pages a pack is rendered on: every tested app's, and an eighth of the other described
    apps' (which eighth turns with the pack), so each app is seen under several packs."""
    return apps_share(PACKS.index(pack), SLICES)


def test_every_app_is_rendered_under_some_packs():
    seen = [a for pack in PACKS for a in _apps(pack)]
    assert all(seen.count(a) >= len(PACKS) // SLICES for a in discover_apps())


@pytest.mark.parametrize("pack", PACKS)
def test_every_page_renders_offline(server, page, pack):
    server.reset(pack, 0)
    for name in _apps(pack):
        path = "/" if name == "start" else f"/{name}/"
        resp = page.goto(server.url + path)
        assert resp.status == 200, f"{pack} {path}: HTTP {resp.status}"
        assert resp.text().lower().count("<!doctype") == 1, f"{pack} {path}: not exactly one doctype"
        page.wait_for_load_state("load")
    assert page.external_requests == [], f"{pack}: requests to other hosts {page.external_requests[:5]}"
    assert page.console_errors == [], f"{pack}: console errors {page.console_errors[:5]}"
    assert server.server_errors == 0
