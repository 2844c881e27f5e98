"""Full-state comparison: the normalised world state, expected versus actual, explained item by item.

Success is decided by equality of the normalised states (with a tolerance for floats); the list of
differences only explains it. Items of a list are matched by identity, not by position: by the
natural key an app declares for that list (``AppSpec.item_keys``, for example a todo's title), or
by ``id``, or else by equal content. So one missing todo is one difference (``missing todo 'buy
oat milk'``), one extra item is one, an item added twice is one, and one changed field is one.
"""

from __future__ import annotations

import json
import marshal
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii
from typing import Any

from openapps_sim.appkit import ItemKey
from openapps_sim.config.catalog import Undrawn


@dataclass(frozen=True)
class StateDiff:
    path: str
    expected: Any
    actual: Any
    note: str = ""  # the difference in words, when it is about a whole item

    def __str__(self) -> str:
        if self.note:
            return self.note
        return f"{self.path}: expected {_short(self.expected)}, got {_short(self.actual)}"

    def as_dict(self) -> dict:
        out = {"path": self.path, "expected": self.expected, "actual": self.actual}
        return out | {"note": self.note} if self.note else out


MISSING = "<missing>"


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def normalise_world(state: dict, memo: bool = False, base: dict | None = None) -> dict:
    """Each app's state through that app's ``normalise`` (see docs/tasks.md). ``memo``: an app's
    state of the same typed bytes as before normalises to the value kept then. ``base``: a state
    given to :func:`normalised_expected` before; an app's state the same as there takes the
    normalisation made there. Either way the result is to be read, never changed."""
    from openapps_sim.config.catalog import discover_apps

    apps = discover_apps()
    known = _normalised_entry(base) if base is not None else None
    out = {}
    for name, value in state.items():
        if name not in apps or type(value) is Undrawn:  # an app not drawn is compared as itself
            out[name] = value
            continue
        text = None
        if known is not None and name in known[0]:
            if known[0][name] is value:  # the base's own value (a state scored as it began)
                out[name] = known[1][name]
                continue
            if known[0][name] == value:
                text = _typed_bytes(value)  # equal, and of the same types throughout?
                if text is not None and _app_text(known, name) == text:
                    out[name] = known[1][name]
                    continue
        if memo and (text := text if text is not None else _typed_bytes(value)) is not None:
            out[name] = _remembered((name, text), lambda a=apps[name], v=value: a.normalise(v))
        else:
            out[name] = apps[name].normalise(value)
    return out


_NORMALISED: dict[tuple[str, bytes], Any] = {}  # (app, typed bytes of its state) -> normalised
NORMALISED_KEPT = 1024  # entries of _NORMALISED: the 64 apps of 16 worlds
_NORMALISED_LOCK = threading.Lock()  # the sessions of one server score on their own threads


def _remembered(key: tuple[str, bytes], make: Callable[[], Any]) -> Any:
    """The normalisation kept under ``key``, or ``make()`` kept (the oldest entry let go)."""
    with _NORMALISED_LOCK:
        if key in _NORMALISED:
            return _NORMALISED[key]
    value = make()
    with _NORMALISED_LOCK:
        if len(_NORMALISED) >= NORMALISED_KEPT:
            _NORMALISED.pop(next(iter(_NORMALISED)))
        _NORMALISED[key] = value
    return value


def _typed_bytes(value: Any) -> bytes | None:
    """``value`` written by marshal's version 2 (no references, so equal values give equal bytes;
    1, 1.0 and True differ, so do a list and a tuple), or None for a value marshal cannot write."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:  # not a plain value (a set, an object): never taken as the same
        return None


def _app_text(entry: tuple[dict, dict, dict[str, bytes | None]], name: str) -> bytes | None:
    """The typed bytes of app ``name``'s state in ``entry``, made once."""
    texts = entry[2]
    if name not in texts:
        texts[name] = _typed_bytes(entry[0][name])
    return texts[name]


# id(state) -> (state, normalised, typed bytes of an app's state, made when first asked)
_EXPECTED: dict[int, tuple[dict, dict, dict[str, bytes | None]]] = {}


