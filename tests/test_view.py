"""``openapps view RUNS...`` over the run folders of a real (small) sweep on the text backend, in a
real headless Chromium: the filters and the search, an episode's steps (the tree, the
interruption, the state difference, the exchange with the model), the success flips side by
side; nothing is loaded from another host. Records of an LLM agent (a label, an exchange per
step, the system prompt once per episode) are laid over a copy of the lexical agent's."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openapps_sim.analysis.view import failure_kind, load_episodes
from openapps_sim.cli.main import main
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.sweep import run_sweep

from .sweep_helpers import write_spec

LABEL = "lexical (my config)"
SYSTEM = "You are a careful UI agent. Reply with one action."


def with_exchanges(run: Path, out: Path) -> Path:
    """A copy of ``run`` whose lexical records carry a label and whose steps carry an exchange
    with a model (request, raw reply, a re-ask, latency, tokens), as an LLM agent's would."""
    shutil.copytree(run, out)
    lines = []
    for line in (out / "results.jsonl").read_text().splitlines():
        rec = json.loads(line)
        if rec["agent"] == "lexical":
            rec["agent_label"] = LABEL
            path = out / "trajectories" / f"{rec['episode_id']}.json"
            traj = json.loads(path.read_text())
            traj["system_prompt"] = SYSTEM
            for i, step in enumerate(traj["steps"]):
                step["exchange"] = {
                    "request": {
                        "messages": [
                            {"role": "system", "content": "(the system prompt)"},
                            {"role": "user", "content": [{"type": "text", "text": f"Goal: {traj['goal']}\nStep {i}"}]},
                        ]
                    },
                    "reply": f"Thought: step {i} of the plan.\nAction: {step['action']}",
                    "reasks": [{"reason": "no action in the reply", "reply": "I am not sure."}] if i == 0 else [],
                    "latency_s": 0.5,
                    "tokens": {"input_tokens": 100, "output_tokens": 10},
                }
            path.write_text(json.dumps(traj))
        lines.append(json.dumps(rec))
    (out / "results.jsonl").write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    """Two run folders: the oracle's and the lexical agent's episodes of one sweep (two tasks,
    the default version and an interruption pack, seed 0) and a copy with exchanges."""
    root = tmp_path_factory.mktemp("view")
    spec = write_spec(
        root,
        name="view",
        agents=["oracle", "lexical"],
        tasks=["todo.add_item", "messenger.send_message"],
        variations=["default", "interrupt_permission"],
        seeds=[0],
        backends=["text"],
        languages=["en"],
    )
    run_sweep(load_spec(spec), root / "run", workers=1, progress=False)
    return root / "run", with_exchanges(root / "run", root / "llm")


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
    assert len(episodes.rows) == 16
    labels = {row["label"] for row in episodes.rows.values()}
    assert labels == {"oracle", "lexical", LABEL}
    # the lexical agent declares it is done under the permission prompt: two flips per folder
    lost = [episodes.rows[f.lost] for f in episodes.flips]
    assert sorted((r["label"], r["task"], r["variation"]) for r in lost) == [
        ("lexical", "messenger.send_message", "interrupt_permission"),
        ("lexical", "todo.add_item", "interrupt_permission"),
        (LABEL, "messenger.send_message", "interrupt_permission"),
        (LABEL, "todo.add_item", "interrupt_permission"),
    ]
    assert {r["failure"] for r in lost} == {"premature stop"}
    assert all(episodes.rows[f.won]["variation"] == "default" for f in episodes.flips)
    assert len(episodes.select({"agent": LABEL, "outcome": "failure"})) == 2
    assert len(episodes.select({"q": "raw reply words absent"})) == 0
    assert len(episodes.select({"q": "step 1 of the plan"})) == 4  # searched in the recorded replies


def test_a_folder_that_holds_no_run_is_one_config_error(tmp_path, capsys):
    assert main(["view", str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("openapps: error: openapps view: ") and "absent: no such folder; allowed: a folder" in err
    assert main(["view", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path}: results.jsonl: not found; allowed: a folder written by openapps sweep --out" in err
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
        assert found and "16 episodes of 2 run folders" in line, line + proc.stderr.read()
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
    assert page.locator("#count").inner_text() == "16 of 16 episodes · 12 of 16 scored solved (75%)"
    with page.expect_navigation():
        page.select_option("#f-agent", LABEL)
    assert len(rows(page)) == 4 and all(LABEL in r for r in rows(page))
    assert page.locator("#f-outcome option:checked").inner_text() == "any outcome"
    assert page.locator("#f-outcome option").all_inner_texts() == ["any outcome", "success (2)", "failure (2)"]
    with page.expect_navigation():
        page.select_option("#f-outcome", "failure")
    assert len(rows(page)) == 2 and all("premature stop" in r and "interrupt_permission" in r for r in rows(page))
    page.goto(view_url + "?app=messenger&variation=default")
    assert len(rows(page)) == 4 and all("messenger.send_message" in r for r in rows(page))
    page.goto(view_url + "?failure=premature+stop")
    assert len(rows(page)) == 4
    page.goto(view_url)
    page.fill("#f-q", "step 1 of the plan")
    with page.expect_navigation():
        page.get_by_role("button", name="Apply").click()
    assert len(rows(page)) == 4 and all(LABEL in r for r in rows(page))
    page.goto(view_url + "?task=todo.add_item&q=nothing+like+this")
    assert rows(page) == [] and page.locator(".empty").inner_text() == "No episode matches these filters."


@pytest.mark.browser
def test_an_episode_shows_tree_interruption_diff_and_exchange(view_page, view_url, runs):
    page = view_page
    page.goto(view_url + "?agent=" + LABEL.replace(" ", "+") + "&outcome=failure&task=todo.add_item")
    with page.expect_navigation():
        page.locator("table.episodes td.goal a").first.click()
    assert page.locator("h1").inner_text() == f"{LABEL} · todo.add_item · interrupt_permission · seed 0"
    assert page.locator(".facts").inner_text().startswith("failure")
    steps = page.locator(".steps > .step")
    record = next(
        json.loads(line)
        for line in (runs[1] / "results.jsonl").read_text().splitlines()
        if LABEL in line and "todo.add_item" in line and "interrupt_permission" in line
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
    exchange = page.locator("#exchange-1")
    assert exchange.locator("summary").inner_text() == "Exchange with the model (1 re-ask, 110 tokens, 0.5 s)"
    exchange.locator("summary").click()
    assert exchange.get_by_text("Thought: step 0 of the plan.").is_visible()
    assert exchange.get_by_text("no action in the reply").is_visible()
    page.locator("#system-prompt summary").click()
    assert page.locator("#system-prompt pre").inner_text() == SYSTEM


@pytest.mark.browser
def test_a_success_flip_shows_both_versions_side_by_side(view_page, view_url):
    page = view_page
    page.goto(view_url + "flips")
    assert page.locator("h1").inner_text() == "Success flips (4)"
    with page.expect_navigation():
        page.locator("table.episodes a", has_text="side by side").first.click()
    sides = page.locator(".sidebyside > .side")
    assert sides.count() == 2
    assert sides.nth(0).locator("p").first.inner_text() == "success default"
    assert sides.nth(1).locator("p").first.inner_text() == "failure interrupt_permission"
    assert sides.nth(0).locator(".step").count() >= 2 and sides.nth(1).locator(".step").count() >= 2
