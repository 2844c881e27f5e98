"""Variation packs: composition, overrides, clear errors, every shipped and generated pack, and
(in a real browser) that every pack renders the start page and the todo app cleanly."""

from __future__ import annotations

import json
import re

import pytest

import openapps_sim.config.catalog as world_mod
from openapps_sim.config import packs, sampler
from openapps_sim.config.catalog import compose, discover_apps
from openapps_sim.config.normalise import norm_text
from openapps_sim.errors import ConfigError
from openapps_sim.web.fonts import font_face_css, font_stack

from .pack_helpers import clear_pack_caches
from .tested_families import tested_apps

LANGUAGE_PACKS = sorted(packs.language_packs())
APPEARANCE_PACKS = [
    "black_and_white",
    "challenging_font",
    "dark_theme",
    "font_inter",
    "font_lato",
    "font_open_sans",
    "font_roboto",
    "high_contrast",
    "large_text",
    "mobile",
    "palette_colorhunt_1",
    "palette_colorhunt_2",
    "palette_colorhunt_3",
    "palette_dracula",
    "palette_nord",
    "palette_solarized",
]
CONTENT_PACKS = [
    "adversarial_descriptions",
    "dense",
    "long_descriptions",
    "misleading_descriptions",
    "sparse",
    *LANGUAGE_PACKS,
]

# UI words spelled the same in English and in a language pack (compared case-insensitively).
# A translated string equal to its English default is accepted only when every word of it is
# listed here for that pack. Keep this short: add a word only when the translation really is
# the same word.
SAME_IN_TRANSLATION = {
    "german": {"chat", "code", "details", "explorer", "filter", "info", "link", "name", "shop", "start", "status"},
    "french": {
        "actions",
        "centre",
        "conversations",
        "date",
        "description",
        "messages",
        "note",
        "notes",
        "options",
        "total",
        "zoom",
    },
    "spanish": {"chat", "subtotal", "total"},
    "mandarin": set(),
    "italian": {"file"},
}


def _is_language(value: str) -> bool:
    """Whether a UI string holds words to translate (not only placeholders, symbols or a URL)."""
    if "://" in value and " " not in value:
        return False
    if re.fullmatch(r"[A-Z]+(?:[^\w\s]+[A-Z]+)+", value):  # a format pattern: HH:MM, MM/DD/YYYY
        return False
    letters = re.sub(r"\{\w*\}", "", value)
    return sum(ch.isalpha() for ch in letters) > 3


# The published palettes the palette packs must stay within.
SOLARIZED = {
    "#002b36", "#073642", "#586e75", "#657b83", "#839496", "#93a1a1", "#eee8d5", "#fdf6e3",
    "#b58900", "#cb4b16", "#dc322f", "#d33682", "#6c71c4", "#268bd2", "#2aa198", "#859900",
}  # fmt: skip
NORD = {
    "#2e3440", "#3b4252", "#434c5e", "#4c566a", "#d8dee9", "#e5e9f0", "#eceff4", "#8fbcbb",
    "#88c0d0", "#81a1c1", "#5e81ac", "#bf616a", "#d08770", "#ebcb8b", "#a3be8c", "#b48ead",
}  # fmt: skip
DRACULA = {
    "#282a36", "#44475a", "#f8f8f2", "#6272a4", "#8be9fd", "#50fa7b", "#ffb86c", "#ff79c6",
    "#bd93f9", "#ff5555", "#f1fa8c", "#21222c", "#191a21", "#343746", "#424450",
}  # fmt: skip


def _error(expression: str, overrides: tuple[str, ...] = ()) -> str:
    with pytest.raises(ConfigError) as info:
        compose(expression, overrides)
    return str(info.value)


# -- composition ---------------------------------------------------------------------------------


def test_disjoint_packs_compose_in_either_order():
    a = compose("dark_theme+german")
    b = compose("german+dark_theme")
    assert a == b
    dark = compose("dark_theme")
    german = compose("german")
    assert a["theme"] == dark["theme"]
    assert a["todo"] == german["todo"] and a["shell"] == german["shell"]
    assert a["theme"]["colors"]["background"] != compose("default")["theme"]["colors"]["background"]


