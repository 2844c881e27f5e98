"""Reliability report for a results folder: ``report.md`` and a self-contained ``report.html``.

A results folder (written by a sweep) holds::

    results.jsonl                      one JSON object per episode (see docs/metrics.md)
    manifest.json                      what reproduces the run (version, commit, spec, seeds ...)
    trajectories/<episode_id>.json     optional: goal and per-step action, error, url, screenshot
    screenshots/...                    optional: PNGs the trajectories point to

Every number comes from :mod:`openapps_sim.analysis.metrics`. The HTML needs nothing but itself: CSS
is inline, charts are inline SVG drawn here, screenshots are embedded as (downscaled) data URIs,
and there is no script. It loads nothing from any host.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

import openapps_sim.analysis.metrics as m
from openapps_sim.sweeps.store import read_records

AGENT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#6F6F6F", "#B8A000", "#000000"]
"""The Okabe-Ito palette (distinguishable with the common colour-vision deficiencies)."""

WITHIN_COLOUR = "#56B4E9"
ACROSS_COLOUR = "#D55E00"
DASH = "–"


# ----------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------


def load_results(results_dir: Path | str) -> pd.DataFrame:
    """The results table of a folder: ``results.jsonl`` read, one record per episode id.

    A truncated last line is skipped; notes about it are in ``df.attrs["notes"]``.
    """
    path = Path(results_dir) / "results.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run a sweep first (openapps sweep SPEC --out DIR)")
    records, notes = read_records(path)
    df = pd.DataFrame(records)
    n_raw = len(df)
    df = m.deduplicate(df).reset_index(drop=True)
    if len(df) < n_raw:
        notes.append(f"{n_raw - len(df)} duplicate record(s) of the same episode id were dropped (the last kept)")
    df.attrs = {"notes": notes}
    return df


def load_manifest(results_dir: Path | str) -> dict:
    """``manifest.json`` of a folder, or an empty dict when there is none (or it is unreadable)."""
    path = Path(results_dir) / "manifest.json"
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {"_error": f"{path.name} could not be read"}
    return data if isinstance(data, dict) else {}


def load_trajectory(results_dir: Path | str, episode_id: str) -> dict | None:
    """``trajectories/<episode_id>.json`` or None."""
    path = Path(results_dir) / "trajectories" / f"{episode_id}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


# ----------------------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------------------


def _nan(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def fmt_pct(x: Any, digits: int = 1) -> str:
    """0.6667 -> "66.7%"."""
    return DASH if _nan(x) else f"{100 * float(x):.{digits}f}%"


def fmt_ci(lo: Any, hi: Any) -> str:
    """A percentage interval without the % signs: "[33.3, 100.0]"."""
    return DASH if _nan(lo) or _nan(hi) else f"[{100 * float(lo):.1f}, {100 * float(hi):.1f}]"


def fmt_rate_ci(rate: Any, lo: Any, hi: Any) -> str:
    return fmt_pct(rate) if _nan(lo) else f"{fmt_pct(rate)} {fmt_ci(lo, hi)}"


def fmt_num(x: Any, digits: int = 2) -> str:
    return DASH if _nan(x) else f"{float(x):.{digits}f}"


def fmt_std(x: Any) -> str:
    """Deviations of 0/1 rewards: three decimals."""
    return fmt_num(x, 3)


def fmt_ratio(x: Any) -> str:
    if _nan(x):
        return DASH
    return "∞" if math.isinf(float(x)) else f"{float(x):.2f}×"


def fmt_seconds(x: Any) -> str:
    return DASH if _nan(x) else f"{float(x):.1f} s"


def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: Sequence[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table (``|`` in cells escaped)."""
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    marks = {"l": ":---", "r": "---:", "c": ":---:"}

    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(cell(h) for h in headers) + " |", "| " + " | ".join(marks[a] for a in align) + " |"]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(out)


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: Sequence[str] | None = None) -> str:
    """A plain-text table with aligned columns, for a terminal."""
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    cells = [[str(h) for h in headers]] + [[str(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(
            v.ljust(w) if a == "l" else v.rjust(w) for v, w, a in zip(r, widths, align, strict=True)
        ).rstrip()

    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


# ----------------------------------------------------------------------------------------
# Analysis: every frame the report shows, computed once
# ----------------------------------------------------------------------------------------


@dataclass
class Analysis:
    df: pd.DataFrame
    manifest: dict
    agents: list[str]
    variations: list[str]
    version: list[str]
    axes: list[str]
    headline: pd.DataFrame
    per_variation: pd.DataFrame
    fluctuation: pd.DataFrame
    loops: pd.DataFrame
    invalid: pd.DataFrame
    breakdown: pd.DataFrame
    pass_k: pd.DataFrame
    per_task: pd.DataFrame
    task_variation: pd.DataFrame
    agent_versions: pd.DataFrame
    errors: pd.DataFrame
    error_messages: pd.DataFrame
    notes: list[str] = field(default_factory=list)

    @property
    def valid(self) -> pd.DataFrame:
        return m.valid_episodes(self.df)


def distinguish_agent_configs(df: pd.DataFrame) -> pd.DataFrame:
    """When one agent name ran with several configs, name each pair ``agent (config)``."""
    if "agent_config" not in df.columns or df.empty:
        return df
    cfg = df["agent_config"].map(lambda v: "default" if m._missing(v) else str(v))
    several = cfg.groupby(df["agent"]).nunique()
    several = set(several[several > 1].index)
    if not several:
        return df
    out = df.copy()
    out["agent"] = [f"{a} ({c})" if a in several else a for a, c in zip(df["agent"], cfg, strict=True)]
    return out


def analyse(
    df: pd.DataFrame, manifest: dict | None = None, axes: Iterable[str] | None = None, n_boot: int = 2000, seed: int = 0
) -> Analysis:
    """Compute every table of the report from a results table."""
    manifest = manifest or {}
    notes = list(df.attrs.get("notes", []))
    df = distinguish_agent_configs(df)
    p = m.prepare(df)
    v = m.valid_episodes(p)
    axes = list(axes or [])
    for a in manifest.get("axes", []) or []:
        if a not in ("agent", "task", "seed") and a not in axes:
            axes.append(a)
    version = m.version_columns(p, axes) if len(v) else ["variation"]
    agents = sorted(v["agent"].unique().tolist(), key=m.sort_key) if len(v) else []
    variations = sorted(v["variation"].unique().tolist(), key=m.sort_key) if len(v) else []
    boot = {"n_boot": n_boot, "seed": seed}
    notes += integrity_notes(p)
    return Analysis(
        df=p,
        manifest=manifest,
        agents=agents,
        variations=variations,
        version=version,
        axes=[a for a in m.varied_axes(p, axes)] if len(v) else [],
        headline=m.reliability_summary(p, ["agent"], version, **boot),
        per_variation=m.reliability_summary(p, ["agent", "variation"], version, **boot),
        fluctuation=m.fluctuation(p, ["agent", "task"], version),
        loops=m.loop_rates(p, ["agent", "variation"]),
        invalid=m.invalid_rates(p, ["agent", "variation"]),
        breakdown=m.axis_breakdown(p, axes, ["agent"], **boot),
        pass_k=m.pass_k_summary(p, ["agent"], ["agent", "task", *version]),
        per_task=m.success_rate(p, ["agent", "task"]),
        task_variation=m.success_rate(p, ["agent", "task", "variation"]),
        agent_versions=m.version_success(p, ["agent"], version),
        errors=m.error_summary(p, ["agent"]),
        error_messages=m.error_messages(p),
        notes=notes,
    )


def integrity_notes(p: pd.DataFrame) -> list[str]:
    """Warnings and definitions the reader needs before any number: infrastructure errors that
    are not 0 (per agent), and what *Within std* is taken over (trials or seeds)."""
    notes = []
    errs = m.error_summary(p, ["agent"])
    bad = errs[errs["errors"] > 0]
    if len(bad):
        per = "; ".join(
            f"{r['agent']}: {int(r['errors'])} of {int(r['episodes'])} ({fmt_pct(r['error_rate'])})"
            for _, r in bad.iterrows()
        )
        notes.append(
            f"Warning: the infrastructure-error rate is not 0 ({per}). Those episodes (a dead browser or app "
            "server that no agent action caused) are left out of every number; check the machine and re-run "
            "them with --resume."
        )
    if m.has_trials(p):
        notes.append(
            "Within std and MAD are taken over the repeated trials of one instance (same goal text, one "
            "agent seed per trial), averaged over instances, versions and tasks: the paper's definition."
        )
    elif len(m.valid_episodes(p)):
        notes.append(
            "Within std and MAD are taken over the seeds of one version (each seed a different instance and "
            "phrasing), not over repeated trials of one instance; run the sweep with trials: k for that."
        )
    return notes


class Rows:
    """Rows of a frame found by the values of some columns (a dict built once)."""

    def __init__(self, frame: pd.DataFrame, *cols: str):
        self.cols = cols
        self.index: dict[tuple, dict] = {}
        for rec in frame.to_dict("records"):
            self.index.setdefault(tuple(m.axis_label(rec[c]) for c in cols), rec)

    def get(self, *values: Any) -> dict | None:
        return self.index.get(tuple(m.axis_label(v) for v in values))


# ----------------------------------------------------------------------------------------
# Headline table (terminal and markdown share the cells)
# ----------------------------------------------------------------------------------------

HEADLINE_HEADERS = [
    "Agent",
    "Episodes",
    "Success [95% CI]",
    "Within std",
    "Across std",
    "Across/within",
    "Loops/ep",
    "Invalid/ep",
    "Intent misund.",
    "Mean steps",
    "Infra errors",
]


def headline_rows(summary: pd.DataFrame) -> list[list[str]]:
    """The cells of the headline table from :func:`metrics.reliability_summary` by agent."""
    rows = []
    for _, r in summary.iterrows():
        rows.append(
            [
                str(r["agent"]),
                str(int(r["n"])),
                fmt_rate_ci(r["success_rate"], r.get("ci_low"), r.get("ci_high")),
                fmt_std(r["within_std"]),
                fmt_std(r["across_std"]),
                fmt_ratio(r["std_ratio"]),
                fmt_num(r["loops_per_episode"]),
                fmt_num(r["invalid_per_episode"]),
                fmt_pct(r["intent_rate"]),
                fmt_num(r["mean_steps"], 1),
                str(int(r["errors"])),
            ]
        )
    return rows


def headline_table(df: pd.DataFrame, n_boot: int = 2000, seed: int = 0) -> str:
    """The per-agent headline as a plain-text table for the terminal."""
    df = distinguish_agent_configs(df)
    p = m.prepare(df)
    if m.valid_episodes(p).empty:
        n_err = int(p["is_error"].sum())
        return f"no scored episodes ({n_err} infrastructure error(s))"
    version = m.version_columns(p)
    summary = m.reliability_summary(p, ["agent"], version, n_boot=n_boot, seed=seed)
    # Agents whose every episode errored have no summary row; list them too.
    errs = m.error_summary(p)
    rows = headline_rows(summary)
    for _, e in errs.iterrows():
        if e["agent"] not in set(summary["agent"]):
            rows.append([str(e["agent"]), "0"] + [DASH] * 8 + [str(int(e["errors"]))])
    return text_table(HEADLINE_HEADERS, rows)


# ----------------------------------------------------------------------------------------
# Markdown
# ----------------------------------------------------------------------------------------

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
    "**Loops/ep**: runs of the same action block repeated at least three times in a row, per episode. "
    "**Invalid/ep**: actions that were malformed, unknown, had bad arguments, or were rejected by the "
    "browser, per episode. **Intent misund.**: share of episodes that opened an app the task does not need.",
    "Infrastructure errors (crashed browser or server) are excluded from every number and counted apart.",
]


def _manifest_facts(manifest: dict, df: pd.DataFrame) -> list[tuple[str, str]]:
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
        parts = []
        for a in agents:
            if isinstance(a, dict):
                label = a.get("label") or a.get("name")
                cfg = a.get("config")
                cfg_text = json.dumps(cfg, sort_keys=True, default=str) if isinstance(cfg, (dict, list)) else cfg
                parts.append(
                    f"{label}"
                    + (f" ({a.get('name')})" if a.get("label") else "")
                    + (f": {cfg_text}" if cfg_text else "")
                )
            else:
                parts.append(str(a))
        add("Agents", "; ".join(parts))
    browser = manifest.get("browser")
    if browser and manifest.get("browser_binary"):
        browser = f"{browser} ({manifest['browser_binary']})"
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
    shown = {
        "package",
        "version",
        "git_commit",
        "spec",
        "spec_source",
        "spec_hash",
        "seeds",
        "agents",
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
    for k in sorted(manifest):
        if k not in shown and not isinstance(manifest[k], (dict, list)):
            add(k.replace("_", " ").capitalize(), manifest[k])
    return facts


def _per_variation_rows(a: Analysis) -> list[list[str]]:
    rows = []
    for _, r in a.per_variation.iterrows():
        rows.append(
            [
                str(r["agent"]),
                str(r["variation"]),
                str(int(r["n"])),
                fmt_rate_ci(r["success_rate"], r["ci_low"], r["ci_high"]),
                fmt_std(r["within_std"]),
                fmt_std(r["within_mad"]),
                fmt_num(r["loops_per_episode"]),
                fmt_num(r["invalid_per_episode"]),
                fmt_pct(r["intent_rate"]),
                fmt_num(r["mean_steps"], 1),
            ]
        )
    return rows


PER_VARIATION_HEADERS = [
    "Agent",
    "Variation",
    "Episodes",
    "Success [95% CI]",
    "Within std",
    "Within MAD",
    "Loops/ep",
    "Invalid/ep",
    "Intent misund.",
    "Mean steps",
]


def _fluctuation_rows(a: Analysis, top: int) -> tuple[list[list[str]], str]:
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
    rows = [
        [
            str(r["agent"]),
            str(r["task"]),
            f"{fmt_pct(r['max_success'], 0)} ({r['best_version']})",
            f"{fmt_pct(r['min_success'], 0)} ({r['worst_version']})",
            fmt_pct(r["fluctuation"], 0),
        ]
        for _, r in f.iterrows()
    ]
    return rows, note


FLUCTUATION_HEADERS = ["Agent", "Task", "Best version", "Worst version", "Fluctuation"]


def _behaviour_rows(a: Analysis) -> tuple[list[str], list[list[str]]]:
    cats = [c for c in m.invalid_categories(a.df)]
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


def _matrix(
    frame: pd.DataFrame, row_col: str, agents: list[str], value: str = "success_rate"
) -> tuple[list[str], list[list[str]]]:
    """Rows: values of ``row_col``; columns: agents; cells: "rate (n=N)"."""
    keys = sorted(frame[row_col].unique().tolist(), key=m.sort_key) if len(frame) else []
    lookup = Rows(frame, row_col, "agent")
    rows = []
    for k in keys:
        row = [str(k)]
        for ag in agents:
            r = lookup.get(k, ag)
            row.append(DASH if r is None else f"{fmt_pct(r[value])} (n={int(r['n'])})")
        rows.append(row)
    return [row_col.capitalize()] + agents, rows


def _axis_matrix(a: Analysis, axis: str) -> tuple[list[str], list[list[str]]]:
    b = a.breakdown[a.breakdown["axis"] == axis]
    values = list(dict.fromkeys(b["value"].tolist()))
    lookup = Rows(b, "value", "agent")
    rows = []
    for val in values:
        row = [val]
        for ag in a.agents:
            r = lookup.get(val, ag)
            row.append(
                DASH if r is None else f"{fmt_rate_ci(r['success_rate'], r['ci_low'], r['ci_high'])} (n={int(r['n'])})"
            )
        rows.append(row)
    return [axis.replace("_", " ").capitalize()] + a.agents, rows


def _pass_k_matrix(a: Analysis) -> tuple[list[str], list[list[str]]]:
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


def _range_sentences(a: Analysis) -> list[str]:
    """Per agent: the best and worst version by average task success (the paper's Figure 4)."""
    out = []
    vs = a.agent_versions
    for ag in a.agents:
        g = vs[vs["agent"] == ag]
        if len(g) < 2:
            continue
        hi, lo = g.loc[g["success_rate"].idxmax()], g.loc[g["success_rate"].idxmin()]
        name = lambda r: m.version_label([r[c] for c in a.version])  # noqa: E731
        if hi["success_rate"] == lo["success_rate"]:
            out.append(f"{ag}: average task success is {fmt_pct(hi['success_rate'])} in each of its {len(g)} versions.")
            continue
        out.append(
            f"{ag}: average task success ranges from {fmt_pct(lo['success_rate'])} ({name(lo)}) "
            f"to {fmt_pct(hi['success_rate'])} ({name(hi)}) across {len(g)} versions."
        )
    return out


def _title(a: Analysis) -> str:
    spec = a.manifest.get("spec") if isinstance(a.manifest.get("spec"), dict) else {}
    name = spec.get("name") or ""
    return f"Reliability report{': ' + str(name) if name else ''}"


def _overview(a: Analysis) -> list[tuple[str, str]]:
    v = a.valid
    total = len(a.df)
    return [
        ("Agents", str(len(a.agents))),
        ("Tasks", str(v["task"].nunique() if len(v) else 0)),
        ("Variations", str(len(a.variations))),
        ("Seeds", str(v["seed"].nunique() if "seed" in v.columns and len(v) else DASH)),
        ("Scored episodes", str(len(v))),
        ("Infrastructure errors", f"{total - len(v)}"),
    ]


def render_markdown(a: Analysis, top: int = 15) -> str:
    out = [f"# {_title(a)}", ""]
    out.append(" · ".join(f"{k}: **{v}**" for k, v in _overview(a)))
    out.append("")
    for note in a.notes:
        out += [f"> Note: {note}", ""]
    out += ["## How to read this", ""] + [f"- {t}" for t in HOW_TO_READ] + [""]
    if len(a.version) > 1:
        out += [
            f"A *version* here is one combination of {', '.join(a.version)} (every axis that varied), so the "
            "episodes of one version differ only by seed.",
            "",
        ]
    if a.valid.empty:
        out += ["No scored episodes: every recorded episode is an infrastructure error (see below).", ""]
    else:
        out += ["## Headline", "", md_table(HEADLINE_HEADERS, headline_rows(a.headline)), ""]
        sentences = _range_sentences(a)
        if sentences:
            out += [f"- {s}" for s in sentences] + [""]
        out += [
            "## Per variation",
            "",
            md_table(PER_VARIATION_HEADERS, _per_variation_rows(a), ["l", "l"] + ["r"] * 8),
            "",
        ]
        fl, fl_note = _fluctuation_rows(a, top)
        out += ["## Largest fluctuations across versions", ""]
        if fl:
            out += [md_table(FLUCTUATION_HEADERS, fl, ["l", "l", "l", "l", "r"]), ""]
        if fl_note:
            out += [fl_note, ""]
        h, rows = _behaviour_rows(a)
        out += [
            "## Loops and invalid actions by variation",
            "",
            md_table(h, rows, ["l", "l"] + ["r"] * (len(h) - 2)),
            "",
        ]
        out += ["## Breakdown by varied axis", ""]
        others = [ax for ax in a.axes if ax != "variation"]
        if not others:
            out += ["No axis other than the variation varied (see the per-variation table).", ""]
        for ax in others:
            h, rows = _axis_matrix(a, ax)
            out += [f"### {ax.replace('_', ' ').capitalize()}", "", md_table(h, rows), ""]
        h, rows = _pass_k_matrix(a)
        if rows:
            out += [
                "## pass^k and pass@k over seeds",
                "",
                "pass^k: chance that k episodes of the same task and version (different seeds) all succeed; "
                "pass@k: that at least one does (unbiased estimators, averaged over tasks and versions).",
                "",
                md_table(h, rows),
                "",
            ]
        h, rows = _matrix(a.per_task, "task", a.agents)
        out += ["## Success per task (all versions)", "", md_table(h, rows, ["l"] + ["r"] * len(a.agents)), ""]
    out += ["## Infrastructure errors", ""]
    n_err = int(a.df["is_error"].sum())
    if n_err == 0:
        out += ["None.", ""]
    else:
        rows = [
            [str(r["agent"]), str(int(r["episodes"])), str(int(r["errors"])), fmt_pct(r["error_rate"])]
            for _, r in a.errors.iterrows()
        ]
        out += [md_table(["Agent", "Episodes", "Errors", "Error rate"], rows), ""]
        rows = [[r["message"], str(int(r["count"])), r["agents"]] for _, r in a.error_messages.iterrows()]
        out += [md_table(["Message", "Count", "Agents"], rows, ["l", "r", "l"]), ""]
    out += ["## Run manifest", ""]
    if a.manifest:
        out += [md_table(["Field", "Value"], _manifest_facts(a.manifest, a.df), ["l", "l"]), ""]
        out += ["```json", json.dumps(a.manifest, indent=2, sort_keys=True, default=str, ensure_ascii=False), "```", ""]
    else:
        out += ["No manifest.json in this folder: the run cannot be reproduced from this report alone.", ""]
    return "\n".join(out).rstrip() + "\n"


# ----------------------------------------------------------------------------------------
# SVG charts
# ----------------------------------------------------------------------------------------


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _nice_ticks(vmax: float, count: int = 5) -> list[float]:
    if vmax <= 0 or _nan(vmax):
        return [0.0, 1.0]
    raw = vmax / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw)
    n = math.ceil(vmax / step - 1e-9)
    return [round(i * step, 10) for i in range(n + 1)]


def _text_width(s: str, size: float = 12) -> float:
    return 0.58 * size * len(s)


def svg_grouped_bars(
    categories: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[float]]],
    y_label: str,
    x_label: str = "",
    percent: bool = True,
    y_max: float | None = None,
    errors: Sequence[Sequence[tuple[float, float] | None]] | None = None,
    counts: Sequence[Sequence[int | None]] | None = None,
    value_labels: bool | None = None,
    aria: str = "",
) -> str:
    """A grouped bar chart: one group per category, one bar per series (name, colour, values).

    ``errors[s][c]`` draws an interval whisker, ``counts[s][c]`` goes into the hover title.
    """
    n_cat, n_ser = max(1, len(categories)), max(1, len(series))
    # Bars fill about 760 px when there are few groups; never thinner than 9 px or wider than 30.
    bar_w = max(9.0, min(30.0, (760.0 / n_cat - 18) / n_ser))
    group_w = n_ser * bar_w + 18
    label_w = max((_text_width(c) for c in categories), default=0)
    if label_w + 10 > group_w and n_cat * (label_w + 10) <= 900:
        group_w = label_w + 10  # widen the groups rather than tilt short labels
    rotate = label_w + 4 > group_w
    vals = [v for _, _, vs in series for v in vs if not _nan(v)]
    if errors:
        vals += [e[1] for es in errors for e in es if e and not _nan(e[1])]
    top = y_max if y_max is not None else (1.0 if percent else max(vals, default=1.0) or 1.0)
    ticks = [0, 0.25, 0.5, 0.75, 1.0] if percent and top == 1.0 else _nice_ticks(top)
    top = ticks[-1]
    left, right, head = 62, 14, 46
    bottom = 12 + (label_w * 0.5 + 14 if rotate else 14) + (22 if x_label else 0)
    plot_h = 230
    legend_w = left + sum(35 + _text_width(name) for name, _, _ in series)
    width = max(left + n_cat * group_w + right, legend_w, 420)
    group_w = (width - left - right) / n_cat  # spread the groups over the whole plot
    height = head + plot_h + bottom
    y = lambda v: head + plot_h - plot_h * (max(0.0, min(float(v), top)) / top)  # noqa: E731
    parts = [
        f'<svg class="chart" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'role="img" aria-label="{_e(aria or y_label)}" style="max-width:100%;height:auto">'
    ]
    # Legend.
    lx = left
    for name, colour, _ in series:
        parts.append(f'<rect x="{lx}" y="8" width="12" height="12" rx="2" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 17}" y="18" class="legend">{_e(name)}</text>')
        lx += 17 + _text_width(name) + 18
    # Grid and y axis.
    for t in ticks:
        ty = y(t)
        label = f"{100 * t:.0f}%" if percent else (f"{t:g}")
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" class="tick" text-anchor="end">{label}</text>')
    parts.append(
        f'<text transform="translate(15,{head + plot_h / 2:.0f}) rotate(-90)" class="axis" text-anchor="middle">{_e(y_label)}</text>'
    )
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="base"/>')
    show_values = value_labels if value_labels is not None else n_cat * n_ser <= 16
    for ci, cat in enumerate(categories):
        gx = left + ci * group_w + (group_w - n_ser * bar_w) / 2
        for si, (name, colour, values) in enumerate(series):
            val = values[ci] if ci < len(values) else float("nan")
            bx = gx + si * bar_w
            if _nan(val):
                parts.append(
                    f'<text x="{bx + bar_w / 2:.1f}" y="{y(0) - 4:.1f}" class="na" text-anchor="middle">–</text>'
                )
                continue
            by = y(val)
            n = counts[si][ci] if counts and si < len(counts) and ci < len(counts[si]) else None
            shown = f"{100 * val:.1f}%" if percent else f"{val:.3g}"
            title = f"{name} · {cat}: {shown}" + (f" (n={n})" if n is not None else "")
            err = errors[si][ci] if errors and si < len(errors) and ci < len(errors[si]) else None
            if err and not _nan(err[0]):
                title += (
                    f", 95% CI {100 * err[0]:.1f}–{100 * err[1]:.1f}%"
                    if percent
                    else f", interval {err[0]:.3g}–{err[1]:.3g}"
                )
            parts.append(
                f'<rect x="{bx + 1:.1f}" y="{by:.1f}" width="{bar_w - 2:.1f}" height="{max(0.0, y(0) - by):.1f}" '
                f'fill="{colour}"><title>{_e(title)}</title></rect>'
            )
            if err and not _nan(err[0]) and err[1] > err[0]:
                cx = bx + bar_w / 2
                y1, y2 = y(err[0]), y(err[1])
                parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y1:.1f}" y2="{y2:.1f}" class="whisker"/>')
                for yy in (y1, y2):
                    parts.append(
                        f'<line x1="{cx - 3:.1f}" x2="{cx + 3:.1f}" y1="{yy:.1f}" y2="{yy:.1f}" class="whisker"/>'
                    )
            if show_values:
                ly = (min(by, y(err[1])) if err and not _nan(err[1]) else by) - 4
                label = f"{100 * val:.0f}%" if percent else f"{val:.2f}"
                parts.append(
                    f'<text x="{bx + bar_w / 2:.1f}" y="{ly:.1f}" class="value" text-anchor="middle">{label}</text>'
                )
        cx = gx + (n_ser * bar_w) / 2
        ly = head + plot_h + 16
        if rotate:
            parts.append(
                f'<text transform="translate({cx:.1f},{ly - 4:.1f}) rotate(-35)" class="cat" text-anchor="end">{_e(cat)}</text>'
            )
        else:
            parts.append(f'<text x="{cx:.1f}" y="{ly:.1f}" class="cat" text-anchor="middle">{_e(cat)}</text>')
    if x_label:
        parts.append(
            f'<text x="{left + (width - left - right) / 2:.0f}" y="{height - 6:.0f}" class="axis" text-anchor="middle">{_e(x_label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def svg_pass_k(pass_k: pd.DataFrame, agents: Sequence[str], colours: dict[str, str]) -> str:
    """pass^k (solid) and pass@k (dashed) against k, one colour per agent."""
    k_max = int(pass_k["k"].max())
    legend_w = 62 + sum(35 + _text_width(ag) for ag in agents) + 170
    left, right, head, bottom, plot_h = 62, 16, 34, 46, 220
    plot_w = max(300, 110 * (k_max - 1), legend_w - left)
    width, height = left + plot_w + right, head + plot_h + bottom
    x = lambda k: left + (plot_w * (k - 1) / (k_max - 1) if k_max > 1 else plot_w / 2)  # noqa: E731
    y = lambda v: head + plot_h - plot_h * float(v)  # noqa: E731
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="pass^k and pass@k against k" style="max-width:100%;height:auto">'
    ]
    lx = left
    for ag in agents:
        parts.append(f'<line x1="{lx}" x2="{lx + 14}" y1="14" y2="14" stroke="{colours[ag]}" stroke-width="3"/>')
        parts.append(f'<text x="{lx + 19}" y="18" class="legend">{_e(ag)}</text>')
        lx += 19 + _text_width(ag) + 16
    parts.append(
        f'<line x1="{lx}" x2="{lx + 18}" y1="14" y2="14" class="key"/><text x="{lx + 22}" y="18" class="legend">pass^k</text>'
    )
    lx += 22 + _text_width("pass^k") + 14
    parts.append(
        f'<line x1="{lx}" x2="{lx + 18}" y1="14" y2="14" class="key" stroke-dasharray="4 3"/>'
        f'<text x="{lx + 22}" y="18" class="legend">pass@k</text>'
    )
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" class="tick" text-anchor="end">{100 * t:.0f}%</text>')
    for k in range(1, k_max + 1):
        parts.append(f'<text x="{x(k):.1f}" y="{head + plot_h + 18}" class="tick" text-anchor="middle">{k}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">k (episodes of the same task and version)</text>'
    )
    parts.append(
        f'<text transform="translate(15,{head + plot_h / 2:.0f}) rotate(-90)" class="axis" text-anchor="middle">probability</text>'
    )
    for ag in agents:
        g = pass_k[pass_k["agent"] == ag].sort_values("k")
        for col, dash in (("pass_hat_k", ""), ("pass_at_k", ' stroke-dasharray="5 4"')):
            pts = " ".join(f"{x(int(k)):.1f},{y(v):.1f}" for k, v in zip(g["k"], g[col], strict=True))
            parts.append(f'<polyline points="{pts}" fill="none" stroke="{colours[ag]}" stroke-width="2.2"{dash}/>')
            for k, v in zip(g["k"], g[col], strict=True):
                fill = colours[ag] if col == "pass_hat_k" else "#fff"
                label = "pass^" if col == "pass_hat_k" else "pass@"
                parts.append(
                    f'<circle cx="{x(int(k)):.1f}" cy="{y(v):.1f}" r="3.6" fill="{fill}" stroke="{colours[ag]}" stroke-width="1.8">'
                    f"<title>{_e(ag)} · {label}{int(k)} = {100 * v:.1f}%</title></circle>"
                )
    parts.append("</svg>")
    return "".join(parts)


