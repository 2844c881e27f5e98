"""The results folder: ``results.jsonl`` (one complete line per finished episode, appended by
the parent process only), ``manifest.json`` and ``trajectories/``. The one reader and the one
writer of episode records: a torn last line (a kill mid-write) is skipped and cut before the
next append, so a resumed sweep neither loses nor duplicates an episode."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from openapps_sim.sweeps.record import upgrade_record


def read_records(path: Path) -> tuple[list[dict], list[str]]:
    """The complete records of a results file, and notes on what was skipped.

    The one rule for damage, used by ``--resume`` and by the report alike: a torn last line
    (a kill mid-write) is skipped, and so is a line in the middle that is not a JSON object;
    each skip is noted, and the episodes behind them run again on ``--resume``.
    """
    path = Path(path)
    if not path.exists():
        return [], []
    records: list[dict] = []
    notes: list[str] = []
    data = path.read_text(encoding="utf-8", errors="replace")
    lines = data.split("\n")
    torn = lines.pop()  # text after the last newline: empty unless the last write was torn
    if torn.strip():
        notes.append(f"skipped a truncated last line ({len(torn)} characters) in {path.name}")
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            notes.append(
                f"skipped line {i} of {path.name}: not valid JSON ({e.msg}); its episode runs again on --resume"
            )
            continue
        if not isinstance(rec, dict) or "episode_id" not in rec:
            notes.append(f"skipped line {i} of {path.name}: not an episode record")
            continue
        records.append(upgrade_record(rec))
    return records, notes


def read_results(path: Path) -> list[dict]:
    """Every complete record in a results file (see :func:`read_records` for damage)."""
    return read_records(path)[0]


class ResultsWriter:
    """Appends records; each record is one ``os.write`` of one complete line, then fsync."""

    def __init__(self, path: Path):
        self.path = path
        self._repair()
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _repair(self) -> None:
        # Cut a torn last line left by a kill, so the next record starts on its own line.
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as fh:
                fh.truncate(cut)

    def write(self, record: dict) -> None:
        line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode()
        os.write(self.fd, line)
        os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    os.replace(tmp, path)


def save_trajectory(out: Path, trajectory: dict) -> None:
    if trajectory:
        tdir = out / "trajectories"
        tdir.mkdir(exist_ok=True)
        write_json_atomic(tdir / f"{trajectory['episode_id']}.json", trajectory)


LEGACY_EPISODE = "episode.json"  # the one record `openapps run --out` wrote before it appended to results.jsonl


def holds_results(folder: Path) -> bool:
    """Whether ``folder`` is a results folder (of ``openapps sweep`` or ``openapps run --out``)."""
    folder = Path(folder)
    return (folder / "results.jsonl").is_file() or (folder / LEGACY_EPISODE).is_file()


def result_folders(path: Path) -> list[Path]:
    """The results folders ``path`` stands for: itself when it is one, else its subfolders that
    are (a parent of run folders, ``runs/``), in name order; empty when there is none."""
    path = Path(path)
    if holds_results(path):
        return [path]
    if not path.is_dir():
        return []
    return sorted(p for p in path.iterdir() if p.is_dir() and holds_results(p))


def read_folder(folder: Path) -> tuple[list[dict], list[str]]:
    """The records of one results folder: ``results.jsonl``, after the ``episode.json`` an older
    ``openapps run --out`` left there (so a later record of the same episode wins)."""
    folder = Path(folder)
    records: list[dict] = []
    notes: list[str] = []
    single = folder / LEGACY_EPISODE
    if single.is_file():
        try:
            rec = json.loads(single.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            notes.append(f"skipped {single}: not readable ({e})")
        else:
            if isinstance(rec, dict) and "episode_id" in rec:
                records.append(upgrade_record(rec))
            else:
                notes.append(f"skipped {single}: not an episode record")
    more, more_notes = read_records(folder / "results.jsonl")
    return records + more, notes + more_notes
