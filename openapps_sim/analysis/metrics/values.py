"""Reading the values of a record's fields, whatever shape a JSON round trip left them in."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def is_missing(value: Any) -> bool:
    """True for None, NaN and pandas' NA; never for a container (a list of one null item is
    one item, not a missing value)."""
    if value is None:
        return True
    if isinstance(value, (list, tuple, dict, set, np.ndarray)):
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a Series and other values with no one truth: never "missing"
        return False


def is_error(value: Any) -> bool:
    """Whether an ``error`` cell marks an infrastructure failure (a non-empty string)."""
    return not is_missing(value) and str(value).strip() != ""


def as_list(value: Any) -> list:
    if is_missing(value):
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, str):
        return [value]
    return list(value)


def as_dict(value: Any) -> dict:
    return dict(value) if isinstance(value, dict) else {}


def as_bool(value: Any) -> bool:
    return False if is_missing(value) else bool(value)


def token_total(tokens: Any) -> float:
    """Total tokens of one episode from its ``tokens`` dict.

    ``total_tokens`` or ``total`` when present; otherwise the sum of the numeric values whose key
    contains ``token`` (``input_tokens`` + ``output_tokens``, ``prompt_tokens`` + ...); 0 for an
    empty dict (an agent without a model); NaN when the dict has numbers but none of those keys.
    """
    d = as_dict(tokens)
    if not d:
        return 0.0
    for key in ("total_tokens", "total"):
        if isinstance(d.get(key), (int, float)) and not isinstance(d.get(key), bool):
            return float(d[key])
    parts = [
        float(v) for k, v in d.items() if "token" in str(k) and isinstance(v, (int, float)) and not isinstance(v, bool)
    ]
    return float(sum(parts)) if parts else float("nan")
