"""The rows of the report's core tables and its fixed texts, shared by every section."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd

from openapps_sim.analysis.doc.cells import Column, col, table_of
from openapps_sim.analysis.doc.fmt import DASH, fmt_count, fmt_interval, fmt_num, fmt_pct, fmt_rate_ci
from openapps_sim.analysis.metrics.axes import Rows, rate_rows
from openapps_sim.analysis.metrics.completion import terminations
from openapps_sim.analysis.metrics.table import invalid_categories, sort_key
from openapps_sim.analysis.report.analysis import Analysis

HOW_TO_READ = [
    "**Success** is the fraction of episodes whose final app state matched the expected state exactly "
    "(reward 1); a side effect anywhere fails the episode. Brackets give a 95% bootstrap interval "
    "(2,000 resamples of the episodes, seeded); it collapses to a point when every episode agrees.",
    "**Within std** is the standard deviation of rewards inside one fixed app version -- over the repeated "
    "trials of one instance when the sweep ran trials, else over seeds (the note above says which) -- "
    "averaged over versions and tasks: the reliability a single fixed app clone can show. **Across std** "
    "pools the rewards of every version of a task before taking the deviation: the reliability a "
    "deployed agent meets. **Across/within** above 1 means that app variations add fluctuation that a "
    "fixed version hides. Population formulas; 0.5 is the largest possible deviation of a 0/1 reward.",
    "**Fluctuation** of a task is its best minus its worst per-version success rate.",
    "**Loops/ep**: runs of the same action block repeated at least {min_repeats} times in a row, per episode (a stuck loop when a repetition changed "
    "nothing on the page or in the state, a progressing repeat otherwise). "
    "**Invalid/ep**: actions that were malformed, unknown, had bad arguments, or were rejected by the "
    "browser, per episode. **Intent misund.**: share of episodes that opened an app the task does not "
    "need or a page outside the apps (opening the app a navigation goal names is not one).",
    "Infrastructure errors (crashed browser or server) and model-service errors (the model API failed after "
    "its retries) are excluded from every number and counted apart; an episode ended by the agent's own "
    "exception is a failure of that agent (**Agent exceptions**).",
]


def _agent_fact(a: Any) -> str:
    """One agent of the manifest: its label, its registry name when labelled, its config."""
    if not isinstance(a, dict):
        return str(a)
    label = a.get("label") or a.get("name")
    cfg = a.get("config")
    cfg_text = json.dumps(cfg, sort_keys=True, default=str) if isinstance(cfg, (dict, list)) else cfg
    return f"{label}" + (f" ({a.get('name')})" if a.get("label") else "") + (f": {cfg_text}" if cfg_text else "")


_SHOWN_FACTS = {  # the manifest keys manifest_facts shows under their own label
    "package",
    "version",
    "git_commit",
    "spec",
    "spec_source",
    "spec_hash",
    "seeds",
    "agents",
    "backends",
    "browser",
    "browser_binary",
    "viewports",
    "viewport",
    "axes",
    "python",
    "platform",
    "workers",
    "executor",
    "created",
    "episodes_planned",
}


BACKEND_WORDS = {
    "chromium": "chromium (a real browser)",
    "text": "text (no browser: the same accessibility tree, no screenshots)",
}


def backends_of(manifest: dict, df: pd.DataFrame) -> list[str]:
    """The backends that showed the pages: those the episodes record (older manifests name none,
    and ``--backend`` may have replaced the spec's), else the manifest's."""
    if "backend" in df.columns and len(df):
        return sorted(str(b) for b in df["backend"].dropna().unique())
    return [str(b) for b in manifest.get("backends") or []]


def manifest_facts(manifest: dict, df: pd.DataFrame) -> list[tuple[str, str]]:
    """Key facts of the manifest as (label, value) pairs, in a fixed order, then the rest."""
    facts: list[tuple[str, str]] = []

    def add(label: str, value: Any) -> None:
        if value is None or value == "" or value == []:
            return
        if isinstance(value, (list, tuple)):
            value = ", ".join(str(x) for x in value)
        facts.append((label, str(value)))

    pkg = manifest.get("package", "openapps-sim")
    add("Package", f"{pkg} {manifest.get('version', '')}".strip())
    add("Git commit", manifest.get("git_commit"))
    spec = manifest.get("spec") if isinstance(manifest.get("spec"), dict) else {}
    add("Sweep", spec.get("name") or manifest.get("spec_source"))
    add("Spec file", manifest.get("spec_source"))
    add("Spec hash", manifest.get("spec_hash"))
    add("Seeds", manifest.get("seeds"))
    agents = manifest.get("agents")
    if isinstance(agents, list):
        add("Agents", "; ".join(_agent_fact(a) for a in agents))
    backends = backends_of(manifest, df)
    add("Backend", "; ".join(BACKEND_WORDS.get(b, b) for b in backends))
    browser = manifest.get("browser")
    if browser and manifest.get("browser_binary"):
        browser = f"{browser} ({manifest['browser_binary']})"
    if "chromium" in backends or not backends:  # a browser-free run names none
        add("Browser", browser)
    add("Viewports", manifest.get("viewports") or manifest.get("viewport"))
    add("Swept axes", manifest.get("axes"))
    add("Python", manifest.get("python"))
    add("Platform", manifest.get("platform"))
    add("Workers", f"{manifest.get('workers')} ({manifest.get('executor')})" if manifest.get("workers") else None)
    add("Created", manifest.get("created"))
    planned = manifest.get("episodes_planned")
    recorded = len(df)
    add("Episodes", f"{recorded} recorded" + (f" of {planned} planned" if planned else ""))
    for k in sorted(manifest):
        if k not in _SHOWN_FACTS and not isinstance(manifest[k], (dict, list)):
            add(k.replace("_", " ").capitalize(), manifest[k])
    return facts


def per_variation_table(a: Analysis) -> tuple[list[str], list[list[str]]]:
    """Per agent x variation; the within std and MAD with intervals over tasks when the version is
    the variation alone (else a version is finer than a row)."""
    cis = Rows(a.per_variation_ci, "agent", "variation") if len(a.version) == 1 and len(a.per_variation_ci) else None

    def std(column: str, stat: str) -> Callable[[Any], str]:
        return lambda r: fmt_interval(r[column], cis.get(r["agent"], r["variation"]) if cis else None, stat)

    return table_of(
        a.per_variation,
        [
            ("Agent", col("agent")),
            ("Variation", col("variation")),
            ("Episodes", col("n", fmt_count)),
            ("Success [95% CI]", lambda r: fmt_rate_ci(r["success_rate"], r["ci_low"], r["ci_high"])),
            ("Within std", std("within_std", "std")),
            ("Within MAD", std("within_mad", "mad")),
            ("Loops/ep", col("loops_per_episode", fmt_num)),
            ("Invalid/ep", col("invalid_per_episode", fmt_num)),
            ("Intent misund.", col("intent_rate", fmt_pct)),
            ("Mean steps", col("mean_steps", lambda x: fmt_num(x, 1))),
        ],
    )


def fluctuation_table(a: Analysis, top: int) -> tuple[tuple[list[str], list[list[str]]], str]:
    """The ``top`` agent x task pairs whose success moves across versions, and a sentence
    about the pairs left out because their success is the same in every version."""
    compared = a.fluctuation[a.fluctuation["n_versions"] >= 2]
    f = compared[compared["fluctuation"] > 0].head(top)
    stable = int((compared["fluctuation"] <= 0).sum())
    if compared.empty:
        note = "Only one version per task: nothing to compare."
    elif stable == len(compared):
        note = "Every agent x task pair had the same success rate in every version."
    elif stable:
        note = f"{stable} of {len(compared)} agent x task pairs had the same success rate in every version and are not listed."
    else:
        note = ""
    return table_of(f, FLUCTUATION_TABLE), note


FLUCTUATION_TABLE: list[Column] = [
    ("Agent", col("agent")),
    ("Task", col("task")),
    ("Best version", lambda r: f"{fmt_pct(r['max_success'], 0)} ({r['best_version']})"),
    ("Worst version", lambda r: f"{fmt_pct(r['min_success'], 0)} ({r['worst_version']})"),
    ("Fluctuation", col("fluctuation", lambda x: fmt_pct(x, 0))),
]


def behaviour_rows(a: Analysis) -> tuple[list[str], list[list[str]]]:
    cats = [c for c in invalid_categories(a.df)]
    headers = [
        "Agent",
        "Variation",
        "Episodes",
        "Loops/ep",
        "With loops",
        "Loops if success",
        "Loops if failure",
        "Invalid/ep",
    ] + [f"{c.replace('_', ' ')}/ep" for c in cats]
    rows = []
    invalid = Rows(a.invalid, "agent", "variation")
    for _, lr in a.loops.iterrows():
        ir = invalid.get(lr["agent"], lr["variation"])
        row = [
            str(lr["agent"]),
            str(lr["variation"]),
            str(int(lr["n"])),
            fmt_num(lr["loops_per_episode"]),
            fmt_pct(lr["episodes_with_loops"], 0),
            fmt_num(lr["loops_success"]),
            fmt_num(lr["loops_failure"]),
            fmt_num(ir["invalid_per_episode"]) if ir is not None else DASH,
        ]
        row += [fmt_num(ir[f"{c}_per_episode"]) if ir is not None else DASH for c in cats]
        rows.append(row)
    return headers, rows


def rate_matrix(frame: pd.DataFrame, row_col: str, agents: list[str]) -> tuple[list[str], list[list[str]]]:
    """Rows: values of ``row_col``; columns: agents; cells: "rate (n=N)"."""
    keys = sorted(frame[row_col].unique().tolist(), key=sort_key) if len(frame) else []
    return [row_col.capitalize()] + agents, rate_rows(frame, row_col, keys, agents, ci=False)


def axis_matrix(a: Analysis, axis: str) -> tuple[list[str], list[list[str]]]:
    b = a.breakdown[a.breakdown["axis"] == axis]
    return [axis.replace("_", " ").capitalize()] + a.agents, rate_rows(b, "value", dict.fromkeys(b["value"]), a.agents)


def pass_k_matrix(a: Analysis) -> tuple[list[str], list[list[str]]]:
    if a.pass_k.empty:
        return [], []
    k_max = int(a.pass_k["k"].max())
    headers = ["Agent"] + [f"pass^{k}" for k in range(1, k_max + 1)] + [f"pass@{k}" for k in range(2, k_max + 1)]
    rows = []
    for ag in a.agents:
        g = a.pass_k[a.pass_k["agent"] == ag]
        hat = {int(r["k"]): r["pass_hat_k"] for _, r in g.iterrows()}
        at = {int(r["k"]): r["pass_at_k"] for _, r in g.iterrows()}
        rows.append(
            [ag]
            + [fmt_pct(hat.get(k)) for k in range(1, k_max + 1)]
            + [fmt_pct(at.get(k)) for k in range(2, k_max + 1)]
        )
    return headers, rows


def report_title(a: Analysis) -> str:
    spec = a.manifest.get("spec") if isinstance(a.manifest.get("spec"), dict) else {}
    name = spec.get("name") or ""
    return f"Reliability report{': ' + str(name) if name else ''}"


def overview_facts(a: Analysis) -> list[tuple[str, str]]:
    v = a.valid
    total = len(a.df)
    return [
        ("Agents", str(len(a.agents))),
        ("Tasks", str(v["task"].nunique() if len(v) else 0)),
        ("Variations", str(len(a.variations))),
        ("Seeds", str(v["seed"].nunique() if "seed" in v.columns and len(v) else DASH)),
        ("Scored episodes", str(len(v))),
        ("Not scored (infrastructure / model service)", f"{total - len(v)}"),
        ("Ended by the agent's own exception", str(int(v["is_agent_error"].sum())) if len(v) else "0"),
        ("Termination", ", ".join(terminations(v)) or DASH),
    ]
