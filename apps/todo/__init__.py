"""Todo: a list of tasks to add, edit, mark done or undone, delete, and clear when completed."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.apps.todo.model import initial_state, normalise
from openapps_sim.apps.todo.schema import SCHEMA
from openapps_sim.apps.todo.style import CSS

from openapps_sim.appkit import AppSpec

APP = AppSpec(
    name="todo",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes="openapps_sim.apps.todo.routes",
    normalise=normalise,
    order=10,
    css=CSS,
    icon_svg="M4 6h2v2H4zM9 6h11v2H9zM4 11h2v2H4zM9 11h11v2H9zM4 16h2v2H4zM9 16h11v2H9z",
)
