"""The "where it breaks" sections of the report (rollups, loop kinds, paired versions) drawn from
a real :class:`Analysis` (``analyse``, through ``section_blocks.analysed``, of small hand-made
result tables), every heading,
paragraph and cell written out (``make mutants`` runs these against ``analysis/metrics/breaks.py``)."""

from __future__ import annotations

import dataclasses

import pandas as pd

from openapps_sim.analysis.metrics.breaks import loops, paired, paired_versions, rollups_section

from .section_blocks import analysed, plain

A = ("a", '<span><span class="swatch" style="background:#0072B2"></span>a</span>')
B = ("b", '<span><span class="swatch" style="background:#E69F00"></span>b</span>')
ROLLUPS_TEXT = (
    "Success with 95% bootstrap intervals over episodes, rolled up four ways. Variation kind: what the variation "
    "changes (appearance, content, interruption, structure; a composition joins them). Task length: the number of "
    "essential states (milestones) of the task."
)


def _rollup_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "agent": ["a", "a", "a", "a", "b", "b"],
            "task": ["todo.add", "todo.add", "maps.find", "maps.find", "todo.add", "todo.add"],
            "seed": [0] * 6,
            "variation": ["default", "dark_theme", "default", "dark_theme", "default", "dark_theme"],
            "success": [True, False, False, True, True, True],
            "reward": [1.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            "task_apps": [["todo"], ["todo"], ["maps"], ["maps"], ["todo"], ["todo"]],
            "structure": ["single", "single", "chain", "chain", "single", "single"],
            "milestones": [{"x": 1}, {"x": 1}, {"x": 1, "y": 2}, {"x": 1, "y": 2}, {"x": 1}, {"x": 1}],
        }
    )


def test_rollups_section_four_ways_with_a_dash_where_an_agent_has_no_episode():
    got = plain(rollups_section(analysed(_rollup_table(), n_boot=50)))
    half, every = "50.0% [0.0, 100.0] (n=2)", "100.0% [100.0, 100.0] (n=2)"
    assert got == (
        "rollups",
        "Where it breaks",
        [
            ("P", ROLLUPS_TEXT, ""),
            ("Heading", "App"),
            ("Table", ["App", "a", "b"], [["maps", half, "–"], ["todo", half, every]], None),
            ("Heading", "Variation kind"),
            (
                "Table",
                ["Variation kind", "a", "b"],
                [
                    ["default", half, "100.0% [100.0, 100.0] (n=1)"],
                    ["appearance", half, "100.0% [100.0, 100.0] (n=1)"],
                ],
                None,
            ),
            ("Heading", "Task structure"),
            ("Table", ["Task structure", "a", "b"], [["chain", half, "–"], ["single", half, every]], None),
            ("Heading", "Task length (milestones)"),
            ("Table", ["Task length (milestones)", "a", "b"], [["1", half, every], ["2", half, "–"]], None),
        ],
    )


