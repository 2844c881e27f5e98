"""The numbers of an offline evaluation (``openapps offline``): DAC-Bench's step-level measures
over the scored steps of :mod:`openapps_sim.sweeps.offline`, overall and per app, task family,
task structure and gold action type, for each instruction mode.

- **exact match (EM)**: share of steps whose action is the gold action (same type, same target
  element, same arguments);
- **type match (TM)**: share of steps whose action has the gold action's type;
- **grounding precision (GR)**: among the steps whose type matched and whose gold action has a
  target, the share aimed at the gold target (the same element, page or app tool);
- **episodes all exact (SR)** and **goal progress (GP)**: per gold episode, whether every step
  was an exact match, and the share of its steps matched exactly before the first miss
  (DAC-Bench's success rate and goal progress of step-level evaluation).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from openapps_sim.analysis.report.fmt import md_head

GROUPS = {
    "by_action": ("gold action type", "gold_type"),
    "by_app": ("app of the page", "app"),
    "by_structure": ("task structure", "structure"),
    "by_family": ("task family", "task"),
}
EPISODE_GROUPS = ("by_structure", "by_family")  # groups made of whole episodes (SR and GP defined)
MODE_NAMES = {"goal": "goal only", "steps": "step by step"}


def _mean(values: list) -> float | None:
    return round(sum(1.0 for v in values if v) / len(values), 4) if values else None


def step_measures(rows: list[dict]) -> dict[str, Any]:
    """EM, TM and grounding precision of some scored steps, with the counts behind them."""
    grounded = [r["grounded"] for r in rows if r.get("grounded") is not None]
    return {
        "steps": len(rows),
        "exact_match": _mean([r["exact"] for r in rows]),
        "type_match": _mean([r["type_match"] for r in rows]),
        "grounding_precision": _mean(grounded),
        "grounding_steps": len(grounded),
        "agent_errors": sum(1 for r in rows if r.get("agent_error")),
    }


def episode_measures(rows: list[dict]) -> dict[str, Any]:
    """Per gold episode: every step exact (SR), and the exact prefix's share of its steps (GP)."""
    episodes: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        episodes[r["episode"]].append(r)
    if not episodes:
        return {"episodes": 0, "all_exact": None, "goal_progress": None}
    full, progress = [], []
    for steps in episodes.values():
        steps = sorted(steps, key=lambda r: r["step"])
        prefix = next((i for i, r in enumerate(steps) if not r["exact"]), len(steps))
        full.append(prefix == len(steps))
        progress.append(prefix / len(steps))
    return {
        "episodes": len(episodes),
        "all_exact": _mean(full),
        "goal_progress": round(sum(progress) / len(progress), 4),
    }


def summarise(rows: list[dict], modes: list[str]) -> dict[str, dict]:
    """``{mode: {"overall": ..., "by_action": {type: ...}, "by_app": ..., ...}}``."""
    out: dict[str, dict] = {}
    for mode in modes:
        mine = [r for r in rows if r["mode"] == mode and not r.get("idle")]
        block: dict[str, Any] = {"overall": {**step_measures(mine), **episode_measures(mine)}}
        for group, (_, column) in GROUPS.items():
            values: dict[str, list[dict]] = defaultdict(list)
            for r in mine:
                values[str(r[column])].append(r)
            block[group] = {
                name: {**step_measures(rs), **(episode_measures(rs) if group in EPISODE_GROUPS else {})}
                for name, rs in sorted(values.items())
            }
        out[mode] = block
    return out


# -- tables -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _table_rows(
    summary: dict, modes: list[str], groups: tuple[str, ...], prefixed: bool = True, episodic: bool = False
) -> tuple[list[str], list[list[str]]]:
    keys = ("EM", "TM", "GR", "SR", "GP") if episodic else ("EM", "TM", "GR")
    header = ["", "steps"] + [f"{m} {k}" for m in modes for k in keys]
    lines: list[list[str]] = []

    def line(label: str, cells: list[dict | None]) -> list[str]:
        steps = next((c["steps"] for c in cells if c), 0)
        row = [label, str(steps)]
        for c in cells:
            row += [_pct(c and c["exact_match"]), _pct(c and c["type_match"]), _pct(c and c["grounding_precision"])]
            if episodic:
                row += [_pct(c and c.get("all_exact")), _pct(c and c.get("goal_progress"))]
        return row

    lines.append(line("overall", [summary[m]["overall"] for m in modes]))
    for group in groups:
        label = GROUPS[group][0]
        names = sorted({n for m in modes for n in summary[m][group]})
        for name in names:
            lines.append(line(f"{label}: {name}" if prefixed else name, [summary[m][group].get(name) for m in modes]))
    return header, lines


def text_table(summary: dict, modes: list[str], groups: tuple[str, ...] = ("by_action", "by_app")) -> str:
    """The printed table: one row per group value, EM / TM / GR (%) per mode side by side."""
    header, lines = _table_rows(summary, modes, groups)
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(len(header))]
    fmt = [f"{c:<{widths[0]}}" if i == 0 else f"{c:>{widths[i]}}" for i, c in enumerate(header)]
    out = ["  ".join(fmt)]
    for r in lines:
        out.append("  ".join(f"{c:<{widths[0]}}" if i == 0 else f"{c:>{widths[i]}}" for i, c in enumerate(r)))
    return "\n".join(out)


def _md(header: list[str], lines: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in lines]
    return out


def markdown(result: dict) -> str:
    """``offline.md``: what was scored, the measures per mode, then the breakdowns."""
    modes, summary = result["modes"], result["summary"]
    out = md_head(
        f"Offline evaluation: {result['agent']}",
        f"Agent `{result['agent']}`"
        + (f" (config `{result['agent_config']}`)" if result.get("agent_config") else "")
        + f", gold: {result['gold']} — {result['episodes']} gold episodes, {result['gold_steps']} steps "
        + f"({result['idle_steps']} idle: they changed nothing, so they are replayed but not scored), "
        + "modes: "
        + ", ".join(MODE_NAMES[m] for m in modes)
        + ".",
        "EM: exact match (same action, same element, same arguments); TM: type match (same action "
        "name); GR: grounding precision (the gold element among steps whose type matched); SR: "
        "episodes with every step exact; GP: goal progress (exact steps before the first miss). "
        "All in %.",
        "## Overall",
    )
    head = ["mode", "steps", "EM", "TM", "GR", "episodes", "SR", "GP"]
    rows = []
    for m in modes:
        o = summary[m]["overall"]
        rows.append(
            [MODE_NAMES[m], str(o["steps"]), _pct(o["exact_match"]), _pct(o["type_match"])]
            + [_pct(o["grounding_precision"]), str(o["episodes"]), _pct(o["all_exact"]), _pct(o["goal_progress"])]
        )
    out += _md(head, rows)
    for group in GROUPS:
        out += ["", f"## By {GROUPS[group][0]}", ""]
        header, lines = _table_rows(summary, modes, (group,), prefixed=False, episodic=group in EPISODE_GROUPS)
        out += _md([GROUPS[group][0], *header[1:]], lines[1:])
    if result.get("notes"):
        out += ["", "## Left out", ""] + [f"- {n}" for n in result["notes"]]
    return "\n".join(out) + "\n"


def write_offline(out: Path, result: dict) -> tuple[Path, Path]:
    """``offline.json`` (the summary and every scored step) and ``offline.md`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    js, md = out / "offline.json", out / "offline.md"
    js.write_text(json.dumps(result, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
    md.write_text(markdown(result), encoding="utf-8")
    return js, md
