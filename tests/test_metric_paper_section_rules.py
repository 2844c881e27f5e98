"""The paper's sections of the report (Figure 4, Tables 4, 5/6, 7, 9, 11-13) drawn from a real
:class:`Analysis` (``analyse``, through ``section_blocks.analysed``, of small hand-made result
tables), every heading, paragraph and cell written out (``make mutants`` runs these against
``analysis/metrics/paper.py``)."""

from __future__ import annotations

import dataclasses

import pandas as pd

from openapps_sim.analysis.metrics.paper import (
    figure4,
    grids,
    paper_sections,
    table4,
    table9,
    tables5_6,
    tables11_13,
)

from .section_blocks import analysed, plain


def _swatch(name: str, colour: str) -> tuple[str, str]:
    return (name, f'<span><span class="swatch" style="background:{colour}"></span>{name}</span>')


A, B, C, D = (_swatch(n, c) for n, c in (("a", "#0072B2"), ("b", "#E69F00"), ("c", "#009E73"), ("d", "#CC79A7")))


def _episodes(*runs: tuple[str, str, str, tuple[int, ...]], **columns: list) -> pd.DataFrame:
    """One row per seed of each ``(agent, task, variation, successes)``."""
    rows = [(ag, task, var, seed, bool(s)) for ag, task, var, succ in runs for seed, s in enumerate(succ)]
    df = pd.DataFrame(rows, columns=["agent", "task", "variation", "seed", "success"])
    df["reward"] = df["success"].astype(float)
    for name, values in columns.items():
        df[name] = values
    return df


def _versions() -> pd.DataFrame:
    return _episodes(
        ("a", "t1", "default", (1, 0)),
        ("a", "t2", "default", (1, 1)),
        ("a", "t1", "dark_theme", (1, 1)),
        ("a", "t2", "dark_theme", (0, 0)),
        ("b", "t1", "default", (0, 0)),
        ("b", "t2", "default", (1, 0)),
        ("b", "t1", "dark_theme", (0, 0)),
        ("b", "t2", "dark_theme", (1, 1)),
        ("c", "t1", "default", (0, 0)),
        ("c", "t2", "default", (0, 0)),
        ("c", "t1", "dark_theme", (0, 0)),
        ("c", "t2", "dark_theme", (1, 0)),
        ("d", "t1", "default", (1, 1)),
    )


FIGURE4_CAPTION = (
    "Average over tasks of each task's success rate in one app version. As in the paper, tasks an agent never "
    "solved in any version are left out for that agent, so a rate here can be higher than the headline's over all "
    "tasks (in parentheses where it differs)."
)


def test_figure4_leaves_out_the_tasks_an_agent_never_solved():
    # b never solved t1: its rates are over t2 alone, with the rate over both tasks beside them;
    # c solved t2 only in dark_theme (0% in default either way); d ran only the default version
    section = figure4(analysed(_versions(), n_boot=50))
    assert plain(section) == (
        "fig4",
        "Success per app version (Figure 4)",
        [
            ("Figure", FIGURE4_CAPTION),
            (
                "Table",
                ["Agent", "default", "dark_theme", "Tasks kept"],
                [
                    [A, "75.0%", "50.0%", "2 of 2"],
                    [B, "50.0% (25.0% of all 2)", "100.0% (50.0% of all 2)", "1 of 2"],
                    [C, "0.0%", "50.0% (25.0% of all 2)", "1 of 2"],
                    [D, "100.0%", "–", "1 of 1"],
                ],
                None,
            ),
        ],
    )
    svg = str(section.blocks[0].chart)
    for part in (
        'aria-label="average task success per version"',
        'class="axis">average task success<',
        'class="axis">app version<',
        'class="cat">default<',
        'class="cat">dark_theme<',
        'fill="#0072B2"><title>a · default: 75.0%</title>',
        'fill="#E69F00"><title>b · default: 50.0%</title>',
        'fill="#009E73"><title>c · default: 0.0%</title>',
        'fill="#CC79A7"><title>d · default: 100.0%</title>',
        'fill="#0072B2"><title>a · dark_theme: 50.0%</title>',
        'fill="#E69F00"><title>b · dark_theme: 100.0%</title>',
        'fill="#009E73"><title>c · dark_theme: 50.0%</title>',
    ):
        assert part in svg, part
    assert svg.count("<title>") == 7


def test_figure4_an_agent_that_never_solved_a_task_keeps_none():
    never = _episodes(("e", "t1", "default", (0, 0)), ("e", "t1", "dark_theme", (0, 0)))
    section = figure4(analysed(pd.concat([_versions(), never], ignore_index=True), n_boot=50))
    e = ("e", '<span><span class="swatch" style="background:#56B4E9"></span>e</span>')
    assert plain(section)[2][1][2][4] == [e, "– (0.0% of all 1)", "– (0.0% of all 1)", "0 of 1"]
    assert str(section.blocks[0].chart).count("<title>") == 7