def _seven() -> pd.DataFrame:
    """One agent, one app, 3 of 7 episodes solved: a bootstrap interval that moves with the
    number of resamples and the seed."""
    return pd.DataFrame(
        {
            "agent": ["a"] * 7,
            "task": ["todo.add"] * 7,
            "seed": list(range(7)),
            "variation": ["default"] * 7,
            "success": [True, True, True, False, False, False, False],
            "reward": [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
            "task_apps": [["todo"]] * 7,
        }
    )


def test_rollups_section_one_app_shown_alone_and_half_the_resamples_at_least_200():
    # every other rollup has a single value (unknown structure and length, the default kind): left out
    got = plain(rollups_section(analysed(_seven(), n_boot=50, seed=8)))
    assert got == (
        "rollups",
        "Where it breaks",
        [
            ("P", ROLLUPS_TEXT, ""),
            ("Heading", "App"),
            ("Table", ["App", "a"], [["todo", "42.9% [13.9, 85.7] (n=7)"]], None),
        ],
    )
    # 1000 resamples in the analysis: 500 here
    many = plain(rollups_section(analysed(_seven(), n_boot=1000, seed=8)))
    assert many[2][2][2] == [["todo", "42.9% [6.8, 85.7] (n=7)"]]
    other_seed = plain(rollups_section(analysed(_seven(), n_boot=50, seed=9)))
    assert other_seed[2][2][2] == [["todo", "42.9% [0.0, 71.8] (n=7)"]]


def test_rollups_section_without_a_scored_episode_is_empty():
    got = plain(rollups_section(analysed(_rollup_table().assign(error="crash"), n_boot=50)))
    assert got == ("rollups", "Where it breaks", [])


LOOPS_TEXT = (
    "A **stuck loop** repeats an action block while nothing changes (same page, same screen, same app state) in "
    "some repetition; a **progressing repeat** changes the page or the state every time (the oracle clicking "
    '"next month" five times). Unclassified: records without per-step change flags (older runs).'
)
LOOPS_HEADERS = ["Agent", "Variation", "Episodes", "Stuck/ep", "Episodes stuck", "Progressing/ep", "Unclassified/ep"]
LOOPS_ALIGN = ["l", "l", "r", "r", "r", "r", "r"]


def _loop_table(actions: list, changed: list, agents: list | None = None, variations: list | None = None):
    n = len(actions)
    return pd.DataFrame(
        {
            "agent": agents or ["a"] * n,
            "task": [f"t{i}" for i in range(n)],
            "seed": [0] * n,
            "variation": variations or ["default"] * n,
            "success": [False] * n,
            "reward": [0.0] * n,
            "actions": actions,
            "step_changed": changed,
        }
    )


def test_loops_section_per_agent_and_variation():
    df = _loop_table(
        [["x", "x", "x"], ["y", "y", "y"], ["q"], ["x", "x", "x"], ["z", "z", "z", "z"]],
        [[0, 0, 0], [1, 1, 1], [1], None, [1, 0, 0, 0]],
        agents=["a", "a", "a", "a", "b"],
        variations=["default", "default", "default", "dark_theme", "default"],
    )
    got = plain(loops(analysed(df, n_boot=50)))
    assert got == (
        "loopkinds",
        "Stuck loops and progressing repeats",
        [
            ("P", LOOPS_TEXT, ""),
            (
                "Table",
                LOOPS_HEADERS,
                [
                    [A, "default", "3", "0.33", "33%", "0.33", "0.00"],
                    [A, "dark_theme", "1", "0.00", "0%", "0.00", "1.00"],
                    [B, "default", "1", "1.00", "100%", "0.00", "0.00"],
                ],
                LOOPS_ALIGN,
            ),
        ],
    )


def _no_loops(n: int) -> tuple[str, str, list]:
    return (
        "loopkinds",
        "Stuck loops and progressing repeats",
        [("P", f"No action block was repeated {n} times in a row.", "")],
    )


def test_loops_section_without_a_loop_names_the_threshold():
    df = _loop_table([["x", "x", "x"], ["y"]], [[0, 0, 0], [1]])
    assert plain(loops(analysed(df, n_boot=50, min_repeats=5))) == _no_loops(5)
    assert plain(loops(analysed(df.assign(error="crash"), n_boot=50))) == _no_loops(3)
    two = plain(loops(analysed(_loop_table([["x", "y"]], [[1, 1]]), n_boot=50, min_repeats=2)))
    assert two == _no_loops(2)


def _loop_rows(actions: list, changed: list) -> list:
    return plain(loops(analysed(_loop_table(actions, changed), n_boot=50)))[2][1][2]


def test_loops_section_shown_for_any_one_kind_of_loop_and_any_mix():
    stuck, moving, older = ["x", "x", "x"], ["y", "y", "y"], ["z", "z", "z"]
    assert _loop_rows([stuck], [[0, 0, 0]]) == [[A, "default", "1", "1.00", "100%", "0.00", "0.00"]]
    assert _loop_rows([moving], [[1, 1, 1]]) == [[A, "default", "1", "0.00", "0%", "1.00", "0.00"]]
    assert _loop_rows([older], [None]) == [[A, "default", "1", "0.00", "0%", "0.00", "1.00"]]
    # as many stuck as progressing, as many stuck as unclassified, as many progressing as unclassified
    assert _loop_rows([stuck, moving], [[0, 0, 0], [1, 1, 1]]) == [[A, "default", "2", "0.50", "50%", "0.50", "0.00"]]
    assert _loop_rows([stuck, older], [[0, 0, 0], None]) == [[A, "default", "2", "0.50", "50%", "0.00", "0.50"]]
    assert _loop_rows([moving, older], [[1, 1, 1], None]) == [[A, "default", "2", "0.00", "0%", "0.50", "0.50"]]
    assert _loop_rows([stuck, moving, older], [[0, 0, 0], [1, 1, 1], None]) == [
        [A, "default", "3", "0.33", "33%", "0.33", "0.33"]
    ]


def _paired_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "agent": ["a", "a", "a", "a", "a", "a", "b", "b"],
            "task": ["t1", "t1", "t2", "t2", "t3", "t3", "t1", "t1"],
            "seed": [0] * 8,
            "variation": ["default", "dark_theme"] * 4,
            "success": [True, False, False, True, True, True, False, False],
            "reward": [1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0],
            "episode_id": ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"],
        }
    )


def _paired_text(baseline: str) -> str:
    return (
        f"The same agent, task and seed run in `{baseline}` and in another version. Lost: solved in `{baseline}`, "
        "failed in the other; gained: the reverse. Paired RSR: of the pairs solved in the baseline, the share still "
        "solved (against a version that interrupts: of the pairs where an interruption was shown)."
    )


