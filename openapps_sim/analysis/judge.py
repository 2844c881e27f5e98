"""A model-based judge calibrated against the full-state truth (``openapps judge``,
docs/judge.md): which recorded episodes can be judged, and how the judge's verdicts compare
with what the full-state check found.

For success and for each essential state (milestone) the judge's verdict is a prediction and
the record's value the truth (``success``; a milestone is reached when the record gives the step
it was first reached at). Counted as a confusion matrix, with "success" (or "reached") the
positive class:

- **accuracy**: (TP + TN) / n;
- **precision**: TP / (TP + FP), of the episodes the judge passed, the share that truly
  succeeded (A3 reports this for its judges); none when the judge passed none;
- **recall**: TP / (TP + FN), of the episodes that truly succeeded, the share the judge passed;
  none when none succeeded;
- **F1**: their harmonic mean; **base rate**: the truly positive share; **judged rate**: the share
  the judge called positive.

Overall, per app (the app the task needs, or "several apps"), per app version (variation), per
agent and per task family; milestones overall, per milestone and per app. A verdict the judge
did not give (an unreadable reply after asking again, a milestone it did not rate) is counted
apart (``no_verdict``) and left out of the matrix.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from openapps_sim.analysis.doc.fmt import DASH, fmt_share, md_head, md_table
from openapps_sim.analysis.doc.fmt import text_table as aligned
from openapps_sim.errors import ConfigError

# the columns the measures are broken down by, each as ``by_<column>``
SUCCESS_GROUPS = ("app", "variation", "version", "app_version", "agent", "task")
MILESTONE_GROUPS = ("milestone", "app")
_TITLES = {
    "variation": "App version (variation)",
    "version": "App version",
    "app_version": "App and version",
    "task": "Task family",
}  # else the column, capitalised
FOLDER_HELP = "a results folder of openapps sweep or openapps run --out (with results.jsonl and trajectories/)"


def judgeable_episodes(results_dir: Path | str) -> tuple[list[dict], list[str]]:
    """The episodes of a results folder a judge can rate: read through the one reader, without
    those a failure outside the agent stopped (they are in no metric either), each with ``app``.
    A folder without results is one sentence naming it."""
    from openapps_sim.analysis.metrics.axes import version_columns
    from openapps_sim.analysis.metrics.breaks import rollup_columns
    from openapps_sim.analysis.metrics.reliability import version_label
    from openapps_sim.analysis.report.load import load_results

    try:
        df = load_results(results_dir)
    except FileNotFoundError:
        raise ConfigError("RESULTS", str(results_dir), "holds no results.jsonl", FOLDER_HELP) from None
    if df.empty:
        raise ConfigError("RESULTS", str(results_dir), "holds no episode records", FOLDER_HELP)
    notes = list(df.attrs.get("notes") or [])
    valid = rollup_columns(df)
    if len(valid) < len(df):
        notes.append(
            f"{len(df) - len(valid)} episode(s) stopped by an infrastructure or model-service error: not judged"
        )
    keys = ("episode_id", "agent", "task", "variation", "seed", "goal", "success", "milestones", "app")
    versions = [c for c in version_columns(valid) if c in valid.columns]
    episodes = []
    for row in valid.to_dict("records"):
        ep = {k: row.get(k) for k in keys}
        ep["version"] = version_label([row.get(c) for c in versions])
        ep["app_version"] = f"{ep['app']} · {ep['version']}"
        ep["success"] = bool(ep["success"])
        ep["milestones"] = ep["milestones"] if isinstance(ep["milestones"], dict) else {}
        episodes.append(ep)
    return episodes, notes


# -- calibration ------------------------------------------------------------------------------


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def confusion(pairs: list[tuple[bool | None, bool]]) -> dict[str, Any]:
    """Counts and measures of (verdict, truth) pairs; a None verdict is ``no_verdict``."""
    rated = [(p, t) for p, t in pairs if p is not None]
    tp = sum(1 for p, t in rated if p and t)
    fp = sum(1 for p, t in rated if p and not t)
    fn = sum(1 for p, t in rated if not p and t)
    tn = len(rated) - tp - fp - fn
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = None
    if tp:
        f1 = round(2 * tp / (2 * tp + fp + fn), 4)
    elif precision is not None or recall is not None:
        f1 = 0.0
    return {
        "n": len(rated),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "accuracy": _ratio(tp + tn, len(rated)),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "base_rate": _ratio(tp + fn, len(rated)),
        "judged_rate": _ratio(tp + fp, len(rated)),
        "no_verdict": len(pairs) - len(rated),
    }


def _grouped(items: list[dict], columns: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {"overall": confusion([(i["verdict"], i["truth"]) for i in items])}
    for column in columns:
        cells: dict[str, list] = defaultdict(list)
        for i in items:
            cells[str(i[column])].append((i["verdict"], i["truth"]))
        out[f"by_{column}"] = {name: confusion(pairs) for name, pairs in sorted(cells.items())}
    return out


def _title(column: str) -> str:
    return _TITLES.get(column, column.capitalize())


def calibration(episodes: list[dict], verdicts: list[dict]) -> dict[str, Any]:
    """``{"success": {overall, by_app, ...}, "milestones": {overall, by_milestone, by_app}}`` of
    the verdicts against the episodes' truth (joined by episode id)."""
    by_id = {v["episode_id"]: v for v in verdicts}
    success, milestones = [], []
    for ep in episodes:
        v = by_id.get(ep["episode_id"])
        if v is None:
            continue
        success.append({**ep, "verdict": v.get("success"), "truth": bool(ep["success"])})
        rated = v.get("milestones") or {}
        for name, step in ep["milestones"].items():
            milestones.append({**ep, "milestone": name, "verdict": rated.get(name), "truth": step is not None})
    return {
        "success": _grouped(success, SUCCESS_GROUPS),
        "milestones": _grouped(milestones, MILESTONE_GROUPS),
        "version_spread": version_spread(success),
    }


