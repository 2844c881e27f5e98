"""The packs of the OpenApps paper's Tables 8 and 10 (issue 25, point 7): versions mixed across
apps (``extends`` with ``apps``), the Inter font (with its fallback) and three popular Color
Hunt palettes."""

from __future__ import annotations

import pytest

from openapps_sim.config import packs
from openapps_sim.config.appearance import SAMPLED_FONTS, WEB_FONTS
from openapps_sim.config.catalog import compose, discover_apps
from openapps_sim.web.fonts import font_face_css, font_stack

from . import visual_probe as vp
from .test_variations import _error

DARK = compose("dark_theme")["theme"]["colors"]
APPS = list(discover_apps())

# Color Hunt's palettes have four colours; white and black are the neutrals they are laid on.
NEUTRAL = {"#ffffff", "#000000"}
COLORHUNT = {
    "palette_colorhunt_1": {"#f9ed69", "#f08a5d", "#b83b5e", "#6a2c70"},
    "palette_colorhunt_2": {"#f38181", "#fce38a", "#eaffd0", "#95e1d3"},
    "palette_colorhunt_3": {"#08d9d6", "#252a34", "#ff2e63", "#eaeaea"},
}


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i : i + 2], 16) for i in (0, 2, 4)))


def _contrast(a: str, b: str) -> float:
    return vp.contrast(_rgb(a), _rgb(b))


@pytest.mark.parametrize("name", sorted(COLORHUNT))
def test_colorhunt_palettes_use_their_colours_and_stay_readable(name):
    colors = compose(name)["theme"]["colors"]
    for key, colour in colors.items():
        assert colour.lower() in COLORHUNT[name] | NEUTRAL, f"{name}: {key} = {colour} is not the palette's"
    assert len({c.lower() for c in colors.values()} & COLORHUNT[name]) == 4, "every colour of the palette is used"
    for fg, bg in (("text", "background"), ("text", "surface"), ("on_primary", "primary"), ("on_accent", "accent")):
        assert _contrast(colors[fg], colors[bg]) >= 4.5, (name, fg, bg)
    assert _contrast(colors["primary"], colors["surface"]) >= 3, "links and titles"


def test_inter_is_served_locally_and_falls_back(tmp_path, monkeypatch):
    assert compose("font_inter")["theme"]["font"] == "inter"
    assert WEB_FONTS["inter"][0] == "@fontsource/inter"
    monkeypatch.setenv("OPENAPPS_FONT_DIR", str(tmp_path))  # no font file fetched
    assert font_face_css("inter") == ""
    assert font_stack("inter").startswith("'Inter', ") and font_stack("inter").endswith("sans-serif")
    (tmp_path / "inter-latin-400.woff2").write_bytes(b"x")
    assert "url(/_static/fonts/inter-latin-400.woff2)" in font_face_css("inter")


def test_generated_packs_do_not_draw_fonts_added_later():
    assert "inter" not in SAMPLED_FONTS
    assert SAMPLED_FONTS == ["system", "serif", "mono", "roboto", "open_sans", "lato", "merriweather", "dancing_script"]


def test_a_language_on_some_apps_only():
    mixed, german, english = compose("mix_english_german"), compose("german"), compose("default")
    for app in APPS:
        source = german if app in ("todo", "messenger", "code_editor") else english
        assert mixed[app] == source[app], app
    assert mixed["shell"] == english["shell"], "the page frame (and the goal language) stays English"
    assert mixed["theme"] == english["theme"]


def _dark(app_theme: dict) -> bool:
    colors = app_theme.get("colors") or {}
    return len(colors) >= 10 and all(DARK[k] == v for k, v in colors.items())


def test_a_theme_on_some_apps_only():
    mixed = compose("mix_dark_default")
    assert mixed["theme"] == compose("default")["theme"], "the global theme is untouched"
    for app in APPS:
        dark = app in ("start", "todo", "messenger", "code_editor")
        assert _dark(mixed[app]["theme"]) is dark, app


def test_a_language_and_a_theme_on_different_apps():
    mixed = compose("mix_dark_german")
    assert mixed["todo"]["title"] == compose("german")["todo"]["title"] != compose("default")["todo"]["title"]
    assert mixed["calendar"]["title"] == compose("default")["calendar"]["title"]
    assert _dark(mixed["calendar"]["theme"]) and "colors" not in mixed["todo"]["theme"]
    assert "colors" not in mixed["start"]["theme"]


def test_scoped_packs_compose_like_any_other():
    both = compose("mix_english_german+dark_theme")
    assert both["theme"]["colors"] == DARK and both["todo"]["title"] == compose("german")["todo"]["title"]


@pytest.mark.parametrize(
    "extends,expected",
    [
        ("[{pack: german, apps: [todo, calendr]}]", "(extends german, apps): calendr: unknown section"),
        ("[{pack: german, app: [todo]}]", "extends[0].app: unknown key (did you mean apps?); allowed: pack, apps"),
        ("[{pack: german, apps: []}]", "extends[0].apps: expected a non-empty list of app names"),
        ("[{apps: [todo]}]", "extends[0].pack: expected a pack name"),
        ("[{pack: german, apps: [theme]}]", "'theme' is a section of every app, not an app"),
        ("[{pack: nosuch, apps: [todo]}]", "nosuch"),
        ("[3]", "extends: expected a pack name, or a list of pack names and {pack: NAME, apps: [APP, ...]}"),
    ],
)
def test_scoped_extends_errors_name_file_and_key(pack_dir, extends, expected):  # noqa: F811
    (pack_dir / "scoped.yaml").write_text(f"description: x\nextends: {extends}\n")
    message = _error("scoped")
    assert "scoped.yaml" in message and expected in message, message


def test_the_mixed_packs_are_not_language_packs():
    assert not {"mix_english_german", "mix_dark_german"} & set(packs.language_packs())