# ----------------------------------------------------------------------------------------
# HTML
# ----------------------------------------------------------------------------------------

CSS = """
:root{--ink:#1d2430;--muted:#5b6472;--line:#d9dee5;--soft:#f4f6f9;--accent:#0072B2;--bad:#b3261e;--ok:#1b7a3d}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#fff}
main{max-width:1180px;margin:0 auto;padding:28px 32px 64px}
h1{font-size:26px;margin:0 0 6px}
h2{font-size:19px;margin:40px 0 8px;padding-top:12px;border-top:1px solid var(--line)}
h3{font-size:15px;margin:22px 0 6px}
p{margin:6px 0 10px}
.sub{color:var(--muted);margin:0 0 18px}
nav.toc{display:flex;flex-wrap:wrap;gap:6px 14px;margin:12px 0 20px;font-size:13px}
nav.toc a{color:var(--accent);text-decoration:none}
nav.toc a:hover{text-decoration:underline}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:14px 0}
.card{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:22px;font-weight:600}
.note{background:#fff8e6;border:1px solid #f0d9a0;border-radius:8px;padding:10px 14px;margin:12px 0}
.howto{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:4px 16px;margin:12px 0}
.howto li{margin:5px 0}
figure{margin:14px 0 22px}
figcaption{color:var(--muted);font-size:13px;margin-top:4px;max-width:900px}
.chart{display:block;font-family:inherit}
.chart .grid{stroke:#e6e9ee;stroke-width:1}
.chart .base{stroke:#5b6472;stroke-width:1}
.chart .tick{font-size:11px;fill:#5b6472}
.chart .cat{font-size:12px;fill:#1d2430}
.chart .axis{font-size:12px;fill:#1d2430;font-weight:600}
.chart .legend{font-size:12px;fill:#1d2430}
.chart .value{font-size:10.5px;fill:#1d2430}
.chart .na{font-size:12px;fill:#8a93a0}
.chart .whisker{stroke:#1d2430;stroke-width:1.3}
.chart .key{stroke:#1d2430;stroke-width:2}
.charts2{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:8px 24px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;margin:8px 0 18px;font-size:13px;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--line);padding:5px 9px;text-align:right;white-space:nowrap}
th{background:var(--soft);font-weight:600;white-space:normal;vertical-align:bottom;min-width:54px}
td.l.wrap{white-space:normal;min-width:180px}
th:first-child,td:first-child,td.l,th.l{text-align:left}
tbody tr:hover td{background:#f9fafc}
td.heat{text-align:center;min-width:64px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:-1px}
.kv td{white-space:normal;text-align:left;vertical-align:top}
.kv td:first-child{color:var(--muted);width:160px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:10px;overflow:auto;font-size:12px;max-height:420px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
details{border:1px solid var(--line);border-radius:8px;margin:8px 0;background:#fff}
details>summary{cursor:pointer;padding:8px 12px;list-style-position:inside}
details[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details .body{padding:10px 14px}
.badge{display:inline-block;font-size:11px;font-weight:600;border-radius:10px;padding:1px 8px;margin-left:6px;vertical-align:1px}
.b-ok{background:#e3f4e8;color:var(--ok)}
.b-bad{background:#fbe4e2;color:var(--bad)}
.b-warn{background:#fff1d6;color:#8a5a00}
.b-info{background:#e4eef8;color:#1f4f7a}
.meta{color:var(--muted);font-size:13px}
.steps{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px;margin-top:10px}
.step{border:1px solid var(--line);border-radius:8px;overflow:hidden;background:#fff}
.step.invalid{border-color:#e8b4ae}
.step.loop{box-shadow:inset 4px 0 0 #E69F00}
.step img{display:block;width:100%;height:auto;border-bottom:1px solid var(--line);background:var(--soft)}
.zoom{display:block;cursor:zoom-in}
.zoom input{position:absolute;opacity:0;pointer-events:none}
.zoom input:checked+img{position:fixed;z-index:20;top:50%;left:50%;transform:translate(-50%,-50%);width:auto;height:auto;max-width:96vw;max-height:94vh;border:0;box-shadow:0 0 0 100vmax rgba(20,24,32,.72);cursor:zoom-out}
.step .txt{padding:7px 10px;font-size:12.5px}
.step .err{color:var(--bad);white-space:pre-wrap;word-break:break-word}
.step .url{color:var(--muted);word-break:break-all}
.noshot{padding:18px 10px;color:var(--muted);font-size:12px;text-align:center;background:var(--soft);border-bottom:1px solid var(--line)}
@media print{h2{break-before:auto}details{break-inside:avoid}nav.toc{display:none}}
"""


