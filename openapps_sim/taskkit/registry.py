"""The registry of task families: every family module in ``openapps_sim.tasks`` registers its
families with :func:`family` as it is imported; nothing here names one.

A family's header is one line above its class, its description the class docstring::

    @family("todo.count_open", apps="todo", max_steps=6, category="count", answer_kind="number")
    class CountOpen(AnswerFamily):
        \"\"\"Answer how many items on the todo list are still open (not done).\"\"\"
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from openapps_sim.errors import ConfigError, unknown_name

if TYPE_CHECKING:
    from openapps_sim.taskkit import TaskFamily

F = TypeVar("F", bound="type[TaskFamily]")


@lru_cache(maxsize=1)
def all_families() -> dict[str, TaskFamily]:
    """Every family defined in the ``openapps_sim.tasks`` package, by id."""
    import openapps_sim.tasks as tasks_pkg

    for info in pkgutil.walk_packages(tasks_pkg.__path__, "openapps_sim.tasks."):
        importlib.import_module(info.name)
    return dict(sorted(_REGISTRY.items()))


_REGISTRY: dict[str, TaskFamily] = {}


def derived_families(name: str, desc: dict) -> list[str] | None:
    """The ids of the families a task module derives from a described app's description (its
    ``DERIVE(name, desc)``), none of them registered; None when no task module derives any."""
    import openapps_sim.tasks as tasks_pkg

    all_families()  # every task module imported (and its own families registered) first
    for info in pkgutil.walk_packages(tasks_pkg.__path__, "openapps_sim.tasks."):
        derive = getattr(importlib.import_module(info.name), "DERIVE", None)
        if callable(derive):
            return list(derive(name, desc))
    return None


def family(family_id: str, /, *, apps: str | tuple[str, ...] | None = None, **header: Any) -> Callable[[F], F]:
    """Class decorator: declare a family's header and register one instance under ``family_id``.

    ``apps`` is one app name or a tuple of them (a subclass family that leaves it out keeps its
    base's). Every other keyword sets a class attribute the family or its bases already declare
    (``max_steps``, ``category``, ``answer_kind``, ``clicks``, ``no_api``, ...); a tuple
    attribute given one string holds that one string.
    The description is the first paragraph of the class docstring, white space folded (the
    rest of the docstring is for readers of the code); a class without one keeps its base's.
    """
    if not isinstance(family_id, str):
        raise TypeError("@family takes the family id first: @family('todo.add_item', apps='todo', ...)")

    def declare(cls: F) -> F:
        source = f"{cls.__module__}.{cls.__qualname__}"
        settable = {k for k in dir(cls) if k[0] != "_" and k != "id" and _is_data(getattr(cls, k))}
        unknown = sorted(set(header) - settable)
        if unknown:
            raise unknown_name(source, f"@family({family_id!r})", unknown[0], settable, what="family attribute")
        cls.id = family_id
        declared = {"apps": apps, **header} if apps is not None else header
        for key, value in declared.items():
            if isinstance(getattr(cls, key), tuple):  # apps="todo", clicks="todo-add": one-element tuples
                value = (value,) if isinstance(value, str) else tuple(value)
            setattr(cls, key, value)
        doc = cls.__dict__.get("__doc__")
        if doc:
            cls.description = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())
        register_instance(cls(), source)
        return cls

    return declare


def _is_data(value: object) -> bool:
    """A class attribute a header may set: data, not a method or a property."""
    return not callable(value) and not isinstance(value, property)


def register_instance(fam: TaskFamily, source: str = "") -> TaskFamily:
    """Register an already-built family object (for families made by a factory)."""
    where = source or f"{type(fam).__module__}.{type(fam).__qualname__}"
    if not fam.id:
        raise ConfigError(where, "id", "a task family needs an id", "a dotted name such as 'todo.add_item'")
    if fam.id in _REGISTRY:
        first = type(_REGISTRY[fam.id])
        raise ConfigError(
            where, "id", f"task family id {fam.id!r} is already registered by {first.__module__}.{first.__qualname__}"
        )
    _REGISTRY[fam.id] = fam
    return fam


# where the full list of task ids is (an unknown task's error names it instead of all 90-odd ids)
TASK_LISTING = "openapps tasks (MCP: list_tasks)"


def unknown_task(source: str, key: str, name: str) -> ConfigError:
    """The error for a task id (or a pattern of ids) that names no family: the closest ids, and
    where the list is."""
    return unknown_name(source, key, name, all_families(), listing=TASK_LISTING, noun="task ids")


def get_family(family_id: str, source: str = "--task") -> TaskFamily:
    families = all_families()
    if family_id not in families:
        raise unknown_task(source, "task", family_id)
    return families[family_id]
