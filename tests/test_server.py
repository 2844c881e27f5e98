"""The app server: nothing but pages served, in-memory reset, determinism, event log, serve command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from openapps_sim.config.catalog import discover_apps
from openapps_sim.config.packs import list_packs
from openapps_sim.web.world import World


def _get(url: str, headers: dict | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_no_request_reads_or_resets_the_world(server):
    server.reset("default", 0)
    revision = server.revision
    for path in ("/_admin/state", "/_admin/reset", "/_admin/worlds", "/_admin/health"):
        status, body = _get(server.url + path)
        assert status == 404 and "todo" not in body, path
        req = urllib.request.Request(server.url + path, data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=10)
        assert err.value.code in (404, 405), path
    assert "todo" in server.state and server.revision == revision


def test_pages_never_carry_a_sealed_worlds_key():
    from openapps_sim.web.server import AppServer

    host = AppServer()
    world = host.add()
    try:
        headers = world.seal()
        key = headers["x-openapps-page-key"]
        for name in discover_apps():
            path = world.url + ("/" if name == "start" else f"/{name}/")
            status, body = _get(path.replace(f"{world.id}.localhost", "127.0.0.1"), {**headers, "Host": world.url[7:]})
            assert status == 200 and key not in body, name
            status, body = _get(path.replace(f"{world.id}.localhost", "127.0.0.1"), {"Host": world.url[7:]})
            assert status == 403 and "sealed" in body, name  # without the key: refused
    finally:
        host.stop()


@pytest.mark.browser
def test_a_page_cannot_read_the_world_but_through_its_pages(world, page):
    page.goto(world.url + "/todo/")
    result = page.evaluate(
        """async () => { const r = await fetch('/_admin/state'); return {status: r.status, body: await r.text()}; }"""
    )
    assert result["status"] == 404
    assert "items" not in result["body"]


def test_reset_restores_the_state_in_memory_and_logs_events(world):
    before = world.snapshot()[1]
    urllib.request.urlopen(urllib.request.Request(world.url + "/todo/add", data=b"title=Feed+the+cat", method="POST"))
    events = list(world.events)
    assert (
        events[-1]["app"] == "todo" and events[-1]["op"] == "add_item" and events[-1]["args"]["title"] == "Feed the cat"
    )
    assert world.snapshot()[1] != before
    world.reset("default", 0)
    assert world.snapshot()[1] == before
    assert world.events == []


def test_same_variation_and_seed_give_the_same_state(server):
    for pack in ["default", "dark_theme", "german", "dense"]:
        if pack not in list_packs():
            continue
        server.reset(pack, 7)
        first = server.snapshot()[1]
        server.reset("default", 1)
        server.reset(pack, 7)
        assert server.snapshot()[1] == first, pack


def test_world_state_is_json_and_built_from_config():
    w = World()
    w.reset("default", 0)
    json.dumps(w.draw_all())  # every app drawn: plain JSON
    assert [i["title"] for i in w.app_state("todo")["items"]] == [i["title"] for i in w.config["todo"]["items"]]


def test_unknown_variation_on_reset_is_a_clear_error(server):
    from openapps_sim.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        server.reset("no_such_pack", 0)
    assert "no_such_pack" in str(err.value) and "openapps variations" in str(err.value)  # where the list is
    with pytest.raises(ConfigError) as err:
        server.reset("dark_them", 0)
    assert "did you mean dark_theme" in str(err.value)


def test_serve_command_picks_a_free_port_and_prints_the_url():
    proc = subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.cli.main", "serve", "--variation", "dark_theme", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        url = line.split(" at ")[1].split()[0]
        status, body = _get(url + "todo/")
        assert status == 200 and "todo-new-title" in body and "#15171c" in body  # dark background
    finally:
        proc.terminate()
        proc.wait(10)


def test_browser_not_found_names_the_fix(monkeypatch):
    from openapps_sim.envs import browser
    from openapps_sim.errors import BrowserNotFound

    monkeypatch.setenv("OPENAPPS_CHROMIUM", "/nonexistent/chrome")
    browser.find_chromium.cache_clear()
    try:
        with pytest.raises(BrowserNotFound) as err:
            browser.find_chromium()
        assert "apt-get install" in str(err.value)
        monkeypatch.delenv("OPENAPPS_CHROMIUM")
        monkeypatch.setattr(browser, "SYSTEM_CANDIDATES", ["/nonexistent/chromium"])
        monkeypatch.setattr(browser, "HEADLESS_SHELL_CANDIDATES", ["/nonexistent/chromium-headless-shell"])
        monkeypatch.setattr(browser, "_playwright_own", lambda shell=False: None)
        browser.find_chromium.cache_clear()
        with pytest.raises(BrowserNotFound) as err:
            browser.find_chromium()
        message = str(err.value)
        assert message.count(".") <= 2 and "apt-get install -y chromium" in message
    finally:
        browser.find_chromium.cache_clear()


def test_headless_runs_prefer_a_headless_shell_and_headed_runs_skip_it(monkeypatch, tmp_path):
    from openapps_sim.envs import browser

    def fake(name):
        path = tmp_path / name
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
        return str(path)

    shell, full = fake("chromium-headless-shell"), fake("chromium")
    monkeypatch.delenv("OPENAPPS_CHROMIUM", raising=False)
    monkeypatch.setattr(browser, "_playwright_own", lambda shell=False: None)
    monkeypatch.setattr(browser, "HEADLESS_SHELL_CANDIDATES", [shell])
    monkeypatch.setattr(browser, "SYSTEM_CANDIDATES", [full])
    browser.find_chromium.cache_clear()
    try:
        assert browser.find_chromium() == shell
        assert browser.find_chromium(headless=False) == full
        monkeypatch.setattr(browser, "HEADLESS_SHELL_CANDIDATES", [str(tmp_path / "missing")])
        browser.find_chromium.cache_clear()
        assert browser.find_chromium() == full  # no shell: the full browser runs headless too
        monkeypatch.setenv("OPENAPPS_CHROMIUM", full)
        monkeypatch.setattr(browser, "HEADLESS_SHELL_CANDIDATES", [shell])
        browser.find_chromium.cache_clear()
        assert browser.find_chromium() == full  # an explicit path always wins
    finally:
        browser.find_chromium.cache_clear()


def test_colour_override_keeps_the_hash():
    from openapps_sim.config.catalog import compose

    assert compose("default", ["theme.colors.primary=#ff0000"])["theme"]["colors"]["primary"] == "#ff0000"


def test_playwright_stack_capture_is_shimmed_but_still_names_the_caller():
    import inspect

    from playwright._impl import _connection, _sync_base

    from openapps_sim.envs import browser

    browser.speed_up_playwright()
    for module in (_connection, _sync_base):
        assert module.inspect.stack is not inspect.stack, module.__name__

    def caller():
        return _sync_base.inspect.stack()

    frames = caller()
    assert frames[0].filename == __file__ and frames[0].function == "caller"
    assert frames[1].function == "test_playwright_stack_capture_is_shimmed_but_still_names_the_caller"
