"""The registry of task families: every family module in ``openapps_sim.tasks`` registers its
families with :func:`family` as it is imported; nothing here names one."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import TYPE_CHECKING

from openapps_sim.errors import unknown_name

if TYPE_CHECKING:
    from openapps_sim.taskkit import TaskFamily


@lru_cache(maxsize=1)
def all_families() -> dict[str, TaskFamily]:
    """Every family defined in the ``openapps_sim.tasks`` package, by id."""
    import openapps_sim.tasks as tasks_pkg

    for info in pkgutil.walk_packages(tasks_pkg.__path__, "openapps_sim.tasks."):
        importlib.import_module(info.name)
    return dict(sorted(_REGISTRY.items()))


_REGISTRY: dict[str, TaskFamily] = {}


def family(cls: type[TaskFamily]) -> type[TaskFamily]:
    """Class decorator: register a family under its ``id``."""
    if not cls.id or cls.id in _REGISTRY:
        raise ValueError(f"task family id {cls.id!r} is empty or registered twice")
    _REGISTRY[cls.id] = cls()
    return cls


def register_instance(fam: TaskFamily) -> TaskFamily:
    """Register an already-built family object (for families made by a factory)."""
    if not fam.id or fam.id in _REGISTRY:
        raise ValueError(f"task family id {fam.id!r} is empty or registered twice")
    _REGISTRY[fam.id] = fam
    return fam


def get_family(family_id: str, source: str = "--task") -> TaskFamily:
    families = all_families()
    if family_id not in families:
        raise unknown_name(source, "task", family_id, families)
    return families[family_id]