PAIRED_HEADERS = ["Agent", "Version", "Pairs", "Lost", "Gained", "Paired RSR [95% CI]"]
FLIP_HEADERS = ["Agent", "Task", "Seed", "Version", "Flip", "Baseline episode", "Other episode"]
PAIRED_ALIGN = ["l", "l", "r", "r", "r", "r"]
FLIP_ALIGN = ["l", "l", "r", "l", "l", "l", "l"]


def _meta(text: str) -> tuple[str, str]:
    return (text, f'<span class="meta">{text}</span>')


def _link(text: str, episode: str) -> tuple[str, str]:
    return (text, f'<a href="#ep-{episode}">{text}</a>')


def _paired_section(baseline: str, other: str, flips: list[list]) -> tuple:
    """The paired section against ``baseline`` of ``_paired_table``: a's 3 pairs with ``other``
    (1 lost, 1 gained), b's one, and its two success flips as listed (``flips``)."""
    return (
        "paired",
        f"Paired with the {baseline} version",
        [
            ("P", _paired_text(baseline), ""),
            (
                "Table",
                PAIRED_HEADERS,
                [[A, other, "3", "1", "1", "50.0% [0.0, 100.0]"], [B, other, "1", "0", "0", "–"]],
                PAIRED_ALIGN,
            ),
            ("Heading", "Success flips (2)"),
            ("Table", FLIP_HEADERS, flips, FLIP_ALIGN),
        ],
    )


def test_paired_section_counts_flips_and_links_the_episodes_shown():
    a = analysed(_paired_table(), n_boot=50)
    got = plain(paired(a, paired_versions(a.df), {"e1", "e4"}))
    # a: t1 lost, t2 gained, t3 kept; of its 2 baseline successes 1 still solved. b never solved it.
    assert got == _paired_section(
        "default",
        "dark_theme",
        [
            [A, "t2", "0", "dark_theme", "gained", _meta("default (failure)"), _link("dark_theme (success)", "e4")],
            [A, "t1", "0", "dark_theme", "lost", _link("default (success)", "e1"), _meta("dark_theme (failure)")],
        ],
    )
    assert plain(paired(a, paired_versions(a.df), set(), limit=2))[2][3][2][1][5:] == [
        _meta("default (success)"),
        _meta("dark_theme (failure)"),
    ]


def test_paired_section_lists_the_first_flips_up_to_the_limit():
    a = analysed(_paired_table(), n_boot=50)
    got = plain(paired(a, paired_versions(a.df), set(), limit=1))
    assert got[2][2:] == [
        ("Heading", "Success flips (2)"),
        (
            "Table",
            FLIP_HEADERS,
            [[A, "t2", "0", "dark_theme", "gained", _meta("default (failure)"), _meta("dark_theme (success)")]],
            FLIP_ALIGN,
        ),
        ("P", "1 more flips are not listed.", "meta"),
    ]


def test_paired_section_against_another_baseline():
    a = dataclasses.replace(analysed(_paired_table(), n_boot=50), baseline="dark_theme")
    got = plain(paired(a, paired_versions(a.df, "dark_theme"), {"e3"}))
    assert got == _paired_section(
        "dark_theme",
        "default",
        [
            [A, "t1", "0", "default", "gained", _meta("dark_theme (failure)"), _meta("default (success)")],
            [A, "t2", "0", "default", "lost", _meta("dark_theme (success)"), _link("default (failure)", "e3")],
        ],
    )


def test_paired_section_without_pairs_or_flips():
    a = analysed(_paired_table(), n_boot=50)
    assert plain(paired(a, paired_versions(a.df).iloc[:0], set())) == ("paired", "Paired with the default version", [])
    same = _paired_table().assign(success=True, reward=1.0)
    s = analysed(same, n_boot=50)
    got = plain(paired(s, paired_versions(s.df), set()))
    assert got[2][1:] == [
        (
            "Table",
            PAIRED_HEADERS,
            [
                [A, "dark_theme", "3", "0", "0", "100.0% [100.0, 100.0]"],
                [B, "dark_theme", "1", "0", "0", "100.0% [100.0, 100.0]"],
            ],
            PAIRED_ALIGN,
        )
    ]


def test_paired_section_shows_30_flips_by_default():
    n = 31
    df = pd.DataFrame(
        {
            "agent": ["a"] * (2 * n),
            "task": [f"t{i:02d}" for i in range(n) for _ in (0, 1)],
            "seed": [3] * (2 * n),
            "variation": ["default", "dark_theme"] * n,
            "success": [True, False] * n,
            "reward": [1.0, 0.0] * n,
            "episode_id": [f"e{i}" for i in range(2 * n)],
        }
    )
    a = analysed(df, n_boot=50)
    got = plain(paired(a, paired_versions(a.df), set()))
    assert got[2][2][1] == "Success flips (31)"
    flips = got[2][3][2]
    assert len(flips) == 30
    assert flips[0] == [A, "t00", "3", "dark_theme", "lost", _meta("default (success)"), _meta("dark_theme (failure)")]
    assert flips[29][1] == "t29"
    assert got[2][4] == ("P", "1 more flips are not listed.", "meta")
    assert len(got[2]) == 5


