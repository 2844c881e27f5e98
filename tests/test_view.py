"""``openapps view RUNS...`` over two real run folders on the text backend, in a real headless
Chromium: the filters and the search, an episode's steps (the tree, the interruption, the state
difference, the exchange with the model), the success flips side by side; nothing is loaded from
another host.

One folder is a sweep of the oracle and the lexical agent; the other is ``openapps sweep
--model --base-url --label`` against the fake OpenAI server of tests/fake_llm_server.py on
127.0.0.1, whose first answer holds no action, so the agent is re-asked once: the page shows the
exchange exactly as the runner recorded it."""

from __future__ import annotations

import hashlib
import json
import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote_plus

import numpy as np
import pytest
from fasthtml.common import to_xml
from openapps_sim.agents import make_agent

from openapps_sim.analysis.report.images import Budget
from openapps_sim.analysis.view import failure_kind, load_episodes
from openapps_sim.analysis.view.exchange import ExchangeContext, exchange_view
from openapps_sim.cli.main import main
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.steplog import StepLog
from openapps_sim.sweeps.sweep import run_sweep

from .fake_llm_server import FakeLLMServer, request_images
from .sweep_helpers import write_spec

LABEL = "my model (v2)"
BAD_REPLY = "I would look around first."  # no action in it: the agent asks again
GOAL = "Could you jot down 'Defrost the freezer' in my to-do app real quick?"  # todo.add_item, seed 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    """Two run folders: the oracle's and the lexical agent's episodes of one sweep (two tasks,
    the default version and an interruption pack, seed 0), and a model's on todo.add_item in the
    same two versions, chosen with command-line flags only."""
    root = tmp_path_factory.mktemp("view")
    common = {"seeds": [0], "backends": ["text"], "languages": ["en"]}
    versions = ["default", "interrupt_permission"]
    tasks = ["todo.add_item", "messenger.send_message"]
    spec = write_spec(root, name="view", agents=["oracle", "lexical"], tasks=tasks, variations=versions, **common)
    run_sweep(load_spec(spec), root / "run", workers=1, progress=False)
    llm = tmp_path_factory.mktemp("view-llm")
    spec = write_spec(llm, name="view-llm", agents=["openai"], tasks=["todo.add_item"], variations=versions, **common)
    with FakeLLMServer([BAD_REPLY]) as server:
        flags = ["--model", "my-model", "--base-url", server.url + "/v1", "--label", LABEL]
        code = main(["sweep", str(spec), *flags, "--out", str(llm / "run"), "--workers", "1", "--quiet"])
    assert code == 0
    return root / "run", llm / "run"


def trajectory(run: Path, variation: str) -> dict:
    recs = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    rec = next(r for r in recs if r["variation"] == variation)
    return json.loads((run / "trajectories" / f"{rec['episode_id']}.json").read_text())


def test_failure_kinds_name_why_an_episode_failed():
    base = {"success": False, "actions": ["click('1')"], "step_changed": [True]}
    assert failure_kind({**base, "success": True}) == ""
    assert failure_kind({**base, "is_error": True, "error_kind": "model_service"}) == "model service error"
    assert failure_kind({**base, "is_error": True, "error_kind": "infrastructure"}) == "infrastructure error"
    assert failure_kind({**base, "agent_error": "ValueError: x"}) == "agent error"
    assert failure_kind({**base, "harmful_accepted": True}) == "accepted a harmful interruption"
    assert failure_kind({**base, "answer_ok": False}) == "wrong answer"
    assert failure_kind({**base, "premature_stop": True}) == "premature stop"
    assert failure_kind({**base, "declared": "infeasible"}) == "reported infeasible"
    stuck = {**base, "actions": ["click('8')"] * 3, "step_changed": [True, False, False]}
    assert failure_kind(stuck) == "stuck loop"
    assert failure_kind(base) == "ran out of steps"


def test_the_index_reads_labels_kinds_and_flips(runs):
    run, llm = runs
    episodes = load_episodes([run, llm])
    assert len(episodes.rows) == 10
    labels = {row["label"] for row in episodes.rows.values()}
    assert labels == {"oracle", "lexical", LABEL}  # the model's records carry label: my model (v2)
    lost = [episodes.rows[f.lost] for f in episodes.flips]
    assert sorted((r["label"], r["task"], r["variation"], r["failure"]) for r in lost) == [
        ("lexical", "messenger.send_message", "interrupt_permission", "premature stop"),
        ("lexical", "todo.add_item", "interrupt_permission", "premature stop"),
        (LABEL, "todo.add_item", "interrupt_permission", "stuck loop"),
    ]
    assert all(episodes.rows[f.won]["variation"] == "default" for f in episodes.flips)
    assert len(episodes.select({"agent": LABEL, "outcome": "failure"})) == 1
    assert len(episodes.select({"q": "raw reply words absent"})) == 0
    # the search reads every reply of the exchanges: the one not taken too
    (found,) = episodes.select({"q": "look AROUND first"})
    assert (episodes.rows[found]["label"], episodes.rows[found]["variation"]) == (LABEL, "default")
    assert len(episodes.select({"q": "working on todo"})) == 2


def test_a_folder_that_holds_no_run_is_one_config_error(tmp_path, capsys):
    assert main(["view", str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("openapps: error: openapps view: ") and "absent: no such folder; allowed: a folder" in err
    assert main(["view", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path}: results.jsonl: not found; allowed: a folder written by openapps sweep --out" in err
    assert "Traceback" not in err


def test_a_port_in_use_is_one_config_error(runs, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["view", str(runs[0]), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"--port: {port}: cannot listen on 127.0.0.1:{port}" in err and "allowed: a free port, or 0" in err
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def view_url(runs):
    run, llm = runs
    proc = subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.cli", "view", str(run), str(llm), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        assert found and "10 episodes of 2 run folders" in line, line + proc.stderr.read()
        yield found.group(1)
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.fixture()
def view_page(browser, view_url):
    """A page that records requests to any other host and console errors."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.elsewhere, page.errors = [], []
    page.on("request", lambda r: None if r.url.startswith((view_url, "data:")) else page.elsewhere.append(r.url))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    yield page
    assert page.elsewhere == [] and page.errors == []
    context.close()


