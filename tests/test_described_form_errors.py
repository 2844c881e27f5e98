"""What a described app's form shows when it refuses a value (docs/apps/spec.md, "Languages"):
the field by its label and the problem in the world's language, as every other text of the page;
the state left as it was. An app tool's caller still reads the field's name and the English
problem with what is allowed. Text only."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient

from openapps_sim.errors import ConfigError
from openapps_sim.web import server
from openapps_sim.web.world import World

from .shared_fixtures import record_id

ENGINE = Path(__file__).resolve().parent.parent / "apps" / "described"
LANGS = {"default": "en", "german": "de", "french": "fr", "spanish": "es", "italian": "it", "mandarin": "zh"}
LANGS["arabic"] = "ar"


def _page(pack: str):
    world = World()
    world.reset(pack, 0)
    return world, TestClient(server.build_app(world))


def shown_error(page: str, app: str) -> str:
    found = re.search(rf'data-testid="{app}-error"[^>]*>(.*?)</p>', page)
    assert found, page
    return found.group(1)


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _english() -> dict:
    raw = yaml.safe_load((ENGINE / "strings.yaml").read_text(encoding="utf-8"))
    return {k: v["text"] if isinstance(v, dict) else v for k, v in raw.items()}


def _texts(lang: str) -> dict:
    """The engine's texts in ``lang``: its translation over the English."""
    if lang == "en":
        return _english()
    return {**_english(), **yaml.safe_load((ENGINE / "lang" / f"{lang}.yaml").read_text(encoding="utf-8"))}


GERMAN = [
    ("/notes/c/tags/new", {"name": ""}, "notes", "Name: bitte ausfüllen."),
    ("/notes/c/tags/new", {"name": "Garten", "uses": "viele"}, "notes", "Verwendungen: viele ist keine Zahl."),
    ("/delivery/flow/checkout/review", {}, "delivery", "Restaurant: bitte ausfüllen."),
    ("/delivery/flow/checkout/confirm", {}, "delivery", "Restaurant: bitte ausfüllen."),
]


@pytest.mark.parametrize("path,data,app,shown", GERMAN, ids=[f"{p}:{sorted(d)}" for p, d, _, _ in GERMAN])
def test_a_refused_value_is_told_in_german(path, data, app, shown):
    world, http = _page("german")
    before = world.app_state(app)
    page = http.post(path, data=data).text
    assert shown_error(page, app) == shown
    assert "missing" not in page and "is no number" not in page
    assert world.app_state(app) == before


def test_an_empty_basket_is_told_in_every_language():
    for pack, lang in LANGS.items():
        world, http = _page(pack)
        smash = record_id(world, "delivery", "restaurants", "name", "Smash Brothers")  # no basket lines
        before = [dict(o) for o in world.app_state("delivery")["orders"]]
        texts = _texts(lang)
        own = yaml.safe_load((ENGINE / "library" / "delivery" / "app.yaml").read_text(encoding="utf-8"))
        labels = {"restaurant": "Restaurant", "basket": "Basket", **own["strings"].get(lang, {})}
        restaurant, basket = labels.get("orders.restaurant", labels["restaurant"]), labels["basket"]
        for step in ("review", "confirm"):
            page = http.post(f"/delivery/flow/checkout/{step}", data={"restaurant": smash}).text
            expected = texts["error_nothing_for"].format(field=restaurant, collection=basket)
            assert shown_error(page, "delivery") == expected, pack
            assert "has no line" not in page and 'data-testid="delivery-confirm"' not in page
        assert world.app_state("delivery")["orders"] == before


def test_a_missing_title_is_told_in_every_language():
    for pack, lang in LANGS.items():
        _, http = _page(pack)
        page = http.post("/notes/c/tags/new", data={"name": ""}).text
        texts = _texts(lang)
        own = yaml.safe_load((ENGINE / "library" / "notes" / "app.yaml").read_text(encoding="utf-8"))
        label = own["strings"].get(lang, {}).get("tags.name", "Name")
        assert shown_error(page, "notes") == texts["error_missing"].format(field=label), pack


def test_a_tool_is_still_told_the_field_and_the_english_problem():
    world, _ = _page("german")
    with pytest.raises(ConfigError, match="uses: expected float, got 'viele'"):
        world.call_tool("notes", "create_tag", {"name": "Garten", "uses": "viele"})
    with pytest.raises(ConfigError, match="name: is empty; allowed: a non-empty name"):
        world.call_tool("notes", "create_tag", {"name": " "})


@pytest.mark.parametrize("lang", sorted(set(LANGS.values()) - {"en"}))
def test_every_language_translates_every_engine_text_with_its_placeholders(lang):
    english = _english()
    texts = yaml.safe_load((ENGINE / "lang" / f"{lang}.yaml").read_text(encoding="utf-8"))
    assert sorted(set(english) - set(texts)) == [], "untranslated"
    assert sorted(set(texts) - set(english)) == [], "not an engine text"
    for key, text in texts.items():
        assert _placeholders(str(text)) == _placeholders(english[key]), key