def _html_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    align: Sequence[str] | None = None,
    raw: bool = False,
    cls: str = "",
) -> str:
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    head = "".join(f'<th class="{a}">{_e(h)}</th>' for h, a in zip(headers, align, strict=True))
    body = []
    for row in rows:
        cells = "".join(f'<td class="{a}">{v if raw else _e(v)}</td>' for v, a in zip(row, align, strict=True))
        body.append(f"<tr>{cells}</tr>")
    return f'<div class="scroll"><table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _heat_colour(v: float) -> tuple[str, str]:
    """Background and text colour for a rate in [0, 1] (white to deep blue)."""
    lo, hi = (247, 251, 255), (8, 69, 148)
    t = max(0.0, min(1.0, float(v)))
    rgb = tuple(round(a + (b - a) * t) for a, b in zip(lo, hi, strict=True))
    return f"rgb({rgb[0]},{rgb[1]},{rgb[2]})", ("#fff" if t > 0.55 else "#1d2430")


def _heat_cell(rate: Any, n: Any, extra: str = "") -> str:
    if _nan(rate):
        return f'<td class="heat">{DASH}</td>'
    bg, fg = _heat_colour(rate)
    title = f"{fmt_pct(rate)} of {int(n)} episodes{extra}"
    return f'<td class="heat" style="background:{bg};color:{fg}" title="{_e(title)}">{100 * float(rate):.0f}%</td>'