def rows(page) -> list[str]:
    return page.locator("table.episodes tbody tr").all_inner_texts()


@pytest.mark.browser
def test_filters_and_search_narrow_the_list(view_page, view_url):
    page = view_page
    page.goto(view_url)
    assert page.locator("#count").inner_text() == "10 of 10 episodes · 7 of 10 scored solved (70%)"
    with page.expect_navigation():
        page.select_option("#f-agent", LABEL)
    assert len(rows(page)) == 2 and all(LABEL in r for r in rows(page))
    assert page.locator("#f-outcome option:checked").inner_text() == "any outcome"
    assert page.locator("#f-outcome option").all_inner_texts() == ["any outcome", "success (1)", "failure (1)"]
    with page.expect_navigation():
        page.select_option("#f-outcome", "failure")
    assert len(rows(page)) == 1 and "stuck loop" in rows(page)[0] and "interrupt_permission" in rows(page)[0]
    page.goto(view_url + "?app=messenger&variation=default")
    assert len(rows(page)) == 2 and all("messenger.send_message" in r for r in rows(page))
    page.goto(view_url + "?failure=premature+stop")
    assert len(rows(page)) == 2
    page.goto(view_url)
    page.fill("#f-q", "look around first")  # the model's reply that was not taken
    with page.expect_navigation():
        page.get_by_role("button", name="Apply").click()
    assert len(rows(page)) == 1 and LABEL in rows(page)[0] and "default" in rows(page)[0]
    page.goto(view_url + "?task=todo.add_item&q=nothing+like+this")
    assert rows(page) == [] and page.locator(".empty").inner_text() == "No episode matches these filters."


@pytest.mark.browser
def test_an_episode_shows_tree_interruption_and_diff(view_page, view_url, runs):
    page = view_page
    page.goto(view_url + "?agent=lexical&outcome=failure&task=todo.add_item")
    with page.expect_navigation():
        page.locator("table.episodes td.goal a").first.click()
    assert page.locator("h1").inner_text() == "lexical · todo.add_item · interrupt_permission · seed 0"
    assert page.locator(".facts").inner_text().startswith("failure")
    steps = page.locator(".steps > .step")
    record = next(
        json.loads(line)
        for line in (runs[0] / "results.jsonl").read_text().splitlines()
        if '"lexical"' in line and "todo.add_item" in line and "interrupt_permission" in line
    )
    assert steps.count() == record["steps"] and steps.count() >= 2
    assert steps.first.locator("pre.tree mark").count() == 1  # the addressed element's line
    assert page.locator("#interruptions + div tbody tr").inner_text().split("\t")[:3] == [
        "1",
        "permission",
        "permission_contacts",
    ]
    assert steps.nth(1).get_by_text("interruption shown: permission_contacts").count() == 1
    diff = page.locator("#state-diff + div tbody tr").first.inner_text()
    assert "todo.items[" in diff and "<missing>" in diff
    assert page.locator(".exchange[id^=exchange-], #system-prompts").count() == 0  # it asked no model


