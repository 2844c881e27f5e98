"""DAC-Bench's offline tables: W-LCS over step actions, decision accuracy by depth and every
measure by length bucket, on a hand-made gold set whose numbers are worked out by hand below,
and on gold the oracle makes here (which steps are decisions, and at what depth)."""

from __future__ import annotations

import pytest

from openapps_sim.analysis.offline import episode_wlcs, length_bucket, markdown, paper_tables, summarise
from openapps_sim.config.world import WorldSpec
from openapps_sim.sweeps import gold
from openapps_sim.sweeps.offline import OfflineSettings, action_key, run_offline
from openapps_sim.taskkit.progress import weighted_lcs

from .test_offline import _page


def step(episode, n, structure, length, gold_key, predicted_key, exact, depth=None, idle=False, type_match=True):
    return {
        "mode": "goal",
        "task": f"fam.{episode}",
        "app": "todo",
        "structure": structure,
        "variation": "default",
        "seed": 0,
        "episode": episode,
        "step": n,
        "idle": idle,
        "gold_type": "click",
        "type_match": type_match,
        "grounded": None,
        "exact": exact,
        "length": length,
        "decision_depth": depth,
        "gold_key": gold_key,
        "predicted_key": predicted_key,
    }


def gold_set() -> list[dict]:
    """Four episodes (idle steps are not scored):

    A single, 3 scored steps: answers G1, G3, X against gold G1, G2, G3. EM 1/3, GP 1/3; the
      LCS matches gold positions 1 and 3 (the G3 answered at step 2 is the gold of step 3):
      W-LCS (1 + 3) / (1 + 2 + 3) = 4/6.
    B conditional, 2 steps, the decision (depth 1) at step 2 missed: EM 1/2, GP 1/2, W-LCS 1/3.
    C hierarchical, 6 steps, the decision (depth 2) at step 6 missed: EM 5/6, GP 5/6,
      W-LCS (1 + ... + 5) / 21 = 15/21.
    D hierarchical, 2 steps, the decision (depth 1) at step 2 right: EM 1, GP 1, W-LCS 1.
    """
    rows = [step("A", 1, "single", 3, "H", "Z", False, idle=True)]
    rows += [
        step("A", 2, "single", 3, "G1", "G1", True),
        step("A", 3, "single", 3, "G2", "G3", False),
        step("A", 4, "single", 3, "G3", "X", False, type_match=False),
    ]
    rows += [step("B", 1, "conditional", 2, "B1", "B1", True), step("B", 2, "conditional", 2, "B2", "Y", False, 1)]
    rows += [step("C", n, "hierarchical", 6, f"C{n}", f"C{n}", True) for n in range(1, 6)]
    rows += [step("C", 6, "hierarchical", 6, "C6", "C1", False, 2)]
    rows += [step("D", 1, "hierarchical", 2, "D1", "D1", True), step("D", 2, "hierarchical", 2, "D2", "D2", True, 1)]
    return rows


def test_weighted_lcs_by_hand():
    assert weighted_lcs(3, 3, lambda i, j: (i, j) in {(0, 0), (1, 2)}) == 4 / 6
    assert weighted_lcs(2, 4, lambda i, j: (i, j) in {(0, 3), (1, 1)}) == 4 / 10  # one of them: the later one
    assert weighted_lcs(0, 3, lambda i, j: True) == 0.0


def test_episode_wlcs_over_step_actions():
    rows = [r for r in gold_set() if r["episode"] == "A" and not r["idle"]]
    assert episode_wlcs(rows) == 4 / 6
    # at the same step the step's own verdict counts, whatever the keys say
    rows[1], rows[2] = dict(rows[1], exact=True), dict(rows[2], exact=True)
    assert episode_wlcs(rows) == 1.0


def test_every_measure_overall_by_length_and_by_depth():
    s = summarise(gold_set(), ["goal"])["goal"]
    o = s["overall"]
    assert (o["steps"], o["episodes"]) == (13, 4)
    assert o["exact_match"] == 0.6923  # 9 / 13
    assert o["type_match"] == 0.9231  # 12 / 13
    assert o["all_exact"] == 0.25  # D only
    assert o["goal_progress"] == 0.6667  # (1/3 + 1/2 + 5/6 + 1) / 4
    assert o["wlcs"] == 0.6786  # (4/6 + 1/3 + 15/21 + 1) / 4
    assert (o["decision_accuracy"], o["decision_steps"]) == (0.3333, 3)
    assert set(s["by_length"]) == {"2-5 steps", "6-8 steps"}
    short, long_ = s["by_length"]["2-5 steps"], s["by_length"]["6-8 steps"]
    assert (short["episodes"], short["steps"], short["exact_match"]) == (3, 7, 0.5714)
    assert (short["wlcs"], short["decision_accuracy"], short["all_exact"]) == (0.6667, 0.5, 0.3333)
    assert (long_["episodes"], long_["steps"], long_["exact_match"]) == (1, 6, 0.8333)
    assert (long_["wlcs"], long_["decision_accuracy"], long_["goal_progress"]) == (0.7143, 0.0, 0.8333)
    assert {d: (c["steps"], c["exact_match"]) for d, c in s["by_depth"].items()} == {"1": (2, 0.5), "2": (1, 0.0)}


