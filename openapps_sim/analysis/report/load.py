"""Reading a results folder: the results table (through the one record reader), the manifest
and trajectories."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from openapps_sim.analysis.metrics.table import deduplicate
from openapps_sim.sweeps.store import read_folder, result_folders


def load_results(results_dir: Path | str) -> pd.DataFrame:
    """The results table of a folder: ``results.jsonl`` read, one record per episode id. The
    folder may be one of ``openapps sweep`` or ``openapps run --out`` (an older run's
    ``episode.json`` included), or a parent of such folders (``runs/``), whose records are read
    together.

    A truncated last line is skipped; notes about it are in ``df.attrs["notes"]``. Rows are in
    episode-id order, not in the order the sweep's workers finished them, so that every figure
    (bootstrap intervals resample rows by position) depends only on which episodes there are.
    """
    folders = result_folders(Path(results_dir))
    if not folders:
        path = Path(results_dir) / "results.jsonl"
        raise FileNotFoundError(
            f"{path} does not exist: run a sweep first (openapps sweep SPEC --out DIR, or openapps run ... --out DIR)"
        )
    records: list[dict] = []
    notes: list[str] = []
    for folder in folders:
        more, more_notes = read_folder(folder)
        records += more
        notes += more_notes
    df = pd.DataFrame(records)
    n_raw = len(df)
    df = deduplicate(df)
    if "episode_id" in df.columns:
        df = df.sort_values("episode_id", kind="stable")
    df = df.reset_index(drop=True)
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


def trajectory_file(results_dir: Path | str, episode_id: str) -> Path | None:
    """Where the trajectory of ``episode_id`` is: ``trajectories/<id>.json`` of the folder, or of
    one of its run folders when it is a parent of several (``runs/``)."""
    root = Path(results_dir)
    for folder in [root, *(f for f in result_folders(root) if f != root)]:
        path = folder / "trajectories" / f"{episode_id}.json"
        if path.is_file():
            return path
    return None


def trajectory_files(results_dir: Path | str) -> list[Path]:
    """Every trajectory file of the folder and of its run folders, in name order."""
    root = Path(results_dir)
    found = {}
    for folder in [root, *(f for f in result_folders(root) if f != root)]:
        for path in sorted((folder / "trajectories").glob("*.json")):
            found.setdefault(path.stem, path)
    return [found[k] for k in sorted(found)]


_IMAGE_KEYS = ("screenshot", "thumbnail")


def load_trajectory(results_dir: Path | str, episode_id: str) -> dict | None:
    """The trajectory of ``episode_id`` (see :func:`trajectory_file`) or None. Found in a run
    folder under ``results_dir``, its screenshot paths are made relative to ``results_dir``."""
    path = trajectory_file(results_dir, episode_id)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    run = path.parent.parent
    if run != Path(results_dir):
        prefix = run.relative_to(Path(results_dir)).as_posix()
        for key in ("first_screenshot", "first_thumbnail"):
            if data.get(key):
                data[key] = f"{prefix}/{data[key]}"
        for step in data.get("steps") or []:
            for key in _IMAGE_KEYS:
                if isinstance(step, dict) and step.get(key):
                    step[key] = f"{prefix}/{step[key]}"
    return data