@pytest.mark.browser
def test_an_episode_shows_the_exchange_as_recorded(view_page, view_url, runs):
    """The system prompt once, the request's messages, every reply with its tokens, the re-ask."""
    page = view_page
    traj = trajectory(runs[1], "default")
    ((sid, system),) = traj["system_prompts"].items()
    (bad, good), later = traj["steps"][0]["exchange"]["replies"], traj["steps"][1:]
    page.goto(view_url + f"?agent={quote_plus(LABEL)}&variation=default")
    with page.expect_navigation():
        page.locator("table.episodes td.goal a").first.click()
    assert page.locator("h1").inner_text() == f"{LABEL} · todo.add_item · default · seed 0"
    assert system.startswith("You are an agent that uses a web browser to carry out a task for a user.")
    assert page.content().count("You are an agent that uses a web browser") == 1  # once, for every step
    assert page.locator(f"#system-{sid} pre").text_content() == system
    assert page.locator("details.exchange[id^=exchange-]").count() == 1 + len(later) == 3
    first = page.locator("#exchange-1")
    summary = first.locator("summary").inner_text()
    tokens = f"{bad['prompt_tokens'] + good['prompt_tokens']:,} prompt + {6 + good['completion_tokens']} completion"
    assert summary.startswith(f"Exchange with the model · 2 replies, 1 re-ask · {tokens} tokens · ")
    first.locator("summary").click()
    assert first.locator(".head").first.inner_text() == "Request · model my-model · temperature 0.0 · max_tokens 1024"
    assert (
        first.locator(".msg.system").inner_text()
        == f"SYSTEM\nsystem prompt {sid} (its text is shown once on this page)"
    )
    first.locator(f".msg.system a[href='#system-{sid}']").click()  # the reference leads to the text
    assert page.url.endswith(f"#system-{sid}")
    user = first.locator(".msg.user").first.locator("pre").inner_text()
    assert user.startswith(f"Task: {GOAL}\n") and "Accessibility tree of the page:\n" in user
    heads = first.locator(".head").all_inner_texts()
    assert heads[1].startswith(f"Reply 1 (not taken) · {bad['prompt_tokens']:,} prompt + 6 completion tokens · ")
    assert heads[2].startswith(f"Reply 2 · {good['prompt_tokens']:,} prompt + ")
    replies = first.locator(".msg.reply pre").all_inner_texts()
    assert replies[0] == BAD_REPLY
    assert replies[1].startswith("<think>progress: done=[]. Working on todo: click(") and replies[1].endswith(
        ")</action>"
    )
    assert first.locator(".reask-why").inner_text() == "Re-asked: the answer held no action"
    reask = first.locator(".msg.reask pre").inner_text()
    assert reask.startswith("Your answer held no action I could read. Answer again in the form")


def test_images_sent_are_shown_when_the_run_kept_them(tmp_path):
    """An image the agent sent is its name in the request, and the image itself where the run
    stored it; an Anthropic request's own system field links to the system prompt too."""
    screen = np.full((72, 128, 3), 90, dtype=np.uint8)
    for name, base in (("openai", "/v1"), ("anthropic", "")):
        with FakeLLMServer(["<action>noop()</action>"]) as server:
            options = {"model": "m", "base_url": server.url + base, "require_api_key": False, "obs_mode": "both"}
            agent = make_agent(name, options)
            agent.reset("g")
            obs = {"url": "http://h/", "screenshot": screen, "axtree_object": {"nodes": []}}
            agent.act(obs)
            (png,) = request_images(server.requests[0]["body"])
        for keep in (True, False):
            folder = tmp_path / f"{name}-{keep}"
            log = StepLog(folder, "ep1", thumbnails=False, exchange_images=keep)
            log.before(obs)
            step = log.after(agent, "noop()", None, 0)
            html = to_xml(exchange_view(0, step, ExchangeContext(folder, "ep1", log.system_prompts, Budget(10**7)))[0])
            ((sid, _),) = log.system_prompts.items()
            image = hashlib.sha1(png).hexdigest()[:16] + ".png"
            assert f'href="#system-{sid}"' in html and f"image {image}" in html
            assert ('src="data:image/jpeg;base64,' in html) is keep and ("not stored" in html) is not keep
            assert (folder / "exchanges" / "ep1" / image).is_file() is keep


@pytest.mark.browser
def test_a_success_flip_shows_both_versions_side_by_side(view_page, view_url):
    page = view_page
    page.goto(view_url + "flips")
    assert page.locator("h1").inner_text() == "Success flips (3)"
    with page.expect_navigation():
        page.locator("table.episodes tr", has_text=LABEL).locator("a", has_text="side by side").click()
    assert (
        page.locator("h1").inner_text()
        == f"{LABEL} · todo.add_item · seed 0: solved in default, failed in interrupt_permission"
    )
    sides = page.locator(".sidebyside > .side")
    assert sides.count() == 2
    assert sides.nth(0).locator("p").first.inner_text() == "success default"
    assert sides.nth(1).locator("p").first.inner_text() == "failure interrupt_permission"
    assert sides.nth(0).locator(".step").count() >= 2 and sides.nth(1).locator(".step").count() >= 2
    # each side's exchanges, the system prompt they share once below
    assert sides.nth(0).locator("details.exchange[id^=exchange-]").count() == 3
    assert page.content().count("You are an agent that uses a web browser") == 1
