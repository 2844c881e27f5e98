"""Screenshots embedded in a report (downscaled JPEG data URIs, within a size budget) and page
URLs shown without scheme and host: what the trajectory viewer puts on each step."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Budget:
    """The bytes of embedded screenshots a report may still hold."""

    remaining: int


def embed_image(results_dir: Path, rel: Any, width: int, budget: Budget) -> tuple[str | None, str]:
    """A data URI for a screenshot (downscaled JPEG), or (None, reason)."""
    if not rel:
        return None, ""
    root = results_dir.resolve()
    cands = [results_dir / str(rel), results_dir / "screenshots" / str(rel)]
    path = next((c for c in cands if c.is_file() and c.resolve().is_relative_to(root)), None)
    if path is None:
        return None, "screenshot file missing"
    if budget.remaining <= 0:
        return None, "screenshot left out (report size budget reached)"
    try:
        from PIL import Image  # Pillow is loaded only when a report embeds a screenshot

        with Image.open(path) as im:
            im = im.convert("RGB")
            if im.width > width:
                im = im.resize((width, max(1, round(im.height * width / im.width))), Image.LANCZOS)
            buf = io.BytesIO()
            im.save(buf, "JPEG", quality=78, optimize=True)
    except Exception as e:  # noqa: BLE001 - an unreadable image must not stop the report
        return None, f"screenshot unreadable ({type(e).__name__})"
    data = buf.getvalue()
    budget.remaining -= len(data)
    return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii"), ""


def url_path(url: Any) -> str:
    """Show a page URL without scheme and host: ``/todo?tab=done``."""
    text = str(url or "")
    if "://" in text:
        rest = text.split("://", 1)[1]
        text = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return text
