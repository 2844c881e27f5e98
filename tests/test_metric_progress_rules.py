"""Progress, decisions and answers per group (ESAR, decision accuracy, W-LCS, answer accuracy),
every answer written out (hand-made tables; ``make mutants`` runs these against
``analysis/metrics/progress.py``)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd

from openapps_sim.analysis.doc.blocks import Heading, P, Table
from openapps_sim.analysis.metrics.progress import (
    LEVEL_COLUMNS,
    PROGRESS_COLUMNS,
    decision_level_table,
    decisions_by_level,
    deeper_decisions,
    episode_progress,
    first_decision,
    progress_section,
    progress_summary,
    progress_tables,
)

NAN = float("nan")


def ep(agent="A", seed=0, success=False, **kw) -> dict:
    return {"agent": agent, "task": "t", "seed": seed, "success": success, **kw}


def same(got: list, want: list) -> bool:
    """Lists equal, NaN equal to NaN."""
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        if isinstance(w, float) and math.isnan(w):
            if not (isinstance(g, float) and math.isnan(g)):
                return False
        elif g != w or type(g) is not type(w) and not isinstance(w, float):
            return False
    return True


def test_first_and_deeper_decisions():
    assert first_decision([True, False]) == 1.0
    assert first_decision([False, True]) == 0.0
    assert first_decision([0]) == 0.0
    assert math.isnan(first_decision([]))
    assert math.isnan(first_decision(None))
    assert deeper_decisions([False, True, False, True]) == 2 / 3
    assert deeper_decisions([True, 1, 0]) == 0.5
    assert math.isnan(deeper_decisions([True]))
    assert math.isnan(deeper_decisions(None))


def test_episode_progress_reads_each_column_where_it_applies():
    rows = [
        ep(
            "A",
            0,
            True,
            esar=0.5,
            decisions=[True, False],
            wlcs=0.25,
            expected_ops=2,
            structure="flat",
            answer_ok=None,
            first_milestone_step=3,
            steps_after_last_milestone=1,
            variation="v1",
            category=None,
        ),
        ep(
            "A",
            1,
            False,
            esar=[1],
            decisions=None,
            wlcs=0.75,
            expected_ops=0,
            structure="flat",
            answer_ok=True,
            first_milestone_step={"a": 1},
            steps_after_last_milestone=None,
            variation="v2",
            category="c",
        ),
        ep(
            "A",
            2,
            False,
            esar=None,
            decisions=[False],
            wlcs=0.5,
            expected_ops=None,
            structure="answer",
            answer_ok=False,
            first_milestone_step=None,
            steps_after_last_milestone=0,
            variation=None,
            category="c",
        ),
        ep("A", 3, True, esar=1.0, wlcs=1.0, expected_ops=None, structure="flat", error="crash"),
    ]
    got = episode_progress(pd.DataFrame(rows))
    assert len(got) == 3
    assert got["success"].tolist() == [1.0, 0.0, 0.0]
    assert same(got["esar"].tolist(), [0.5, NAN, NAN])
    assert same(got["decision_accuracy"].tolist(), [1.0, NAN, 0.0])
    assert same(got["deeper_decision_accuracy"].tolist(), [0.0, NAN, NAN])
    assert same(got["wlcs"].tolist(), [0.25, NAN, NAN])
    assert same(got["answer_accuracy"].tolist(), [NAN, 1.0, 0.0])
    assert same(got["first_milestone_step"].tolist(), [3.0, NAN, NAN])
    assert same(got["steps_after_last_milestone"].tolist(), [1.0, NAN, 0.0])
    assert got["variation"].tolist() == ["v1", "v2", "default"]
    assert got["category"].tolist() == ["(unset)", "c", "c"]
    assert got["agent"].tolist() == ["A", "A", "A"]
    assert got["task"].tolist() == ["t", "t", "t"]
    assert got["structure"].tolist() == ["flat", "flat", "answer"]
    assert got["seed"].tolist() == [0, 1, 2]


def test_wlcs_of_a_family_expecting_operations_is_kept_whatever_its_structure():
    rows = [
        ep(seed=0, wlcs=0.5, expected_ops=3, structure="answer"),
        ep(seed=1, wlcs=0.25, expected_ops=1.0, structure="answer"),
        ep(seed=2, wlcs=0.75, structure="flat"),
        ep(seed=3, wlcs=0.125, expected_ops=[1], structure="flat"),
        ep(seed=4, wlcs=0.375, expected_ops={"n": 0}, structure="answer"),
    ]
    got = episode_progress(pd.DataFrame(rows))
    assert same(got["wlcs"].tolist(), [0.5, 0.25, 0.75, 0.125, NAN])


def test_episode_progress_without_the_progress_columns():
    got = episode_progress(pd.DataFrame([ep(seed=0, success=True), ep(seed=1)]))
    assert got["success"].tolist() == [1.0, 0.0]
    for name in ("esar", "decision_accuracy", "deeper_decision_accuracy", "wlcs", "answer_accuracy"):
        assert same(got[name].tolist(), [NAN, NAN]), name


def test_progress_summary_means_over_the_episodes_each_metric_applies_to():
    rows = [
        ep("B", 0, True, esar=1.0, decisions=[True], wlcs=1.0, expected_ops=1, answer_ok=None),
        ep("A", 0, True, esar=0.5, decisions=[True, True, False], wlcs=0.5, expected_ops=2, first_milestone_step=2),
        ep("A", 1, False, esar=0.0, decisions=[False], wlcs=0.25, expected_ops=2, steps_after_last_milestone=4),
        ep("A", 2, False, esar=None, decisions=None, wlcs=0.75, expected_ops=0, answer_ok=True),
        ep("A", 3, True, esar=1.0, error="crash"),
    ]
    got = progress_summary(pd.DataFrame(rows))
    assert list(got.columns) == ["agent", *PROGRESS_COLUMNS]
    assert got["agent"].tolist() == ["A", "B"]
    assert got["n"].tolist() == [3, 1]
    assert got["success"].tolist() == [1 / 3, 1.0]
    assert got["esar"].tolist() == [0.25, 1.0]
    assert got["decision_accuracy"].tolist() == [0.5, 1.0]
    assert same(got["deeper_decision_accuracy"].tolist(), [0.5, NAN])
    assert got["wlcs"].tolist() == [0.375, 1.0]
    assert same(got["answer_accuracy"].tolist(), [1.0, NAN])
    assert same(got["first_milestone_step"].tolist(), [2.0, NAN])
    assert same(got["steps_after_last_milestone"].tolist(), [4.0, NAN])


def test_progress_summary_by_two_columns_and_by_none():
    rows = [
        ep("A", 0, True, category="v2"),
        ep("A", 1, False, category="v1"),
        ep("A", 2, True, category="v1"),
        ep("B", 0, True, category=None),
    ]
    got = progress_summary(pd.DataFrame(rows), ["agent", "category", "not_a_column"])
    assert list(got.columns) == ["agent", "category", *PROGRESS_COLUMNS]
    assert got[["agent", "category", "n", "success"]].values.tolist() == [
        ["A", "v1", 2, 0.5],
        ["A", "v2", 1, 1.0],
        ["B", "(unset)", 1, 1.0],
    ]
    whole = progress_summary(pd.DataFrame(rows), [])
    assert list(whole.columns) == list(PROGRESS_COLUMNS)
    assert whole[["n", "success"]].values.tolist() == [[4, 0.75]]


def test_progress_summary_of_no_valid_episode_has_its_columns():
    got = progress_summary(pd.DataFrame([ep(error="crash")]), ["agent", "task"])
    assert got.empty
    assert list(got.columns) == ["agent", "task", *PROGRESS_COLUMNS]


def test_decisions_by_level_counts_the_episodes_at_and_reaching_each_level():
    rows = [
        ep("A", 0, decisions=[True, True, False]),
        ep("A", 1, decisions=[True, False]),
        ep("A", 2, decisions=[False, True]),
        ep("A", 3, decisions=[1]),
        ep("A", 4, decisions=[]),
        ep("A", 5, decisions=None),
        ep("B", 0, decisions=[False]),
        ep("B", 1, decisions=[True, True], error="crash"),
    ]
    got = decisions_by_level(pd.DataFrame(rows))
    assert list(got.columns) == ["agent", *LEVEL_COLUMNS]
    want = [
        ["A", 1, 4, 0.75, 4, 0.75],
        ["A", 2, 3, 2 / 3, 2, 0.5],
        ["A", 3, 1, 0.0, 1, 0.0],
        ["B", 1, 1, 0.0, 1, 0.0],
    ]
    assert got.values.tolist() == want


def test_a_level_nobody_reached_has_no_accuracy_there():
    got = decisions_by_level(pd.DataFrame([ep(seed=0, decisions=[False, True]), ep(seed=1, decisions=[False, False])]))
    assert got[["level", "n", "accuracy", "n_reached"]].values.tolist() == [[1, 2, 0.0, 2], [2, 2, 0.5, 0]]
    assert math.isnan(got["accuracy_reached"].tolist()[1])
    assert got["accuracy_reached"].tolist()[0] == 0.0


def test_decisions_by_level_by_none_and_without_decisions():
    rows = [ep("A", 0, decisions=[True]), ep("B", 0, decisions=[False])]
    whole = decisions_by_level(pd.DataFrame(rows), [])
    assert list(whole.columns) == list(LEVEL_COLUMNS)
    assert whole.values.tolist() == [[1, 2, 0.5, 2, 0.5]]
    none = decisions_by_level(pd.DataFrame([ep()]), ["agent", "task"])
    assert none.empty and list(none.columns) == ["agent", "task", *LEVEL_COLUMNS]
    crashed = decisions_by_level(pd.DataFrame([ep(decisions=[True], error="crash")]), ["agent"])
    assert crashed.empty and list(crashed.columns) == ["agent", *LEVEL_COLUMNS]


# the headers of the progress table by agent, written out: alone or in the report's section
AGENT_HEADERS = [
    "Agent",
    "Episodes",
    "Success",
    "ESAR",
    "Decision",
    "Deeper",
    "W-LCS",
    "Answer",
    "First",
    "After",
]


def test_progress_tables_and_their_cells():
    rows = [
        ep("A", 0, True, esar=0.5, decisions=[True, False], wlcs=0.5, expected_ops=1, variation="v", answer_ok=True),
        ep("A", 1, False, esar=1.0, decisions=[False], wlcs=None, expected_ops=0, variation="v", answer_ok=False),
    ]
    tables = progress_tables(pd.DataFrame(rows))
    assert [t[0] for t in tables] == ["By agent", "By agent and variation", "By agent and task"]
    title, headers, body = tables[0]
    assert headers == AGENT_HEADERS
    assert body == [["A", "2", "50.0%", "75.0%", "50.0%", "0.0%", "0.50", "50.0%", "–", "–"]]
    assert tables[1][1][:3] == ["Agent", "Variation", "Episodes"]
    assert tables[1][2] == [["A", "v", "2", "50.0%", "75.0%", "50.0%", "0.0%", "0.50", "50.0%", "–", "–"]]
    assert tables[2][1][:3] == ["Agent", "Task", "Episodes"]
    assert progress_tables(pd.DataFrame([ep(error="crash")])) == []


def test_first_and_after_are_shown_to_one_decimal():
    rows = [ep(seed=0, first_milestone_step=2, steps_after_last_milestone=1), ep(seed=1, first_milestone_step=3)]
    body = progress_tables(pd.DataFrame(rows))[0][2]
    assert body[0][-2:] == ["2.5", "1.0"]


def test_decision_level_table():
    rows = [ep("A", 0, decisions=[True, True]), ep("A", 1, decisions=[False, True])]
    headers, body = decision_level_table(pd.DataFrame(rows))
    assert headers == ["Agent", "Level", "Episodes", "Accuracy", "Reached", "Accuracy there"]
    assert body == [["A", "1", "2", "50.0%", "2", "50.0%"], ["A", "2", "2", "100.0%", "1", "100.0%"]]
    assert decision_level_table(pd.DataFrame([ep()])) is None


def test_progress_section_holds_the_tables_and_the_level_table():
    rows = [ep("A", 0, True, decisions=[True]), ep("A", 1, variation="v")]
    section = progress_section(SimpleNamespace(df=pd.DataFrame(rows)))
    assert section.anchor == "progress"
    assert section.title == "Decisions, answers and milestones"
    kinds = [type(b).__name__ for b in section.blocks]
    assert kinds == ["P", "Heading", "Table", "Heading", "Table", "Heading", "Table", "Heading", "P", "Table"]
    assert isinstance(section.blocks[0], P) and section.blocks[0].text.startswith("ESAR: share of")
    headings = [b.text for b in section.blocks if isinstance(b, Heading)]
    assert headings == ["By agent", "By agent and variation", "By agent and task", "Decision accuracy by level"]
    tables = [b for b in section.blocks if isinstance(b, Table)]
    assert tables[0].align == ["l"] + ["r"] * 9
    assert tables[1].align == ["l", "l"] + ["r"] * 9
    assert tables[3].align == ["l"] + ["r"] * 5
    assert section.blocks[8].text.startswith("Decision accuracy by level (DAC-Bench")
    bare = progress_section(SimpleNamespace(df=pd.DataFrame([ep()])))
    assert [type(b).__name__ for b in bare.blocks] == ["P", "Heading", "Table", "Heading", "Table", "Heading", "Table"]


def test_decisions_by_level_sorts_groups_and_keeps_a_missing_key():
    rows = [
        ep("B", 0, decisions=[True], category="c"),
        ep("A", 0, decisions=[False], category=None),
        ep("A", 1, decisions=[True], category="c"),
    ]
    got = decisions_by_level(pd.DataFrame(rows), ["agent", "category"])
    assert got[["agent", "n", "accuracy"]].values.tolist() == [["A", 1, 1.0], ["A", 1, 0.0], ["B", 1, 1.0]]
    assert got["category"].tolist()[0] == "c" and pd.isna(got["category"].tolist()[1])


def test_decisions_by_level_of_empty_decision_lists_has_its_columns():
    got = decisions_by_level(pd.DataFrame([ep(seed=0, decisions=[]), ep(seed=1, decisions=None)]))
    assert got.empty and list(got.columns) == ["agent", *LEVEL_COLUMNS]


def test_the_section_tables_hold_their_headers_and_rows():
    rows = [ep("A", 0, True, decisions=[True])]
    section = progress_section(SimpleNamespace(df=pd.DataFrame(rows)))
    tables = [b for b in section.blocks if isinstance(b, Table)]
    assert tables[0].headers == AGENT_HEADERS
    assert tables[0].rows == [["A", "1", "100.0%", "–", "100.0%", "–", "–", "–", "–", "–"]]
    assert tables[3].headers == ["Agent", "Level", "Episodes", "Accuracy", "Reached", "Accuracy there"]
    assert tables[3].rows == [["A", "1", "1", "100.0%", "1", "100.0%"]]
