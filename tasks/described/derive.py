"""``DERIVE(name, desc)``: the ids of the task families a described app's description derives,
registering none (``openapps apps check`` and ``openapps apps new`` count them: at least 8 per
app, docs/apps/spec.md, "Checking"). The registry finds it by its name
(:func:`openapps_sim.taskkit.registry.derived_families`)."""

from __future__ import annotations

from openapps_sim.tasks.described import answers, composed, crossapp, kit, maths


def DERIVE(name: str, desc: dict) -> list[str]:  # noqa: N802 (a hook the registry finds by name)
    """Every family id ``register`` would declare for app ``name`` with description ``desc``."""
    kit.COUNTING.append([])
    try:
        for module in (answers, composed, maths, crossapp):
            module.register({name: desc})
    finally:
        found = kit.COUNTING.pop()
    return found