def _agent_colours(agents: Sequence[str]) -> dict[str, str]:
    return {a: AGENT_COLOURS[i % len(AGENT_COLOURS)] for i, a in enumerate(agents)}


def _legend_name(agent: str, colours: dict[str, str]) -> str:
    return f'<span class="swatch" style="background:{colours[agent]}"></span>{_e(agent)}'


# -- trajectories ----------------------------------------------------------------------------


@dataclass
class _Budget:
    remaining: int


def _embed_image(results_dir: Path, rel: Any, width: int, budget: _Budget) -> tuple[str | None, str]:
    """A data URI for a screenshot (downscaled JPEG), or (None, reason)."""
    if not rel:
        return None, ""
    root = results_dir.resolve()
    cands = [results_dir / str(rel), results_dir / "screenshots" / str(rel)]
    path = next((c for c in cands if c.is_file() and c.resolve().is_relative_to(root)), None)
    if path is None:
        return None, "screenshot file missing"
    if budget.remaining <= 0:
        return None, "screenshot left out (report size budget reached)"
    try:
        from PIL import Image

        with Image.open(path) as im:
            im = im.convert("RGB")
            if im.width > width:
                im = im.resize((width, max(1, round(im.height * width / im.width))), Image.LANCZOS)
            buf = io.BytesIO()
            im.save(buf, "JPEG", quality=78, optimize=True)
    except Exception as e:  # noqa: BLE001 - an unreadable image must not stop the report
        return None, f"screenshot unreadable ({type(e).__name__})"
    data = buf.getvalue()
    budget.remaining -= len(data)
    return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii"), ""


