"""Perception drift (issue 25, point 5; D-GARA): after a crash restarted an app, the actions aimed
at elements of a page from before the restart are flagged per step (``stale_target``) and counted
per episode (``stale_actions``), the same on the text backend and on Chromium."""

from __future__ import annotations

import pytest

from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps.drift import restarts, stale_count, stale_steps
from openapps_sim.sweeps.record import EpisodeSpec, upgrade_record
from openapps_sim.sweeps.runner import Worker

STALE = "tests.drift_agents:StaleClicker"
MOVED = "tests.drift_agents:MovedClicker"
GONE = "tests.drift_agents:GoneClicker"
# bid -> (role, name, test id); bids are counted afresh on every page, so "1" is another element
# on the app page than on the home page
HOME = {"1": ("link", "Todo", "app-todo"), "2": ("link", "Shop", "app-shop"), "4": ("link", "Home", "nav-home")}
APP = {"1": ("textbox", "New item", "todo-new"), "3": ("button", "Add", "todo-add"), "5": ("link", "Home", "nav-home")}
CRASH = {"9": ("button", "Restart", "crash-restart")}


def crash(step: int = 1, resolved: int | None = 2) -> dict:
    return {"kind": "crash", "step": step, "resolved_step": resolved}


def test_no_crash_never_counts():
    targets, seen, pages = ["1", "2", "2"], [0, 1, 2], [HOME, APP, APP]
    assert stale_steps(targets, seen, pages, []) == [False] * 3
    assert stale_count([False] * 3, []) is None
    other = [{"kind": "permission", "step": 1, "resolved_step": 2}]
    assert stale_steps(targets, seen, pages, other) == [False] * 3 and stale_count([], other) is None


def test_a_bid_that_names_nothing_now_is_stale():
    # action 1 on the home page, the crash shown after it, answered by action 2, then the old
    # ids "2" (Shop) and "4" (Home): neither names anything on the app page
    flags = stale_steps(["1", "9", "2", "4"], [0, 1, 2, 3], [HOME, CRASH, APP, APP], [crash()])
    assert flags == [False, False, True, True]
    assert stale_count(flags, [crash()]) == 2


def test_a_bid_renumbered_onto_another_element_is_not_stale_when_the_old_one_is_gone():
    # "1" was the Todo link, now it is the New item box and no Todo link is left: what an agent
    # reading the app page does (the oracle's fill('1', ...)), not drift
    assert stale_steps(["1", "1", "3"], [2, 3, 4], [APP, APP, APP], [crash()]) == [False, False, False]
    flags = stale_steps(["1", "9", "1", "3"], [0, 1, 2, 3], [HOME, CRASH, APP, APP], [crash()])
    assert flags == [False, False, False, False] and stale_count(flags, [crash()]) == 0


def test_a_bid_whose_old_element_moved_to_another_bid_is_stale():
    # the Home link was "4" before the restart and is "5" now; "4" names the Add button now
    app = {"4": ("button", "Add", "todo-add"), "5": ("link", "Home", "nav-home")}
    flags = stale_steps(["1", "9", "4", "5"], [0, 1, 2, 3], [HOME, CRASH, app, app], [crash()])
    assert flags == [False, False, True, False], "the old id is stale, the new id of the same link is not"


def test_the_test_id_tells_two_elements_of_one_name_apart():
    # two "Delete" buttons of one name; "7" was the first row's and is the second row's now,
    # while the first row's button moved to "6"
    before = {"7": ("button", "Delete", "row-1-delete")}
    now = {"6": ("button", "Delete", "row-1-delete"), "7": ("button", "Delete", "row-2-delete")}
    assert stale_steps(["7", "9", "7"], [0, 1, 2], [before, CRASH, now], [crash()]) == [False, False, True]
    same = {"7": ("button", "Delete", "row-1-delete")}
    assert stale_steps(["7", "9", "7"], [0, 1, 2], [before, CRASH, same], [crash()]) == [False, False, False]


def test_a_nameless_old_element_cannot_be_found_again():
    before = {"3": ("paragraph", "", "")}
    now = {"2": ("paragraph", "", ""), "3": ("button", "Add", "todo-add")}
    assert stale_steps(["3", "9", "3"], [0, 1, 2], [before, CRASH, now], [crash()]) == [False, False, False]
    assert stale_steps(["3", "9", "3"], [0, 1, 2], [before, CRASH, {}], [crash()]) == [False, False, True]


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


def _run(worker, agent: str, variation: str = "interrupt_crash", backend: str = "text", task="todo.add_item", seed=1):
    return worker.run(EpisodeSpec(agent=agent, task=task, world=WorldSpec(variation, seed), backend=backend))


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


# families whose oracle episodes drifted before bids were compared by the element they name (the
# bids of the app pages after the restart had named other elements of the home page); the whole
# matrix, every family x interrupt_crash x 3 seeds, is `openapps sweep oracle_drift`
RENUMBERED = ["calendar.add_event", "maps.drop_pin", "shop.price_fallback", "messenger.start_conversation"]


@pytest.mark.parametrize("task", RENUMBERED)
def test_the_oracle_does_not_drift_on_other_families_and_seeds(worker, task):
    for seed in (0, 1, 2):
        result = _run(worker, "oracle", task=task, seed=seed)
        assert result.record["success"] and restarts(result.record["interruptions"]), (task, seed)
        assert result.record["stale_actions"] == 0 and not any(_flags(result)), (task, seed)


@pytest.mark.parametrize("task", ["calendar.add_event", "shop.checkout", "maps.save_place"])
def test_an_agent_reusing_ids_that_name_nothing_now_is_counted(worker, task):
    for seed in (0, 1, 2):
        result = _run(worker, GONE, task=task, seed=seed)
        flags = _flags(result)
        assert result.record["stale_actions"] == 3 and sum(flags) == 3, (task, seed)
        assert flags[-4:] == [True, True, True, False], "the three old ids after the restart, then done"


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
    from openapps_sim.analysis.report.write import write_report
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
