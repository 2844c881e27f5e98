"""Packs that cannot break pages silently: placeholders, colours, language tags, pack folders,
duplicate titles, one factor per appearance pack, per-app themes and the text direction."""

from __future__ import annotations

import itertools

import pytest

from openapps_sim.config import catalog
from openapps_sim.config.appearance import THEME_FACTORS
from openapps_sim.config.catalog import compose
from openapps_sim.errors import ConfigError

from .test_variations import APPEARANCE_PACKS


def _error(expression: str, overrides: tuple[str, ...] = ()) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        compose(expression, overrides)
    return info.value


# -- placeholders ------------------------------------------------------------------------------


def test_a_renamed_placeholder_names_file_key_and_the_allowed_ones(pack_dir):
    (pack_dir / "renamed.yaml").write_text('todo:\n  strings:\n    remaining: "{count} übrig"\n', encoding="utf-8")
    err = _error("renamed")
    assert err.source.endswith("renamed.yaml")
    assert err.path == "todo.strings.remaining"
    assert "{count}" in err.problem and err.allowed == "{n}"


def test_a_renamed_placeholder_in_a_folder_pack_names_the_section_file(pack_dir):
    folder = pack_dir / "cal"
    folder.mkdir()
    (folder / "pack.yaml").write_text("description: x\n", encoding="utf-8")
    (folder / "calendar.yaml").write_text('strings:\n  more: "+{count} weitere"\n', encoding="utf-8")
    err = _error("cal")
    assert err.source.endswith("cal/calendar.yaml") and err.path == "calendar.strings.more"
    assert err.allowed == "{n}"


@pytest.mark.parametrize(
    "override,path,allowed",
    [
        ("todo.strings.remaining=noch einige", "todo.strings.remaining", "{n}"),  # left out
        ("calendar.strings.month_title={monat} {year}", "calendar.strings.month_title", "{month}, {year}"),
        ("shop.price_format={betrag} €", "shop.price_format", "{amount}"),  # formatted outside strings
        ("todo.strings.heading=Meine {liste}", "todo.strings.heading", "no placeholders"),
    ],
)
def test_placeholders_are_checked_against_the_default_string(override, path, allowed):
    err = _error("default", (override,))
    assert err.source == "--set" and err.path == path and err.allowed == allowed


def test_unbalanced_braces_are_an_error():
    err = _error("default", ("todo.strings.remaining={n left",))
    assert err.path == "todo.strings.remaining" and "literal braces" in err.problem


def test_same_placeholders_in_another_order_are_fine():
    cfg = compose("default", ("calendar.strings.month_title={year} {month}", "shop.price_format={amount} €"))
    assert cfg["calendar"]["strings"]["month_title"] == "{year} {month}"


# -- colours and language tags -----------------------------------------------------------------


@pytest.mark.parametrize("bad", ["sepia", "#12345", "rgb(1, 2)", "hsl(10, 20, 30)", "red;x", "url(a.png)"])
def test_colours_that_are_not_css_colours_are_rejected(bad):
    err = _error("default", (f"theme.colors.background={bad}",))
    assert err.path == "theme.colors.background" and "CSS colour" in err.problem


@pytest.mark.parametrize(
    "good", ["white", "RebeccaPurple", "#fff", "#1a2b3c", "#1a2b3c80", "rgb(10, 20, 30)", "rgba(0,0,0,.5)",
             "rgb(10 20 30 / 50%)", "hsl(200, 50%, 40%)", "hsla(200deg, 50%, 40%, 0.3)", "transparent"],
)  # fmt: skip
def test_css_colours_are_accepted(good):
    assert compose("default", (f"theme.colors.background={good}",))["theme"]["colors"]["background"] == good


@pytest.mark.parametrize("bad", ["italiano", "en_US", "english", "e", "de-", "123"])
def test_lang_must_be_a_bcp47_tag(bad):
    err = _error("default", (f"shell.lang={bad}",))
    assert err.path == "shell.lang" and "BCP 47" in err.problem


@pytest.mark.parametrize("good", ["it", "de", "pt-BR", "zh-Hans", "zh-Hans-CN", "es-419", "ar", "he"])
def test_bcp47_tags_are_accepted(good):
    assert compose("default", (f"shell.lang={good}",))["shell"]["lang"] == good


