"""Scores of a questions run: accuracy overall and per kind, concept, app and pack, beside the
chance level (the mean of one over the number of options), and the spread of right answers
within one app version (pack) against the spread across versions, computed by the reliability
metrics every other report uses (:func:`~openapps_sim.analysis.metrics.reliability.deviation_summary`:
a question is an episode whose reward is 1 when answered right, its pack the version)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from openapps_sim.analysis.metrics.reliability import deviation_summary

SCORES_JSON = "questions.json"
SCORES_MD = "questions.md"
BY = ("kind", "concept", "app", "pack")


def _group(df: pd.DataFrame, col: str) -> dict[str, dict]:
    out = {}
    for key, part in df.groupby(col, sort=True):
        out[str(key)] = {
            "n": int(len(part)),
            "accuracy": round(float(part["correct"].mean()), 4),
            "chance": round(float((1 / part["n_options"]).mean()), 4),
        }
    return out


def _clean(value: float) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else round(float(value), 4)


def spread(df: pd.DataFrame, unit: tuple[str, ...] = ("agent",)) -> list[dict]:
    """Within- and across-version deviation of right answers per ``unit`` (versions: packs)."""
    table = pd.DataFrame(
        {
            "agent": df["agent"],
            "task": df["kind"],
            "variation": df["pack"],
            "seed": df["seed"],
            "reward": df["correct"].astype(float),
        }
    )
    summary = deviation_summary(table, unit=unit, version=("variation",))
    cols = ["within_std", "across_std", "within_mad", "across_mad", "std_ratio", "mad_ratio", "n_versions", "n"]
    rows = []
    for rec in summary.to_dict("records"):
        row = {u: rec[u] for u in unit}
        row.update({c: _clean(rec.get(c)) if c not in ("n", "n_versions") else int(rec[c]) for c in cols if c in rec})
        rows.append(row)
    return rows


def scores(rows: list[dict]) -> dict:
    """The scores of answer rows (of one agent)."""
    if not rows:
        return {"n": 0, "accuracy": None, "chance": None}
    df = pd.DataFrame(rows)
    out = {
        "agent": str(df["agent"].iloc[0]),
        "n": int(len(df)),
        "accuracy": round(float(df["correct"].mean()), 4),
        "chance": round(float((1 / df["n_options"]).mean()), 4),
        "unanswered": int(df["choice"].isna().sum()),
    }
    for col in BY:
        out[f"by_{col}"] = _group(df, col)
    out["spread"] = spread(df)
    out["spread_by_kind"] = spread(df, ("agent", "task"))
    return out


def markdown(summary: dict) -> str:
    lines = [
        f"# Perception questions: {summary.get('agent')}",
        "",
        f"{summary['n']} questions; accuracy {summary['accuracy']:.1%} (chance {summary['chance']:.1%}); "
        f"{summary['unanswered']} without a readable answer.",
        "",
    ]
    for col in BY:
        lines += [f"## By {col}", "", f"| {col} | n | accuracy | chance |", "|---|---:|---:|---:|"]
        for key, v in summary[f"by_{col}"].items():
            lines.append(f"| {key} | {v['n']} | {v['accuracy']:.1%} | {v['chance']:.1%} |")
        lines.append("")
    lines += ["## Spread within and across versions (packs)", ""]
    lines += ["| unit | within std | across std | std ratio | versions |", "|---|---:|---:|---:|---:|"]
    for row in summary["spread"] + summary["spread_by_kind"]:
        unit = row.get("task") or row.get("agent")
        lines.append(
            f"| {unit} | {_fmt(row.get('within_std'))} | {_fmt(row.get('across_std'))} | "
            f"{_fmt(row.get('std_ratio'))} | {row.get('n_versions')} |"
        )
    return "\n".join(lines) + "\n"


def _fmt(value) -> str:
    return "—" if value is None else f"{value:.3f}"


def write_scores(out: Path, summary: dict) -> None:
    Path(out, SCORES_JSON).write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    Path(out, SCORES_MD).write_text(markdown(summary), encoding="utf-8")