def test_figure4_needs_two_versions():
    one = _versions()
    got = plain(figure4(analysed(one[one["variation"] == "default"], n_boot=50)))
    assert got == ("fig4", "Success per app version (Figure 4)", [])


TABLE4_HEADERS = ["Agent", "Task", "Episodes", "pass@1", "std", "MAD"]
ALIGN6 = ["l", "l", "r", "r", "r", "r"]


def _table4_text(version: str) -> str:
    return (
        f"pass@1 over seeds (trials when the sweep ran them) of each task in the `{version}` version, with the "
        "standard deviation and mean absolute deviation of its rewards."
    )


def test_table4_per_task_in_the_baseline_version():
    a = analysed(_versions(), n_boot=50)
    assert plain(table4(a)) == (
        "table4",
        "Per task in the default version (Table 4)",
        [
            ("P", _table4_text("default"), ""),
            (
                "Table",
                TABLE4_HEADERS,
                [
                    [A, "t1", "2", "50.0%", "0.500", "0.500"],
                    [A, "t2", "2", "100.0%", "0.000", "0.000"],
                    [B, "t1", "2", "0.0%", "0.000", "0.000"],
                    [B, "t2", "2", "50.0%", "0.500", "0.500"],
                    [C, "t1", "2", "0.0%", "0.000", "0.000"],
                    [C, "t2", "2", "0.0%", "0.000", "0.000"],
                    [D, "t1", "2", "100.0%", "0.000", "0.000"],
                ],
                ALIGN6,
            ),
        ],
    )
    dark = plain(table4(dataclasses.replace(a, baseline="dark_theme")))
    assert dark[:2] == ("table4", "Per task in the dark_theme version (Table 4)")
    assert dark[2][0] == ("P", _table4_text("dark_theme"), "")
    assert dark[2][1][2] == [
        [A, "t1", "2", "100.0%", "0.000", "0.000"],
        [A, "t2", "2", "0.0%", "0.000", "0.000"],
        [B, "t1", "2", "0.0%", "0.000", "0.000"],
        [B, "t2", "2", "100.0%", "0.000", "0.000"],
        [C, "t1", "2", "0.0%", "0.000", "0.000"],
        [C, "t2", "2", "50.0%", "0.500", "0.500"],
    ]
    nowhere = plain(table4(dataclasses.replace(a, baseline="nowhere")))
    assert nowhere == ("table4", "Per task in the nowhere version (Table 4)", [])


TABLES5_6_TEXT = (
    "pass@1 over seeds averaged over tasks, and the std and MAD of rewards over seeds averaged over tasks, for each "
    "variation, grouped by what the variation changes (the default version heads each group). Brackets: 95% "
    "bootstrap intervals over tasks."
)
HALF = ["1", "50.0% [50.0%, 50.0%]", "0.500 [0.500, 0.500]", "0.500 [0.500, 0.500]"]
EVERY = ["1", "100.0% [100.0%, 100.0%]", "0.000 [0.000, 0.000]", "0.000 [0.000, 0.000]"]
NONE = ["1", "0.0% [0.0%, 0.0%]", "0.000 [0.000, 0.000]", "0.000 [0.000, 0.000]"]


def test_tables5_6_group_the_variations_by_kind_default_first():
    # one task: an interval over tasks is the value itself; b ran german once (no deviation)
    df = _episodes(
        ("a", "t1", "no_such_pack_x", (0, 1)),
        ("a", "t1", "mobile", (1, 0)),
        ("a", "t1", "interrupt_battery", (1, 1)),
        ("a", "t1", "german", (0, 0)),
        ("a", "t1", "dark_theme", (1, 1)),
        ("a", "t1", "default", (1, 0)),
        ("a", "t1", "mobile+dark_theme", (0, 0)),
        ("a", "t1", "dark_theme+german", (1, 1)),
        ("b", "t1", "german", (1,)),
    )
    got = plain(tables5_6(analysed(df, n_boot=50)))

    def table(*rows: list) -> tuple:
        return ("Table", ["Agent", "Variation", "Tasks", "pass@1", "std", "MAD"], list(rows), ALIGN6)

    assert got == (
        "table5",
        "Per appearance and content variation (Tables 5 and 6)",
        [
            ("P", TABLES5_6_TEXT, ""),
            ("Heading", "Appearance (Table 5)"),
            table([A, "default", *HALF], [A, "dark_theme", *EVERY]),
            ("Heading", "Content (Table 6)"),
            table([A, "default", *HALF], [A, "german", *NONE], [B, "german", "1", "100.0% [100.0%, 100.0%]", "–", "–"]),
            ("Heading", "Interruption"),
            table([A, "default", *HALF], [A, "interrupt_battery", *EVERY]),
            ("Heading", "Structure"),
            table([A, "default", *HALF], [A, "mobile", *HALF]),
            ("Heading", "Other"),
            table([A, "default", *HALF], [A, "no_such_pack_x", *HALF]),
            ("Heading", "Appearance+content"),
            table([A, "default", *HALF], [A, "dark_theme+german", *EVERY]),
            ("Heading", "Appearance+structure"),
            table([A, "default", *HALF], [A, "mobile+dark_theme", *NONE]),
        ],
    )
    only_default = plain(tables5_6(analysed(df[df["variation"] == "default"], n_boot=50)))
    assert only_default[2] == [("P", TABLES5_6_TEXT, "")]


