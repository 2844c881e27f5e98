"""Every app page under every pack: renders, no server error, no console error, no request to
another host."""

from __future__ import annotations

import pytest

from openapps_sim.config.catalog import discover_apps
from openapps_sim.config.packs import list_packs

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("pack", sorted(list_packs()) + ["random-0-3", "dark_theme+german"])
def test_every_page_renders_offline(server, page, pack):
    server.reset(pack, 0)
    for name in discover_apps():
        path = "/" if name == "start" else f"/{name}/"
        resp = page.goto(server.url + path)
        assert resp.status == 200, f"{pack} {path}: HTTP {resp.status}"
        assert resp.text().lower().count("<!doctype") == 1, f"{pack} {path}: not exactly one doctype"
        page.wait_for_load_state("load")
    assert page.external_requests == [], f"{pack}: requests to other hosts {page.external_requests[:5]}"
    assert page.console_errors == [], f"{pack}: console errors {page.console_errors[:5]}"
    assert server.server_errors == 0