def _zoomable(uri: str, alt: str) -> str:
    """An image that opens enlarged over the page when clicked, and closes on a second click
    (a hidden checkbox and CSS: no script)."""
    return f'<label class="zoom" title="click to enlarge"><input type="checkbox"><img loading="lazy" src="{uri}" alt="{_e(alt)}"></label>'


def _url_path(url: Any) -> str:
    """Show a page URL without scheme and host: ``/todo?tab=done``."""
    text = str(url or "")
    if "://" in text:
        rest = text.split("://", 1)[1]
        text = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return text


def select_episodes(valid: pd.DataFrame, results_dir: Path, limit: int) -> list[dict]:
    """Up to ``limit`` episodes that have a trajectory file, as row dicts.

    Failures first, spread over agents and variations (round robin), then successes.
    Without an ``episode_id`` column, trajectory files are taken in name order.
    """
    tdir = results_dir / "trajectories"
    if limit <= 0 or not tdir.is_dir():
        return []
    if "episode_id" not in valid.columns:
        files = sorted(tdir.glob("*.json"))[:limit]
        return [{"episode_id": f.stem} for f in files]
    mask = [(tdir / f"{e}.json").is_file() for e in valid["episode_id"].astype(str)]
    have = valid.loc[pd.Series(mask, index=valid.index, dtype=bool)]
    if have.empty:
        return []
    queues: dict[tuple, list[dict]] = {}
    order_cols = [c for c in ("agent", "variation", "task", "seed") if c in have.columns]
    recs = sorted(have.to_dict("records"), key=lambda r: tuple(m.sort_key(r[c]) for c in order_cols))
    for outcome in (False, True):
        for r in recs:
            if bool(r["success"]) == outcome:
                queues.setdefault((outcome, str(r["agent"]), str(r["variation"])), []).append(r)
    picked: list[dict] = []
    for outcome in (False, True):
        keys = [k for k in queues if k[0] == outcome]
        keys.sort(key=lambda k: (m.sort_key(k[2]), m.sort_key(k[1])))
        for j, k in enumerate(keys):
            queues[k] = _interleave_tasks(queues[k], start=j)
        while len(picked) < limit and any(queues[k] for k in keys):
            for k in keys:
                if queues[k] and len(picked) < limit:
                    picked.append(queues[k].pop(0))
    return picked


