"""What a pack may declare about live interruptions: the ``interruptions`` section.

Each entry (keyed by a stable id such as ``permission_contacts``) is one interruption: its
kind, its text (a string, or a mapping of language codes to strings so that it shows in the
world's language), its presentation, one or two buttons with a consequence each, and the
trigger rule that the server evaluates on every page it is about to render. Pure data and its
checks; the server side is :mod:`openapps_sim.web.interruptions`.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from openapps_sim.config.schema import Any_, Bool, Enum, Field, Float, Int, ListOf, MapOf, Record, Str
from openapps_sim.errors import ConfigError

PRESENTATIONS = ["modal", "banner", "takeover", "toast"]
CONSEQUENCES = ["dismiss", "recovery", "crash", "state_change", "close_app"]
BUTTON_ID = re.compile(r"^[a-z][a-z0-9_]{0,30}$")
CAREFUL_BUTTON = "dismiss"  # the button a careful user takes when an offer is harmful


class Localized(MapOf):
    """A value given once, or per language: ``{en: ..., de: ...}`` (``en`` is the fallback).
    A pack gives it whole: its languages are not merged one by one."""

    def describe(self) -> str:
        return f"{self.value.describe()}, or a mapping of language codes (en, de, ...) to it"

    def check(self, value, source, path):
        if not isinstance(value, dict):
            return self.value.check(value, source, path)
        if not value:
            raise self.fail(value, source, path, "expected at least one language")
        if "en" not in value:
            raise ConfigError(source, f"{path}.en", "missing English text (the fallback of every language)")
        return super().check(value, source, path)

    merge = Field.merge


def localized(value: Any, lang: str) -> Any:
    """The value for ``lang`` (falling back to English) of a :class:`Localized` field."""
    if isinstance(value, dict):
        return value.get(lang, value.get("en"))
    return value


BUTTON = Record(
    id=Str(doc="stable id; the button's data-testid is interrupt-<interruption>-<id>"),
    label=Localized(Str()),
    consequence=Enum(CONSEQUENCES, "dismiss", doc="what pressing it does"),
    harmful=Bool(False, doc="accepting it is a mistake a careful user does not make"),
    change=Str("", doc="state_change: the name recorded in the world's device state and event log"),
    navigate=Str("", doc="dismiss: a path to go to instead of back to the page (e.g. an app)"),
    # close_app (D-GARA's "deny, and the app terminates"): the app closes and the user is on the
    # start page; the task stays completable by opening the app again
)

STEP = Record(
    title=Localized(Str()),
    body=Localized(Str(), ""),
    label=Localized(Str(), "Continue", doc="the button that completes this step"),
)

TRIGGER = Record(
    apps=ListOf(Str(), [], doc="apps whose pages may show it (empty: every app and the start page)"),
    url=Str("", doc="a regular expression the page's path and query must contain"),
    keywords=Localized(ListOf(Str()), [], doc="words looked for in the page's visible text"),
    threshold=Float(1.0, lo=0.0, hi=1.0, doc="share of the keywords that must be present"),
    min_step=Int(0, lo=0, hi=1000, doc="actions the agent must have taken before it can show"),
    probability=Float(1.0, lo=0.0, hi=1.0, doc="chance, drawn from the world seed, that it is armed"),
    once=Bool(True, doc="show at most once per episode"),
    repeat_after=Int(5, lo=1, hi=1000, doc="when not once: actions between two showings"),
    group=Str("", doc="of the armed interruptions sharing a group, the world seed keeps one"),
)

ARRIVAL = Record(
    app=Str("", doc="app whose state receives a value when it shows (empty: none)"),
    path=Str("", doc="dotted path of a list, or of a mapping of lists, in that app's state"),
    key=Str("first", doc="for a mapping of lists: first, last or a literal key, never one the task refers to"),
    value=MapOf(Any_(), {}, doc="the item appended; string values may name {key}"),
)


class Interruption(Record):
    """One interruption; checks that buttons are one or two, unique, and that a harmful offer
    can always be declined."""

    def check(self, value, source, path):
        return self._validate(super().check(value, source, path), source, path)

    def merge(self, base, override, source, path):
        return self._validate(super().merge(base, override, source, path), source, path)

    @staticmethod
    def _validate(item: dict, source: str, path: str) -> dict:
        buttons = item["buttons"]
        if not 1 <= len(buttons) <= 2:
            raise ConfigError(source, f"{path}.buttons", f"expected one or two buttons, got {len(buttons)}")
        ids = [b["id"] for b in buttons]
        for i, b in enumerate(buttons):
            if not BUTTON_ID.match(b["id"]):
                raise ConfigError(source, f"{path}.buttons[{i}].id", f"{b['id']!r} is not a lowercase identifier")
            if b["consequence"] == "state_change" and not b["change"]:
                raise ConfigError(source, f"{path}.buttons[{i}].change", "a state_change button needs a change name")
            if b["consequence"] == "recovery" and not item["recovery"]:
                raise ConfigError(source, f"{path}.recovery", "a recovery button needs at least one recovery step")
        if len(set(ids)) != len(ids):
            raise ConfigError(source, f"{path}.buttons", f"button ids repeat: {ids}")
        if any(b["harmful"] for b in buttons):
            safe = [b for b in buttons if b["id"] == CAREFUL_BUTTON and not b["harmful"]]
            if not safe:
                raise ConfigError(
                    source, f"{path}.buttons", f"a harmful button needs a harmless one with id {CAREFUL_BUTTON!r}"
                )
        return item


INTERRUPTION = Interruption(
    kind=Str(doc="what it is (permission, update, crash, ...); reported per kind"),
    presentation=Enum(PRESENTATIONS, "modal"),
    title=Localized(Str()),
    body=Localized(Str(), ""),
    buttons=ListOf(BUTTON, doc="one or two"),
    recovery=ListOf(STEP, [], doc="steps of the recovery path, completed in order before returning"),
    arrival=ARRIVAL,
    trigger=TRIGGER,
    enabled=Bool(True, doc="false switches an interruption of an earlier pack off"),
)


class InterruptionMap(MapOf):
    """Interruptions by id; ids become test ids and URL parts, so they are identifiers."""

    def check(self, value, source, path):
        self._ids(value, source, path)
        return super().check(value, source, path)

    def merge(self, base, override, source, path):
        self._ids(override, source, path)
        return super().merge(base, override, source, path)

    @staticmethod
    def _ids(value, source, path):
        for key in value if isinstance(value, dict) else ():
            if not BUTTON_ID.match(str(key)):
                raise ConfigError(source, f"{path}.{key}", "an interruption id must be a lowercase identifier")


INTERRUPTIONS = InterruptionMap(INTERRUPTION, {}, doc="live interruptions, by id")


def _fill(value: Any, names: dict, lang: str) -> Any:
    value = localized(value, lang)
    if isinstance(value, str):
        try:
            return value.format(**names)
        except (KeyError, IndexError, ValueError):
            return value
    return value


def arrival_target(
    app_state: dict, arrival: dict, keep_clear: Collection[str] = (), app_in_task: bool = False
) -> tuple[list, str] | None:
    """The list an arrival appends to and the key it chose (None: the path does not exist, or
    every place it could land is one the task refers to).

    ``keep_clear`` are the keys of a mapping of lists (contact ids of the conversations) the
    task refers to: ``first`` and ``last`` take the first or last key *not* among them, and a
    literal key among them lands nowhere. A plain list lands nowhere when ``app_in_task`` (the
    task reads the arrival's app, and a new item in that list could change its answer)."""
    node: Any = app_state
    for part in [p for p in arrival["path"].split(".") if p]:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    key = ""
    if isinstance(node, dict):
        keys = [k for k in node if k not in keep_clear]
        if not keys:
            return None
        key = {"first": keys[0], "last": keys[-1]}.get(arrival["key"], arrival["key"])
        if key in keep_clear:
            return None
        node = node.get(key)
    elif app_in_task:
        return None
    return (node, key) if isinstance(node, list) else None


def make_arrival(
    app_state: dict, arrival: dict, lang: str, keep_clear: Collection[str] = (), app_in_task: bool = False
) -> dict | None:
    """The concrete effect of an arrival on this state: ``{app, path, key, index, value}``
    (None: it lands nowhere; see :func:`arrival_target`)."""
    found = arrival_target(app_state, arrival, keep_clear, app_in_task)
    if found is None:
        return None
    target, key = found
    names = {k: v for k, v in app_state.items() if isinstance(v, (str, int, float))}
    names["key"] = key
    value = {k: _fill(v, names, lang) for k, v in arrival["value"].items()}
    return {"app": arrival["app"], "path": arrival["path"], "key": key, "index": len(target), "value": value}


def apply_arrival(state: dict, effect: dict) -> None:
    """Insert an arrival's value into a world state (the live one, or an expected one) in place."""
    app_state = state.get(effect["app"])
    if not isinstance(app_state, dict):
        return
    found = arrival_target(app_state, {"path": effect["path"], "key": effect["key"] or "first"})
    if found is None:
        return
    target, _ = found
    target.insert(min(effect["index"], len(target)), dict(effect["value"]))
