"""``openapps gallery``: real screenshots of every requested app under every requested pack."""

from __future__ import annotations

import re

import pytest
from PIL import Image, ImageStat

from openapps_sim.cli.gallery import PHONE_VIEWPORT, build_gallery

pytestmark = pytest.mark.browser


def test_gallery_shows_each_pack_and_app_with_phone_layouts_on_a_phone_screen(tmp_path):
    index = build_gallery(tmp_path, packs=["default", "mobile", "dark_theme+german"], apps=["start", "todo"])
    page = index.read_text(encoding="utf-8")
    images = re.findall(r'<img loading="lazy" src="([^"]+)"', page)
    assert len(images) == 6
    for rel in images:
        assert (tmp_path / rel).stat().st_size > 5_000  # a real picture, not an empty page
    assert "dark_theme+german" in page and "3 packs &times; 2 pages" in page
    assert Image.open(tmp_path / "shots" / "default__todo.jpg").size == (1280, 800)
    phone = Image.open(tmp_path / "shots" / "mobile__todo.jpg").size
    assert phone == (PHONE_VIEWPORT["width"], PHONE_VIEWPORT["height"])
    # dark pages are dark: the mean brightness of the dark pack's page is far below the default's
    default = Image.open(tmp_path / "shots" / "default__todo.jpg").convert("L")
    dark = Image.open(tmp_path / "shots" / "dark_theme+german__todo.jpg").convert("L")
    assert ImageStat.Stat(dark).mean[0] < ImageStat.Stat(default).mean[0] - 80
