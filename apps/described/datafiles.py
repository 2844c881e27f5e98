"""Records kept in a data file beside ``app.yaml``: a collection's ``records`` may name a CSV
file (a header row of field names, one record a row) or a YAML file (a list of records) in the
app's folder, instead of listing them (docs/apps/spec.md, "Data files")."""

from __future__ import annotations

import csv
from pathlib import Path

from openapps_sim.config.packs import display_path, read_yaml
from openapps_sim.errors import ConfigError, Problems

SUFFIXES = (".csv", ".yaml", ".yml")


def inline_records(raw: dict, folder: Path, source: str, problems: Problems) -> None:
    """Replace every ``records: <file>`` of ``raw`` by the records the file holds."""
    collections = raw.get("collections")
    for name, coll in (collections or {}).items() if isinstance(collections, dict) else ():
        if isinstance(coll, dict) and isinstance(coll.get("records"), str):
            at = f"collections.{name}.records"
            fields = coll.get("fields") if isinstance(coll.get("fields"), dict) else {}
            coll["records"] = problems.check(read_records, folder, coll["records"], fields, source, at, default=[])


def read_records(folder: Path, name: str, fields: dict, source: str, at: str) -> list:
    path = (Path(folder) / name).resolve()
    if Path(folder).resolve() not in path.parents or path.suffix not in SUFFIXES:
        raise ConfigError(
            source, at, f"{name!r} is no data file of this app", "a .csv or .yaml file in the app's folder"
        )
    if not path.is_file():
        raise ConfigError(source, at, f"{name!r} does not exist", "a .csv or .yaml file in the app's folder")
    if path.suffix != ".csv":
        rows = read_yaml(path)
        if not isinstance(rows, list):
            raise ConfigError(display_path(path), "", "expected a list of records")
        return rows
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return [_typed(row, fields, display_path(path), i) for i, row in enumerate(rows)]


def _typed(row: dict, fields: dict, source: str, i: int) -> dict:
    """A CSV row with each value as its field's type (an empty cell left out)."""
    out = {}
    for key, text in row.items():
        text = (text or "").strip()
        kind = (fields.get(key) or {}).get("type") if isinstance(fields.get(key), dict) else None
        if not text:
            continue
        try:
            if kind in ("number", "money"):
                out[key] = float(text)
            elif kind == "rating":
                out[key] = int(text)
            elif kind == "boolean":
                out[key] = text.lower() in ("true", "yes", "1")
            else:
                out[key] = text
        except ValueError:
            raise ConfigError(source, f"row {i + 2}.{key}", f"{text!r} is no {kind}", "a number") from None
    return out
