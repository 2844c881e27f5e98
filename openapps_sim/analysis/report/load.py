"""Reading a results folder: the results table (through the one record reader), the manifest
and trajectories."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

import openapps_sim.analysis.metrics as m
from openapps_sim.sweeps.record import upgrade_record
from openapps_sim.sweeps.store import read_records


def load_results(results_dir: Path | str) -> pd.DataFrame:
    """The results table of a folder: ``results.jsonl`` read, one record per episode id (or the
    single ``episode.json`` that ``openapps run --out`` writes).

    A truncated last line is skipped; notes about it are in ``df.attrs["notes"]``.
    """
    path = Path(results_dir) / "results.jsonl"
    single = Path(results_dir) / "episode.json"
    if not path.exists() and single.is_file():  # the folder of one ``openapps run --out``
        try:
            records, notes = [upgrade_record(json.loads(single.read_text(encoding="utf-8")))], []
        except (OSError, json.JSONDecodeError) as e:
            raise FileNotFoundError(f"{single} could not be read ({e})") from None
    elif not path.exists():
        raise FileNotFoundError(
            f"{path} does not exist: run a sweep first (openapps sweep SPEC --out DIR, or openapps run ... --out DIR)"
        )
    else:
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
