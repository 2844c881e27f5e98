"""Screenshots for the model: PNG encoding, shrinking, and the set-of-marks overlay."""

from __future__ import annotations

import base64
import io
from typing import Any

from .page import interactive_elements

MARK_COLOUR = (230, 0, 120)


def draw_marks(array: Any, obs: dict) -> Any:
    """The screenshot with every visible interactive element outlined and labelled with its bid
    (set-of-marks, as the OpenApps and VisualWebArena agents use). Returns a PIL image."""
    from PIL import Image, ImageDraw

    image = Image.fromarray(array).convert("RGB")
    draw = ImageDraw.Draw(image)
    extra = obs.get("extra_element_properties") or {}
    for el in interactive_elements(obs):
        props = extra.get(el.bid) or {}
        bbox = props.get("bbox")
        if not bbox or not el.visible:
            continue
        x, y, w, h = (float(v) for v in bbox)
        if w <= 0 or h <= 0 or x + w < 0 or y + h < 0 or x > image.width or y > image.height:
            continue
        draw.rectangle([x, y, x + w, y + h], outline=MARK_COLOUR, width=2)
        label = str(el.bid)
        tw = 7 * len(label) + 4
        top = max(0.0, y - 14)
        draw.rectangle([x, top, x + tw, top + 14], fill=MARK_COLOUR)
        draw.text((x + 2, top + 1), label, fill=(255, 255, 255))
    return image


def encode_png(array: Any, max_side: int | None = None, marks_obs: dict | None = None) -> tuple[str, tuple[int, int]]:
    """A numpy screenshot as base64 PNG, optionally with set-of-marks drawn from ``marks_obs``,
    and shrunk so its longer side is ``max_side``. Returns (base64, (width, height))."""
    from PIL import Image

    image = draw_marks(array, marks_obs) if marks_obs is not None else Image.fromarray(array)
    if image.mode != "RGB":
        image = image.convert("RGB")
    if max_side and max(image.size) > max_side:
        ratio = max_side / max(image.size)
        image = image.resize((max(1, round(image.width * ratio)), max(1, round(image.height * ratio))), Image.LANCZOS)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii"), image.size