def test_tables5_6_without_a_scored_episode():
    got = plain(tables5_6(analysed(_versions().assign(error="crash"), n_boot=50)))
    assert got == ("table5", "Per appearance and content variation (Tables 5 and 6)", [])


def _grid_table() -> pd.DataFrame:
    cells = {  # (agent, viewport width, variation): successes of t1 and t2
        ("a", 800, "default"): (1, 0),
        ("a", 800, "dark_theme"): (1, 1),
        ("a", 1280, "default"): (0, 0),
        ("a", 1280, "dark_theme"): (1, 0),
        ("b", 800, "default"): (1, 1),
        ("b", 1280, "default"): (0, 1),
        ("b", 1280, "dark_theme"): (0, 0),
    }
    rows = [
        (ag, f"t{i + 1}", var, 0, width, bool(s))
        for (ag, width, var), succ in cells.items()
        for i, s in enumerate(succ)
    ]
    df = pd.DataFrame(rows, columns=["agent", "task", "variation", "seed", "viewport_w", "success"])
    df["reward"] = df["success"].astype(float)
    return df


def _heat(text: str, rate: str) -> tuple[str, str]:
    return (text, f"title: {rate} of 2 episodes")


GRID_TEXT = (
    "Average task success in each cell of a swept axis crossed with the variation (viewport × appearance is the "
    "paper's Table 7; temperature, its Figure 9)."
)


def test_grids_cross_a_swept_axis_with_the_variation_in_numeric_order():
    got = plain(grids(analysed(_grid_table(), axes=["viewport_w"], n_boot=50)))
    headers, align = ["Viewport w", "default", "dark_theme"], ["l", "c", "c"]
    assert got == (
        "grid",
        "Axis × variation (Table 7, Figure 9)",
        [
            ("P", GRID_TEXT, ""),
            ("Heading", "Viewport w × variation: a"),
            (
                "Table",
                headers,
                [
                    ["800", _heat("50%", "50.0%"), _heat("100%", "100.0%")],
                    ["1280", _heat("0%", "0.0%"), _heat("50%", "50.0%")],
                ],
                align,
            ),
            ("Heading", "Viewport w × variation: b"),
            (
                "Table",
                headers,
                [["800", _heat("100%", "100.0%"), "–"], ["1280", _heat("50%", "50.0%"), _heat("0%", "0.0%")]],
                align,
            ),
        ],
    )


def test_grids_leave_out_the_agent_config():
    # labelled agents keep their names, so their configs are an axis varied within one agent
    df = _grid_table().assign(agent_config=["x", "y"] * 7)
    df["label"] = df["agent"]
    a = analysed(df, axes=["viewport_w", "agent_config"], n_boot=50)
    assert a.axes == ["variation", "agent_config", "viewport_w"]
    headings = [b for b in plain(grids(a))[2] if b[0] == "Heading"]
    assert headings == [("Heading", "Viewport w × variation: a"), ("Heading", "Viewport w × variation: b")]


def test_grids_need_a_swept_axis_and_two_variations():
    empty = ("grid", "Axis × variation (Table 7, Figure 9)", [])
    assert plain(grids(analysed(_grid_table(), n_boot=50))) == empty
    df = _grid_table()
    one = df[df["variation"] == "default"]
    assert plain(grids(analysed(one, axes=["viewport_w"], n_boot=50))) == empty


def _steps() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "agent": ["a", "a", "a", "a", "b", "b"],
            "task": ["t1", "t2", "t3", "t1", "t1", "t2"],
            "seed": [0] * 6,
            "variation": ["default", "default", "dark_theme", "dark_theme", "default", "default"],
            "success": [True, False, False, True, False, False],
            "reward": [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
            "actions": [["x", "x", "x"], ["y", "y", "y", "z", "z", "z"], ["q"], ["w", "w"], ["r"], ["s"]],
            "invalid": [{"parse": 2}, {"parse": 1, "missing": 1}, {}, {}, {"parse": 1}, {}],
            "intent_misunderstanding": [True, False, False, False, True, False],
            "structure": ["sequential", "conjunctive", "single", "hierarchical", "conditional", "sequential"],
            "partial_reward": [1.0, 0.5, 0.3, 0.0, 0.5, 0.0],
        }
    )