def test_paired_section_sorts_the_flips_by_agent_task_and_version():
    # the pairs come b/t1/mobile, a/t2/mobile, a/t2/dark_theme, a/t1/mobile, a/t1/dark_theme: every one lost
    df = pd.DataFrame(
        {
            "agent": ["b", "b", "a", "a", "a", "a", "a", "a"],
            "task": ["t1", "t1", "t2", "t2", "t2", "t1", "t1", "t1"],
            "seed": [0] * 8,
            "variation": ["default", "mobile", "default", "mobile", "dark_theme", "default", "mobile", "dark_theme"],
            "success": [True, False, True, False, False, True, False, False],
            "reward": [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
            "episode_id": ["b1", "b2", "a1", "a2", "a3", "a4", "a5", "a6"],
        }
    )
    a = analysed(df, n_boot=50)
    got = plain(paired(a, paired_versions(a.df), {"a6"}))
    assert got[2][1][2] == [
        [B, "mobile", "1", "1", "0", "0.0% [0.0, 0.0]"],
        [A, "mobile", "2", "2", "0", "0.0% [0.0, 0.0]"],
        [A, "dark_theme", "2", "2", "0", "0.0% [0.0, 0.0]"],
    ]
    base = _meta("default (success)")
    assert got[2][2:] == [
        ("Heading", "Success flips (5)"),
        (
            "Table",
            FLIP_HEADERS,
            [
                [A, "t1", "0", "dark_theme", "lost", base, _link("dark_theme (failure)", "a6")],
                [A, "t1", "0", "mobile", "lost", base, _meta("mobile (failure)")],
                [A, "t2", "0", "dark_theme", "lost", base, _meta("dark_theme (failure)")],
                [A, "t2", "0", "mobile", "lost", base, _meta("mobile (failure)")],
                [B, "t1", "0", "mobile", "lost", base, _meta("mobile (failure)")],
            ],
            FLIP_ALIGN,
        ),
    ]


def test_paired_section_dash_where_the_rsr_has_no_unit_and_tasks_in_sort_key_order():
    # episodes without a seed pair up, but the RSR's units (agent, task, seed) leave them out
    df = pd.DataFrame(
        {
            "agent": ["a", "a"],
            "task": ["t1", "t1"],
            "seed": [None, None],
            "variation": ["default", "dark_theme"],
            "success": [True, False],
            "reward": [1.0, 0.0],
        }
    )
    a = analysed(df, n_boot=50)
    assert plain(paired(a, paired_versions(a.df), set()))[2][1][2] == [[A, "dark_theme", "1", "1", "0", "–"]]
    # viewports by area: 2x3 before 10x10
    df = pd.DataFrame(
        {
            "agent": ["a"] * 4,
            "task": ["10x10", "10x10", "2x3", "2x3"],
            "seed": [0] * 4,
            "variation": ["default", "dark_theme"] * 2,
            "success": [True, False] * 2,
            "reward": [1.0, 0.0] * 2,
        }
    )
    a = analysed(df, n_boot=50)
    flips = plain(paired(a, paired_versions(a.df), set()))[2][3][2]
    assert [row[1] for row in flips] == ["2x3", "10x10"]


def test_paired_section_no_note_when_the_flips_fill_the_limit():
    a = analysed(_paired_table(), n_boot=50)
    got = plain(paired(a, paired_versions(a.df), set(), limit=2))
    assert [b[0] for b in got[2]] == ["P", "Table", "Heading", "Table"]


def test_rollups_section_goes_on_after_a_rollup_left_out():
    # one variation kind (left out), then two task structures (shown)
    df = pd.DataFrame(
        {
            "agent": ["a", "a"],
            "task": ["todo.add", "todo.add"],
            "seed": [0, 1],
            "variation": ["default", "default"],
            "success": [True, False],
            "reward": [1.0, 0.0],
            "task_apps": [["todo"], ["todo"]],
            "structure": ["single", "chain"],
        }
    )
    got = plain(rollups_section(analysed(df, n_boot=50)))
    assert got[2][1:] == [
        ("Heading", "App"),
        ("Table", ["App", "a"], [["todo", "50.0% [0.0, 100.0] (n=2)"]], None),
        ("Heading", "Task structure"),
        (
            "Table",
            ["Task structure", "a"],
            [["chain", "0.0% [0.0, 0.0] (n=1)"], ["single", "100.0% [100.0, 100.0] (n=1)"]],
            None,
        ),
    ]