def test_later_pack_wins():
    assert compose("german+french")["todo"]["title"] == compose("french")["todo"]["title"]
    assert compose("french+german")["todo"]["title"] == compose("german")["todo"]["title"]
    assert compose("dark_theme+high_contrast")["theme"]["colors"]["background"] == "#000000"
    assert compose("high_contrast+dark_theme")["theme"]["colors"]["background"] == "#15171c"
    # Records merge key by key: high_contrast's border width survives dark_theme's colours.
    assert compose("high_contrast+dark_theme")["theme"]["border_width"] == 3


def test_records_merge_and_lists_replace():
    mixed = compose("dark_theme+large_text")
    assert mixed["theme"]["font_size"] == 22
    assert mixed["theme"]["colors"] == compose("dark_theme")["theme"]["colors"]
    # A pack that gives todo.items gives the whole list.
    assert len(compose("dense+sparse")["todo"]["items"]) == 3
    assert len(compose("sparse+dense")["todo"]["items"]) == len(compose("dense")["todo"]["items"])
    # ... while german+sparse keeps the German strings and takes sparse's items.
    both = compose("german+sparse")
    assert both["todo"]["strings"] == compose("german")["todo"]["strings"]
    assert both["todo"]["items"] == compose("sparse")["todo"]["items"]


def test_empty_expression_is_default():
    assert compose("") == compose("default") == compose(None)


# -- overrides -----------------------------------------------------------------------------------


def test_dotted_overrides():
    cfg = compose("default", ["todo.title=Super Todo"])
    assert cfg["todo"]["title"] == "Super Todo"
    assert cfg["todo"]["items"] == compose("default")["todo"]["items"]
    # Overrides come after every pack.
    assert compose("german", ["todo.title=Super Todo"])["todo"]["title"] == "Super Todo"
    cfg = compose("dark_theme", ["theme.font_size=20", 'theme.colors.primary="#ff0000"', "todo.strings.add_button=Go"])
    assert cfg["theme"]["font_size"] == 20
    assert cfg["theme"]["colors"]["primary"] == "#ff0000"
    assert cfg["theme"]["colors"]["background"] == "#15171c"
    assert cfg["todo"]["strings"]["add_button"] == "Go"
    assert cfg["todo"]["strings"]["delete"] == "Delete"


def test_bad_overrides():
    text = _error("default", ("todo.titel=x",))
    assert "--set" in text and "todo.titel" in text and "unknown key" in text and "title" in text
    text = _error("default", ("theme.font_size=big",))
    assert "theme.font_size" in text and "an integer from 9 to 40" in text and "'big'" in text
    text = _error("default", ("theme.font=comic",))
    assert "theme.font" in text and "dancing_script" in text
    text = _error("default", ("todo.title",))
    assert "KEY=VALUE" in text


# -- errors that name the file, the key path and what is allowed ---------------------------------


def test_unknown_pack():
    text = _error("no_such_pack")
    assert "unknown name 'no_such_pack'; allowed: one of " in text and "random-<seed>" in text
    assert "openapps variations (MCP: list_variations) lists them" in text
    text = _error("dark_theme+no_such_pack")
    assert "'no_such_pack'" in text


def test_missing_pack_file(tmp_path):
    text = _error(str(tmp_path / "missing.yaml"))
    assert "missing.yaml" in text and "does not exist" in text


# a pack file with one mistake: its text, and what the message says besides the file's name
WRONG_PACKS = {
    "description: x\ntodo:\n  titel: Super\n": ["todo.titel", "unknown key", "allowed:", "title", "items"],
    "todoo:\n  title: Super\n": ["todoo", "unknown section", "theme", "todo"],
    "todo:\n  strings:\n    add_buton: Go\n": ["todo.strings.add_buton", "add_button"],
    "theme:\n  font_size: big\n": ["theme.font_size:", "an integer from 9 to 40"],
    "theme:\n  font_size: 100\n": ["theme.font_size:", "an integer from 9 to 40"],
    "theme:\n  font: comic_sans\n": ["theme.font:", "dancing_script"],
    "theme:\n  layout: tablet\n": ["theme.layout:", "desktop, mobile"],
    "theme:\n  colors:\n    primary: not a colour\n": ["theme.colors.primary:", "CSS colour"],
    "theme:\n  shadows: sometimes\n": ["theme.shadows:", "true or false"],
    "todo:\n  items:\n    - {title: A, done: maybe}\n": ["todo.items[0].done:", "true or false"],
    "todo:\n  items:\n    - {done: true}\n": ["todo.items[0].title:", "missing required key"],
    "todo:\n  items: {title: A}\n": ["todo.items:", "expected a list"],
    "todo:\n  strings: hello\n": ["todo.strings:", "expected a mapping"],
    "todo:\n  title: [a, b]\n": ["todo.title:", "a string"],
    "theme:\n  colors: [\n    primary: red\n": ["malformed YAML at line"],
    "- theme\n- todo\n": ["expected a mapping"],
}


