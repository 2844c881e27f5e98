"""Right to left: the Arabic pack sets the document direction, pages use logical start/end
layout, user-entered text gets ``dir="auto"``, the map stays left to right, and the oracle solves
the families under it through the real browser and the real BrowserGym env."""

from __future__ import annotations

import pytest

from openapps_sim.config import packs
from openapps_sim.config.catalog import compose
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import all_families, instantiate
from openapps_sim.web.world import World

from .test_oracle import env, run_oracle  # noqa: F401  (the module-scoped env fixture)

pytestmark = pytest.mark.browser

RTL = "arabic"
ONE_PER_APP = ["todo.edit_item", "calendar.add_event", "messenger.send_message", "maps.drop_pin",
               "shop.checkout", "code_editor.rename_file", "start.navigate_to_app", "multi.errands"]  # fmt: skip


def test_the_rtl_pack_keeps_the_default_content():
    """A language pack translates the interface; content ids are those of default."""
    default, rtl = compose("default"), compose(RTL)
    assert rtl["shell"] == {
        **default["shell"],
        "lang": "ar",
        "content_lang": "en",
        "dir": "rtl",
        "home_label": rtl["shell"]["home_label"],
    }
    assert [i["title"] for i in rtl["todo"]["items"]] == [i["title"] for i in default["todo"]["items"]]
    assert [e["title"] for e in rtl["calendar"]["events"]] == [e["title"] for e in default["calendar"]["events"]]
    assert sorted(rtl["shop"]["products"]) == sorted(default["shop"]["products"])
    assert [p["id"] for p in rtl["maps"]["places"]] == [p["id"] for p in default["maps"]["places"]]


def test_pages_run_right_to_left(server, page):
    server.reset(RTL, 0)
    page.set_viewport_size({"width": 800, "height": 700})
    page.goto(server.url + "/todo/")
    assert page.evaluate("[document.documentElement.dir, document.documentElement.lang]") == ["rtl", "ar"]
    home = page.get_by_test_id("nav-home").bounding_box()
    assert home["x"] > 400, "the Home link should start on the right"
    # User-entered text decides its own direction (an English title in an Arabic page).
    assert page.get_by_test_id("todo-title-t1").get_attribute("dir") == "auto"
    add = page.get_by_test_id("todo-new-title")
    assert add.get_attribute("dir") == "auto"
    page.goto(server.url + "/maps/")
    assert (
        page.locator("[data-testid=maps-canvas]").evaluate("e => getComputedStyle(e.closest('[dir]')).direction")
        == "ltr"
    )
    page.goto(server.url + "/messenger/chat/c1")
    texts = page.locator("[data-testid^=messenger-text-]")
    assert texts.count() > 0 and all(t == "auto" for t in texts.evaluate_all("es => es.map(e => e.dir)"))
    assert server.health()["server_errors"] == 0
    server.reset("default", 0)


def test_the_rtl_pack_is_interface_only():
    """``arabic`` translates the interface only (``content_language: en``): it is no language
    pack (no goals or task content in Arabic), and ``--language auto`` under it is a clear error
    naming the goal languages, never a crash. Its oracle runs use English goals."""
    assert RTL not in packs.language_packs()
    local_world = World()
    local_world.reset(RTL, 0)
    with pytest.raises(ConfigError) as err:
        instantiate(all_families()["todo.remove_item"], local_world.state, local_world.config, 0, RTL, "auto")
    assert "ar" in str(err.value)
    inst = instantiate(all_families()["todo.remove_item"], local_world.state, local_world.config, 0, RTL, "en")
    assert inst.language == "en" and inst.goal


@pytest.mark.parametrize("family", ONE_PER_APP)
def test_oracle_under_rtl(env, family):  # noqa: F811
    reward, info = run_oracle(env, family, RTL, 0, language="en")
    assert reward == 1.0, info.get("task_info", {}).get("explanation")


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(set(all_families()) - set(ONE_PER_APP)))
def test_oracle_under_rtl_every_family(env, family):  # noqa: F811
    reward, info = run_oracle(env, family, RTL, 1, language="en")
    assert reward == 1.0, info.get("task_info", {}).get("explanation")
