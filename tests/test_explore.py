"""``openapps serve --explore`` in a real headless Chromium: compose a version, switch the running
world to it in place, compare two versions side by side; the control page is unreachable from
the apps' hosts and absent from agents' servers."""

from __future__ import annotations

import http.client
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from .app_pages import address_data_testid

pytestmark = pytest.mark.browser


def _status(port: int, host: str, path: str = "/_explore/") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"host": f"{host}:{port}"})
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture(scope="module")
def explore_port():
    proc = subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.cli", "serve", "--explore", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = None
        for _ in range(6):
            line = proc.stdout.readline()
            if "explore.localhost:" in line:
                port = int(line.split("explore.localhost:")[1].split("/")[0])
                break
        assert port, proc.stderr.read()
        yield port
    finally:
        proc.terminate()
        proc.wait(20)


def _look(page, url: str) -> tuple[str, str]:
    page.goto(url)
    title = page.get_by_test_id("app-title").inner_text()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    return title, background


def test_switching_versions_changes_the_page(browser, explore_port):
    address_data_testid()
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        apps = f"http://127.0.0.1:{explore_port}/todo/"
        before = _look(page, apps)
        page.goto(f"http://explore.localhost:{explore_port}/_explore/")
        assert "interrupt_crash" in page.get_by_test_id("explore-pick-interruptions").inner_text()
        page.get_by_test_id("explore-pick-appearance").select_option("dark_theme")
        page.get_by_test_id("explore-pick-language").select_option("german")
        page.get_by_test_id("explore-switch").click()
        expect(page.get_by_test_id("explore-current")).to_have_text("dark_theme+german")  # waits for the answer
        after = _look(page, apps)
        assert after[0] != before[0] and after[1] != before[1], (before, after)  # German title, dark page

        # the same page under two versions, side by side
        page.goto(f"http://explore.localhost:{explore_port}/_explore/?left=default&right=french&path=/todo/")
        left = page.frame_locator("[data-testid=explore-frame-left]").get_by_test_id("app-title").inner_text()
        right = page.frame_locator("[data-testid=explore-frame-right]").get_by_test_id("app-title").inner_text()
        assert left == before[0] and right != left
        # switching the running world left the compared worlds alone, and the other way round
        assert _look(page, apps) == after

        # a bad pick is one sentence on the page, and the world stays as it was
        page.goto(f"http://explore.localhost:{explore_port}/_explore/")
        page.get_by_test_id("explore-pick-appearance").select_option("dark_theme")
        page.locator("input[name=generated]").fill("abc")
        page.get_by_test_id("explore-switch").click()
        assert "generated: expected a whole number" in page.get_by_test_id("explore-error").inner_text()
        assert page.get_by_test_id("explore-current").inner_text() == "dark_theme+german"
    finally:
        context.close()


def test_the_control_page_is_out_of_the_apps_reach(explore_port, server):
    # not on the apps' own hosts (the default world, an episode world) ...
    assert _status(explore_port, "127.0.0.1") == 404
    assert _status(explore_port, "w1.localhost") == 404
    assert _status(explore_port, "explore.localhost") == 200
    # ... and an agent's server has no control page at all
    agent_port = int(server.url.rsplit(":", 1)[1])
    assert _status(agent_port, "explore.localhost") == 404


def test_bad_input_shows_every_error_and_no_stale_world(browser, explore_port):
    """issue 26.7: every error of the compare form at once, worded for the page, and no frame
    showing an earlier world under a label it does not have; a refused switch keeps the picks."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        base = f"http://explore.localhost:{explore_port}/_explore/"
        page.goto(base + "?left=french&right=german&seed=1")
        assert page.locator("[data-testid=explore-frame-left]").count() == 1
        page.goto(base + "?left=darktheme&right=german+foo&seed=abc")
        errors = page.locator("[data-testid=explore-compare-error] li").all_inner_texts()
        assert len(errors) == 3, errors
        text = " ".join(errors)
        assert "--variation" not in text
        assert "left version: no pack named 'darktheme' (did you mean dark_theme?)" in text
        assert "right version: no pack named 'foo'" in text
        assert "seed: 'abc' is not a whole number" in text
        assert page.locator("iframe").count() == 0  # neither side shows french/german under the new labels
        assert page.get_by_test_id("explore-blank-left").is_visible()
        # one bad side: the good side is shown, the bad one is not
        page.goto(base + "?left=darktheme&right=german&seed=0")
        assert page.locator("[data-testid=explore-frame-right]").count() == 1
        assert page.locator("[data-testid=explore-frame-left]").count() == 0

        # the switch form: both bad numbers reported, every pick and typed value kept
        page.goto(base)
        page.get_by_test_id("explore-pick-appearance").select_option("palette_nord")
        page.get_by_test_id("explore-pick-language").select_option("italian")
        page.get_by_test_id("explore-pick-content").select_option("sparse")
        page.locator("input[name=generated]").fill("x1")
        page.locator("fieldset input[name=seed]").fill("-2")
        page.get_by_test_id("explore-switch").click()
        page.locator("[data-testid=explore-error] li").nth(1).wait_for()  # the answer page, not the form
        errors = page.locator("[data-testid=explore-error] li").all_inner_texts()
        assert len(errors) == 2 and "generated:" in errors[0] and "world seed:" in errors[1], errors
        assert page.get_by_test_id("explore-pick-appearance").input_value() == "palette_nord"
        assert page.get_by_test_id("explore-pick-language").input_value() == "italian"
        assert page.get_by_test_id("explore-pick-content").input_value() == "sparse"
        assert page.locator("input[name=generated]").input_value() == "x1"
    finally:
        context.close()


def test_a_language_under_a_content_pack_is_explained(browser, explore_port):
    """issue 26.7: ``mandarin+dense`` shows dense's English events; the page says why."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"http://explore.localhost:{explore_port}/_explore/?left=mandarin+dense&right=dense+mandarin")
        notes = page.locator(".pair .note").all_inner_texts()
        assert len(notes) == 1, notes  # only the left one: in dense+mandarin the language wins
        assert "dense comes after mandarin" in notes[0] and "calendar.events" in notes[0]
        assert "the later one wins" in page.get_by_role("heading", name="Compose a version").locator("..").inner_text()
    finally:
        context.close()


def test_default_is_listed_as_appearance():
    """issue 26.10: the control page filed ``default`` (a pack with no section) under content."""
    from openapps_sim.config.catalog import resolve_pack
    from openapps_sim.config.packs import pack_kind

    assert pack_kind(resolve_pack("default")) == "appearance"
