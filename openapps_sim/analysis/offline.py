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
  (DAC-Bench's success rate and goal progress of step-level evaluation);
- **W-LCS** over step actions: per gold episode, DAC-Bench's weighted longest common
  subsequence of the agent's answers and the gold actions (a later gold step weighs more);
- **decision accuracy**: EM at the step that took a branching task's correct branch, by the
  depth of that decision (DAC-Bench's Table 3: first decision, deeper decisions).

Every measure is also given by DAC-Bench's length buckets (2-5, 6-8, 9-12, 13+ scored gold
steps), and :func:`paper_tables` lays them out as the paper's tables.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from openapps_sim.analysis.doc.fmt import fmt_share as pct
from openapps_sim.analysis.doc.fmt import md_head, md_table
from openapps_sim.analysis.doc.fmt import text_table as fmt_text_table
from openapps_sim.taskkit.progress import weighted_lcs

GROUPS = {
    "by_action": ("gold action type", "gold_type"),
    "by_app": ("app of the page", "app"),
    "by_structure": ("task structure", "structure"),
    "by_family": ("task family", "task"),
    "by_length": ("gold length", "bucket"),
    "by_depth": ("decision depth", "decision_depth"),
}
# groups made of whole episodes (SR, GP and W-LCS defined)
EPISODE_GROUPS = ("by_structure", "by_family", "by_length")
MODE_NAMES = {"goal": "goal only", "steps": "step by step"}
LEVELS = {"goal": "HL", "steps": "LL"}  # DAC-Bench's high-level (goal) and low-level (step) instructions
# DAC-Bench's length buckets, by scored gold steps (a one-step episode is below its first)
BUCKETS = ((1, "1 step"), (5, "2-5 steps"), (8, "6-8 steps"), (12, "9-12 steps"), (None, "13+ steps"))


def length_bucket(steps: int) -> str:
    """The bucket of an episode of ``steps`` scored gold steps."""
    return next(label for top, label in BUCKETS if top is None or steps <= top)


def _mean(values: list) -> float | None:
    return round(sum(1.0 for v in values if v) / len(values), 4) if values else None


def step_measures(rows: list[dict]) -> dict[str, Any]:
    """EM, TM and grounding precision of some scored steps, and decision accuracy (EM at their
    decision steps), with the counts behind them."""
    grounded = [r["grounded"] for r in rows if r.get("grounded") is not None]
    decisions = [r["exact"] for r in rows if r.get("decision_depth") is not None]
    return {
        "steps": len(rows),
        "exact_match": _mean([r["exact"] for r in rows]),
        "type_match": _mean([r["type_match"] for r in rows]),
        "grounding_precision": _mean(grounded),
        "grounding_steps": len(grounded),
        "decision_accuracy": _mean(decisions),
        "decision_steps": len(decisions),
        "agent_errors": sum(1 for r in rows if r.get("agent_error")),
    }


def episode_wlcs(steps: list[dict]) -> float | None:
    """W-LCS of one episode's answers against its gold actions (scored steps, in order). At the
    same step, an answer matches the gold exactly when it is an exact match; across steps, when
    type, target and arguments are the same (``predicted_key`` and ``gold_key``)."""
    if any("gold_key" not in r for r in steps):
        return None  # rows of an older offline.json

    def same(i: int, j: int) -> bool:
        return bool(steps[i]["exact"]) if i == j else steps[i]["predicted_key"] == steps[j]["gold_key"]

    return weighted_lcs(len(steps), len(steps), same)


def episode_measures(rows: list[dict]) -> dict[str, Any]:
    """Per gold episode: every step exact (SR), and the exact prefix's share of its steps (GP)."""
    episodes: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        episodes[r["episode"]].append(r)
    if not episodes:
        return {"episodes": 0, "all_exact": None, "goal_progress": None, "wlcs": None}
    full, progress, lcs = [], [], []
    for steps in episodes.values():
        steps = sorted(steps, key=lambda r: r["step"])
        prefix = next((i for i, r in enumerate(steps) if not r["exact"]), len(steps))
        full.append(prefix == len(steps))
        progress.append(prefix / len(steps))
        lcs.append(episode_wlcs(steps))
    known = [v for v in lcs if v is not None]
    return {
        "episodes": len(episodes),
        "all_exact": _mean(full),
        "goal_progress": round(sum(progress) / len(progress), 4),
        "wlcs": round(sum(known) / len(known), 4) if known else None,
    }


def summarise(rows: list[dict], modes: list[str]) -> dict[str, dict]:
    """``{mode: {"overall": ..., "by_action": {type: ...}, "by_app": ..., ...}}``."""
    out: dict[str, dict] = {}
    for mode in modes:
        mine = [
            dict(r, bucket=length_bucket(r["length"]) if r.get("length") else None) for r in rows if r["mode"] == mode
        ]
        mine = [r for r in mine if not r.get("idle")]
        block: dict[str, Any] = {"overall": {**step_measures(mine), **episode_measures(mine)}}
        for group, (_, column) in GROUPS.items():
            values: dict[str, list[dict]] = defaultdict(list)
            for r in mine:
                if r.get(column) is not None:
                    values[str(r[column])].append(r)
            block[group] = {
                name: {**step_measures(rs), **(episode_measures(rs) if group in EPISODE_GROUPS else {})}
                for name, rs in sorted(values.items())
            }
        out[mode] = block
    return out


# -- tables -----------------------------------------------------------------------------------


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
            row += [pct(c and c["exact_match"]), pct(c and c["type_match"]), pct(c and c["grounding_precision"])]
            if episodic:
                row += [pct(c and c.get("all_exact")), pct(c and c.get("goal_progress"))]
        return row

    lines.append(line("overall", [summary[m]["overall"] for m in modes]))
    for group in groups:
        label = GROUPS[group][0]
        names = sorted({n for m in modes for n in summary[m][group]})
        for name in names:
            lines.append(line(f"{label}: {name}" if prefixed else name, [summary[m][group].get(name) for m in modes]))
    return header, lines


def aligned(header: list[str], lines: list[list[str]], left: int = 1) -> str:
    """A plain-text table: the first ``left`` columns left-aligned, the others right-aligned."""
    return fmt_text_table(header, lines, ["l"] * left + ["r"] * (len(header) - left), rule=False)


def text_table(summary: dict, modes: list[str], groups: tuple[str, ...] = ("by_action", "by_app")) -> str:
    """The printed table: one row per group value, EM / TM / GR (%) per mode side by side."""
    return aligned(*_table_rows(summary, modes, groups))


# -- the paper's tables ------------------------------------------------------------------------


def _level(mode: str) -> str:
    return f"{LEVELS[mode]} ({MODE_NAMES[mode]})"


def _structure_table(summary: dict, modes: list[str]) -> tuple[list[str], list[list[str]]]:
    """Table 2: a row per instruction level, EM / TM / SR / GP (and W-LCS) per task structure."""
    keys = (
        ("EM", "exact_match"),
        ("TM", "type_match"),
        ("SR", "all_exact"),
        ("GP", "goal_progress"),
        ("W-LCS", "wlcs"),
    )
    names = sorted({n for m in modes for n in summary[m]["by_structure"]})
    header = ["level"] + [f"{n} {k}" for n in names for k, _ in keys]
    rows = []
    for m in modes:
        cells = [summary[m]["by_structure"].get(n) or {} for n in names]
        rows.append([_level(m)] + [pct(c.get(field)) for c in cells for _, field in keys])
    return header, rows


def _depth_table(summary: dict, modes: list[str]) -> tuple[list[str], list[list[str]]]:
    """Table 3: decision accuracy (EM at the decision step) at the first decision and deeper ones."""
    depths = sorted({int(d) for m in modes for d in summary[m]["by_depth"]})
    header = ["level", "first decision", "deeper decisions", "EM difference"] + [f"depth {d}" for d in depths]
    rows = []
    for m in modes:
        by = {int(d): c for d, c in summary[m]["by_depth"].items()}
        first = by.get(1, {}).get("exact_match")
        deep = [c for d, c in by.items() if d > 1]
        n_deep = sum(c["steps"] for c in deep)
        deeper = round(sum(c["exact_match"] * c["steps"] for c in deep) / n_deep, 4) if n_deep else None
        diff = "–" if first is None or deeper is None else f"{100 * (deeper - first):+.1f}"
        per = [f"{pct(by[d]['exact_match'])} ({by[d]['steps']})" if d in by else "–" for d in depths]
        rows.append([_level(m), pct(first), pct(deeper), diff, *per])
    return header, rows


def _length_table(summary: dict, modes: list[str]) -> tuple[list[str], list[list[str]]]:
    """Appendix D: a row per length bucket and level (then overall), every measure."""
    header = ["group", "level", "tasks", "steps", "EM", "TM", "GR", "SR", "GP", "W-LCS", "decision acc"]
    groups = [(label, {m: summary[m]["by_length"].get(label) for m in modes}) for _, label in BUCKETS]
    groups.append(("overall", {m: summary[m]["overall"] for m in modes}))
    rows = []
    for label, cells in groups:
        if not any(cells.values()):
            continue
        for i, m in enumerate(modes):
            c = cells[m] or {}
            rows.append(
                [label if i == 0 else "", LEVELS[m], str(c.get("episodes", 0)), str(c.get("steps", 0))]
                + [pct(c.get(k)) for k in ("exact_match", "type_match", "grounding_precision", "all_exact")]
                + [pct(c.get(k)) for k in ("goal_progress", "wlcs", "decision_accuracy")]
            )
    return header, rows


def _action_table(summary: dict, modes: list[str]) -> tuple[list[str], list[list[str]]]:
    """Table 6: a row per gold action type and level: count, type accuracy, exact accuracy."""
    rows = []
    for name in sorted({n for m in modes for n in summary[m]["by_action"]}):
        for i, m in enumerate(modes):
            c = summary[m]["by_action"].get(name) or {}
            rows.append(
                [name if i == 0 else "", LEVELS[m], str(c.get("steps", 0))]
                + [pct(c.get("type_match")), pct(c.get("exact_match"))]
            )
    return ["action type", "level", "count", "type acc", "exact acc"], rows


def paper_tables(summary: dict, modes: list[str]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of DAC-Bench's tables: by task structure (Table 2), decision accuracy
    by depth (Table 3, when the gold has decisions), by length bucket (Appendix D) and by action
    type (Table 6); HL is goal only, LL step by step. All in %."""
    out = [("By task structure (DAC-Bench Table 2)", *_structure_table(summary, modes))]
    if any(summary[m]["by_depth"] for m in modes):
        title = "Decision accuracy (EM at the decision step) by branching depth (DAC-Bench Table 3)"
        out.append((title, *_depth_table(summary, modes)))
    out.append(("By gold length (DAC-Bench Appendix D)", *_length_table(summary, modes)))
    out.append(("By action type (DAC-Bench Table 6)", *_action_table(summary, modes)))
    return out


def paper_text(summary: dict, modes: list[str]) -> str:
    """The paper's tables as printed text."""
    tables = paper_tables(summary, modes)
    return "\n\n".join(f"{t}\n{aligned(h, rows, 2 if h[1] == 'level' else 1)}" for t, h, rows in tables)


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
        "episodes with every step exact; GP: goal progress (exact steps before the first miss); "
        "W-LCS: weighted longest common subsequence of the answers and the gold actions; decision "
        "acc: EM at the step that took a branching task's correct branch. HL: goal only, LL: step "
        "by step. All in %.",
        "## Overall",
    )
    head = ["mode", "steps", "EM", "TM", "GR", "episodes", "SR", "GP", "W-LCS", "decision acc"]
    rows = []
    for m in modes:
        o = summary[m]["overall"]
        rows.append(
            [MODE_NAMES[m], str(o["steps"]), pct(o["exact_match"]), pct(o["type_match"])]
            + [pct(o["grounding_precision"]), str(o["episodes"]), pct(o["all_exact"]), pct(o["goal_progress"])]
            + [pct(o.get("wlcs")), pct(o.get("decision_accuracy"))]
        )
    out += [md_table(head, rows)]
    for title, header, lines in paper_tables(summary, modes):
        out += ["", f"## {title}", "", md_table(header, lines)]
    for group in ("by_app", "by_family"):
        out += ["", f"## By {GROUPS[group][0]}", ""]
        header, lines = _table_rows(summary, modes, (group,), prefixed=False, episodic=group in EPISODE_GROUPS)
        out.append(md_table([GROUPS[group][0], *header[1:]], lines[1:]))
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