def _interleave_tasks(recs: list[dict], start: int = 0) -> list[dict]:
    """Reorder so consecutive picks come from different tasks, beginning at task ``start``."""
    by_task: dict[str, list[dict]] = {}
    for r in recs:
        by_task.setdefault(str(r.get("task")), []).append(r)
    tasks = list(by_task)
    if not tasks:
        return []
    shift = start % len(tasks)
    tasks = tasks[shift:] + tasks[:shift]
    out: list[dict] = []
    while any(by_task[t] for t in tasks):
        for t in tasks:
            if by_task[t]:
                out.append(by_task[t].pop(0))
    return out


def _trajectory_html(results_dir: Path, row: dict, traj: dict, width: int, budget: _Budget) -> str:
    agent = row.get("agent", traj.get("agent", "?"))
    task = row.get("task", traj.get("task", "?"))
    variation = row.get("variation", traj.get("variation", "?"))
    seed = row.get("seed", traj.get("seed", "?"))
    success = row.get("success")
    if success is None:
        success = float(traj.get("reward", 0) or 0) >= 1
    steps = traj.get("steps") or []
    actions = [str(s.get("action", "")) for s in steps]
    loops = m.find_loops(actions)
    in_loop = {i for start, period, reps in loops for i in range(start, start + period * reps)}
    n_invalid = sum(
        1
        for s in steps
        if s.get("category") not in (None, "", "valid") or (s.get("error") and s.get("category") is None)
    )
    badge = '<span class="badge b-ok">success</span>' if success else '<span class="badge b-bad">failure</span>'
    extras = []
    if loops:
        extras.append(f'<span class="badge b-warn">{len(loops)} loop{"s" if len(loops) != 1 else ""}</span>')
    if n_invalid:
        extras.append(f'<span class="badge b-warn">{n_invalid} invalid</span>')
    if row.get("intent_misunderstanding"):
        extras.append('<span class="badge b-info">opened an unneeded app</span>')
    summary = (
        f"{badge} <b>{_e(agent)}</b> · {_e(task)} · {_e(variation)} · seed {_e(seed)} "
        f'<span class="meta">— {len(steps)} step{"s" if len(steps) != 1 else ""}</span>{"".join(extras)}'
    )
    goal = traj.get("goal") or row.get("goal") or ""
    body = [f"<p><b>Goal:</b> {_e(goal)}</p>"]
    meta = []
    if row.get("reward") is not None or traj.get("reward") is not None:
        meta.append(f"reward {fmt_num(row.get('reward', traj.get('reward')), 2)}")
    if row.get("partial_reward") is not None:
        meta.append(f"partial {fmt_num(row.get('partial_reward'), 2)}")
    if row.get("apps_visited"):
        meta.append("apps visited: " + " → ".join(str(x) for x in row["apps_visited"]))
    if row.get("task_apps"):
        meta.append("task needs: " + ", ".join(str(x) for x in row["task_apps"]))
    if row.get("duration_s") is not None and not _nan(row.get("duration_s")):
        meta.append(fmt_seconds(row["duration_s"]))
    if row.get("episode_id"):
        meta.append(f"episode {row['episode_id']}")
    if meta:
        body.append(f'<p class="meta">{_e(" · ".join(meta))}</p>')
    if traj.get("explanation"):
        body.append(f"<details><summary>Why this reward</summary><pre>{_e(traj['explanation'])}</pre></details>")
    cards = []
    first = traj.get("first_screenshot")
    if first:
        uri, why = _embed_image(results_dir, first, width, budget)
        if uri:
            cards.append(
                f'<div class="step">{_zoomable(uri, "initial page")}'
                f'<div class="txt"><b>Start</b> <span class="meta">the page the agent first saw</span></div></div>'
            )
    for i, s in enumerate(steps):
        cat = s.get("category")
        err = s.get("error") or ""
        invalid = (cat not in (None, "", "valid")) or (cat is None and bool(err))
        cls = "step" + (" invalid" if invalid else "") + (" loop" if i in in_loop else "")
        shot = ""
        if s.get("screenshot"):
            uri, why = _embed_image(results_dir, s.get("screenshot"), width, budget)
            shot = _zoomable(uri, f"after step {i + 1}") if uri else f'<div class="noshot">{_e(why)}</div>'
        tags = ""
        if invalid and cat:
            tags += f'<span class="badge b-bad">{_e(str(cat).replace("_", " "))}</span>'
        if i in in_loop:
            tags += '<span class="badge b-warn">loop</span>'
        txt = [f"<b>{i + 1}.</b> <code>{_e(s.get('action', ''))}</code>{tags}"]
        if err:
            txt.append(f'<div class="err">{_e(str(err)[:600])}</div>')
        if s.get("url"):
            txt.append(f'<div class="url">{_e(_url_path(s.get("url")))}</div>')
        cards.append(f'<div class="{cls}">{shot}<div class="txt">{"".join(txt)}</div></div>')
    if cards:
        body.append(f'<div class="steps">{"".join(cards)}</div>')
    else:
        body.append('<p class="meta">No steps recorded.</p>')
    return f'<details><summary>{summary}</summary><div class="body">{"".join(body)}</div></details>'


# -- page ------------------------------------------------------------------------------------