TABLE9_TEXT = (
    "Episodes of multi-step families (sequential, conjunctive, conditional, hierarchical): full success, the partial "
    "reward (share of sub-goals reached) and the share with at least one sub-goal done."
)


def test_table9_over_the_multi_step_episodes():
    # a: 3 multi-step episodes (its single-goal one left out), 2 solved, partial 1.0, 0.5, 0.0, each
    # with a sub-goal or solved; b: 2, none solved, partial 0.5 and 0.0
    got = plain(table9(analysed(_steps(), n_boot=50)))
    assert got == (
        "table9",
        "Multi-step tasks (Table 9)",
        [
            ("P", TABLE9_TEXT, ""),
            (
                "Table",
                ["Agent", "Episodes", "Success", "Partial reward", "≥1 sub-goal done"],
                [[A, "3", "66.7%", "0.50", "100.0%"], [B, "2", "0.0%", "0.25", "50.0%"]],
                None,
            ),
        ],
    )
    bare = plain(table9(analysed(_steps().drop(columns=["structure"]), n_boot=50)))
    assert bare == ("table9", "Multi-step tasks (Table 9)", [])


def _tables11_13_text(repeats: int) -> str:
    return (
        f"Agent × variation. Loops: blocks repeated at least {repeats} times (`--loop-repeats`; the paper counts 2). "
        "Intent misunderstanding: an app the task does not need, or a page outside the apps, was opened."
    )


def test_tables11_13_per_agent_and_variation():
    # a/default: 1 and 2 loops, 2 and 2 invalid actions, one of two misunderstood; b ran no dark_theme
    got = plain(tables11_13(analysed(_steps(), n_boot=50)))
    headers = ["Agent", "default", "dark_theme"]
    assert got == (
        "table11",
        "Loops, invalid actions and intent by variation (Tables 11–13)",
        [
            ("P", _tables11_13_text(3), ""),
            ("Heading", "Loops per episode (Table 11)"),
            ("Table", headers, [[A, "1.50", "0.00"], [B, "0.00", "–"]], None),
            ("Heading", "Invalid actions per episode (Table 12)"),
            ("Table", headers, [[A, "2.00", "0.00"], [B, "0.50", "–"]], None),
            ("Heading", "Intent misunderstanding rate (Table 13)"),
            ("Table", headers, [[A, "50.0%", "0.0%"], [B, "50.0%", "–"]], None),
        ],
    )
    two = plain(tables11_13(analysed(_steps(), n_boot=50, min_repeats=2)))
    assert two[2][:3] == [
        ("P", _tables11_13_text(2), ""),
        ("Heading", "Loops per episode (Table 11)"),
        ("Table", headers, [[A, "1.50", "0.50"], [B, "0.00", "–"]], None),
    ]
    none = plain(tables11_13(analysed(_steps().assign(error="crash"), n_boot=50)))
    assert none == ("table11", "Loops, invalid actions and intent by variation (Tables 11–13)", [])


def test_figure4_versions_of_every_swept_axis():
    got = plain(figure4(analysed(_grid_table(), axes=["viewport_w"], n_boot=50)))
    assert got[2][1] == (
        "Table",
        ["Agent", "default · 800", "default · 1280", "dark_theme · 800", "dark_theme · 1280", "Tasks kept"],
        [[A, "50.0%", "0.0%", "100.0%", "50.0%", "2 of 2"], [B, "100.0%", "50.0%", "–", "0.0%", "2 of 2"]],
        None,
    )


def test_grids_list_viewports_by_area():
    df = _grid_table()
    df["viewport"] = df["viewport_w"].map({800: "800x600", 1280: "1280x720"})
    got = plain(grids(analysed(df.drop(columns=["viewport_w"]), axes=["viewport"], n_boot=50)))
    assert [[row[0] for row in b[2]] for b in got[2] if b[0] == "Table"] == [["800x600", "1280x720"]] * 2


def test_paper_sections_in_order():
    a = analysed(_versions(), n_boot=50)
    sections = paper_sections(a)
    assert [s.anchor for s in sections] == ["fig4", "table4", "table5", "grid", "table9", "table11"]
    drawn = [figure4(a), table4(a), tables5_6(a), grids(a), table9(a), tables11_13(a)]
    assert [plain(s) for s in sections] == [plain(s) for s in drawn]
