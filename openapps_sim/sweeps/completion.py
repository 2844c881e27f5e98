"""How an episode ended, for the record: whether and how the agent declared it was done, a
premature stop (declared done while the state was not yet right) and an overrun (the goal held
but the agent went on). Under termination ``agent`` (docs/tasks.md) these are the agent's own
calls; under ``auto`` the episode ends as soon as the goal holds, so it never overruns."""

from __future__ import annotations


def completion_fields(task, checked_at: list[int], n_steps: int) -> dict:
    """The record's completion fields from ``task.completion`` (kept by
    :class:`~openapps_sim.envs.task.OpenAppsTask` per state check); ``checked_at`` maps each
    state check to the runner step it followed, ``n_steps`` is the number of actions taken."""
    c = getattr(task, "completion", None) or {}

    def step_of(check: int | None) -> int | None:
        return checked_at[check - 1] if check is not None and 0 < check <= len(checked_at) else None

    met = step_of(c.get("goal_met_at"))
    declared = step_of(c.get("declared_at"))
    if met is None:
        overrun = None
    elif declared is None:  # never declared: every step after the goal held was too many
        overrun = max(0, n_steps - met)
    else:  # the declaring step itself is needed, not an overrun
        overrun = max(0, declared - met - 1)
    return {
        "declared": c.get("declared"),
        "declared_step": declared,
        "premature_stop": bool(c.get("premature")),
        "goal_met_step": met,
        "overrun_steps": overrun,
    }
