"""Perception drift (issue 25, point 5; D-GARA): after a crash restarted an app, the actions aimed
at elements of a page from before the restart are flagged per step (``stale_target``) and counted
per episode (``stale_actions``), the same on the text backend and on Chromium."""

from __future__ import annotations

import pytest

from openapps_sim.sweeps.drift import restarts, stale_count, stale_steps
from openapps_sim.sweeps.record import EpisodeSpec, upgrade_record
from openapps_sim.sweeps.runner import Worker

STALE = "tests.drift_agents:StaleClicker"
HOME = {"1": ("link", "Todo"), "2": ("link", "Shop")}
APP = {"1": ("textbox", "New item"), "3": ("button", "Add")}
CRASH = {"9": ("button", "Restart")}


def crash(step: int = 1, resolved: int | None = 2) -> dict:
    return {"kind": "crash", "step": step, "resolved_step": resolved}


def test_no_crash_never_counts():
    targets, seen, pages = ["1", "2", "2"], [0, 1, 2], [HOME, APP, APP]
    assert stale_steps(targets, seen, pages, []) == [False] * 3
    assert stale_count([False] * 3, []) is None
    other = [{"kind": "permission", "step": 1, "resolved_step": 2}]
    assert stale_steps(targets, seen, pages, other) == [False] * 3 and stale_count([], other) is None


def test_a_bid_gone_or_changed_after_the_restart_is_stale():
    # action 1 on the home page, the crash shown after it, answered by action 2, then three actions
    targets = ["1", "9", "2", "1", "3"]
    seen = [0, 1, 2, 3, 4]
    pages = [HOME, CRASH, APP, APP, APP]
    flags = stale_steps(targets, seen, pages, [crash()])
    # "2" (Shop) is gone; "1" is on the new page but names another element; "3" was never before
    assert flags == [False, False, True, True, False]
    assert stale_count(flags, [crash()]) == 2


def test_the_same_element_under_the_same_bid_is_not_stale():
    pages = [APP, CRASH, APP]
    assert stale_steps(["1", "9", "1"], [0, 1, 2], pages, [crash()]) == [False, False, False]


def test_an_unanswered_crash_restarted_nothing():
    assert restarts([crash(resolved=None)]) == []
    assert stale_steps(["2", "2"], [0, 1], [HOME, APP], [crash(resolved=None)]) == [False, False]


def test_invalid_steps_take_their_place_by_env_steps():
    # an invalid action (it never reached the env) before the restart keeps the env step count
    targets, seen = ["1", "zz", "9", "2"], [0, 1, 1, 2]
    pages = [HOME, CRASH, CRASH, APP]
    assert stale_steps(targets, seen, pages, [crash()]) == [False, False, False, True]


def test_older_records_read_as_without_drift():
    assert upgrade_record({"episode_id": "x"})["stale_actions"] is None


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


def _run(worker, agent: str, variation: str = "interrupt_crash", backend: str = "text"):
    return worker.run(EpisodeSpec(agent=agent, task="todo.add_item", variation=variation, seed=1, backend=backend))


def _flags(result) -> list[bool]:
    return [s["stale_target"] for s in result.trajectory["steps"]]


def test_an_agent_clicking_the_old_page_after_a_crash_is_counted(worker):
    result = _run(worker, STALE)
    rec = result.record
    assert [e["kind"] for e in rec["interruptions"]] == ["crash"] and rec["interruptions"][0]["resolved_step"]
    assert rec["stale_actions"] == 3 and sum(_flags(result)) == 3
    assert not any(_flags(result)[:2]), "nothing before the restart is stale"


def test_the_oracle_does_not_drift(worker):
    result = _run(worker, "oracle")
    assert result.record["success"] and restarts(result.record["interruptions"])
    assert result.record["stale_actions"] == 0 and not any(_flags(result))


def test_without_a_crash_nothing_counts(worker):
    result = _run(worker, STALE, variation="default")
    assert result.record["stale_actions"] is None and not any(_flags(result))


@pytest.mark.browser
def test_drift_is_the_same_on_chromium(worker):
    for agent in (STALE, "oracle"):
        text, chromium = _run(worker, agent), _run(worker, agent, backend="chromium")
        assert _flags(chromium) == _flags(text), agent
        assert chromium.record["stale_actions"] == text.record["stale_actions"], agent


def test_the_report_shows_drift_next_to_rsr_and_marks_stale_steps(tmp_path):
    from openapps_sim.analysis.report import write_report
    from openapps_sim.sweeps.spec import load_spec
    from openapps_sim.sweeps.sweep import run_sweep

    spec_path = tmp_path / "drift.yaml"
    spec_path.write_text(
        f"agents: [oracle, '{STALE}']\ntasks: [todo.add_item]\nvariations: [default, interrupt_crash]\n"
        "seeds: [1]\nbackends: [text]\n"
    )
    out = tmp_path / "out"
    run_sweep(load_spec(spec_path), out, workers=1, progress=False)
    md_path, html_path = write_report(out)
    md, html = md_path.read_text(encoding="utf-8"), html_path.read_text(encoding="utf-8")
    assert f"| {STALE} | interrupt_crash |" in md and "100.0% of 1 (3 stale) |" in md
    assert "| oracle | interrupt_crash |" in md and "0.0% of 1 (0 stale) |" in md
    assert html.count(">stale target<") == 3, "each stale step is marked in the trajectory viewer"