def normalised_expected(expected: dict, base: dict | None = None) -> dict:
    """``normalise_world(expected)``, computed once per expected (or initial) state; with
    ``base`` (the instance's initial state), an app's state the same as there takes its
    normalisation from there (most tasks change one app)."""
    return _normalised_entry(expected, base)[1]


def _normalised_entry(state: dict, base: dict | None = None) -> tuple[dict, dict, dict[str, bytes | None]]:
    hit = _EXPECTED.get(id(state))
    if hit is not None and hit[0] is state:
        return hit
    if len(_EXPECTED) > 256:  # two per episode (expected, initial): 64 envs of one process fit
        _EXPECTED.clear()
    if base is not None and base is not state:
        normalised = normalise_world(state, base=base)
    else:  # an initial state: most of its apps are as every world of its seed begins them
        normalised = normalise_world(state, memo=True)
    entry = (state, normalised, {})
    _EXPECTED[id(state)] = entry
    return entry


_DECLARED: list = [None, None]  # the apps last asked for, and their keys (with what matched so far)


def declared_keys() -> dict[str, ItemKey]:
    """Every app's list identities, by pattern over world paths (``todo.items``), made once for the
    apps there are, with what each path pattern matched kept across comparisons."""
    from openapps_sim.config.catalog import discover_apps

    if _DECLARED[0] is not (apps := discover_apps()):
        _DECLARED[:] = [apps, _Matched({f"{n}.{p}": k for n, a in apps.items() for p, k in a.item_keys.items()})]
    return _DECLARED[1]


def same(expected: Any, actual: Any) -> bool:
    """Equality of two states, floats within 1e-9 (what success means)."""
    if expected == actual and type(expected) is type(actual):
        return True  # equal as Python compares them (in C): equal within any tolerance too
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(same(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual, strict=False))
    if isinstance(expected, float) or isinstance(actual, float):
        try:
            return abs(float(expected) - float(actual)) <= 1e-9
        except (TypeError, ValueError):
            return False
    return expected == actual


def state_diff(expected: Any, actual: Any, path: str = "", keys: dict[str, ItemKey] | None = None) -> list[StateDiff]:
    """Every difference between ``actual`` and ``expected`` (empty list: equal).

    ``keys`` maps list paths (``todo.items``; ``*`` stands for any mapping key, ``[]`` for any list
    item) to the identity of their items; by default, what the apps declare.
    """
    return _diff(expected, actual, path, declared_keys() if keys is None else _Matched(keys))


