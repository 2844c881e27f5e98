"""Inline SVG icons, drawn here (no icon font, no request to another host).

These are the shared, generic icons; each app declares its own launcher icon as
``AppSpec.icon_svg`` (an SVG path) in its package.
"""

from __future__ import annotations

_PATHS = {
    "home": "M4 11l8-7 8 7M6 10v10h12V10",
    "search": "M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12zM15 15l5 5",
    "trash": "M5 7h14M9 7V4h6v3M7 7l1 13h8l1-13",
    "folder": "M3 6h7l2 2h9v11H3z",
    "file": "M6 3h8l4 4v14H6zM14 3v4h4",
    "star": "M12 3l2.7 5.8 6.3.7-4.7 4.3 1.3 6.2L12 17l-5.6 3 1.3-6.2L3 9.5l6.3-.7z",
    "app": "M5 5h6v6H5zM13 5h6v6h-6zM5 13h6v6H5zM13 13h6v6h-6z",
}


def icon_path(name: str) -> str:
    """The SVG path of a generic icon (the ``app`` grid for an unknown name)."""
    return _PATHS.get(name, _PATHS["app"])


def svg(path: str, size: int = 24, color: str = "currentColor") -> str:
    """An inline ``<svg>`` drawing one 24×24 path."""
    return (
        f'<svg class="icon" xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 24 24" '
        f'fill="none" stroke="{color}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" '
        f'aria-hidden="true"><path d="{path}"/></svg>'
    )