@pytest.mark.parametrize("body", WRONG_PACKS)
def test_a_wrong_pack_file_is_one_clear_message(pack_dir, body):
    (pack_dir / "wrong.yaml").write_text(body)
    text = _error("wrong")
    assert "wrong.yaml" in text and all(w in text for w in WRONG_PACKS[body]), text


def test_folder_pack_errors_name_the_section_file(pack_dir):
    folder = pack_dir / "my_folder"
    folder.mkdir()
    (folder / "pack.yaml").write_text("description: A folder pack.\ntheme:\n  font_size: 18\n")
    (folder / "todo.yaml").write_text("title: Folder Todo\n")
    cfg = compose("my_folder")
    assert cfg["todo"]["title"] == "Folder Todo" and cfg["theme"]["font_size"] == 18
    (folder / "todo.yaml").write_text("title: Folder Todo\nshow_filter: false\n")
    clear_pack_caches()
    text = _error("my_folder")
    assert "todo.yaml" in text and "todo.show_filter" in text and "show_filters" in text
    (folder / "todo.yaml").write_text("title: [unclosed\n")
    clear_pack_caches()
    text = _error("my_folder")
    assert "todo.yaml" in text and "malformed YAML" in text


def test_pack_given_as_a_path(tmp_path):
    path = tmp_path / "by_path.yaml"
    path.write_text("theme:\n  radius: 0\n")
    assert compose(f"dark_theme+{path}")["theme"]["radius"] == 0


def test_a_pack_extends_others(pack_dir):
    (pack_dir / "my_dark.yaml").write_text("description: mine\nextends: [dark_theme, german]\ntheme:\n  radius: 0\n")
    mine = compose("my_dark")
    assert mine == compose(f"dark_theme+german+{pack_dir / 'my_dark.yaml'}")
    assert mine["theme"]["radius"] == 0 and mine["todo"]["title"] == compose("german")["todo"]["title"]
    assert mine["theme"]["colors"] == compose("dark_theme")["theme"]["colors"]
    (pack_dir / "one.yaml").write_text("extends: dark_theme\n")  # a single name is fine too
    assert compose("one") == compose("dark_theme")


def test_extends_errors_name_the_file_key_and_choices(pack_dir):
    (pack_dir / "bad_parent.yaml").write_text("extends: [dark_them]\n")
    text = _error("bad_parent")
    assert "bad_parent.yaml" in text and "extends" in text and "'dark_them'" in text and "dark_theme" in text
    (pack_dir / "bad_type.yaml").write_text("extends: {a: 1}\n")
    text = _error("bad_type")
    assert "bad_type.yaml" in text and "extends" in text and "list of pack names" in text
    (pack_dir / "loop_a.yaml").write_text("extends: loop_b\n")
    (pack_dir / "loop_b.yaml").write_text("extends: loop_a\n")
    text = _error("loop_a")
    assert "cycle" in text and "loop_a -> loop_b -> loop_a" in text


# -- every shipped pack ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(packs.list_packs()))
def test_every_pack_validates(name):
    cfg = compose(name)
    pack = world_mod.resolve_pack(name)
    assert pack.description.strip(), f"{name} has no description"
    assert "\n" not in pack.description.strip(), f"{name}: the description should be one line"
    assert set(cfg) >= {"theme", "shell", *discover_apps()}


def test_shipped_packs_are_listed():
    shipped = set(packs.list_packs())
    assert {"default", *APPEARANCE_PACKS, *CONTENT_PACKS} <= shipped


