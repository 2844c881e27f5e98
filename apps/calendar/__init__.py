"""Calendar: a month view with a day agenda, search, and events to create, open, edit,
duplicate and delete.

The calendar's "today" is a fixed date in its configuration (``today``), never the wall clock,
so every run of a task sees the same month first.
"""

from __future__ import annotations

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(
    __name__, category="Productivity", order=20, icon_svg="M5 5h14v15H5zM5 9h14M8 3v4M16 3v4M8 13h3v3H8z"
)