def version_spread(items: list[dict]) -> dict[str, Any]:
    """Whether the judge's accuracy depends on the app version: per judged agent and task
    family, the deviation of the judge being right (1) or wrong (0) within each version (over
    seeds) and across the versions pooled, through the metric code every other within/across
    figure uses (``deviation_summary``); the means over the units that have both, and their
    ratio across / within (above 1: versions move the judge's accuracy more than seeds do)."""
    import pandas as pd

    from openapps_sim.analysis.metrics.reliability import deviation_summary, safe_ratio

    rows = [
        {k: i[k] for k in ("agent", "task", "version", "seed")} | {"reward": float(i["verdict"] == i["truth"])}
        for i in items
        if i["verdict"] is not None
    ]
    out: dict[str, Any] = {"units": 0, "episodes": 0, "within_std": None, "across_std": None, "ratio": None}
    if not rows:
        return out
    frame = pd.DataFrame(rows)
    frame["success"] = frame["reward"] > 0
    table = deviation_summary(frame, ("agent", "task"), ("version",), "reward")
    both = table[table["within_std"].notna() & table["across_std"].notna() & (table["n_versions"] > 1)]
    if both.empty:
        return out
    within, across = float(both["within_std"].mean()), float(both["across_std"].mean())
    ratio = safe_ratio(across, within)
    return {
        "units": len(both),
        "episodes": int(both["n"].sum()),
        "within_std": round(within, 4),
        "across_std": round(across, 4),
        "ratio": round(ratio, 4) if ratio == ratio and ratio != float("inf") else None,
    }


def judge_result(
    results: str, judge: dict, max_prompt_chars: int, episodes: list[dict], verdicts: list[dict], notes: list[str]
) -> dict[str, Any]:
    """``judge.json``: the judge, the counts of what it was asked and the calibration."""
    truth = {ep["episode_id"] for ep in episodes}
    judged = [v for v in verdicts if v["episode_id"] in truth]
    return {
        "results": results,
        "judge": judge,
        "max_prompt_chars": max_prompt_chars,
        "episodes": len(episodes),
        "verdicts": len(judged),
        "unparseable": sum(1 for v in judged if v["unparseable"]),
        "reasked": sum(1 for v in judged if v["reasked"]),
        "truncated": sum(1 for v in judged if v["steps_left_out"] or v["observations_cut"]),
        "windows": sum(len(v.get("windows") or []) for v in judged),
        "images": sum(v.get("images") or 0 for v in judged),
        "tokens": {
            k: sum((v.get("tokens") or {}).get(k, 0) for v in judged) for k in ("prompt_tokens", "completion_tokens")
        },
        "summary": calibration(episodes, judged),
        "notes": notes,
    }


# -- tables and files ---------------------------------------------------------------------------

COLUMNS = ("n", "accuracy", "precision", "recall", "f1", "base_rate", "tp", "fp", "fn", "tn", "no_verdict")


def _fmt(value: Any) -> str:
    return fmt_share(value) if value is None or isinstance(value, float) else str(value)


def _rows(cells: dict[str, dict]) -> list[list[str]]:
    return [[name] + [_fmt(cell[k]) for k in COLUMNS] for name, cell in cells.items()]


HEADER = ["", "n", "accuracy", "precision", "recall", "F1", "base rate", "TP", "FP", "FN", "TN", "no verdict"]


