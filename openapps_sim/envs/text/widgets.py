"""The inner parts Chromium gives date, time and number fields (its shadow DOM), in the
en-US form Chromium shows under the environment's default locale: a date is three spin
buttons (month / day / year) and a picker button; a time is hours : minutes AM/PM and a
picker button; a number field holds its text. Values follow the field's live value."""

from __future__ import annotations

import struct

from openapps_sim.envs.text.dom import Element


def prop(node: dict, name: str, kind: str, value) -> None:
    """Add one accessibility property to a tree node, in Chromium's shape."""
    node["properties"].append({"name": name, "value": {"type": kind, "value": value}})


def _spin(b, parent: dict, name: str, value: int, low: int, high: int, shown: str, focused: bool) -> None:
    node = b.node("spinbutton", parent, f"{name} {name}")
    node["value"] = {"type": "integer", "value": value}
    if focused:
        prop(node, "focused", "booleanOrUndefined", True)
    prop(node, "valuemin", "number", low)
    prop(node, "valuemax", "number", high)
    prop(node, "valuetext", "string", "")
    b.node("StaticText", node, shown, internal=True)


def _picker(b, parent: dict, label: str) -> None:
    node = b.node("button", parent, f"{label} {label}")
    prop(node, "hasPopup", "token", "menu")


def date_fields(b, el: Element, node: dict, focused: bool) -> None:
    value = el.value or ""
    parts = value.split("-") if len(value) == 10 else []
    year, month, day = (int(p) for p in parts) if parts else (0, 0, 0)
    _spin(b, node, "Month", month, 1, 12, f"{month:02d}" if parts else "mm", focused)
    b.node("StaticText", node, "/", internal=True)
    _spin(b, node, "Day", day, 1, 31, f"{day:02d}" if parts else "dd", False)
    b.node("StaticText", node, "/", internal=True)
    _spin(b, node, "Year", year, 1, 275760, f"{year:04d}" if parts else "yyyy", False)
    _picker(b, node, "Show date picker")


def time_fields(b, el: Element, node: dict, focused: bool) -> None:
    value = el.value or ""
    if len(value) >= 5 and value[2] == ":":
        hour, minute = int(value[:2]), int(value[3:5])
        h12 = hour % 12 or 12
        hours = (h12, f"{h12:02d}")
        minutes = (minute, f"{minute:02d}")
        half = (1, "AM") if hour < 12 else (2, "PM")
    else:
        hours = minutes = half = (0, "--")
    _spin(b, node, "Hours", hours[0], 1, 12, hours[1], focused)
    b.node("StaticText", node, ":", internal=True)
    _spin(b, node, "Minutes", minutes[0], 0, 59, minutes[1], False)
    b.node("StaticText", node, " ", internal=True)
    _spin(b, node, "AM/PM", half[0], 1, 2, half[1], False)
    _picker(b, node, "Show time picker")


def number_value(text: str) -> int | float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def _single(number: int | float) -> int | float:
    """A number as Chromium reports a range value: in single precision (155.34 is
    155.33999633789062), a whole number as an integer (3.0 is 3)."""
    single = struct.unpack("f", struct.pack("f", float(number)))[0]
    return int(single) if single.is_integer() else single


def number_field(b, el: Element, node: dict) -> None:
    text = el.value or ""
    number = number_value(text)
    if number is not None:
        node["value"] = {"type": "number", "value": _single(number)}
    for attr, key in (("min", "valuemin"), ("max", "valuemax")):
        bound = number_value(el.get(attr) or "")  # a missing bound is 0, as Chromium reports it
        prop(node, key, "number", 0 if bound is None else _single(bound))
    prop(node, "valuetext", "string", text)
    if text:
        inner = b.node("generic", node, "")
        b.node("StaticText", inner, text, internal=True)
