"""Right to left: the Arabic pack sets the document direction, pages use logical start/end
layout, user-entered text gets ``dir="auto"``, the map stays left to right, and the oracle solves
the families under it through the real browser and the real BrowserGym env."""

from __future__ import annotations

import re

import pytest

from openapps_sim.config import packs
from openapps_sim.config.catalog import compose
from openapps_sim.taskkit import all_families, instantiate
from openapps_sim.taskkit.language import words
from openapps_sim.web.world import World

from .test_oracle import env, run_oracle  # noqa: F401  (the module-scoped env fixture)
from .tested_families import tested_families

pytestmark = pytest.mark.browser

RTL = "arabic"
ONE_PER_APP = ["todo.edit_item", "calendar.add_event", "messenger.send_message", "maps.drop_pin",
               "shop.checkout", "code_editor.rename_file", "start.navigate_to_app", "multi.errands"]  # fmt: skip


def test_the_rtl_pack_keeps_the_default_content():
    """A language pack translates; content ids are those of default (same items, same order)."""
    default, rtl = compose("default"), compose(RTL)
    assert rtl["shell"] == {**default["shell"], "lang": "ar", "dir": "rtl", "home_label": rtl["shell"]["home_label"]}
    assert len(rtl["todo"]["items"]) == len(default["todo"]["items"])
    assert all(i["title"] != j["title"] for i, j in zip(rtl["todo"]["items"], default["todo"]["items"], strict=True))
    assert [e["date"] for e in rtl["calendar"]["events"]] == [e["date"] for e in default["calendar"]["events"]]
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
    assert server.server_errors == 0
    server.reset("default", 0)


def test_the_rtl_pack_is_a_language_pack():
    """``arabic`` is a language pack: ``--language auto`` under it gives Arabic goals, and the
    content a task brings in is Arabic."""
    assert packs.language_packs()[RTL] == "ar"
    local_world = World()
    local_world.reset(RTL, 0)
    inst = instantiate(all_families()["todo.add_item"], local_world.state, local_world.config, 0, RTL, "auto")
    assert inst.language == "ar" and inst.params["title"] in words("ar", "todo.new_items")
    assert re.search("[\u0600-\u06ff]", inst.goal), inst.goal


@pytest.mark.parametrize("family", ONE_PER_APP)
def test_oracle_under_rtl(env, family):  # noqa: F811
    reward, info = run_oracle(env, family, RTL, 0, language="auto")
    assert reward == 1.0, info.get("task_info", {}).get("explanation")


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(set(tested_families()) - set(ONE_PER_APP)))
def test_oracle_under_rtl_every_family(env, family):  # noqa: F811
    reward, info = run_oracle(env, family, RTL, 1, language="auto")
    assert reward == 1.0, info.get("task_info", {}).get("explanation")


FIRST_CHAR_LEFT_OF_SECOND = """el => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && !node.data.trim()) node = walker.nextNode();
    const at = i => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                      return r.getBoundingClientRect().x; };
    return at(0) < at(1);
}"""


def test_file_names_keep_their_own_direction(server, page):
    """'.gitignore' in an Arabic page reads '.gitignore', not 'gitignore.': the file's heading and
    the breadcrumbs isolate each name and let it take its own direction."""
    server.reset(RTL, 0)
    page.set_viewport_size({"width": 800, "height": 700})
    page.goto(server.url + "/code_editor/")
    page.get_by_role("link", name=".gitignore").first.click()
    page.wait_for_load_state()
    title = page.get_by_test_id("code_editor-title")
    assert title.inner_text().strip() == ".gitignore"
    assert title.evaluate(FIRST_CHAR_LEFT_OF_SECOND), "the heading shows 'gitignore.'"
    current = page.locator(".ce-crumbs [aria-current=page]")
    assert current.evaluate(FIRST_CHAR_LEFT_OF_SECOND), "the breadcrumb shows 'gitignore.'"
    assert server.server_errors == 0
    server.reset("default", 0)
