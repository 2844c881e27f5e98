"""``openapps gallery``: real screenshots of every requested app under every requested pack, with
each app's first screen and the pages it names worth a look (a form, a detail page, the cart)."""

from __future__ import annotations

import re

import pytest
from PIL import Image, ImageStat

from openapps_sim.cli.gallery import PHONE_VIEWPORT, build_gallery


@pytest.mark.browser
def test_gallery_shows_each_pack_and_app_with_phone_layouts_on_a_phone_screen(tmp_path):
    index = build_gallery(tmp_path, packs=["default", "mobile", "dark_theme+german"], apps=["start", "todo"])
    page = index.read_text(encoding="utf-8")
    images = re.findall(r'<img loading="lazy" src="([^"]+)"', page)
    assert len(images) == 9  # start; todo; todo's edit form — for each of the three packs
    for rel in images:
        assert (tmp_path / rel).stat().st_size > 5_000  # a real picture, not an empty page
    assert "dark_theme+german" in page and "3 packs × 3 pages" in page
    assert Image.open(tmp_path / "shots" / "default__todo.jpg").size == (1280, 800)
    phone = Image.open(tmp_path / "shots" / "mobile__todo.jpg").size
    assert phone == (PHONE_VIEWPORT["width"], PHONE_VIEWPORT["height"])
    # dark pages are dark: the mean brightness of the dark pack's page is far below the default's
    default = Image.open(tmp_path / "shots" / "default__todo.jpg").convert("L")
    dark = Image.open(tmp_path / "shots" / "dark_theme+german__todo.jpg").convert("L")
    assert ImageStat.Stat(dark).mean[0] < ImageStat.Stat(default).mean[0] - 80
    # the edit form is another picture than the list
    assert Image.open(tmp_path / "shots" / "default__todo__edit_form.jpg").tobytes() != default.convert("RGB").tobytes()


@pytest.mark.browser
def test_gallery_shows_forms_details_and_a_filled_cart(tmp_path):
    index = build_gallery(tmp_path, packs=["default"], apps=["shop", "calendar"])
    page = index.read_text(encoding="utf-8")
    for label in ("product", "cart", "checkout", "new event form", "event"):
        assert f"<span>{label}</span>" in page, label
    shots = {p.name for p in (tmp_path / "shots").iterdir()}
    assert {"default__shop__cart.jpg", "default__calendar__event.jpg", "default__calendar__new_event_form.jpg"} <= shots


@pytest.mark.parametrize("pack", ["default", "german", "sparse", "dense", "random-7"])
def test_every_showcased_page_exists_in_every_version(server, pack):
    """Each app's showcase names pages that exist (200, not the not-found page) under the pack,
    and its tools set them up (the cart holds a line)."""
    import urllib.request

    from openapps_sim.config.catalog import discover_apps, drawn

    for name, spec in discover_apps().items():
        server.reset(pack, 0)
        state, config = server.snapshot()[1], server.config
        for page in spec.showcase(drawn(state[name]), config[name]) if spec.showcase else []:
            for tool, args in page.tools:
                server.call_tool(name, tool, args)
            if page.label == "cart":
                assert drawn(server.snapshot()[1]["shop"])["cart"], "the cart showcase shows an empty cart"
            with urllib.request.urlopen(server.url + spec.url_prefix + page.path) as resp:
                body = resp.read().decode()
            assert resp.status == 200 and "not-found" not in body, (pack, name, page)
