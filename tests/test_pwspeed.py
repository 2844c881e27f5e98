"""The Playwright client speed-ups (:mod:`openapps_sim.envs.pwspeed`) change no answer: a CDP
answer through :func:`cdp_send` equals ``CDPSession.send``'s, and answers that carry object
references still come back as Playwright objects."""

from __future__ import annotations

import playwright.sync_api
from playwright._impl import _connection

from openapps_sim.envs.pwspeed import cdp_send, speed_up_playwright


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
