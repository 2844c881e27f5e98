"""How episodes ended (declarations, premature stops, overruns) per termination mode, every
answer written out (hand-made tables; ``make mutants`` runs these against
``analysis/metrics/completion.py``)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from openapps_sim.analysis.metrics.completion import COMPLETION_COLUMNS, completion, completion_summary, terminations
from openapps_sim.analysis.metrics.table import valid_episodes


def ep(agent="A", seed=0, success=False, **kw) -> dict:
    return {"agent": agent, "task": "t", "seed": seed, "success": success, **kw}


def test_completion_counts_per_agent_and_mode():
    rows = [
        ep("B", 0, True, termination="agent", declared="message", overrun_steps=1),
        ep("A", 1, False, termination="agent", declared="infeasible", premature_stop=True, overrun_steps=0),
        ep("A", 2, True, termination="agent", declared=None, premature_stop=None, overrun_steps=3),
        ep("A", 3, False, termination="agent", declared=float("nan"), premature_stop=float("nan"), overrun_steps=None),
        ep("A", 4, True, termination=None, declared="message", premature_stop=False),
        ep("A", 5, True, termination="agent", declared="message", error="crash"),  # not counted
    ]
    got = completion_summary(pd.DataFrame(rows))
    assert list(got.columns) == ["agent", "termination", *COMPLETION_COLUMNS]
    assert got.values.tolist() == [
        # agent, mode, n, sr, declared, infeasible, premature, overruns, overrun steps, never declared
        ["A", "agent", 3, 1 / 3, 1, 1, 1, 1, 3, 2],
        ["A", "auto", 1, 1.0, 1, 0, 0, 0, 0, 0],
        ["B", "agent", 1, 1.0, 1, 0, 0, 1, 1, 0],
    ]


def test_completion_of_records_without_the_fields():
    """Records older than the fields: every episode ran auto, declared nothing, never overran."""
    got = completion_summary(pd.DataFrame([ep(seed=0, success=True), ep(seed=1)]))
    assert got.values.tolist() == [["A", "auto", 2, 0.5, 0, 0, 0, 0, 0, 2]]


def test_completion_keeps_a_group_whose_key_is_missing():
    rows = [ep(language=None, termination="agent"), ep(seed=1, language="de", termination="agent")]
    got = completion_summary(pd.DataFrame(rows), ["language"])
    assert got["language"].tolist()[0] == "de" and pd.isna(got["language"].tolist()[1])
    assert got["n"].tolist() == [1, 1]


def test_completion_of_no_valid_episode_has_its_columns():
    got = completion_summary(pd.DataFrame([ep(error="crash")]), ["agent"])
    assert got.empty
    assert list(got.columns) == [
        "agent",
        "termination",
        "n",
        "success_rate",
        "declared",
        "reported_infeasible",
        "premature_stops",
        "overruns",
        "overrun_steps",
        "never_declared",
    ]


def test_terminations_of_a_table():
    assert terminations(pd.DataFrame([ep()])) == ["auto"]
    assert terminations(pd.DataFrame(columns=["agent"])) == []
    assert terminations(pd.DataFrame([ep(termination="agent"), ep(termination=None), ep(termination="x")])) == [
        "agent",
        "auto",
        "x",
    ]


AUTO = (
    "**auto** (the OpenApps paper's): an episode ends as soon as the state is right, so the agent never has to "
    "know it is done and never overruns"
)
AGENT = (
    "**agent**: an episode ends only when the agent declares it is done (send_msg_to_user, or report_infeasible) "
    "or at its step budget; success is the state at that moment"
)
NOTE = (
    "A premature stop is a declaration (a message or report_infeasible) while the state, the page or the order "
    "was not yet right; an overrun is an episode that went on after the goal first held (extra steps: the steps "
    "after it, the declaring step excepted)."
)


def test_the_completion_section_names_each_mode_and_counts():
    df = pd.DataFrame(
        [
            ep(termination="agent", declared="message", overrun_steps=2, success=True),
            ep(seed=1, termination="agent"),
            ep("B", termination="auto"),
            ep("C", termination="later"),
        ]
    )
    s = completion(SimpleNamespace(df=df, valid=valid_episodes(df)))
    assert (s.anchor, s.title) == ("completion", "How episodes ended")
    text, note, table = s.blocks
    assert text.text == f"Termination: {AGENT}; {AUTO}; later."
    assert note.text == NOTE
    assert list(table.headers) == [
        "Agent",
        "Termination",
        "Episodes",
        "Success",
        "Declared done",
        "Reported infeasible",
        "Premature stops",
        "Overruns",
        "Extra steps",
        "Never declared",
    ]
    assert [list(r) for r in table.rows] == [
        ["A", "agent", "2", "50.0%", "1", "0", "0", "1", "2", "1"],
        ["B", "auto", "1", "0.0%", "0", "0", "0", "0", "0", "\u2013"],
        ["C", "later", "1", "0.0%", "0", "0", "0", "0", "0", "\u2013"],
    ]


def test_the_report_draws_the_completion_section_after_categories():
    from openapps_sim.analysis.metrics.completion import SHOWN

    df = pd.DataFrame([ep(termination="agent")])
    (shown,) = SHOWN
    assert (shown.order, shown.summary, shown.paper) == (160, False, False)
    section = shown.draw(SimpleNamespace(a=SimpleNamespace(df=df, valid=valid_episodes(df))))
    assert section.anchor == "completion" and section.blocks[0].text == f"Termination: {AGENT}."
