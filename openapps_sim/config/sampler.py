"""Generated variation packs: ``random-<seed>`` is a valid pack, the same for the same seed.

A generated pack draws colours (a harmonious palette from one hue, light or dark), fonts, text
size, spacing, corner radius, layout and navigation position; the structural knobs the apps
declare (schema fields marked ``vary``: week start, clock format, page sizes, previews, folder
order, start-page tile order...); and may build on one language pack and one description-style
pack from a fixed pool (:mod:`openapps_sim.config.pool`: the packs shipped with the package, or
a pool file the user names, which may add its own packs), never from whatever else is on
``OPENAPPS_VARIATIONS``: a generated name means one world on every machine.
``openapps variations sample --n 1000 --seed 0 --out DIR`` writes packs ``random-0-0`` ...
``random-0-999`` as YAML files.
"""

from __future__ import annotations

import colorsys
import random
from pathlib import Path

import yaml

from openapps_sim.config import pool
from openapps_sim.config.appearance import SAMPLED_FONTS
from openapps_sim.config.discovery import discover_apps
from openapps_sim.config.packs import GENERATED, Pack

DESCRIPTION_PACKS = list(pool.DESCRIPTION_PACKS)


def _hex(h: float, lightness: float, s: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h % 1.0, max(0.0, min(1.0, lightness)), max(0.0, min(1.0, s)))
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(background: str, dark: str = "#000000", light: str = "#ffffff") -> str:
    """Of a dark and a light text colour, the one with more contrast on ``background``: with
    black and white one of the two always reaches 4.58:1 (the square root of 21)."""
    lum = _luminance(background)
    on_dark = (_luminance(light) + 0.05) / (lum + 0.05)
    on_light = (lum + 0.05) / (_luminance(dark) + 0.05)
    return light if on_dark > on_light else dark


def colours(hue: float, dark: bool, sat: float) -> dict[str, str]:
    """A harmonious palette from one hue, light or dark (``theme.colors`` of a generated pack)."""
    if dark:
        bg, surface, text, muted, border = (
            _hex(hue, 0.08, 0.2),
            _hex(hue, 0.13, 0.2),
            _hex(hue, 0.92, 0.1),
            _hex(hue, 0.68, 0.1),
            _hex(hue, 0.25, 0.15),
        )
        primary, on_primary = _hex(hue, 0.68, sat), _hex(hue, 0.1, 0.3)
    else:
        bg, surface, text, muted, border = (
            _hex(hue, 0.96, 0.25),
            "#ffffff",
            _hex(hue, 0.12, 0.2),
            _hex(hue, 0.38, 0.12),
            _hex(hue, 0.85, 0.15),
        )
        primary, on_primary = _hex(hue, 0.40, sat), "#ffffff"
    accent = _hex(hue + 0.45, 0.6, 0.8)
    return {
        "background": bg,
        "surface": surface,
        "text": text,
        "muted": muted,
        "border": border,
        "primary": primary,
        "on_primary": on_primary,
        "accent": accent,
        "on_accent": text_on(accent),
        "danger": _hex(0.0, 0.5 if not dark else 0.65, 0.7),
        "success": _hex(0.38, 0.4 if not dark else 0.6, 0.6),
    }


def sample_pack_dict(name: str) -> dict:
    """The pack's content as a dict (what ``variations sample`` writes to a file)."""
    m = GENERATED.match(name)
    if not m:
        raise ValueError(name)
    rng = random.Random(name)
    hue = rng.random()
    dark = rng.random() < 0.35
    sat = rng.uniform(0.35, 0.85)
    theme = {
        "colors": colours(hue, dark, sat),
        "font": rng.choice(SAMPLED_FONTS),
        "heading_font": rng.choice(["same", "same"] + SAMPLED_FONTS),
        "font_size": rng.choice([12, 13, 14, 15, 16, 17, 18, 20, 22]),
        "line_height": round(rng.uniform(1.2, 1.8), 2),
        "letter_spacing": round(rng.choice([0.0, 0.0, 0.01, 0.03, 0.06]), 2),
        "radius": rng.choice([0, 2, 4, 8, 12, 16, 24]),
        "spacing": round(rng.uniform(0.6, 1.8), 2),
        "border_width": rng.choice([0, 1, 1, 2, 3]),
        "layout": "mobile" if rng.random() < 0.2 else "desktop",
        "content_width": rng.choice([720, 860, 960, 1100, 1280]),
        "nav_position": "bottom" if rng.random() < 0.2 else "top",
        "uppercase_buttons": rng.random() < 0.25,
        "shadows": rng.random() < 0.6,
    }
    drawn_from = pool.active_pool()
    languages = list(drawn_from.languages)  # discovered from the shipped packs (shell.lang), not listed here
    language = rng.choice(languages) if languages and rng.random() < 4 / 7 else None
    style = rng.choice([None, None, *drawn_from.descriptions])
    extras = list(drawn_from.extras)
    draw = random.Random(f"{name}:private")
    own = draw.choice(extras) if extras and draw.random() < 1 / 3 else None
    extends = [p for p in (language, style, own) if p]
    description = f"Generated pack {name}: {'dark' if dark else 'light'} palette, font {theme['font']}"
    if extends:
        description += ", with " + " and ".join(extends)
    return {"description": description, "extends": extends, "theme": theme, **draw_knobs(name)}


def knobs() -> dict[str, dict[str, tuple]]:
    """Every structural knob the apps declare (schema fields marked ``vary``): app -> field ->
    the values a generated pack draws from."""
    out: dict[str, dict[str, tuple]] = {}
    for app_name, app in discover_apps().items():
        for key, field in app.full_schema().fields.items():
            if field.vary_values():
                out.setdefault(app_name, {})[key] = field.vary_values()
    return out


def draw_knobs(name: str) -> dict[str, dict]:
    """Per-app structural settings (week start, clock, page sizes, previews, folder order,
    tile order...): each knob is drawn with probability one half, else left as it is."""
    rng = random.Random(f"{name}:knobs")
    sections: dict[str, dict] = {}
    for app_name, fields in sorted(knobs().items()):
        for key, values in sorted(fields.items()):
            if rng.random() < 0.5:
                sections.setdefault(app_name, {})[key] = rng.choice(values)
    return sections


def generated_pack(name: str):
    """The generated pack, its language and description parents named in ``extends``
    (``catalog.resolve_pack`` applies them, as for a pack file)."""
    data = sample_pack_dict(name)
    source = f"{name} (generated)"
    sections = [(source, key, value) for key, value in data.items() if key not in ("description", "extends")]
    return Pack(
        name=name,
        description=data["description"],
        sections=tuple(sections),
        extends=tuple(data["extends"]),
        source=source,
    )


def sample_names(n: int, seed: int) -> list[str]:
    return [f"random-{seed}-{i}" for i in range(n)]


def write_samples(n: int, seed: int, out_dir) -> list[str]:
    """Write ``n`` generated packs as YAML files: the sampled theme, and the shipped language
    and description packs they build on named under ``extends`` (a few hundred bytes each)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = sample_names(n, seed)
    for name in names:
        data = sample_pack_dict(name)
        if not data["extends"]:
            del data["extends"]
        (out / f"{name}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return names
