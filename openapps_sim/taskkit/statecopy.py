"""A deep copy of a world state (dicts, lists, tuples and scalars), several times faster than
``copy.deepcopy``: it keeps no memo of objects seen, since a state holds no shared or cyclic
parts (it travels as JSON). Anything else inside is copied by ``copy.deepcopy``."""

from __future__ import annotations

import copy
from typing import Any

_ATOMS = (str, int, float, bool, type(None))


def copy_state(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_state(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else copy_state(v) for v in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(copy_state(v) for v in value)
    return copy.deepcopy(value)
