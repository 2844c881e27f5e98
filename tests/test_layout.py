"""Every screen size: no page of any app under any pack is wider than a 360, 390 or 480 px
viewport, and words break only at sensible points (measured in a real headless Chromium).

The quick suite measures the pages of every tested app and a share of the other described apps
under a few packs that stress the layout (each app under one of them); the full matrix (every
app, every pack, every width) is marked slow. ``python -m tests.layout_probe`` prints the
table of problems.
"""

from __future__ import annotations

import pytest

from openapps_sim.config.packs import list_packs

from .layout_probe import WIDTHS, problems
from .tested_families import apps_share

pytestmark = pytest.mark.browser

# Long words (German), wide glyphs (large text), the phone layout and right to left; French at
# 22 px once pushed the todo row's buttons 28 px past a 360 px phone.
QUICK = ["default", "german", "large_text+mobile", "arabic", "french+large_text"]
SHARES = len(QUICK) + 1  # the resolution test takes the last share


@pytest.mark.parametrize("pack", QUICK)
def test_no_page_overflows_a_phone(server, browser, pack):
    found = problems(server, browser, pack, widths=(360,), apps=apps_share(QUICK.index(pack), SHARES))
    assert found == [], "\n".join(found)


def test_the_resolution_sweep_size_fits(server, browser):
    found = problems(server, browser, "default", widths=(480,), apps=apps_share(SHARES - 1, SHARES))
    assert found == [], "\n".join(found)


@pytest.mark.slow
@pytest.mark.parametrize("pack", sorted(list_packs()) + ["random-0-3", "random-0-7", "french+large_text"])
def test_no_page_overflows_any_width_under_any_pack(server, browser, pack):
    found = problems(server, browser, pack, widths=WIDTHS)
    assert found == [], "\n".join(found)
