"""``openapps serve --explore`` in a real headless Chromium: compose a version, switch the running
world to it in place, compare two versions side by side; the control page is unreachable from
the apps' hosts and absent from agents' servers."""

from __future__ import annotations

import http.client
import subprocess
import sys

import pytest

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
    from browsergym.core import _get_global_playwright

    _get_global_playwright().selectors.set_test_id_attribute("data-testid")
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
        page.wait_for_load_state("load")
        assert page.get_by_test_id("explore-current").inner_text() == "dark_theme+german"
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
