"""What sweep tests share: a spec file with the smallest sweep, changed by keyword."""

from __future__ import annotations

from pathlib import Path

import yaml


def write_spec(tmp_path: Path, **data) -> Path:
    """``spec.yaml`` in ``tmp_path``: the oracle on ``todo.add_item``, default look, one seed,
    with ``data``'s keys laid over that."""
    base = {"name": "t", "agents": ["oracle"], "tasks": ["todo.add_item"], "variations": ["default"], "seeds": 1}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(base | data))
    return path
