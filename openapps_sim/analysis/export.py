"""Training data from sweeps: one row per step, in Parquet, with a dataset card.

``openapps export RUN_DIR [RUN_DIR ...] --out DATASET`` reads each folder's records (through
the one record reader) and trajectories and writes::

    DATASET/data/<split>-00000.parquet    one file per split
    DATASET/screenshots/...               the screenshots rows point to (images="path")
    DATASET/README.md                     the dataset card (what, how made, splits, columns)

A row is one decision: the observation the agent acted on (its text when the sweep recorded
observations, and the screenshot taken before the action) and the action it chose, with the
episode's context (task, app version and its packs, goal, seed, trial) and outcome. Splits are
chosen by app version, so a model can be trained on some packs and tested on held-out packs and
generated versions (the OpenApps paper's generalisation study).
"""

from __future__ import annotations

import fnmatch
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from openapps_sim.analysis.metrics.appcategories import app_categories, app_category
from openapps_sim.analysis.report.load import load_trajectory
from openapps_sim.errors import ConfigError, unknown_name
from openapps_sim.sweeps.steplog import LOCAL_HOSTS
from openapps_sim.sweeps.store import read_folder, result_folders

IMAGE_MODES = ("path", "bytes", "none")

# Every column of a row, with its meaning (also written into the dataset card).
COLUMNS: dict[str, str] = {
    "episode_id": "the episode (one agent on one task instance in one app version)",
    "run": "the results folder it came from",
    "split": "the split, chosen by app version",
    "agent": "the agent that acted (its registry name)",
    "label": "the name results show the agent under: its label (a spec's label:, --label, the --model chosen), "
    "else its name",
    "task": "task family id",
    "task_apps": "apps the task needs",
    "app_category": "the Google Play category of those apps (several joined with ' + '; '(unknown)' for an app not "
    "installed now), as `openapps apps` lists them",
    "variation": "the app version: a pack expression such as dark_theme+german",
    "packs": "the packs of the expression, in order",
    "language": "goal language",
    "seed": "task seed",
    "trial": "repeat of the same instance (0 when the sweep had no trials)",
    "backend": "what showed the pages: chromium or text",
    "interface": "how the agent could act: gui, api or mixed",
    "termination": "how the episode could end: auto (once the state is right) or agent (when the agent declares)",
    "goal": "the goal text the agent was given",
    "step": "0-based index of the step in the episode",
    "url": "the page the action was taken on: its path, query and fragment on the apps' server (the server's "
    "host and port change every run), the whole URL of a page elsewhere",
    "observation": "accessibility tree text the agent acted on ('' when the sweep did not record it)",
    "screenshot": "path (relative to the dataset) or PNG bytes of the page before the action; null when none",
    "thought": "the agent's reasoning for the action ('' for agents without one)",
    "reply": "the model's last raw answer at this step, as it wrote it ('' for agents without a model)",
    "prompt_tokens": "prompt tokens the step's requests spent (0 without a model)",
    "completion_tokens": "completion tokens the step's answers spent (0 without a model)",
    "action": "the action string (BrowserGym syntax)",
    "action_category": "valid, or the invalid-action category",
    "error": "the error the action caused, '' when none",
    "reward": "reward after the action",
    "done": "the episode ended with this step",
    "episode_success": "whether the episode succeeded",
    "episode_reward": "the episode's final reward",
}


@dataclass
class SplitRule:
    name: str
    patterns: list[str] = field(default_factory=list)

    def matches(self, variation: str) -> bool:
        parts = [variation, *variation.split("+")]
        return any(fnmatch.fnmatchcase(p, pat) for p in parts for pat in self.patterns)


def parse_splits(texts: list[str] | None, source: str = "--split") -> list[SplitRule]:
    """``NAME=PATTERN[,PATTERN...]`` each; patterns are globs over the variation expression or
    any one of its packs (``test=german,random-*``)."""
    rules = []
    for text in texts or []:
        name, sep, pats = text.partition("=")
        patterns = [p.strip() for p in pats.split(",") if p.strip()]
        if not sep or not name.strip() or not patterns:
            raise ConfigError(source, text, "expected NAME=PATTERN[,PATTERN...]", "e.g. test=german,random-*")
        if not name.strip().replace("_", "").replace("-", "").isalnum():
            raise ConfigError(source, text, f"split name {name!r} must be letters, digits, - or _")
        rules.append(SplitRule(name.strip(), patterns))
    return rules