def render_html(
    a: Analysis,
    results_dir: Path,
    top: int = 15,
    max_trajectories: int = 40,
    screenshot_width: int = 960,
    screenshot_budget_bytes: int = 16_000_000,
) -> str:
    colours = _agent_colours(a.agents)
    sec: list[tuple[str, str, str]] = []  # (anchor, title, html)
    v = a.valid

    if not v.empty:
        # Headline.
        rows = headline_rows(a.headline)
        for r in rows:
            r[0] = _legend_name(r[0], colours)
        body = _html_table(HEADLINE_HEADERS, [[r[0]] + [_e(x) for x in r[1:]] for r in rows], raw=True)
        sentences = _range_sentences(a)
        if sentences:
            body += "<ul>" + "".join(f"<li>{_e(s)}</li>" for s in sentences) + "</ul>"
        sec.append(("headline", "Headline", body))

        # Success per variation chart + table.
        sr_rows = Rows(m.success_rate(a.df, ["agent", "variation"], ci=True), "agent", "variation")
        series, errs, counts = [], [], []
        for ag in a.agents:
            vals, es, ns = [], [], []
            for var in a.variations:
                r = sr_rows.get(ag, var)
                vals.append(float("nan") if r is None else r["success_rate"])
                es.append(None if r is None else (r["ci_low"], r["ci_high"]))
                ns.append(None if r is None else int(r["n"]))
            series.append((ag, colours[ag], vals))
            errs.append(es)
            counts.append(ns)
        chart = svg_grouped_bars(
            a.variations,
            series,
            "success rate",
            "variation",
            errors=errs,
            counts=counts,
            aria="success rate per variation and agent",
        )
        body = (
            f"<figure>{chart}<figcaption>Success rate per variation and agent over all tasks and seeds. "
            "Whiskers: 95% bootstrap intervals over episodes. Hover a bar for the exact value.</figcaption></figure>"
        )
        body += _html_table(PER_VARIATION_HEADERS, _per_variation_rows(a), ["l", "l"] + ["r"] * 8)
        sec.append(("variation", "Success per variation", body))

        # Deviation chart.
        within_std = [a.headline.set_index("agent").loc[ag, "within_std"] for ag in a.agents]
        across_std = [a.headline.set_index("agent").loc[ag, "across_std"] for ag in a.agents]
        within_mad = [a.headline.set_index("agent").loc[ag, "within_mad"] for ag in a.agents]
        across_mad = [a.headline.set_index("agent").loc[ag, "across_mad"] for ag in a.agents]
        dmax = max([x for x in within_std + across_std + within_mad + across_mad if not _nan(x)] + [0.0])
        ymax = 0.5 if dmax <= 0.5 else None
        c1 = svg_grouped_bars(
            a.agents,
            [("within a version", WITHIN_COLOUR, within_std), ("across versions", ACROSS_COLOUR, across_std)],
            "std of reward",
            "agent",
            percent=False,
            y_max=ymax,
            value_labels=True,
            aria="within versus across version standard deviation",
        )
        c2 = svg_grouped_bars(
            a.agents,
            [("within a version", WITHIN_COLOUR, within_mad), ("across versions", ACROSS_COLOUR, across_mad)],
            "mean absolute deviation of reward",
            "agent",
            percent=False,
            y_max=ymax,
            value_labels=True,
            aria="within versus across version mean absolute deviation",
        )
        body = (
            f'<div class="charts2"><figure>{c1}<figcaption>Standard deviation of rewards: within one fixed version '
            "(over seeds, averaged over versions and tasks) versus across versions (all versions' rewards pooled, "
            "averaged over tasks).</figcaption></figure>"
            f"<figure>{c2}<figcaption>The same with the mean absolute deviation (the paper's Figure 10)."
            "</figcaption></figure></div>"
        )
        rows = [
            [
                _legend_name(r["agent"], colours),
                fmt_std(r["within_std"]),
                fmt_std(r["across_std"]),
                fmt_ratio(r["std_ratio"]),
                fmt_std(r["within_mad"]),
                fmt_std(r["across_mad"]),
                fmt_ratio(r["mad_ratio"]),
            ]
            for _, r in a.headline.iterrows()
        ]
        body += _html_table(
            [
                "Agent",
                "Within std",
                "Across std",
                "Across/within (std)",
                "Within MAD",
                "Across MAD",
                "Across/within (MAD)",
            ],
            [[r[0]] + [_e(x) for x in r[1:]] for r in rows],
            raw=True,
        )
        sec.append(("deviation", "Within versus across versions", body))

        # Fluctuations.
        fl, fl_note = _fluctuation_rows(a, top)
        body = (
            "<p>Tasks whose success rate differs most between the best and the worst version "
            f"(top {top}; versions with tied rates are all named).</p>"
        )
        if fl:
            body += _html_table(FLUCTUATION_HEADERS, fl, ["l", "l", "l wrap", "l wrap", "r"])
        if fl_note:
            body += f"<p>{html.escape(fl_note)}</p>"
        sec.append(("fluctuation", "Largest fluctuations", body))

        # Loops and invalid actions.
        loops_series = []
        inv_series = []
        loop_rows, inv_rows = Rows(a.loops, "agent", "variation"), Rows(a.invalid, "agent", "variation")
        for ag in a.agents:
            lv, iv = [], []
            for var in a.variations:
                lr = loop_rows.get(ag, var)
                ir = inv_rows.get(ag, var)
                lv.append(float("nan") if lr is None else lr["loops_per_episode"])
                iv.append(float("nan") if ir is None else ir["invalid_per_episode"])
            loops_series.append((ag, colours[ag], lv))
            inv_series.append((ag, colours[ag], iv))
        c1 = svg_grouped_bars(
            a.variations,
            loops_series,
            "loops per episode",
            "variation",
            percent=False,
            aria="loops per episode by variation",
        )
        c2 = svg_grouped_bars(
            a.variations,
            inv_series,
            "invalid actions per episode",
            "variation",
            percent=False,
            aria="invalid actions per episode by variation",
        )
        h, rows = _behaviour_rows(a)
        body = (
            f'<div class="{"charts2" if len(a.variations) * len(a.agents) <= 12 else "charts1"}"><figure>{c1}'
            "<figcaption>Loops per episode (runs of one action block repeated "
            f"at least {m.DEFAULT_MIN_REPEATS} times).</figcaption></figure><figure>{c2}<figcaption>Invalid actions "
            "per episode (malformed, unknown, bad arguments, rejected by the browser).</figcaption></figure></div>"
        )
        body += _html_table(h, rows, ["l", "l"] + ["r"] * (len(h) - 2))
        sec.append(("behaviour", "Loops and invalid actions by variation", body))

        # Breakdown per varied axis.
        others = [ax for ax in a.axes if ax != "variation"]
        if others:
            body = ""
            for ax in others:
                b = a.breakdown[a.breakdown["axis"] == ax]
                values = list(dict.fromkeys(b["value"].tolist()))
                b_rows = Rows(b, "value", "agent")
                series, errs, counts = [], [], []
                for ag in a.agents:
                    rs = [b_rows.get(val, ag) for val in values]
                    series.append((ag, colours[ag], [float("nan") if r is None else r["success_rate"] for r in rs]))
                    errs.append([None if r is None else (r["ci_low"], r["ci_high"]) for r in rs])
                    counts.append([None if r is None else int(r["n"]) for r in rs])
                name = ax.replace("_", " ")
                chart = svg_grouped_bars(
                    values, series, "success rate", name, errors=errs, counts=counts, aria=f"success rate per {name}"
                )
                h, rows = _axis_matrix(a, ax)
                body += (
                    f"<h3>{_e(name.capitalize())}</h3><figure>{chart}<figcaption>Success rate per {_e(name)} "
                    "(all tasks, variations and seeds).</figcaption></figure>" + _html_table(h, rows)
                )
        else:
            body = "<p>No axis other than the variation varied in this run (see the per-variation section).</p>"
        sec.append(("axes", "Breakdown by varied axis", body))

        # pass^k.
        h, rows = _pass_k_matrix(a)
        if rows and int(a.pass_k["k"].max()) >= 2:
            chart = svg_pass_k(a.pass_k, a.agents, colours)
            body = (
                f"<figure>{chart}<figcaption>pass^k (solid): the chance that k episodes of the same task and "
                "version, differing only by seed, all succeed; pass@k (dashed): that at least one does. "
                "Unbiased estimators over each task × version, averaged.</figcaption></figure>"
            )
            body += _html_table(h, rows)
            sec.append(("passk", "pass^k over seeds", body))

        # Heatmaps per agent: task x variation.
        body = "<p>Success rate of every task in every variation (all seeds). Darker is better.</p>"
        tasks = sorted(v["task"].unique().tolist(), key=m.sort_key)
        task_rows = Rows(a.per_task, "agent", "task")
        for i, ag in enumerate(a.agents):
            tv_rows = Rows(a.task_variation[a.task_variation["agent"] == ag], "task", "variation")
            head = "".join(f"<th>{_e(var)}</th>" for var in a.variations)
            trs = []
            for t in tasks:
                cells = []
                for var in a.variations:
                    r = tv_rows.get(t, var)
                    cells.append(
                        f'<td class="heat">{DASH}</td>' if r is None else _heat_cell(r["success_rate"], r["n"])
                    )
                pr = task_rows.get(ag, t)
                cells.append(_heat_cell(pr["success_rate"], pr["n"]) if pr is not None else f"<td>{DASH}</td>")
                trs.append(f'<tr><td class="l">{_e(t)}</td>{"".join(cells)}</tr>')
            table = (
                f'<div class="scroll"><table><thead><tr><th class="l">Task</th>{head}<th>all</th></tr></thead>'
                f"<tbody>{''.join(trs)}</tbody></table></div>"
            )
            body += f'<details{" open" if i == 0 else ""}><summary>{_legend_name(ag, colours)}</summary><div class="body">{table}</div></details>'
        sec.append(("tasks", "Success per task and variation", body))

        # Trajectories.
        picked = select_episodes(v, results_dir, max_trajectories)
        budget = _Budget(screenshot_budget_bytes)
        items = []
        for row in picked:
            traj = load_trajectory(results_dir, str(row["episode_id"]))
            if traj is None:
                continue
            items.append(_trajectory_html(results_dir, row if "agent" in row else {}, traj, screenshot_width, budget))
        if items:
            n_with = len(list((results_dir / "trajectories").glob("*.json")))
            body = (
                f"<p>{len(items)} of {n_with} recorded trajectories, failures first, spread over agents and "
                "variations. Open one to see the goal and every step: the action, any error, the page and the "
                "screenshot after the step when it was recorded. Steps inside a loop have an orange edge; invalid "
                "actions a red border.</p>" + "".join(items)
            )
            if budget.remaining <= 0:
                body += '<p class="meta">Some screenshots were left out to keep this file small.</p>'
            sec.append(("trajectories", "Trajectories", body))

    # Errors.
    n_err = int(a.df["is_error"].sum())
    if n_err:
        rows = [
            [str(r["agent"]), str(int(r["episodes"])), str(int(r["errors"])), fmt_pct(r["error_rate"])]
            for _, r in a.errors.iterrows()
        ]
        body = (
            "<p>Episodes the infrastructure failed (browser or server crash). They are excluded from every "
            "number above.</p>" + _html_table(["Agent", "Episodes", "Errors", "Error rate"], rows)
        )
        rows = [[r["message"], str(int(r["count"])), r["agents"]] for _, r in a.error_messages.iterrows()]
        body += _html_table(["Message", "Count", "Agents"], rows, ["l", "r", "l"])
    else:
        body = "<p>None: every recorded episode was scored.</p>"
    sec.append(("errors", "Infrastructure errors", body))

    # Manifest.
    if a.manifest:
        facts = _manifest_facts(a.manifest, a.df)
        body = _html_table(["Field", "Value"], facts, ["l", "l"], cls="kv")
        body += (
            '<details><summary>Full manifest (JSON)</summary><div class="body"><pre>'
            + _e(json.dumps(a.manifest, indent=2, sort_keys=True, default=str, ensure_ascii=False))
            + "</pre></div></details>"
        )
    else:
        body = "<p>No manifest.json in this folder: the run cannot be reproduced from this report alone.</p>"
    sec.append(("manifest", "Run manifest", body))

    # Page.
    cards = "".join(
        f'<div class="card"><div class="k">{_e(k)}</div><div class="v">{_e(val)}</div></div>' for k, val in _overview(a)
    )
    notes = "".join(f'<div class="note">{_e(n)}</div>' for n in a.notes)
    version_note = ""
    if len(a.version) > 1:
        version_note = (
            f"<li>A <i>version</i> here is one combination of {_e(', '.join(a.version))} (every axis that "
            "varied), so the episodes of one version differ only by seed.</li>"
        )
    howto = (
        '<div class="howto"><h3>How to read this</h3><ul>'
        + "".join(f"<li>{_md_inline(t)}</li>" for t in HOW_TO_READ)
        + version_note
        + "</ul></div>"
    )
    toc = "".join(f'<a href="#{anchor}">{_e(title)}</a>' for anchor, title, _ in sec)
    sub = []
    if a.manifest.get("version"):
        sub.append(f"openapps-sim {a.manifest.get('version')}")
    if a.manifest.get("git_commit"):
        sub.append(f"commit {str(a.manifest['git_commit'])[:10]}")
    if a.manifest.get("spec_hash"):
        sub.append(f"spec {a.manifest['spec_hash']}")
    sections = "".join(
        f'<section id="{anchor}"><h2>{_e(title)}</h2>{content}</section>' for anchor, title, content in sec
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{_e(_title(a))}</title><style>{CSS}</style></head><body><main>"
        f'<h1>{_e(_title(a))}</h1><p class="sub">{_e(" · ".join(sub))}</p>'
        f'<div class="cards">{cards}</div>{notes}{howto}<nav class="toc">{toc}</nav>{sections}'
        "</main></body></html>\n"
    )