def test_the_paper_tables_by_hand():
    tables = {
        title.split(" (")[0]: (header, rows)
        for title, header, rows in paper_tables(summarise(gold_set(), ["goal"]), ["goal"])
    }
    header, rows = tables["By task structure"]
    assert header[:6] == [
        "level",
        "conditional EM",
        "conditional TM",
        "conditional SR",
        "conditional GP",
        "conditional W-LCS",
    ]
    assert rows == [
        ["HL (goal only)", "50.0", "100.0", "0.0", "50.0", "33.3"]
        + ["87.5", "100.0", "50.0", "91.7", "85.7"]
        + ["33.3", "66.7", "0.0", "33.3", "66.7"]
    ]
    header, rows = tables["Decision accuracy"]
    assert header == ["level", "first decision", "deeper decisions", "EM difference", "depth 1", "depth 2"]
    assert rows == [["HL (goal only)", "50.0", "0.0", "-50.0", "50.0 (2)", "0.0 (1)"]]
    header, rows = tables["By gold length"]
    assert header == ["group", "level", "tasks", "steps", "EM", "TM", "GR", "SR", "GP", "W-LCS", "decision acc"]
    assert rows == [
        ["2-5 steps", "HL", "3", "7", "57.1", "85.7", "–", "33.3", "61.1", "66.7", "50.0"],
        ["6-8 steps", "HL", "1", "6", "83.3", "100.0", "–", "0.0", "83.3", "71.4", "0.0"],
        ["overall", "HL", "4", "13", "69.2", "92.3", "–", "25.0", "66.7", "67.9", "33.3"],
    ]
    assert tables["By action type"][1] == [["click", "HL", "13", "92.3", "69.2"]]
    md = markdown({"agent": "a", "gold": "g", "modes": ["goal"], "episodes": 4, "gold_steps": 14,
                   "idle_steps": 1, "summary": summarise(gold_set(), ["goal"]), "notes": []})  # fmt: skip
    assert "## Decision accuracy (EM at the decision step) by branching depth (DAC-Bench Table 3)" in md
    assert "| 2-5 steps | HL | 3 | 7 | 57.1 | 85.7 | – | 33.3 | 61.1 | 66.7 | 50.0 |" in md


@pytest.mark.parametrize(
    "steps,bucket", [(1, "1 step"), (2, "2-5 steps"), (5, "2-5 steps"), (6, "6-8 steps"), (8, "6-8 steps"),
                     (9, "9-12 steps"), (12, "9-12 steps"), (13, "13+ steps"), (40, "13+ steps")],
)  # fmt: skip
def test_dac_length_buckets(steps, bucket):
    assert length_bucket(steps) == bucket


def test_action_keys_name_elements_by_test_id_and_bids_by_their_step():
    page = _page({"todo-add": "16"})
    assert action_key("click('16')", page, 3) == '["click", "testid:todo-add", []]'
    assert action_key("click('99')", page, 3) == '["click", "bid:99@3", []]'
    assert action_key("fill('99', ' Buy  milk')", page, 0) == '["fill", "bid:99@0", ["Buy milk"]]'


def test_the_gold_knows_its_decision_steps_and_their_depth():
    """todo.done_or_delete (one decision) and todo.first_done_chain (three levels) on seeds where
    the oracle's branch action is its 3rd and 8th step: the decision is there, at the leaf's depth."""
    keys = [
        gold.GoldKey("todo.done_or_delete"),
        gold.GoldKey("todo.first_done_chain", WorldSpec(seed=2, language="en")),
    ]
    first, chain = list(gold.from_episodes(keys))
    assert first.decisions == {2: 1} and len(first.steps) == 3
    assert chain.decisions == {7: 3} and len(chain.steps) == 8
    assert chain.steps[7].events and not any(s.events for s in chain.steps[:7])
    rows = run_offline(iter([first, chain]), OfflineSettings("oracle", modes=("goal",)))
    s = summarise(rows, ["goal"])["goal"]
    assert s["overall"]["decision_accuracy"] == 1.0 and s["overall"]["wlcs"] == 1.0
    assert {d: c["steps"] for d, c in s["by_depth"].items()} == {"1": 1, "3": 1}
    assert set(s["by_length"]) == {"2-5 steps", "6-8 steps"}  # 2 and 7 scored steps (the first is idle)