# -- pack folders and duplicate titles ---------------------------------------------------------


def test_a_folder_without_pack_yaml_has_its_own_error(pack_dir):
    (pack_dir / "halfdone").mkdir()
    (pack_dir / "halfdone" / "todo.yaml").write_text("title: Aufgaben\n", encoding="utf-8")
    err = _error("halfdone")
    assert err.source.endswith("halfdone") and err.path == "pack.yaml"
    assert "no pack.yaml" in err.problem and "description" in err.allowed
    err = _error(str(pack_dir / "halfdone"))  # named by its path
    assert err.path == "pack.yaml" and "no pack.yaml" in err.problem


@pytest.mark.parametrize(
    "body,path",
    [
        (
            "todo:\n  items:\n    - {title: Buy milk}\n    - {title: Walk}\n    - {title: buy  MILK}\n",
            "todo.items[2].title",
        ),
        (
            "maps:\n  saved:\n    - {name: Home, lat: 1, lon: 2}\n    - {name: home, lat: 3, lon: 4}\n",
            "maps.saved[1].name",
        ),
    ],
)
def test_duplicate_titles_are_one_clear_error_at_load(pack_dir, body, path):
    (pack_dir / "dups.yaml").write_text(body, encoding="utf-8")
    err = _error("dups")
    assert err.source.endswith("dups.yaml") and err.path == path
    assert "same" in err.problem


# -- appearance packs change one factor each ---------------------------------------------------


def _factor(name: str) -> str:
    keys = set(catalog.resolve_pack(name).sections[0][2])
    owners = [f for f, fields in THEME_FACTORS.items() if keys & fields]
    assert len(owners) == 1 and keys <= THEME_FACTORS[owners[0]], f"{name} changes {sorted(keys)}"
    return owners[0]


@pytest.mark.parametrize("name", APPEARANCE_PACKS)
def test_each_appearance_pack_changes_one_factor(name):
    _factor(name)


def test_appearance_packs_compose_and_each_keeps_its_own_factor():
    factor = {name: _factor(name) for name in APPEARANCE_PACKS}
    alone = {name: compose(name)["theme"] for name in APPEARANCE_PACKS}
    checked = 0
    for a, b in itertools.permutations(APPEARANCE_PACKS, 2):
        if factor[a] == factor[b]:
            continue
        both = compose(f"{a}+{b}")["theme"]
        for name in (a, b):
            for key in THEME_FACTORS[factor[name]]:
                assert both[key] == alone[name][key], f"{a}+{b}: {key} is not {name}'s"
        checked += 1
    assert checked > 50


def test_mobile_is_a_layout_only():
    default, mobile = compose("default")["theme"], compose("mobile")["theme"]
    changed = {k for k in default if default[k] != mobile[k]}
    assert changed and changed <= THEME_FACTORS["layout"]


# -- per-app appearance and direction (real server) --------------------------------------------


def test_a_pack_can_theme_one_app(server, page):
    server.reset("dark_theme", 0, ["calendar.theme.colors.background=#123456", "calendar.theme.font_size=21"])
    try:
        cal = page.goto(server.url + "/calendar/").text()
        todo = page.goto(server.url + "/todo/").text()
        assert "--background:#123456" in cal and "--fs:21px" in cal
        assert "--background:#123456" not in todo and "--fs:21px" not in todo
        assert compose("dark_theme")["theme"]["colors"]["background"] in todo
    finally:
        server.reset("default", 0)


def test_per_app_theme_errors_name_the_key():
    err = _error("default", ("calendar.theme.colors.backgrund=#000000",))
    assert err.path == "calendar.theme.colors.backgrund" and "background" in err.allowed
    err = _error("default", ("todo.theme.layout=tablet",))
    assert err.path == "todo.theme.layout" and err.allowed == "desktop, mobile"


def test_shell_dir_sets_the_document_direction(server, page):
    server.reset("default", 0, ["shell.dir=rtl"])
    try:
        page.goto(server.url + "/todo/")
        assert page.evaluate("document.documentElement.dir") == "rtl"
    finally:
        server.reset("default", 0)
    assert _error("default", ("shell.dir=up",)).allowed == "ltr, rtl"
