"""RSR, its per-mode and per-kind tables and the interruption breakdown, every cell written out
(hand-made tables, no browser; ``make mutants`` runs these against
``analysis/metrics/robustness.py``).

The table: agent a on task t, seeds 0-3. ``default`` solves seeds 0, 1, 2. ``interrupt_x`` (it
interrupts) shows a two-button permission on seeds 0 (success, denied) and 1 (failure, a harmful
accept, 3 steps to recover), a one-button crash on seed 2 (success; 2 stale actions after it) and
nothing on seed 3 (success). ``german`` (never interrupts) solves 0, 2, 3.

RSR against german: of the 3 baseline-solved units 0 and 2 stay solved, 2/3. Against interrupt_x:
units shown 0, 1, 2 (3 of 4, a quarter not interrupted), all solved in the baseline, 0 and 2 stay
solved: 2/3; success over the interrupted units 2/3, over every unit 3/4.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd

from openapps_sim.analysis.metrics.robustness import (
    BUTTON_COLUMNS,
    KIND_COLUMNS,
    RSR_COLUMNS,
    SHOWN,
    interrupting_versions,
    interruption_breakdown,
    interruption_rows,
    robust_success_rate,
    robustness_section,
    robustness_tables,
    rsr_by_buttons,
    rsr_by_kind,
    rsr_table,
)


def ep(seed, variation, success, shown=(), stale=None, interruptible=False, agent="a") -> dict:
    return {
        "agent": agent,
        "task": "t",
        "seed": seed,
        "variation": variation,
        "success": success,
        "interruptions": list(shown),
        "interruptible": interruptible,
        "stale_actions": stale,
    }


def it(kind, buttons, button, harmful=False, steps=1) -> dict:
    return {
        "id": kind + "1",
        "kind": kind,
        "buttons": buttons,
        "button": button,
        "harmful": harmful,
        "steps_to_recover": steps,
    }


def rows() -> list[dict]:
    out = [ep(s, "default", s != 3) for s in range(4)]
    out += [
        ep(0, "interrupt_x", True, [it("permission", 2, "deny")], interruptible=True),
        ep(1, "interrupt_x", False, [it("permission", 2, "accept", True, 3)], interruptible=True),
        ep(2, "interrupt_x", True, [it("crash", 1, "restart", steps=2)], stale=2, interruptible=True),
        ep(3, "interrupt_x", True, interruptible=True),
    ]
    return out + [ep(s, "german", s != 1) for s in range(4)]


INTRO = (
    "RSR (D-GARA): among the (agent, task, seed) solved in the baseline version `default`, the share still "
    "solved in the other version, with a bootstrap interval. Against a version that interrupts, only the units "
    "where an interruption was actually shown count (an interruption may fire with a probability, from a later "
    "step, only on some pages, or never under the api interface); the share nothing interrupted is in "
    "parentheses. Perception drift (D-GARA): over the episodes in which a crash restarted an app, the share that "
    "then acted on an element of the page from before the restart (its bid gone, or naming another element), "
    "with the stale actions in all. A dash: nothing to count."
)
SUBSET = ["Agent", "Version", "{}", "Units shown", "SR shown", "Solved in baseline", "RSR [95% CI]"]
EXPECTED = [
    (
        INTRO,
        [
            "Agent",
            "Version",
            "SR baseline",
            "SR version",
            "Interrupted units (not interrupted)",
            "SR interrupted",
            "Solved in baseline",
            "RSR [95% CI]",
            "Perception drift",
        ],
        [
            ["a", "german", "75.0%", "75.0%", "\u2013", "\u2013", "3/4", "66.7% [0.0, 100.0]", "\u2013"],
            [
                "a",
                "interrupt_x",
                "75.0%",
                "75.0%",
                "3/4 (25.0%)",
                "66.7%",
                "3/3",
                "66.7% [0.0, 100.0]",
                "100.0% of 1 (2 stale)",
            ],
        ],
    ),
    (
        "RSR per button mode (D-GARA's one- versus two-button interruptions): over the units that showed an "
        "interruption with that many buttons.",
        [s.format("Buttons") for s in SUBSET],
        [
            ["a", "interrupt_x", "1", "1/4", "100.0%", "1/1", "100.0% [100.0, 100.0]"],
            ["a", "interrupt_x", "2", "2/4", "50.0%", "2/2", "50.0% [0.0, 100.0]"],
        ],
    ),
    (
        "RSR per interruption kind (D-GARA's anomalies): over the units that showed an interruption of that kind.",
        [s.format("Kind") for s in SUBSET],
        [
            ["a", "interrupt_x", "crash", "1/4", "100.0%", "1/1", "100.0% [100.0, 100.0]"],
            ["a", "interrupt_x", "permission", "2/4", "50.0%", "2/2", "50.0% [0.0, 100.0]"],
        ],
    ),
    (
        "Interruptions shown, by kind and number of buttons.",
        ["Agent", "Kind", "Buttons", "Shown", "SR", "Harmful accepted", "Steps to recover"],
        [
            ["a", "crash", "1", "1", "100.0%", "0.0%", "2.0"],
            ["a", "permission", "2", "2", "50.0%", "50.0%", "2.0"],
        ],
    ),
]


def test_robustness_tables_cell_by_cell():
    assert robustness_tables(pd.DataFrame(rows())) == EXPECTED


def test_robustness_section_aligns_names_left_and_numbers_right():
    df = pd.DataFrame(rows())
    s = robustness_section(SimpleNamespace(df=df, baseline="default"))
    assert (s.anchor, s.title) == ("robustness", "Robustness to interruptions and other versions")
    assert [b.caption for b in s.blocks] == [e[0] for e in EXPECTED]
    assert [b.align for b in s.blocks] == [["l", "l"] + ["r"] * 7] + [["l", "l"] + ["r"] * 5] * 3
    assert [(b.caption, b.headers, b.rows) for b in s.blocks] == EXPECTED
    (shown,) = SHOWN
    assert (shown.order, shown.summary, shown.paper) == (20, True, False)
    drawn = shown.draw(SimpleNamespace(a=SimpleNamespace(df=df, baseline="german")))
    assert drawn.blocks[0].caption.startswith(
        "RSR (D-GARA): among the (agent, task, seed) solved in the baseline version `german`"
    )


def test_rsr_rows_by_value():
    df = pd.DataFrame(rows())
    got = rsr_table(df)
    assert list(got.columns) == RSR_COLUMNS
    german, loud = got.to_dict("records")
    assert {k: german[k] for k in ("agent", "baseline", "variation", "units", "solved")} == {
        "agent": "a",
        "baseline": "default",
        "variation": "german",
        "units": 4,
        "solved": 3,
    }
    assert (german["baseline_sr"], german["variation_sr"], german["rsr"]) == (0.75, 0.75, 2 / 3)
    assert math.isnan(german["interrupted"]) and math.isnan(german["uninterrupted_share"])
    assert math.isnan(german["interrupted_sr"])
    assert (loud["interrupted"], loud["uninterrupted_share"], loud["interrupted_sr"]) == (3, 0.25, 2 / 3)
    assert (german["ci_lo"], german["ci_hi"]) == (0.0, 1.0)
    assert rsr_table(df, variations=["interrupt_x"])["variation"].tolist() == ["interrupt_x"]
    assert rsr_table(df, baseline="german")["variation"].tolist() == ["default", "interrupt_x"]


def test_rsr_of_a_version_where_no_unit_was_solved_in_the_baseline():
    df = pd.DataFrame([ep(0, "default", False), ep(0, "german", True)])
    r = robust_success_rate(df, "default", "german").iloc[0]
    assert (r["units"], r["solved"], r["baseline_sr"], r["variation_sr"]) == (1, 0, 0.0, 1.0)
    assert math.isnan(r["rsr"]) and math.isnan(r["ci_lo"]) and math.isnan(r["ci_hi"])


def test_rsr_interval_is_seeded():
    """Seven solved units, three still solved: seed 0 gives (1/7, 6/7), seed 1 (1/7, 5/7)."""
    df = pd.DataFrame([ep(s, "default", True) for s in range(7)] + [ep(s, "german", s < 3) for s in range(7)])
    zero = robust_success_rate(df, "default", "german").iloc[0]
    one = robust_success_rate(df, "default", "german", seed=1).iloc[0]
    assert (zero["ci_lo"], zero["ci_hi"]) == (1 / 7, 6 / 7)
    assert (one["ci_lo"], one["ci_hi"]) == (1 / 7, 5 / 7)


def test_per_mode_and_per_kind_columns_and_emptiness():
    df = pd.DataFrame(rows())
    by_buttons, by_kind = rsr_by_buttons(df), rsr_by_kind(df)
    assert list(by_buttons.columns) == [*RSR_COLUMNS[:3], "buttons", *RSR_COLUMNS[3:]] == BUTTON_COLUMNS
    assert list(by_kind.columns) == [*RSR_COLUMNS[:3], "kind", *RSR_COLUMNS[3:]] == KIND_COLUMNS
    assert by_buttons["buttons"].tolist() == [1, 2] and by_kind["kind"].tolist() == ["crash", "permission"]
    assert by_buttons["units"].tolist() == [4, 4] and by_kind["interrupted"].tolist() == [1, 2]
    no_base = df[df["variation"] != "default"]
    no_items = df.drop(columns=["interruptions"])
    for frame in (no_base, no_items, df.iloc[:0]):
        assert list(rsr_by_buttons(frame).columns) == BUTTON_COLUMNS and rsr_by_buttons(frame).empty
        assert list(rsr_by_kind(frame).columns) == KIND_COLUMNS and rsr_by_kind(frame).empty
    # an item without a kind, or with buttons that are no number, makes no row of its own
    odd = df.copy()
    odd.at[4, "interruptions"] = [{"id": "x", "kind": "", "buttons": "two", "button": None}]
    assert rsr_by_kind(odd)["kind"].tolist() == ["crash", "permission"]
    assert rsr_by_buttons(odd)["buttons"].tolist() == [1, 2]
    assert rsr_by_buttons(odd).set_index("buttons").loc[2, "interrupted"] == 1


def test_a_version_interrupts_by_its_flag_or_by_what_was_shown():
    df = pd.DataFrame(rows())
    assert interrupting_versions(df) == {"interrupt_x"}
    older = df.drop(columns=["interruptible"])  # records before the flag: what was shown
    assert interrupting_versions(older) == {"interrupt_x"}
    flagged = pd.DataFrame([ep(0, "quiet", True, interruptible=True), ep(0, "v", True, interruptible=None)])
    assert interrupting_versions(flagged) == {"quiet"}
    assert interrupting_versions(flagged.drop(columns=["interruptions"])) == {"quiet"}
    crashed = pd.DataFrame([dict(ep(0, "loud", True, [it("crash", 1, None)]), error="infra")])
    assert interrupting_versions(crashed) == set()


# interruption_rows' columns, written out: with interruptions or without
ROW_COLUMNS = [
    "agent",
    "task",
    "variation",
    "seed",
    "success",
    "id",
    "kind",
    "buttons",
    "button",
    "steps_to_recover",
    "harmful",
]


def test_interruption_rows_and_breakdown_by_value():
    df = pd.DataFrame(
        [
            ep(0, "x", True, [it("login", 2, None, steps=None), "not a dict"]),
            ep(1, "x", False, [it("login", 2, "accept", True, 4)]),
            ep(2, "x", False, [it("login", 1, "ok", steps=float("nan"))], agent="b"),
            dict(ep(3, "x", True, [it("login", 1, "ok")]), error="infra"),
        ]
    )
    got = interruption_rows(df)
    assert list(got.columns) == ROW_COLUMNS
    assert got[["agent", "seed", "success", "id"]].values.tolist() == [
        ["a", 0, True, "login1"],
        ["a", 1, False, "login1"],
        ["b", 2, False, "login1"],
    ]
    assert [b if isinstance(b, str) else None for b in got["button"]] == [None, "accept", "ok"]
    out = interruption_breakdown(df, ("agent", "kind"))
    assert list(out.columns) == ["agent", "kind", "shown", "sr", "answered", "harmful", "steps_to_recover"]
    assert out.values.tolist()[0] == ["a", "login", 2, 0.5, 0.5, 0.5, 4.0]
    assert out.values.tolist()[1][:6] == ["b", "login", 1, 0.0, 1.0, 0.0]
    assert math.isnan(out.values.tolist()[1][6])
    assert interruption_breakdown(df, ("agent",))["shown"].tolist() == [2, 1]
    empty = interruption_breakdown(pd.DataFrame([ep(0, "x", True)]), ("agent", "buttons"))
    assert empty.empty and list(empty.columns) == [
        "agent",
        "buttons",
        "shown",
        "sr",
        "answered",
        "harmful",
        "steps_to_recover",
    ]


def test_every_table_takes_the_baseline_given():
    """Against german (solves 0, 2, 3): default keeps 2 of its 3; interrupt_x was shown on 0, 1, 2
    of which german solved 0 and 2. Per mode: one button on seed 2 (1/1), two on 0 and 1 (1/2)."""
    tables = robustness_tables(pd.DataFrame(rows()), "german")
    rsr, modes, kinds = tables[0][2], tables[1][2], tables[2][2]
    assert [(r[1], r[6], r[7]) for r in rsr] == [
        ("default", "3/4", "66.7% [0.0, 100.0]"),
        ("interrupt_x", "2/3", "100.0% [100.0, 100.0]"),
    ]
    assert [(r[2], r[5]) for r in modes] == [("1", "1/1"), ("2", "1/2")]
    assert [(r[2], r[5]) for r in kinds] == [("crash", "1/1"), ("permission", "1/2")]


def test_interruption_rows_name_task_and_version():
    got = interruption_rows(pd.DataFrame(rows()))
    assert got[["task", "variation", "kind"]].values.tolist() == [
        ["t", "interrupt_x", "permission"],
        ["t", "interrupt_x", "permission"],
        ["t", "interrupt_x", "crash"],
    ]


def test_no_interruption_gives_the_rows_columns():
    got = interruption_rows(pd.DataFrame([ep(0, "default", True)]))
    assert got.empty and list(got.columns) == ROW_COLUMNS


def test_every_rsr_table_is_numbered_from_zero():
    df = pd.DataFrame(rows() + [ep(s, "interrupt_x", True, agent="b") for s in range(2)])
    for got in (rsr_table(df), rsr_by_buttons(df), rsr_by_kind(df)):
        assert len(got) >= 2
        assert got.index.tolist() == list(range(len(got)))


def test_an_rsr_table_with_nothing_to_compare_has_its_columns():
    only_base = pd.DataFrame([ep(s, "default", True) for s in range(2)])
    assert list(rsr_table(only_base).columns) == RSR_COLUMNS and rsr_table(only_base).empty
    crashed = pd.DataFrame([dict(ep(0, "default", True), error="infra"), dict(ep(0, "german", True), error="infra")])
    assert list(rsr_table(crashed).columns) == RSR_COLUMNS and rsr_table(crashed).empty
    quiet = pd.DataFrame([ep(s, v, True) for s in range(2) for v in ("default", "german")])
    assert list(rsr_by_buttons(quiet).columns) == BUTTON_COLUMNS and rsr_by_buttons(quiet).empty
    assert list(rsr_by_kind(quiet).columns) == KIND_COLUMNS and rsr_by_kind(quiet).empty
    no_base = robust_success_rate(quiet, "nowhere", "german")
    assert list(no_base.columns) == RSR_COLUMNS and no_base.empty
    per_mode = robust_success_rate(quiet, "nowhere", "german", buttons=2)
    assert list(per_mode.columns) == BUTTON_COLUMNS and per_mode.empty


def test_a_button_mode_asked_of_a_quiet_version_counts_only_the_units_that_showed_it():
    """german never interrupts; asked for two buttons, it has no unit that showed such an
    interruption: 0 interrupted of 4, no RSR."""
    r = robust_success_rate(pd.DataFrame(rows()), "default", "german", buttons=2).iloc[0]
    assert (r["buttons"], r["units"], r["interrupted"], r["uninterrupted_share"], r["solved"]) == (2, 4, 0, 1.0, 0)
    assert math.isnan(r["rsr"]) and math.isnan(r["interrupted_sr"])
    k = robust_success_rate(pd.DataFrame(rows()), "default", "german", kind="crash").iloc[0]
    assert (k["kind"], k["interrupted"], k["solved"]) == ("crash", 0, 0)


def test_a_flagged_version_without_the_interruptions_column_has_nothing_shown():
    df = pd.DataFrame(rows()).drop(columns=["interruptions"])
    r = robust_success_rate(df, "default", "interrupt_x").iloc[0]
    assert (r["units"], r["interrupted"], r["uninterrupted_share"], r["solved"], r["variation_sr"]) == (
        4,
        0,
        1.0,
        0,
        0.75,
    )
    assert math.isnan(r["rsr"])


def test_breakdown_keeps_an_interruption_without_buttons_and_reads_harm_and_steps_as_given():
    df = pd.DataFrame(
        [
            ep(0, "x", True, [{"id": "p", "kind": "popup", "buttons": None, "button": "ok", "harmful": True}]),
            ep(1, "x", False, [{"id": "p", "kind": "popup", "button": None, "steps_to_recover": "later"}]),
            ep(2, "x", True, [it("login", 2, "ok", steps=3)]),
        ]
    )
    out = interruption_breakdown(df, ("agent", "kind", "buttons"))
    values = out.values.tolist()
    assert len(values) == 2
    assert values[0][:2] == ["a", "login"] and values[0][2:] == [2, 1, 1.0, 1.0, 0.0, 3.0]
    assert values[1][:2] == ["a", "popup"] and pd.isna(values[1][2])
    assert values[1][3:7] == [2, 0.5, 0.5, 0.5]  # the missing harm is no harm: one of two
    assert math.isnan(values[1][7])  # "later" is no number of steps