def text_table(summary: dict) -> str:
    """The printed table: success and milestones overall, success per app and per version."""
    rows = [["success: overall"] + _rows({"": summary["success"]["overall"]})[0][1:]]
    rows += [["milestones: overall"] + _rows({"": summary["milestones"]["overall"]})[0][1:]]
    for column in ("app", "variation"):
        by = summary["success"][f"by_{column}"]
        rows += [[f"success, {_title(column).lower()}: {r[0]}"] + r[1:] for r in _rows(by)]
    return aligned(HEADER, rows) + "\n\n" + version_table(summary)


VERSION_COLUMNS = ("n", "precision", "recall", "tp", "fp", "fn", "tn", "no_verdict")
VERSION_HEADER = ["", "n", "precision", "recall", "TP", "FP", "FN", "TN", "no verdict"]


def _version_rows(summary: dict) -> list[list[str]]:
    rows = []
    for column in ("version", "app_version"):
        for name, cell in summary["success"][f"by_{column}"].items():
            rows.append([f"{_title(column).lower()}: {name}"] + [_fmt(cell[k]) for k in VERSION_COLUMNS])
    return rows


def spread_line(spread: dict) -> str:
    """One sentence on the judge's accuracy within versus across app versions."""
    if not spread["units"]:
        return (
            "judge accuracy within vs across app versions: no agent and task has two judged seeds in a "
            "version and two versions (nothing to compare)"
        )
    ratio = DASH if spread["ratio"] is None else f"{spread['ratio']:.2f}"
    return (
        f"judge accuracy within vs across app versions (std of right=1/wrong=0, mean over {spread['units']} "
        f"agent-task units, {spread['episodes']} verdicts): within {spread['within_std']:.3f}, "
        f"across {spread['across_std']:.3f}, across/within {ratio}"
    )


def version_table(summary: dict) -> str:
    """The judge's success verdicts against the full-state check per app version (the version
    columns other metrics use) and per app in each version, with counts, and the spread line."""
    head = "success per app version (judge's precision and recall against the full-state check; in %):"
    return head + "\n" + aligned(VERSION_HEADER, _version_rows(summary)) + "\n" + spread_line(summary["version_spread"])


def _sight(result: dict) -> str:
    who = result["judge"]
    if who.get("sees") != "screenshots":
        return "The judge read the trajectories as text."
    return (
        f"The judge saw the screens through A3's sliding window ({who['window']} steps, stride {who['stride']}): "
        f"{result.get('windows', 0)} windows, {result.get('images', 0)} screenshots."
    )


def markdown(result: dict) -> str:
    """``judge.md``: who judged what, the measures overall, then the breakdowns."""
    s, who = result["summary"], result["judge"]
    out = md_head(
        f"Judge calibration: {who['model']}",
        f"Judge model `{who['model']}` through the `{who['agent']}` agent's client (config `{who['config']}`), "
        f"on {result['results']}: {result['verdicts']} episodes judged of {result['episodes']}; "
        f"{result['unparseable']} replies unreadable after asking again, {result['reasked']} asked again; "
        f"{result['truncated']} prompts cut to fit {result['max_prompt_chars']} characters. {_sight(result)}",
        "Truth: the full-state check (success; a milestone is reached when its state held at some step). "
        "Positive class: success (reached). Accuracy, precision, recall, F1 and base rate in %.",
        "## Overall",
    )
    rows = [["success"] + _rows({"": s["success"]["overall"]})[0][1:]]
    rows += [["milestones"] + _rows({"": s["milestones"]["overall"]})[0][1:]]
    out.append(md_table(HEADER, rows))
    for part, groups in (("success", SUCCESS_GROUPS), ("milestones", MILESTONE_GROUPS)):
        for column in groups:
            out += ["", f"## {part.capitalize()} by {_title(column).lower()}", ""]
            out.append(md_table([_title(column), *HEADER[1:]], _rows(s[part][f"by_{column}"])))
    out += ["", "## Precision and recall per app version", ""]
    out.append(md_table(VERSION_HEADER, _version_rows(s)))
    out += ["", spread_line(s["version_spread"]).capitalize() + "."]
    if result.get("notes"):
        out += ["", "## Notes", ""] + [f"- {n}" for n in result["notes"]]
    return "\n".join(out) + "\n"


def write_judge(out: Path, result: dict) -> tuple[Path, Path]:
    """``judge.json`` (the summary) and ``judge.md`` in ``out``, each replaced whole."""
    from openapps_sim.sweeps.store import write_json_atomic

    write_json_atomic(out / "judge.json", result)
    md = out / "judge.md"
    tmp = md.with_suffix(".md.tmp")
    tmp.write_text(markdown(result), encoding="utf-8")
    tmp.replace(md)
    return out / "judge.json", md
