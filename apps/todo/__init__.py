"""Todo: a list of tasks to add, edit, mark done or undone, delete, and clear when completed."""

from __future__ import annotations

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(
    __name__,
    category="Productivity",
    order=10,
    icon_svg="M4 6h2v2H4zM9 6h11v2H9zM4 11h2v2H4zM9 11h11v2H9zM4 16h2v2H4zM9 16h11v2H9z",
)
