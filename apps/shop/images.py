"""Product pictures drawn here as inline SVG: one simple shape per category, in the product's
colour. Only validated hex colours and numbers go into the markup, never configurable text."""

from __future__ import annotations

import re

ICONS = ("pot", "shirt", "device", "book", "plant", "toy", "ball", "box")
# pictures of one kind of product, drawn instead of its category's (a mixing bowl is no pot)
PICTURES = ("bowl", "pan", "knife", "teapot", "board", "plate", "cup", "grinder", "apron")
_HEX = re.compile(r"^#[0-9a-fA-F]{3,8}$")
_EDGE = 'stroke="rgba(0,0,0,.28)" stroke-width="1.5" stroke-linejoin="round"'

_SHAPES = {
    "pot": (
        '<rect x="8" y="50" width="12" height="6" rx="3" fill="{c}" {e}/>'
        '<rect x="80" y="50" width="12" height="6" rx="3" fill="{c}" {e}/>'
        '<path d="M18 44h64v22a16 16 0 0 1-16 16H34a16 16 0 0 1-16-16z" fill="{c}" {e}/>'
        '<path d="M22 42q28-18 56 0z" fill="{c}" {e}/><circle cx="50" cy="30" r="4" fill="{c}" {e}/>'
        '<path d="M28 58h44" stroke="rgba(255,255,255,.45)" stroke-width="3" stroke-linecap="round"/>'
    ),
    "bowl": (
        '<path d="M10 44h80a40 36 0 0 1-80 0z" fill="{c}" {e}/>'
        '<ellipse cx="50" cy="44" rx="40" ry="7" fill="{c}" {e}/>'
        '<ellipse cx="50" cy="44" rx="34" ry="4.5" fill="rgba(0,0,0,.18)"/>'
        '<path d="M24 58q8 14 22 17" fill="none" stroke="rgba(255,255,255,.45)" stroke-width="3" stroke-linecap="round"/>'
        '<rect x="38" y="78" width="24" height="6" rx="3" fill="{c}" {e}/>'
    ),
    "pan": (
        '<path d="M8 50h58v6a14 14 0 0 1-14 14H22a14 14 0 0 1-14-14z" fill="{c}" {e}/>'
        '<ellipse cx="37" cy="50" rx="29" ry="5" fill="rgba(0,0,0,.25)" {e}/>'
        '<rect x="64" y="48" width="30" height="7" rx="3.5" fill="#2b2f36" {e}/>'
    ),
    "knife": (
        '<path d="M10 58L62 44v18L16 64q-6 0-6-6z" fill="#d9dde3" {e}/>'
        '<rect x="60" y="44" width="32" height="18" rx="5" fill="{c}" {e}/>'
        '<circle cx="70" cy="53" r="2" fill="rgba(255,255,255,.7)"/><circle cx="82" cy="53" r="2" fill="rgba(255,255,255,.7)"/>'
    ),
    "teapot": (
        '<path d="M26 44h44q8 26-6 36H32q-14-10-6-36z" fill="{c}" {e}/>'
        '<path d="M70 52q14-4 20-16l4 3q-6 18-22 22z" fill="{c}" {e}/>'
        '<path d="M27 50q-16 0-14 12q2 10 14 10" fill="none" stroke="{c}" stroke-width="6"/>'
        '<path d="M32 44q16-14 32 0z" fill="{c}" {e}/><circle cx="48" cy="31" r="4" fill="{c}" {e}/>'
    ),
    "board": (
        '<rect x="12" y="30" width="70" height="44" rx="8" fill="{c}" {e}/>'
        '<rect x="80" y="46" width="12" height="12" rx="4" fill="{c}" {e}/>'
        '<circle cx="86" cy="52" r="2.5" fill="var(--background)"/>'
        '<path d="M22 42h40M22 52h48M22 62h34" stroke="rgba(0,0,0,.15)" stroke-width="2" stroke-linecap="round"/>'
    ),
    "plate": (
        '<ellipse cx="50" cy="56" rx="40" ry="22" fill="{c}" {e}/>'
        '<ellipse cx="50" cy="54" rx="26" ry="13" fill="rgba(0,0,0,.1)" {e}/>'
        '<ellipse cx="50" cy="40" rx="40" ry="22" fill="{c}" opacity=".85" {e}/>'
        '<ellipse cx="50" cy="38" rx="26" ry="13" fill="rgba(0,0,0,.1)"/>'
    ),
    "cup": (
        '<path d="M22 30h46v36a14 14 0 0 1-14 14H36a14 14 0 0 1-14-14z" fill="{c}" {e}/>'
        '<path d="M68 40h6a10 10 0 0 1 0 20h-6" fill="none" stroke="{c}" stroke-width="6"/>'
        '<ellipse cx="45" cy="30" rx="23" ry="4" fill="rgba(0,0,0,.25)"/>'
    ),
    "grinder": (
        '<path d="M36 34h28l4 50H32z" fill="{c}" {e}/><rect x="34" y="24" width="32" height="12" rx="4" fill="#2b2f36" {e}/>'
        '<circle cx="50" cy="18" r="5" fill="#2b2f36" {e}/>'
        '<path d="M42 44v32" stroke="rgba(255,255,255,.45)" stroke-width="3" stroke-linecap="round"/>'
    ),
    "apron": (
        '<path d="M38 14h24v18l16 4v52H22V36l16-4z" fill="{c}" {e}/>'
        '<path d="M22 44l-12-4M78 44l12-4" stroke="{c}" stroke-width="4" stroke-linecap="round"/>'
        '<rect x="36" y="56" width="28" height="16" rx="2" fill="rgba(0,0,0,.15)"/>'
    ),
    "shirt": (
        '<path d="M36 16L20 23L7 40l13 9l6-6v41h48V43l6 6l13-9l-13-17l-16-7q-14 12-28 0z" fill="{c}" {e}/>'
        '<path d="M36 16q14 12 28 0" fill="none" stroke="rgba(0,0,0,.3)" stroke-width="2"/>'
    ),
    "device": (
        '<rect x="12" y="18" width="76" height="50" rx="5" fill="#2b2f36" {e}/>'
        '<rect x="17" y="23" width="66" height="40" rx="2" fill="{c}"/>'
        '<path d="M42 68h16l4 12H38z" fill="#2b2f36"/><rect x="30" y="80" width="40" height="5" rx="2" fill="#2b2f36"/>'
        '<path d="M24 30l18 0M24 37l30 0" stroke="rgba(255,255,255,.55)" stroke-width="3" stroke-linecap="round"/>'
    ),
    "book": (
        '<rect x="24" y="12" width="54" height="76" rx="3" fill="{c}" {e}/>'
        '<rect x="24" y="12" width="9" height="76" fill="rgba(0,0,0,.22)"/>'
        '<rect x="40" y="26" width="30" height="5" rx="2" fill="rgba(255,255,255,.75)"/>'
        '<rect x="40" y="35" width="20" height="4" rx="2" fill="rgba(255,255,255,.6)"/>'
        '<rect x="74" y="16" width="6" height="70" fill="#f4f1e8" {e}/>'
    ),
    "plant": (
        '<path d="M50 60C34 54 28 38 34 24c10 8 16 20 16 36z" fill="#4f9d5a" {e}/>'
        '<path d="M50 60c16-6 22-22 16-36c-10 8-16 20-16 36z" fill="#3f8a4b" {e}/>'
        '<path d="M50 60C44 46 46 30 50 18c4 12 6 28 0 42z" fill="#5fb36a" {e}/>'
        '<path d="M28 58h44l-6 30H34z" fill="{c}" {e}/><rect x="25" y="56" width="50" height="8" rx="2" fill="{c}" {e}/>'
    ),
    "toy": (
        '<rect x="14" y="54" width="32" height="32" rx="3" fill="{c}" {e}/>'
        '<rect x="54" y="54" width="32" height="32" rx="3" fill="{c}" opacity=".8" {e}/>'
        '<rect x="34" y="20" width="32" height="32" rx="3" fill="{c}" opacity=".9" {e}/>'
        '<circle cx="30" cy="70" r="6" fill="rgba(255,255,255,.6)"/><path d="M44 30l12 12M56 30L44 42" '
        'stroke="rgba(255,255,255,.7)" stroke-width="3"/><path d="M62 62h16v16H62z" fill="rgba(255,255,255,.45)"/>'
    ),
    "ball": (
        '<circle cx="50" cy="50" r="34" fill="{c}" {e}/>'
        '<path d="M28 24q22 26 0 52M72 24q-22 26 0 52" fill="none" stroke="rgba(255,255,255,.75)" stroke-width="3"/>'
    ),
    "box": (
        '<path d="M18 34l32-14l32 14v36l-32 14l-32-14z" fill="{c}" {e}/>'
        '<path d="M18 34l32 14l32-14M50 48v36" fill="none" stroke="rgba(0,0,0,.25)" stroke-width="2"/>'
    ),
}


def product_svg(icon: str, colour: str, size: int = 160, cls: str = "shop-img") -> str:
    """An inline SVG picture (aria-hidden) of ``icon`` filled with ``colour``."""
    colour = colour if _HEX.match(colour or "") else "#7c8a99"
    icon = icon if icon in _SHAPES else "box"
    shape = _SHAPES[icon].format(c=colour, e=_EDGE)
    return (
        f'<svg class="{cls}" data-picture="{icon}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="{int(size)}" '
        f'height="{int(size)}" aria-hidden="true" focusable="false">'
        f'<rect x="0" y="0" width="100" height="100" rx="8" style="fill:var(--background)"/>{shape}</svg>'
    )