@pytest.mark.parametrize("name", APPEARANCE_PACKS)
def test_appearance_packs_touch_the_theme(name):
    pack = world_mod.resolve_pack(name)
    assert [section for _, section, _ in pack.sections] == ["theme"]
    assert compose(name)["theme"] != compose("default")["theme"]


def test_appearance_packs_are_distinct():
    themes = [compose(name)["theme"] for name in APPEARANCE_PACKS]
    for i, a in enumerate(themes):
        for b in themes[i + 1 :]:
            assert a != b


def _rgb(color: str) -> tuple[int, int, int]:
    h = color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def test_black_and_white_is_grey_only():
    for key, color in compose("black_and_white")["theme"]["colors"].items():
        r, g, b = _rgb(color)
        assert r == g == b, f"{key}: {color} is not a grey"


def test_high_contrast_is_black_white_yellow():
    theme = compose("high_contrast")["theme"]
    allowed = {"#000000", "#ffffff", "#ffff00"}
    for key in ("background", "surface", "text", "muted", "primary", "on_primary", "border", "accent"):
        assert theme["colors"][key] in allowed, key
    assert theme["border_width"] >= 2


@pytest.mark.parametrize(
    "name,palette", [("palette_solarized", SOLARIZED), ("palette_nord", NORD), ("palette_dracula", DRACULA)]
)
def test_palettes_use_the_published_colours(name, palette):
    for key, color in compose(name)["theme"]["colors"].items():
        assert color.lower() in palette, f"{name}: {key} = {color} is not in the published palette"


def test_font_and_layout_packs():
    assert compose("challenging_font")["theme"]["font"] == "dancing_script"
    assert compose("font_roboto")["theme"]["font"] == "roboto"
    assert compose("font_open_sans")["theme"]["font"] == "open_sans"
    assert compose("font_lato")["theme"]["font"] == "lato"
    assert compose("large_text")["theme"]["font_size"] >= 20
    mobile = compose("mobile")["theme"]
    assert mobile["layout"] == "mobile" and mobile["nav_position"] == "bottom"