def split_of(variation: str, rules: list[SplitRule], rest: str) -> str:
    for rule in rules:
        if rule.matches(variation):
            return rule.name
    return rest


def _image(run: Path, rel: Any, out: Path, images: str) -> Any:
    if not rel or images == "none":
        return None
    src = run / str(rel)
    if not src.is_file():
        return None
    if images == "bytes":
        return src.read_bytes()
    dest = Path("screenshots") / run.name / str(rel)
    (out / dest).parent.mkdir(parents=True, exist_ok=True)
    if not (out / dest).exists():
        shutil.copyfile(src, out / dest)
    return dest.as_posix()


def episode_rows(
    run: Path, record: dict, traj: dict, out: Path, split: str, images: str, categories: Mapping[str, str]
) -> list[dict]:
    """The rows of one episode's steps (``categories``: every app's category, by name)."""
    steps = traj.get("steps") or []
    apps = list(record.get("task_apps") or [])
    category = app_category(apps, str(record.get("task", "")), categories)
    variation = str(record.get("variation", ""))
    before = traj.get("first_screenshot") or traj.get("first_thumbnail")  # thumbnails: recorded by default
    rows = []
    for i, step in enumerate(steps):
        rows.append(
            {
                "episode_id": record["episode_id"],
                "run": run.name,
                "split": split,
                "agent": record.get("agent", ""),
                "label": record.get("label") or record.get("agent", ""),
                "task": record.get("task", ""),
                "task_apps": apps,
                "app_category": category,
                "variation": variation,
                "packs": variation.split("+") if variation else [],
                "language": record.get("language", ""),
                "seed": int(record.get("seed", 0)),
                "trial": int(record.get("trial", 0) or 0),
                "backend": record.get("backend") or "chromium",
                "interface": record.get("interface") or "gui",
                "termination": record.get("termination") or "auto",
                "goal": record.get("goal", ""),
                "step": i,
                "url": page_path(step.get("page_url") or (steps[i - 1].get("url") if i else "") or ""),
                "observation": step.get("observation") or "",
                "screenshot": _image(run, before, out, images),
                "thought": step.get("reasoning") or "",
                "reply": last_reply(step),
                "prompt_tokens": int((step.get("tokens") or {}).get("prompt_tokens") or 0),
                "completion_tokens": int((step.get("tokens") or {}).get("completion_tokens") or 0),
                "action": step.get("action", ""),
                "action_category": step.get("category", ""),
                "error": step.get("error") or "",
                "reward": float(step.get("reward", 0.0)),
                "done": i == len(steps) - 1,
                "episode_success": bool(record.get("success", False)),
                "episode_reward": float(record.get("reward", 0.0)),
            }
        )
        before = step.get("screenshot") or step.get("thumbnail")
    return rows


def page_path(url: str) -> str:
    """A page of the apps' server as its path, query and fragment (the host and port are the
    run's own); a page elsewhere keeps its whole URL."""
    parts = urlsplit(str(url or ""))
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not (host in LOCAL_HOSTS or host.endswith(".localhost")):
        return str(url or "")
    return (
        (parts.path or "/")
        + (f"?{parts.query}" if parts.query else "")
        + (f"#{parts.fragment}" if parts.fragment else "")
    )


def last_reply(step: dict) -> str:
    """The model's last answer at a step, from its recorded exchange ('' when none)."""
    replies = (step.get("exchange") or {}).get("replies") or []
    return str(replies[-1].get("text") or "") if replies and isinstance(replies[-1], dict) else ""


def _folders(runs: list[Path | str]) -> list[Path]:
    """The results folders the given paths name (each a results folder or a folder of them)."""
    folders: list[Path] = []
    for given in map(Path, runs):
        found = result_folders(given)
        if not found:
            raise ConfigError(
                str(given),
                "results.jsonl",
                "not found",
                "a folder written by openapps sweep or openapps run --out, or a folder of such folders",
            )
        folders += found
    return folders


