"""The messenger app through a real browser: each user operation changes the state as expected
and logs its event; browsing changes nothing; markup in messages stays text."""

from __future__ import annotations

import re

import pytest

from openapps_sim.config.catalog import drawn

from .app_pages import assert_clean, assert_unchanged, click_to

pytestmark = pytest.mark.browser


def _msgr(server) -> dict:
    return drawn(server.snapshot()[1]["messenger"])


def _ops(server) -> list[str]:
    return [e["op"] for e in server.events if e["app"] == "messenger"]


def test_open_conversation_changes_nothing(page, world):
    before = _msgr(world)
    page.goto(world.url + "/messenger/")
    page.get_by_test_id("messenger-conv-c1").click()
    assert re.search(r"/messenger/chat/c1(#latest)?$", page.url)
    for m in before["conversations"]["c1"]:
        assert page.get_by_test_id(f"messenger-text-{m['id']}").text_content() == m["text"]
    assert page.get_by_test_id("messenger-chat-name").text_content() == "Alice Martin"
    assert_unchanged(page, world, "messenger", before)


def test_send_message(page, world):
    before = _msgr(world)
    page.goto(world.url + "/messenger/chat/c2")
    page.get_by_test_id("messenger-compose").fill("  See you at ten.  ")
    click_to(page, "messenger-send", r"/messenger/chat/c2")
    after = _msgr(world)
    new = after["conversations"]["c2"][-1]
    assert after["conversations"]["c2"][:-1] == before["conversations"]["c2"]
    assert new["sender"] == "me" and new["text"] == "See you at ten." and new["time"] > before["clock"]
    assert {k: v for k, v in after["conversations"].items() if k != "c2"} == {
        k: v for k, v in before["conversations"].items() if k != "c2"
    }
    events = list(world.events)
    assert [e["op"] for e in events] == ["send_message"]
    assert events[0]["args"] == {"contact": "c2", "id": new["id"], "text": "See you at ten.", "new_conversation": False}
    assert page.get_by_test_id(f"messenger-text-{new['id']}").text_content() == "See you at ten."
    # an empty message sends nothing
    page.get_by_test_id("messenger-compose").fill("   ")
    page.get_by_test_id("messenger-send").click()
    page.wait_for_load_state()
    assert len(_msgr(world)["conversations"]["c2"]) == len(after["conversations"]["c2"])
    assert_clean(page)


def test_forward_message(page, world):
    before = _msgr(world)
    original = [m for m in before["conversations"]["c3"] if m["sender"] == "c3"][-1]
    page.goto(world.url + "/messenger/chat/c3")
    page.get_by_test_id(f"messenger-forward-{original['id']}").click()
    assert f"/messenger/forward/{original['id']}" in page.url
    assert page.get_by_test_id("messenger-forward-quote").text_content() == original["text"]
    # filtering the recipients is browsing, not a change
    page.get_by_test_id("messenger-forward-search").fill("eve")
    click_to(page, "messenger-forward-search-submit", r"q=eve")
    assert page.get_by_test_id("messenger-forward-to-c5").count() == 1
    assert page.get_by_test_id("messenger-forward-to-c1").count() == 0
    assert world.events == []
    click_to(page, "messenger-forward-to-c5", r"/messenger/chat/c5")
    after = _msgr(world)
    copy = after["conversations"]["c5"][-1]
    assert copy["sender"] == "me" and copy["text"] == original["text"] and copy["forwarded_from"] == "c3"
    assert after["conversations"]["c3"] == before["conversations"]["c3"]
    assert _ops(world) == ["forward_message"]
    args = world.events[0]["args"]
    assert (args["id"], args["to"], args["new_id"], args["forwarded_from"]) == (original["id"], "c5", copy["id"], "c3")
    bubble = page.get_by_test_id(f"messenger-msg-{copy['id']}")
    assert "Chloé Dubois" in bubble.text_content()
    assert_clean(page)


def test_search_and_start_conversation(page, world):
    before = _msgr(world)
    assert "c14" not in before["conversations"]
    page.goto(world.url + "/messenger/")
    page.get_by_test_id("messenger-search").fill("nadia")
    click_to(page, "messenger-search-submit", r"/messenger/\?q=nadia")
    assert page.get_by_test_id("messenger-contact-c14").count() == 1
    assert page.get_by_test_id("messenger-contact-c1").count() == 0
    # accents and case are ignored
    page.get_by_test_id("messenger-search").fill("CHLOE")
    click_to(page, "messenger-search-submit", r"q=CHLOE")
    assert page.get_by_test_id("messenger-contact-c3").count() == 1
    assert world.events == [] and _msgr(world) == before
    page.get_by_test_id("messenger-search").fill("Nadia Rahman")
    page.get_by_test_id("messenger-search-submit").click()
    click_to(page, "messenger-contact-c14", r"/messenger/chat/c14")
    assert page.get_by_test_id("messenger-empty-chat").is_visible()
    assert _msgr(world) == before  # opening an empty chat is not a change
    page.get_by_test_id("messenger-compose").fill("Hello Nadia!")
    click_to(page, "messenger-send", r"/messenger/chat/c14")
    after = _msgr(world)
    assert [(m["sender"], m["text"]) for m in after["conversations"]["c14"]] == [("me", "Hello Nadia!")]
    assert _ops(world) == ["send_message"]
    assert world.events[0]["args"]["new_conversation"] is True  # one entry: the first message
    page.goto(world.url + "/messenger/")
    assert page.get_by_test_id("messenger-conv-c14").count() == 1
    assert page.get_by_test_id("messenger-preview-c14").text_content() == "You: Hello Nadia!"
    assert_clean(page)


def test_unknown_ids_are_404_and_change_nothing(page, world):
    before = _msgr(world)
    resp = page.goto(world.url + "/messenger/chat/c999")
    assert resp.status == 404
    assert page.get_by_test_id("messenger-not-found").is_visible()
    resp = page.goto(world.url + "/messenger/forward/m99999")
    assert resp.status == 404
    assert _msgr(world) == before and world.events == []
    page.console_errors.clear()  # the browser reports the 404 responses themselves as errors
    assert_clean(page)


def test_adversarial_markup_stays_text(page, server):
    server.reset("adversarial_descriptions", 0)
    try:
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        state = _msgr(server)
        marked = {
            cid: m
            for cid, msgs in state["conversations"].items()
            for m in msgs
            if "<script>" in m["text"] or "<img" in m["text"]
        }
        assert set(marked) >= {"c7", "c10"}
        for cid, m in marked.items():
            page.goto(server.url + f"/messenger/chat/{cid}")
            assert page.get_by_test_id(f"messenger-text-{m['id']}").text_content() == m["text"]
            assert page.locator("main script, main img").count() == 0
        page.goto(server.url + "/")
        assert "<script>" in page.get_by_test_id("launch-desc-messenger").text_content()
        assert page.get_by_test_id("launch-messenger").locator("script, img").count() == 0
        assert dialogs == []
        assert server.events == []
        assert_clean(page)
    finally:
        server.reset("default", 0)