def _md_inline(text: str) -> str:
    """Escape text and turn ``**bold**`` into <b>."""
    parts = _e(text).split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


# ----------------------------------------------------------------------------------------
# Entry point
# ----------------------------------------------------------------------------------------


def write_report(
    results_dir: Path | str,
    *,
    axes: Iterable[str] | None = None,
    top: int = 15,
    max_trajectories: int = 40,
    screenshot_width: int = 960,
    screenshot_budget_bytes: int = 16_000_000,
    n_boot: int = 2000,
    seed: int = 0,
) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` into ``results_dir``; return their paths.

    ``axes`` names extra swept columns to break down by (the manifest's ``axes`` are added).
    At most ``max_trajectories`` episodes appear in the trajectory viewer, with screenshots
    downscaled to ``screenshot_width`` pixels and embedded until ``screenshot_budget_bytes``.
    """
    results_dir = Path(results_dir)
    df = load_results(results_dir)
    manifest = load_manifest(results_dir)
    a = analyse(df, manifest, axes, n_boot=n_boot, seed=seed)
    md_path = results_dir / "report.md"
    html_path = results_dir / "report.html"
    md_path.write_text(render_markdown(a, top), encoding="utf-8")
    html_path.write_text(
        render_html(a, results_dir, top, max_trajectories, screenshot_width, screenshot_budget_bytes), encoding="utf-8"
    )
    return md_path, html_path