def export_dataset(
    runs: list[Path | str],
    out: Path | str,
    splits: list[SplitRule] | None = None,
    rest: str = "train",
    images: str = "path",
    include_failures: bool = True,
) -> dict:
    """Write the dataset; returns counts per split, episodes skipped and their reasons."""
    if images not in IMAGE_MODES:
        raise unknown_name("--images", "images", images, IMAGE_MODES, what="mode", keep_order=True)
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise ConfigError("--out", str(out), "is not empty", "a new or empty folder")
    splits = splits or []
    rows: list[dict] = []
    skipped: dict[str, int] = {}
    episodes: dict[str, int] = {}
    categories = app_categories()
    for run in _folders(runs):
        records, _notes = read_folder(run)
        latest = {r["episode_id"]: r for r in records}  # the last record of an episode counts
        for record in latest.values():
            reason = None
            if record.get("error"):
                reason = "infrastructure error"
            elif not include_failures and not record.get("success"):
                reason = "failed episode"
            traj = None if reason else load_trajectory(run, record["episode_id"])
            if reason is None and traj is None:
                reason = "no trajectory"
            if reason:
                skipped[reason] = skipped.get(reason, 0) + 1
                continue
            split = split_of(str(record.get("variation", "")), splits, rest)
            new = episode_rows(run, record, traj, out, split, images, categories)
            if new:
                episodes[split] = episodes.get(split, 0) + 1
                rows.extend(new)
    if not rows:
        raise ConfigError("export", "runs", "no step to export", "folders whose sweeps saved trajectories")
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, part in frame.groupby("split", sort=True):
        part.reset_index(drop=True).to_parquet(data / f"{name}-00000.parquet", index=False)
        counts[str(name)] = len(part)
    card = dataset_card(runs, counts, episodes, splits, rest, images, skipped)
    (out / "README.md").write_text(card, encoding="utf-8")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return {"rows": counts, "episodes": episodes, "skipped": skipped, "bytes": size, "out": str(out)}


def dataset_card(
    runs: list[Path | str],
    counts: dict[str, int],
    episodes: dict[str, int],
    splits: list[SplitRule],
    rest: str,
    images: str,
    skipped: dict[str, int],
) -> str:
    header = ["---", "configs:", "- config_name: default", "  data_files:"]
    for name in counts:
        header += [f"  - split: {name}", f"    path: data/{name}-*.parquet"]
    header += ["---", ""]
    rules = "\n".join(f"- `{r.name}`: app versions matching {', '.join(f'`{p}`' for p in r.patterns)}" for r in splits)
    lines = [
        "# OpenApps-Sim trajectories",
        "",
        "Steps of agents in OpenApps-Sim's offline apps (todo, calendar, messenger, maps, shop,",
        "code editor) under variation packs, exported by `openapps export`. One row is one decision:",
        "the observation an agent acted on and the action it chose, with the episode's task, app",
        "version, goal and outcome.",
        "",
        "## How it was made",
        "",
        "From the results folders: " + ", ".join(f"`{Path(r).name}`" for r in runs) + ".",
        "Each folder's `manifest.json` names the package version, the sweep spec, seeds and browser.",
        f"Screenshots: {'paths into screenshots/' if images == 'path' else 'PNG bytes in the row' if images == 'bytes' else 'not included'}.",
        "Skipped episodes: " + (", ".join(f"{n} ({why})" for why, n in skipped.items()) or "none") + ".",
        "",
        "## Splits (by app version)",
        "",
        rules or "(no rule given)",
        f"- `{rest}`: every other app version",
        "",
        "| split | episodes | rows |",
        "|---|---:|---:|",
        *[f"| {n} | {episodes.get(n, 0)} | {c} |" for n, c in counts.items()],
        "",
        "## Columns",
        "",
        *[f"- `{k}`: {v}" for k, v in COLUMNS.items()],
        "",
        "## Loading",
        "",
        "```python",
        "import pandas as pd",
        f'df = pd.read_parquet("data/{next(iter(counts))}-00000.parquet")',
        "from datasets import load_dataset",
        'ds = load_dataset("parquet", data_files={' + ", ".join(f'"{n}": "data/{n}-*.parquet"' for n in counts) + "})",
        "```",
        "",
    ]
    return "\n".join(header + lines)
