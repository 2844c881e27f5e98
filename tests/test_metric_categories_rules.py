"""Success by task category and SimuWoB class, every cell written out (hand-made records; ``make
mutants`` runs these against ``analysis/metrics/categories.py``).

Agent A: edit/single 1 of 2 (3 and 5 steps), count/answer 0 of 1 (no step), multi-app 1 of 1 (2
steps), decision/hierarchical 0 of 1 (4 steps), two without a category (None, "") 2 of 2 (1 step
each). Agent B: math 1 of 1 (6 steps). Wilson 95% intervals: 1 of 2 (0.0945, 0.9055), 0 of 1
(0, 0.7935), 1 of 1 (0.2065, 1), 2 of 2 (0.3424, 1).
"""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from openapps_sim.analysis.metrics.categories import SHOWN, categories, category_success, simuwob_class, with_classes

HALF = [0.09453120573423074, 0.9054687942657693]
NONE_OF_ONE = [0.0, 0.7934506856227626]
ONE_OF_ONE = [0.20654931437723745, 1.0]
TWO_OF_TWO = [0.3423802275066532, 1.0]


def ep(agent, seed, ok, cat, struct, steps=None) -> dict:
    return {
        "agent": agent,
        "task": "t",
        "seed": seed,
        "success": ok,
        "category": cat,
        "structure": struct,
        "steps": steps,
    }


def records() -> pd.DataFrame:
    return pd.DataFrame(
        [
            ep("A", 0, True, "edit", "single", 3),
            ep("A", 1, False, "edit", "single", 5),
            ep("A", 2, False, "count", "answer"),
            ep("A", 3, True, "multi-app", "conjunctive", 2),
            ep("A", 4, False, "decision", "hierarchical", 4),
            ep("A", 5, True, None, "single", 1),
            ep("A", 6, True, "", "single", 1),
            ep("B", 0, True, "math", "answer", 6),
            dict(ep("B", 1, False, "math", "answer", 6), error="crash"),
        ]
    )


def test_success_by_class_in_the_papers_order():
    got = category_success(records(), ["agent", "simuwob_class"])
    assert list(got.columns) == ["agent", "simuwob_class", "n", "successes", "sr", "ci_lo", "ci_hi", "mean_steps"]
    assert got.values.tolist() == [
        ["A", "simple", 2, 1, 0.5, *HALF, 4.0],
        ["A", "long-horizon", 2, 1, 0.5, *HALF, 3.0],
        ["A", "math-related", 1, 0, 0.0, *NONE_OF_ONE, 0.0],
        ["A", "(unknown)", 2, 2, 1.0, *TWO_OF_TWO, 1.0],
        ["B", "math-related", 1, 1, 1.0, *ONE_OF_ONE, 6.0],
    ]


def test_success_by_category_by_name():
    got = category_success(records())
    assert got.values.tolist() == [
        ["A", "(unknown)", 2, 2, 1.0, *TWO_OF_TWO, 1.0],
        ["A", "count", 1, 0, 0.0, *NONE_OF_ONE, 0.0],
        ["A", "decision", 1, 0, 0.0, *NONE_OF_ONE, 4.0],
        ["A", "edit", 2, 1, 0.5, *HALF, 4.0],
        ["A", "multi-app", 1, 1, 1.0, *ONE_OF_ONE, 2.0],
        ["B", "math", 1, 1, 1.0, *ONE_OF_ONE, 6.0],
    ]
    # a missing grouping value is a group of its own
    teams = records().assign(team=["x"] * 8 + [None])
    teams.loc[0, "team"] = None
    assert category_success(teams, ["team"])["n"].tolist() == [1, 7]  # None, then x (by name)


def test_classes_and_missing_fields():
    assert simuwob_class("", "sequential") == "(unknown)"
    assert simuwob_class(float("nan"), "single") == "(unknown)"
    assert simuwob_class("edit", "sequential") == "long-horizon"
    assert simuwob_class("math", "sequential") == "math-related"
    bare = pd.DataFrame([{"agent": "A", "task": "t", "seed": 0, "success": True}])
    got = with_classes(bare)
    assert got["category"].tolist() == ["(unknown)"] and got["simuwob_class"].tolist() == ["(unknown)"]
    structured = bare.assign(category="edit", structure="hierarchical")
    assert with_classes(structured)["simuwob_class"].tolist() == ["long-horizon"]
    assert with_classes(bare.assign(category="edit"))["simuwob_class"].tolist() == ["simple"]
    empty = with_classes(bare.assign(error="crash"))
    assert empty.empty and {"category", "simuwob_class"} <= set(empty.columns)
    none = category_success(bare.assign(error="crash"), ["agent", "simuwob_class"])
    assert none.empty
    assert list(none.columns) == ["agent", "simuwob_class", "n", "successes", "sr", "ci_lo", "ci_hi", "mean_steps"]


NOTE = (
    "SimuWoB's classes: **math-related** (math and count families: aggregate and calculate), **long-horizon** "
    "(multi-app families and sequential or hierarchical structures: long chains of steps) and **simple** (every "
    "other family). Success with a 95% Wilson interval."
)


def test_the_categories_section_cell_by_cell():
    s = categories(SimpleNamespace(df=records()))
    assert (s.anchor, s.title) == ("categories", "Success by task category")
    note, by_class, by_category = s.blocks
    assert note.text == NOTE
    assert by_class.caption == "By SimuWoB class." and by_category.caption == "By the family's category."
    assert by_class.headers == ["Agent", "Class", "Episodes", "Success [95% CI]", "Mean steps"]
    assert by_category.headers == ["Agent", "Category", "Episodes", "Success [95% CI]", "Mean steps"]
    assert by_class.align == by_category.align == ["l", "l", "r", "r", "r"]
    assert by_class.rows == [
        ["A", "simple", "2", "50.0% [9.5, 90.5]", "4.0"],
        ["A", "long-horizon", "2", "50.0% [9.5, 90.5]", "3.0"],
        ["A", "math-related", "1", "0.0% [0.0, 79.3]", "0.0"],
        ["A", "(unknown)", "2", "100.0% [34.2, 100.0]", "1.0"],
        ["B", "math-related", "1", "100.0% [20.7, 100.0]", "6.0"],
    ]
    assert by_category.rows[3] == ["A", "edit", "2", "50.0% [9.5, 90.5]", "4.0"]
    (shown,) = SHOWN
    assert (shown.order, shown.summary, shown.paper) == (150, False, False)
    nothing = shown.draw(SimpleNamespace(a=SimpleNamespace(df=records().assign(error="crash"))))
    assert nothing.blocks == [] and nothing.anchor == "categories"


def test_only_the_class_column_takes_the_papers_order():
    """Agents named like classes are still ordered by name: long-horizon before simple."""
    df = pd.DataFrame([ep("simple", 0, True, "edit", "single", 1), ep("long-horizon", 0, False, "edit", "single", 2)])
    got = category_success(df, ["agent", "simuwob_class"])
    assert got[["agent", "simuwob_class", "n"]].values.tolist() == [
        ["long-horizon", "simple", 1],
        ["simple", "simple", 1],
    ]