def _diff(expected: Any, actual: Any, path: str, keys: dict[str, ItemKey]) -> list[StateDiff]:
    if same(expected, actual):
        return []
    if isinstance(expected, dict) and isinstance(actual, dict):
        out: list[StateDiff] = []
        entry = _key_for(path, keys)  # a mapping declared as a collection: its keys name items
        noun = _noun(path, entry) if entry is not None else "key"
        for key in sorted(expected.keys() | actual.keys(), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append(StateDiff(sub, expected[key], MISSING, f"{path or 'state'}: missing {noun} {key!r}"))
            elif key not in expected:
                out.append(StateDiff(sub, MISSING, actual[key], f"{path or 'state'}: extra {noun} {key!r}"))
            else:
                out.extend(_diff(expected[key], actual[key], sub, keys))
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        out = _list_diff(expected, actual, path, _key_for(path, keys), keys)
        # Same items in another order: the only way matched items can still differ.
        return out or [StateDiff(path, expected, actual, f"{path}: the same items in a different order")]
    return [StateDiff(path, expected, actual)]


def _pattern(path: str) -> str:
    return re.sub(r"\[[^\]]*\]", "[]", path)


class _Matched(dict):
    """Declared keys, with what each path pattern matched so far (asked once per list item)."""

    def __init__(self, keys: dict[str, ItemKey]):
        super().__init__(keys)
        self.found: dict[str, ItemKey | None] = {}
        self.split = [(declared.split("."), key) for declared, key in keys.items()]


def _key_for(path: str, keys: _Matched) -> ItemKey | None:
    pattern = _pattern(path)
    if pattern not in keys.found:
        p = pattern.split(".")
        fit = (k for w, k in keys.split if len(w) == len(p) and all(a in ("*", b) for a, b in zip(w, p, strict=True)))
        keys.found[pattern] = next(fit, None)
    return keys.found[pattern]


def _identity(item: Any, key: ItemKey | None) -> Any:
    if not isinstance(item, dict):
        return None
    if key is not None and key.fields:
        try:
            return tuple([item[f] for f in key.fields])
        except KeyError:  # an item without every field of its identity has none
            return None
    return (item["id"],) if "id" in item else None


# The JSON text of a scalar of exactly these types, as json.dumps writes it (a subclass, a float
# or anything else goes through json.dumps itself).
_SCALAR_TEXT = {
    str: encode_basestring_ascii,
    int: int.__repr__,
    bool: lambda v: "true" if v else "false",
    type(None): lambda v: "null",
}


def _group_id(ident: tuple | None) -> str:
    """The group of an item with identity ``ident``: its JSON text (1, 1.0 and True differ; plain
    strings, integers, booleans and None written here, without json.dumps); "" without one."""
    if ident is None:
        return ""
    try:
        return "[" + ", ".join([_SCALAR_TEXT[type(v)](v) for v in ident]) + "]"
    except KeyError:
        return json.dumps(ident, sort_keys=True, default=str)


def _label(item: Any, key: ItemKey | None) -> str:
    ident = _identity(item, key)
    if ident is None:
        return _short(item, 80)
    return " ".join(repr(v) for v in ident)


def _noun(path: str, key: ItemKey | None) -> str:
    if key is not None and key.noun:
        return key.noun
    last = _pattern(path).split(".")[-1].replace("[]", "")
    return last[:-1] if last.endswith("s") else f"item of {last}"


def _list_diff(expected: list, actual: list, path: str, key: ItemKey | None, keys: dict) -> list[StateDiff]:
    noun = _noun(path, key)
    # Group by identity (items without one form a single anonymous group), then match within
    # each group: equal items first, then the rest in order as changed items.
    groups: dict[str, tuple[list, list]] = {}
    for side, items in ((0, expected), (1, actual)):
        for item in items:
            gid = _group_id(_identity(item, key))
            groups.setdefault(gid, ([], []))[side].append(item)
    out: list[StateDiff] = []
    for gid, (exp, act) in groups.items():
        exp, act = list(exp), list(act)
        for item in list(exp):
            hit = next((i for i, a in enumerate(act) if same(item, a)), None)
            if hit is not None:
                exp.remove(item)
                del act[hit]
        pairs = list(zip(exp, act, strict=False)) if gid else _similar_pairs(exp, act)
        for e, a in pairs:
            exp.remove(e)
            act.remove(a)
            out.extend(_diff(e, a, f"{path}[{_label(e, key)}]", keys))
        for e, label in ((e, _label(e, key)) for e in exp):
            out.append(StateDiff(f"{path}[{label}]", e, MISSING, f"{path}: missing {noun} {label}"))
        for a, label in ((a, _label(a, key)) for a in act):
            if gid and len(groups[gid][0]):
                n_exp, n_act = len(groups[gid][0]), len(groups[gid][1])
                note = f"{path}: {noun} {label} is there {n_act} times, expected {n_exp}"
            else:
                note = f"{path}: extra {noun} {label}"
            out.append(StateDiff(f"{path}[{label}]", MISSING, a, note))
    return out


def _similar_pairs(expected: list, actual: list) -> list[tuple[Any, Any]]:
    """Pairs of anonymous items that are one item changed: mappings that agree on at least half
    of their fields, best agreement first."""
    scored = []
    for i, e in enumerate(expected):
        for j, a in enumerate(actual):
            if isinstance(e, dict) and isinstance(a, dict) and e.keys() == a.keys() and e:
                agree = sum(same(e[k], a[k]) for k in e)
                if agree * 2 >= len(e):
                    scored.append((-agree, i, j))
    pairs, used_e, used_a = [], set(), set()
    for _, i, j in sorted(scored):
        if i not in used_e and j not in used_a:
            used_e.add(i)
            used_a.add(j)
            pairs.append((expected[i], actual[j]))
    return pairs


def outside_change(initial: Any, expected: Any, actual: Any, keys: dict[str, ItemKey] | None = None) -> list[StateDiff]:
    """The differences of ``actual`` from ``expected`` that lie outside the task's expected change
    (all three normalised world states; empty list: nothing the task leaves alone was touched).

    The expected change is where ``initial`` and ``expected`` differ: items the task adds or
    removes, fields it changes. Everything else must hold in ``actual`` as it was: an item that
    both states hold (changed by the task or not) must still be there, an item neither holds must
    not appear, and a part the task leaves alone must be equal. Within the change itself anything
    goes (that is the progress partial credit measures). So deleting everything an app holds is
    always outside the change, unless the task asks for exactly that.
    """
    return _outside(initial, expected, actual, "", declared_keys() if keys is None else _Matched(keys))


def _outside(initial: Any, expected: Any, actual: Any, path: str, keys: dict[str, ItemKey]) -> list[StateDiff]:
    if same(initial, expected):  # left alone by the task: must be as it was
        return _diff(expected, actual, path, keys)
    if isinstance(initial, dict) and isinstance(expected, dict):
        actual = actual if isinstance(actual, dict) else {}
        entry = _key_for(path, keys)
        noun = _noun(path, entry) if entry is not None else "key"
        out: list[StateDiff] = []
        for key in sorted(initial.keys() | expected.keys() | actual.keys(), key=str):
            sub = f"{path}.{key}" if path else str(key)
            kept = key in initial and key in expected
            if kept and key not in actual:
                out.append(StateDiff(sub, expected[key], MISSING, f"{path or 'state'}: missing {noun} {key!r}"))
            elif kept:
                out.extend(_outside(initial[key], expected[key], actual[key], sub, keys))
            elif key not in initial and key not in expected:
                out.append(StateDiff(sub, MISSING, actual[key], f"{path or 'state'}: extra {noun} {key!r}"))
        return out
    if isinstance(initial, list) and isinstance(expected, list):
        return _outside_list(initial, expected, actual if isinstance(actual, list) else [], path, keys)
    return []  # a value the task changes: any value is progress or not, never a side effect


def _outside_list(initial: list, expected: list, actual: list, path: str, keys: dict[str, ItemKey]) -> list[StateDiff]:
    key = _key_for(path, keys)
    noun = _noun(path, key)
    groups: dict[str, tuple[list, list, list]] = {}
    for side, items in ((0, initial), (1, expected), (2, actual)):
        for item in items:
            gid = _group_id(_identity(item, key))
            groups.setdefault(gid, ([], [], []))[side].append(item)
    out: list[StateDiff] = []
    for gid, (ini, exp, act) in groups.items():
        if not gid:  # items without identity: those the task keeps must all still be there
            act = list(act)
            for item in exp:
                kept = any(same(item, i) for i in ini)
                hit = next((n for n, a in enumerate(act) if same(item, a)), None)
                if kept and hit is None:
                    label = _label(item, key)
                    out.append(StateDiff(f"{path}[{label}]", item, MISSING, f"{path}: missing {noun} {label}"))
                elif hit is not None:
                    del act[hit]
            continue
        label = _label((exp or ini or act)[0], key)
        sub = f"{path}[{label}]"
        if ini and exp and not act:
            out.append(StateDiff(sub, exp[0], MISSING, f"{path}: missing {noun} {label}"))
        elif ini and exp and len(ini) == len(exp) == len(act) == 1:
            out.extend(_outside(ini[0], exp[0], act[0], sub, keys))
        elif ini and exp and same(ini, exp) and not same(exp, act):
            out.extend(_list_diff(exp, act, path, key, keys))
        elif act and not ini and not exp:
            out.append(StateDiff(sub, MISSING, act[0], f"{path}: extra {noun} {label}"))
    return out


def describe_event(event: dict) -> str:
    """One line of the event log: ``#3 todo.add id='t9' title='Buy oat milk'``."""
    args = " ".join(f"{k}={_short(v, 60)}" for k, v in (event.get("args") or {}).items())
    return f"#{event.get('i', '?')} {event.get('app', '?')}.{event.get('op', '?')} {args}".rstrip()
