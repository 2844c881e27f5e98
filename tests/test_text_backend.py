"""The text backend on its own: no browser, BrowserGym's observation keys and action semantics,
the errors that name the backend, vectorised envs and asyncio. Parity with Chromium is
tests/test_text_parity.py."""

from __future__ import annotations

import asyncio
import os
import threading

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401 - registers the envs
from openapps_sim.envs.observe import axtree_text, testid_bids
from openapps_sim.errors import ConfigError
from openapps_sim.web.bids import mark_bids


def make(task: str = "todo.add_item", seed: int = 0, **kw):
    env = gym.make(
        f"browsergym/openapps.{task}", task_kwargs={"variation": "default", "seed": seed}, backend="text", **kw
    )
    obs, info = env.reset()
    return env, obs, info


def open_app(env, obs, app: str):
    bid = testid_bids(obs)[f"launch-{app}"] if f"launch-{app}" in testid_bids(obs) else None
    if bid is None:
        return env.step(f"goto('{env.unwrapped.task.live.url}/{app}/')")[0]
    return env.step(f"click('{bid}')")[0]


def chromium_children() -> int:
    """Chromium processes started by this process (other test workers may run browsers)."""
    parents: dict[int, int] = {}
    names: dict[int, bytes] = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                parents[int(pid)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                names[int(pid)] = f.read().split(b"\0")[0]
        except (OSError, IndexError, ValueError):
            continue

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return sum(1 for pid, name in names.items() if b"chrom" in name and descends(pid))


def test_mark_bids_counts_standard_elements_in_document_order():
    html = (
        "<!doctype html><html><head><title>a<b></title><style>p<q{}</style></head><body><!-- <p> -->"
        "<div><svg><title>t</title><path d='1'></path></svg><p>hi</p></div></body></html>"
    )
    marked = mark_bids(html)
    assert '<html bid="0">' in marked and '<style bid="3">p<q{}' in marked  # raw text untouched
    assert "<!-- <p> -->" in marked  # comments untouched
    assert '<svg bid="6">' in marked and '<title bid="7">' in marked and "<path d=" in marked  # shapes: no bid
    assert '<p bid="8">' in marked


def test_pages_carry_bids_only_when_asked(server):
    import http.client
    from urllib.parse import urlparse

    u = urlparse(server.url)
    for headers, expected in (({}, False), ({"x-openapps-bids": "1"}, True)):
        conn = http.client.HTTPConnection(u.hostname, u.port)
        conn.request("GET", "/todo/", headers=headers)
        body = conn.getresponse().read().decode()
        assert (' bid="' in body) is expected


def test_text_env_starts_no_browser_and_solves_a_task():
    before = chromium_children()  # the test session's own shared browser may be up already
    env, obs, info = make("todo.add_item", seed=3)
    try:
        assert chromium_children() == before
        assert obs["screenshot"].size == 0 and obs["extra_element_properties"] == {}
        for key in ("axtree_object", "dom_object", "focused_element_bid", "open_pages_urls", "chat_messages"):
            assert key in obs
        title = info["task_info"]["params"]["title"]
        obs = open_app(env, obs, "todo")
        ids = testid_bids(obs)
        obs, reward, terminated, _, _ = env.step(f"fill('{ids['todo-new-title']}', {title!r})")
        assert obs["focused_element_bid"] == ids["todo-new-title"] and reward == 0
        assert f"value={title!r}" in axtree_text(obs)
        obs, reward, terminated, _, info = env.step(f"press('{ids['todo-new-title']}', 'Enter')")  # implicit submission
        assert reward == 1 and terminated, info["task_info"]["explanation"]
    finally:
        env.close()


def test_errors_name_the_fault_and_the_backend():
    env, obs, _ = make()
    try:
        obs = env.step("click('9999')")[0]
        assert 'Could not find element with bid "9999"' in obs["last_action_error"]
        home = testid_bids(obs)["nav-home"]
        obs = env.step(f"fill('{home}', 'x')")[0]
        assert "is not an <input>, <textarea>" in obs["last_action_error"]
        obs = env.step(f"select_option('{home}', 'x')")[0]
        assert "is not a <select> element" in obs["last_action_error"]
        obs = env.step("goto('http://example.com/')")[0]
        assert "blocked" in obs["last_action_error"]
        obs = env.step("click 12")[0]
        assert obs["last_action_error"]
    finally:
        env.close()
    with pytest.raises(ConfigError, match="text backend renders no pixels"):
        gym.make("browsergym/openapps.todo.add_item", backend="text", obs_mode="screenshot")


def test_coordinate_actions_name_the_backend():
    env = gym.make("browsergym/openapps.todo.add_item", backend="text", action_space="all")
    env.reset(seed=0)
    try:
        obs = env.step("mouse_click(10, 10)")[0]
        assert "text backend has no screen" in obs["last_action_error"] and "chromium" in obs["last_action_error"]
    finally:
        env.close()


def test_history_tab_and_focus():
    env, obs, _ = make()
    try:
        start = obs["url"]
        obs = open_app(env, obs, "todo")
        assert obs["url"].endswith("/todo/")
        obs = env.step("go_back()")[0]
        assert obs["url"] == start
        obs = env.step("go_forward()")[0]
        assert obs["url"].endswith("/todo/")
        ids = testid_bids(obs)
        obs = env.step(f"press('{ids['todo-new-title']}', 'Tab')")[0]
        assert obs["focused_element_bid"] not in ("", ids["todo-new-title"])
        obs = env.step("new_tab()")[0]
        assert obs["open_pages_urls"][-1] == "about:blank" and int(obs["active_page_index"][0]) == 1
        obs = env.step("tab_close()")[0]
        assert len(obs["open_pages_urls"]) == 1
    finally:
        env.close()


def test_app_tools_and_answers_run_on_the_text_backend():
    env = gym.make("browsergym/openapps.todo.add_item", backend="text", interface="mixed")
    obs, info = env.reset(seed=3)
    try:
        title = info["task_info"]["params"]["title"]
        obs, reward, terminated, _, _ = env.step(f"todo.add_item(title={title!r})")
        assert reward == 1 and terminated and obs["tool_result"]
    finally:
        env.close()


def test_vector_env_of_text_envs_each_with_its_own_world():
    envs = gym.make_vec("browsergym/openapps.todo.add_item", num_envs=3, vectorization_mode="sync", backend="text")
    try:
        obs, info = envs.reset(seed=[0, 1, 2])
        assert len(set(obs["url"])) == 3  # three worlds, three origins
        obs, rewards, *_ = envs.step(["noop()"] * 3)
        assert list(rewards) == [0, 0, 0]
    finally:
        envs.close()


def test_text_env_runs_inside_a_running_event_loop():
    async def main():
        env, obs, _ = make()
        try:
            return env.step("noop()")[0]["url"]
        finally:
            env.close()

    # a fresh thread: this test process may hold Playwright's own loop (the Chromium tests')
    result: list[str] = []
    thread = threading.Thread(target=lambda: result.append(asyncio.run(main())))
    thread.start()
    thread.join(120)
    assert result and result[0].startswith("http://")


def test_the_step_budget_truncates_on_the_text_backend_too():
    env = gym.make("browsergym/openapps.todo.add_item", backend="text")
    env.reset(seed=0, options={"max_steps": 2})
    try:
        assert env.step("noop()")[3] is False
        assert env.step("noop()")[3] is True
        obs, _, _, truncated, info = env.step("noop()")
        assert truncated and info.get("budget_spent") and obs["last_action_error"].startswith("BudgetSpent")
    finally:
        env.close()


def test_dom_snapshot_readers_take_an_empty_value_as_empty():
    from openapps_sim.taskkit.observation import testid_attributes

    obs = {
        "dom_object": {
            "strings": ["input", "value", "data-testid", "f", "last"],
            "documents": [
                {"nodes": {"attributes": [[1, -1, 2, 3]], "parentIndex": [-1], "nodeType": [1], "nodeValue": [-1]}}
            ],
        }
    }
    assert testid_attributes(obs)["f"]["value"] == ""  # Chromium's -1: not the table's last string


def test_sweep_backend_flag_runs_a_spec_on_the_text_backend(tmp_path):
    """``openapps sweep SPEC --backend text`` runs the spec's episodes without a browser and
    records the backend (the demo spec runs so by default)."""
    import json
    import subprocess
    import sys

    spec = tmp_path / "s.yaml"
    spec.write_text("name: s\nagents: [oracle]\ntasks: [todo.add_item]\nvariations: [german]\nseeds: [0]\nworkers: 1\n")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "openapps_sim.cli", "sweep", str(spec), "--backend", "text", "--out", str(out)]
    done = subprocess.run(cmd + ["--quiet", "--no-report"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert record["backend"] == "text" and record["success"] is True

    from openapps_sim.sweeps.spec import load_spec

    assert load_spec("demo").backends == ["text"]


def test_a_bare_named_boolean_reads_empty_as_in_chromiums_dom():
    """libxml2 fills a bare ``checked`` with "checked"; Chromium's DOM reads "" (a page that
    spells the name out keeps the parser's value for that name), in nested elements and tables."""
    from openapps_sim.envs.text.dom import parse

    doc = parse(
        "<html><body><form><input bid='1' type='checkbox' checked>"
        "<table><tr><td><select bid='2' multiple><option bid='3' selected>a</option></select></td></tr></table>"
        "<input bid='4' disabled='disabled'><button bid='5' disabled>b</button></form></body></html>",
        "http://x/",
    )
    by = doc.by_bid
    assert by["1"].attrs["checked"] == ""
    assert by["2"].attrs["multiple"] == "" and by["3"].attrs["selected"] == ""
    assert by["4"].attrs["disabled"] == "disabled" and by["5"].attrs["disabled"] == "disabled"
    assert by["3"].parent.parent.parent.parent.tag == "tbody"  # option, select, td, tr, tbody


def test_a_named_boolean_spelled_out_counts_only_as_a_whole_word():
    """``data-checked="checked"`` (the name inside another word) does not spell ``checked`` out;
    ``checked = 'checked'`` after such a word does, quoted or not, spaced or not."""
    from openapps_sim.envs.text.dom import parse

    def checked(html: str) -> str:
        return (
            parse(f"<html><body>{html}<input bid='1' type='checkbox' checked></body></html>", "http://x/")
            .by_bid["1"]
            .attrs["checked"]
        )

    assert checked("<i data-xchecked='checked'></i>") == ""
    assert checked("<i title='unchecked=checked'></i>") == ""
    assert checked("<i data-xchecked='checked'></i><input checked = 'checked'>") == "checked"
    assert checked("<input checked=checked>") == "checked"
    assert checked("<i title='_checked=checked'></i>") == ""
    assert checked("<i title='checked=checkedx'></i>") == ""


def test_links_are_joined_as_urljoin_joins_them():
    """The axtree's link URLs: a plain absolute path on an http page is joined without urljoin,
    to the same URL."""
    import random
    from urllib.parse import urljoin

    from openapps_sim.envs.text.axtree import _join

    rng = random.Random(3)
    bases = ["http://127.0.0.1:8000/todo/", "http://w1.localhost/a/b?x=1#f", "https://h/x", "about:blank", "HTTP://H/a"]
    hrefs = ["/", "//x", "/a?", "/a?b#c", "/a/./b", "/a/../b", "/..", "/a;b", "/a?b;c", "/a//b", "/a b", "x", "?q"]
    hrefs += ["/" + "".join(rng.choices("/abc.;?#=&%:@!'()*+,-_~ \t\\é$\"", k=rng.randint(0, 8))) for _ in range(2000)]
    for base in bases:
        for href in hrefs:
            assert _join.__wrapped__(base, href) == urljoin(base, href), (base, href)
