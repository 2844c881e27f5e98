"""Full-state comparison: the normalised world state, expected versus actual, path by path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StateDiff:
    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path}: expected {_short(self.expected)}, got {_short(self.actual)}"

    def as_dict(self) -> dict:
        return {"path": self.path, "expected": self.expected, "actual": self.actual}


MISSING = "<missing>"


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def normalise_world(state: dict) -> dict:
    """Each app's state through that app's ``normalise`` (see docs/tasks.md)."""
    from openapps_sim.config.catalog import discover_apps

    apps = discover_apps()
    return {name: (apps[name].normalise(value) if name in apps else value) for name, value in state.items()}


def state_diff(expected: Any, actual: Any, path: str = "") -> list[StateDiff]:
    """Every place where ``actual`` differs from ``expected`` (empty list: equal)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out: list[StateDiff] = []
        for key in expected.keys() | actual.keys():
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append(StateDiff(sub, expected[key], MISSING))
            elif key not in expected:
                out.append(StateDiff(sub, MISSING, actual[key]))
            else:
                out.extend(state_diff(expected[key], actual[key], sub))
        return sorted(out, key=lambda d: d.path)
    if isinstance(expected, list) and isinstance(actual, list):
        out = []
        for i in range(max(len(expected), len(actual))):
            sub = f"{path}[{i}]"
            if i >= len(actual):
                out.append(StateDiff(sub, expected[i], MISSING))
            elif i >= len(expected):
                out.append(StateDiff(sub, MISSING, actual[i]))
            else:
                out.extend(state_diff(expected[i], actual[i], sub))
        return out
    if isinstance(expected, float) or isinstance(actual, float):
        try:
            if abs(float(expected) - float(actual)) <= 1e-9:
                return []
        except (TypeError, ValueError):
            pass
    return [] if expected == actual else [StateDiff(path, expected, actual)]
