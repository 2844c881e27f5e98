"""The Playwright client speed-ups (:mod:`openapps_sim.envs.pwspeed`) change no answer: a CDP
answer through :func:`cdp_send` equals ``CDPSession.send``'s, and answers that carry object
references still come back as Playwright objects."""

from __future__ import annotations

import playwright.sync_api
import pytest
from playwright._impl import _connection, _sync_base

from openapps_sim.envs.pwspeed import cdp_send, cdp_send_all, speed_up_playwright


def test_patches_are_installed_once(page):
    speed_up_playwright()
    speed_up_playwright()
    assert getattr(_connection.Connection._replace_guids_with_channels, "_openapps_fast", False)


def test_cdp_answers_are_the_same_as_playwrights(page, server):
    page.goto(server.url + "/todo")
    session = page.context.new_cdp_session(page)
    for method, params in [
        ("Accessibility.getFullAXTree", {}),
        ("DOMSnapshot.captureSnapshot", {"computedStyles": [], "includeDOMRects": True}),
        ("Runtime.evaluate", {"expression": "({guid: 'x', nested: [{guid: 1}]})", "returnByValue": True}),
    ]:
        fast = cdp_send(session, method, params)
        assert fast == session.send(method, params), method
    value = cdp_send(session, "Runtime.evaluate", {"expression": "({guid: 'x'})", "returnByValue": True})
    assert value["result"]["value"] == {"guid": "x"}  # a plain value named guid stays a value


def test_answers_with_object_references_still_give_playwright_objects(page, server):
    response = page.goto(server.url + "/todo")
    assert isinstance(response, playwright.sync_api.Response) and response.ok
    body = page.query_selector("body")
    assert isinstance(body, playwright.sync_api.ElementHandle)
    other = page.context.new_page()
    assert isinstance(other, playwright.sync_api.Page) and other in page.context.pages
    other.close()


def test_calls_sent_at_once_answer_as_one_by_one(page, server):
    page.goto(server.url + "/todo")
    session = page.context.new_cdp_session(page)
    calls = [
        ("Accessibility.getFullAXTree", {}),
        ("DOMSnapshot.captureSnapshot", {"computedStyles": [], "includeDOMRects": True}),
        ("Runtime.evaluate", {"expression": "document.title", "returnByValue": True}),
    ]
    assert cdp_send_all(session, calls) == [session.send(m, p) for m, p in calls]
    with pytest.raises(playwright.sync_api.Error, match="wasn't found|not found"):
        cdp_send_all(session, [("Runtime.evaluate", {"expression": "1"}), ("No.suchMethod", {})])


def test_a_failed_call_still_names_its_caller_and_line(page):
    speed_up_playwright()
    assert getattr(_sync_base.traceback, "_openapps_fast", False)
    with pytest.raises(playwright.sync_api.Error) as failure:
        page.evaluate("() => { throw new Error('boom'); }")
    assert "boom" in str(failure.value)
    stack = _sync_base.traceback.extract_stack()
    assert stack[-1].name == "test_a_failed_call_still_names_its_caller_and_line"
    assert stack[-1].line.startswith("stack = _sync_base.traceback.extract_stack()")
