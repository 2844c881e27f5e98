"""Inline SVG icons, drawn here (no icon font, no request to another host)."""

from __future__ import annotations

_PATHS = {
    "todo": "M4 6h2v2H4zM9 6h11v2H9zM4 11h2v2H4zM9 11h11v2H9zM4 16h2v2H4zM9 16h11v2H9z",
    "calendar": "M5 5h14v15H5zM5 9h14M8 3v4M16 3v4M8 13h3v3H8z",
    "messenger": "M4 5h16v11H9l-5 4z",
    "maps": "M12 21s-6-6.2-6-11a6 6 0 1 1 12 0c0 4.8-6 11-6 11zM12 8a2 2 0 1 0 0 4a2 2 0 1 0 0-4z",
    "shop": "M5 8h14l-1 12H6zM9 8V6a3 3 0 0 1 6 0v2",
    "code_editor": "M9 7l-5 5 5 5M15 7l5 5-5 5M13 5l-2 14",
    "home": "M4 11l8-7 8 7M6 10v10h12V10",
    "search": "M10 4a6 6 0 1 0 0 12a6 6 0 1 0 0-12zM15 15l5 5",
    "trash": "M5 7h14M9 7V4h6v3M7 7l1 13h8l1-13",
    "folder": "M3 6h7l2 2h9v11H3z",
    "file": "M6 3h8l4 4v14H6zM14 3v4h4",
    "star": "M12 3l2.7 5.8 6.3.7-4.7 4.3 1.3 6.2L12 17l-5.6 3 1.3-6.2L3 9.5l6.3-.7z",
    "app": "M5 5h6v6H5zM13 5h6v6h-6zM5 13h6v6H5zM13 13h6v6h-6z",
}
ICON_NAMES = sorted(_PATHS)


def icon_svg(name: str, size: int = 24, color: str = "currentColor") -> str:
    path = _PATHS.get(name, _PATHS["app"])
    return (
        f'<svg class="icon" xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 24 24" '
        f'fill="none" stroke="{color}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" '
        f'aria-hidden="true"><path d="{path}"/></svg>'
    )