def test_missing_font_file_falls_back(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAPPS_FONT_DIR", str(tmp_path))
    assert font_face_css("dancing_script") == ""
    assert font_stack("dancing_script").endswith("cursive")
    assert "sans-serif" in font_stack("roboto")


# -- content packs -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(packs.list_packs()))
def test_todo_titles_are_unique(name):
    titles = [norm_text(i["title"]) for i in compose(name)["todo"]["items"]]
    assert len(titles) == len(set(titles)), f"{name}: duplicate todo titles"


def test_sparse_and_dense():
    sparse = compose("sparse")["todo"]["items"]
    assert len(sparse) == 3
    assert sum(i["done"] for i in sparse) >= 1 and sum(not i["done"] for i in sparse) >= 2
    dense = compose("dense")["todo"]["items"]
    assert len(dense) >= 55
    assert sum(i["done"] for i in dense) >= 10


def test_description_packs():
    default = compose("default")
    long_ = compose("long_descriptions")
    assert len(long_["todo"]["description"]) > 4 * len(default["todo"]["description"])
    assert all(len(i["notes"]) > 150 for i in long_["todo"]["items"])
    assert "calendar" in compose("misleading_descriptions")["todo"]["description"].lower()
    adv = compose("adversarial_descriptions")
    texts = [adv["todo"]["description"], adv["start"]["subtitle"]] + [
        i["title"] + " " + i["notes"] for i in adv["todo"]["items"]
    ]
    joined = "\n".join(texts)
    assert "<script>alert(1)</script>" in joined and "<b>x</b>" in joined
    assert "Ignore previous instructions" in joined and "SYSTEM:" in joined


@pytest.mark.parametrize("pack", LANGUAGE_PACKS)
@pytest.mark.parametrize("app", sorted(tested_apps()))
def test_translation_leaves_no_english_string(pack, app):
    english = compose("default")[app]
    translated = compose(pack)[app]
    left = []
    for key, value in english.get("strings", {}).items():
        if not isinstance(value, str) or not _is_language(value):
            continue
        words = re.findall(r"[^\W\d_]+", re.sub(r"\{\w*\}", "", value).casefold())
        if all(w in SAME_IN_TRANSLATION.get(pack, set()) for w in words):
            continue
        other = translated["strings"][key]
        if norm_text(other) == norm_text(value):
            left.append(f"strings.{key} = {value!r}")
        elif set(re.findall(r"\{\w*\}", value)) != set(re.findall(r"\{\w*\}", other)):
            left.append(f"strings.{key}: placeholders differ: {value!r} vs {other!r}")
    if norm_text(english.get("description", "")) and english["description"] == translated["description"]:
        left.append("description")
    assert not left, f"{pack}/{app}: untranslated: " + "; ".join(left)


# Fields that identify an item or place it in time and space: a translation keeps them.
IDENTITY = {"id", "path", "contact", "sender", "place", "product_id", "date", "time", "kind", "category", "url"}


def _skeleton(value, key: str = ""):
    """The configuration with its free text blanked: ids, dates, numbers, flags and the shape of
    every list and mapping stay, so a translation has the same skeleton as the default."""
    if isinstance(value, dict):
        return {k: _skeleton(v, k) for k, v in value.items() if k != "strings"}
    if isinstance(value, list):
        return [_skeleton(v, key) for v in value]
    if isinstance(value, str) and key not in IDENTITY:
        return ""
    return value


def _ids(items) -> list:
    if isinstance(items, dict):
        return sorted(items)
    return [next((str(i[k]) for k in ("id", "path", "contact") if k in i), str(n)) for n, i in enumerate(items)]


def test_language_packs_are_discovered():
    found = packs.language_packs()
    assert {"german": "de", "french": "fr", "spanish": "es", "mandarin": "zh", "italian": "it"}.items() <= found.items()
    assert "default" not in found and "dense" not in found


@pytest.mark.parametrize("pack", LANGUAGE_PACKS)
@pytest.mark.parametrize("app", sorted(tested_apps()))
def test_language_pack_keeps_every_item(pack, app):
    """A language pack translates; it never removes, adds or moves an item, place, product,
    event, file or contact: same ids in the same order, same dates, numbers and flags."""
    english, translated = compose("default")[app], compose(pack)[app]
    for key, value in english.items():
        if isinstance(value, (list, dict)) and value and all(isinstance(v, dict) for v in _values(value)):
            assert _ids(translated[key]) == _ids(value), f"{pack}/{app}.{key}: different items"
    assert _skeleton(translated) == _skeleton(english), f"{pack}/{app}: more than text differs"
    en_state = world_mod.initial_state_json("default", (), 0)
    assert _skeleton(json.loads(world_mod.initial_state_json(pack, (), 0))[app]) == _skeleton(
        json.loads(en_state)[app]
    ), f"{pack}/{app}: the initial state differs beyond text"


def _values(value):
    return value.values() if isinstance(value, dict) else value


def test_keyed_lists_are_patched_by_id(pack_dir):
    (pack_dir / "kr.yaml").write_text("maps:\n  places:\n    krakow: {name: Cracovia}\n", encoding="utf-8")
    base, cfg = compose("default")["maps"]["places"], compose("kr")["maps"]["places"]
    assert [p["id"] for p in cfg] == [p["id"] for p in base]
    krakow = next(p for p in cfg if p["id"] == "krakow")
    assert krakow["name"] == "Cracovia" and krakow["lat"] == next(p for p in base if p["id"] == "krakow")["lat"]
    (pack_dir / "bad.yaml").write_text("maps:\n  places:\n    atlantis: {name: X}\n", encoding="utf-8")
    assert "maps.places.atlantis: no item with id 'atlantis' to change (did you mean atlanta" in _error("bad")
    (pack_dir / "bad2.yaml").write_text("maps:\n  places:\n    krakow: {lat: north}\n", encoding="utf-8")
    assert "maps.places.krakow.lat: expected a number" in _error("bad2")
    # a list still replaces the whole list
    (pack_dir / "few.yaml").write_text("maps:\n  places:\n    - {id: a, name: A, lat: 1, lon: 2}\n", encoding="utf-8")
    assert [p["id"] for p in compose("few")["maps"]["places"]] == ["a"]


@pytest.mark.parametrize("pack", LANGUAGE_PACKS)
def test_translation_of_shell_start_and_todo(pack):
    english, translated = compose("default"), compose(pack)
    assert translated["shell"]["lang"] != "en"
    assert translated["shell"]["home_label"] != english["shell"]["home_label"]
    for key in ("title", "heading", "subtitle"):
        assert translated["start"][key] != english["start"][key], f"start.{key}"
    assert translated["todo"]["title"] != english["todo"]["title"]
    en_items = {norm_text(i["title"]) for i in english["todo"]["items"]}
    en_notes = {norm_text(i["notes"]) for i in english["todo"]["items"] if i["notes"]}
    for item in translated["todo"]["items"]:
        assert norm_text(item["title"]) not in en_items, item["title"]
        assert not item["notes"] or norm_text(item["notes"]) not in en_notes, item["notes"]


# -- generated packs -----------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(12))
def test_generated_packs_validate(i):
    cfg = compose(f"random-0-{i}")
    assert cfg["theme"]["font"]
    assert world_mod.resolve_pack(f"random-0-{i}").description


def test_generated_packs_are_deterministic():
    assert sampler.sample_pack_dict("random-7-3") == sampler.sample_pack_dict("random-7-3")
    assert compose("random-7-3") == compose("random-7-3")
    assert world_mod.resolve_pack("random-5") == world_mod.resolve_pack("random-5")
    themes = {str(sampler.sample_pack_dict(f"random-0-{i}")["theme"]) for i in range(10)}
    assert len(themes) == 10


def test_generated_packs_written_to_files(tmp_path):
    names = sampler.write_samples(12, 11, tmp_path)
    assert names == [f"random-11-{i}" for i in range(12)]
    for name in names:
        file = tmp_path / f"{name}.yaml"
        assert compose(str(file)) == compose(name)
        assert file.stat().st_size < 3000  # shipped language/description packs are named, not copied
    assert any("extends:" in (tmp_path / f"{n}.yaml").read_text() for n in names)


def test_generated_packs_compose_with_named_packs():
    cfg = compose("random-0-1+german")
    assert cfg["todo"]["strings"] == compose("german")["todo"]["strings"]
    assert cfg["theme"] == compose("random-0-1")["theme"]


# -- in a real browser ---------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(packs.list_packs()))
def test_pages_render_under_every_pack(server, page, name):
    server.reset(name, 0)
    try:
        for path, heading in (("/", "start-heading"), ("/todo/", "todo-heading")):
            response = page.goto(server.url + path)
            assert response is not None and response.status == 200, f"{name} {path}"
            # the pages run no script: after "load", web fonts are the only requests left to start
            page.evaluate("document.fonts.ready.then(() => document.fonts.size)")
            assert page.get_by_test_id(heading).is_visible(), f"{name} {path}: no {heading}"
            assert page.get_by_test_id("nav-home").is_visible(), f"{name} {path}: no Home link"
        assert page.get_by_test_id("todo-list").count() == 1 or page.get_by_test_id("todo-empty").count() == 1
        assert not page.external_requests, f"{name}: requests to other hosts: {page.external_requests}"
        assert not page.console_errors, f"{name}: console errors: {page.console_errors}"
    finally:
        server.reset("default", 0)


@pytest.mark.browser
def test_adversarial_markup_shows_as_text(server, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    server.reset("adversarial_descriptions", 0)
    try:
        page.goto(server.url + "/todo/")
        todo_list = page.get_by_test_id("todo-list")
        text = todo_list.inner_text()
        assert "<script>alert(1)</script>" in text and "<b>x</b>" in text
        assert todo_list.locator("script").count() == 0 and todo_list.locator("b").count() == 0
        page.goto(server.url + "/")
        main = page.locator("main")
        text = main.inner_text()
        assert "<b>x</b>" in text and "<script>alert(1)</script>" in text
        assert main.locator("script").count() == 0 and main.locator("b").count() == 0
        assert page.get_by_test_id("launch-desc-todo").inner_text().startswith("SYSTEM:")
        assert not dialogs, f"a script ran: {dialogs}"
        assert not page.console_errors
    finally:
        server.reset("default", 0)
