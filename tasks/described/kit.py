"""What the families of described apps (``tasks/described.py``) share: the records a goal may
name, new values drawn from the app's own generators, values written as a goal says them, and
the page steps that reach a record and fill a form (docs/apps/spec.md, "Pages and test ids")."""

from __future__ import annotations

import random

from openapps_sim.apps.described.checks import item_name
from openapps_sim.apps.described.generate import draw
from openapps_sim.apps.described.values import number_field
from openapps_sim.apps.described.words import engine_texts

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Infeasible, family, pick


def texts(desc: dict, lang: str) -> dict:
    tables = desc["strings"]
    return tables.get(lang) or tables.get(lang.split("-")[0].lower()) or {}


def coll_label(desc: dict, name: str, lang: str) -> str:
    return texts(desc, lang).get(name, desc["collections"][name]["label"])


def noun(desc: dict, name: str, lang: str) -> str:
    """One record, as a goal names it: the collection's label in the language, lower case."""
    return coll_label(desc, name, lang).lower() if lang == "en" else coll_label(desc, name, lang)


def field_label(desc: dict, name: str, field: str, lang: str) -> str:
    spec = desc["collections"][name]["fields"][field]
    english = spec["label"] or field.replace("_", " ").capitalize()
    return texts(desc, lang).get(f"{name}.{field}", english)


def choice_label(desc: dict, name: str, field: str, choice: str, lang: str) -> str:
    return texts(desc, lang).get(f"{name}.{field}.{choice}", str(choice).replace("_", " ").capitalize())


def said(desc: dict, state: dict, name: str, field: str, value: object, lang: str) -> str:
    """``value`` of ``field`` as a goal or an answer writes it (a choice by its label, money with
    its sign, a reference by the record's title)."""
    spec = desc["collections"][name]["fields"][field]
    kind = spec["type"]
    if kind == "choice":
        return choice_label(desc, name, field, str(value), lang)
    if kind == "money":
        return f"{spec['currency']}{float(value):,.2f}"
    if kind == "number":
        return number_field(spec, value)
    if kind == "ref":
        target = desc["collections"][spec["to"]]
        found = [r for r in state[spec["to"]] if r["id"] == value]
        return str(found[0][target["title"]]) if found else ""
    return str(value)


def named(state: dict, desc: dict, name: str) -> list[dict]:
    """The records of ``name`` whose title no other record shares: a goal naming one is clear."""
    title = desc["collections"][name]["title"]
    counts: dict[str, int] = {}
    for r in state[name]:
        counts[norm_text(str(r[title]))] = counts.get(norm_text(str(r[title])), 0) + 1
    return [r for r in state[name] if counts[norm_text(str(r[title]))] == 1]


def fresh_title(desc: dict, state: dict, name: str, rng: random.Random) -> str:
    """A title no record of ``name`` has, drawn as the app draws its records' titles."""
    coll = desc["collections"][name]
    title = coll["title"]
    taken = {norm_text(str(r[title])) for r in state[name]}
    gen, spec = coll["generate"].get(title), coll["fields"][title]
    for _ in range(50):
        variant = rng.choice(coll["variants"]) if coll["variants"] else {}
        given = variant.get(title)
        if isinstance(given, dict):  # the variant's own generator
            value, given = str(draw(spec, given, rng)), None
        else:
            value = str(draw(spec, gen, rng)) if gen else ""
        value = given.replace("{}", value, 1) if isinstance(given, str) else value
        if value and norm_text(value) not in taken:
            return value
    return f"{coll['label']} {len(state[name]) + 1}"


def summed_refs(flow: dict, state: dict) -> dict[str, list[str]]:
    """For each ref a flow's computed total matches records by (``where: {restaurant:
    restaurant}``), the ids those records name, in order: a restaurant with basket lines."""
    out: dict[str, list[str]] = {}
    for rule in flow["set"].values():
        for key, mine in (rule.get("where") or {}).items() if isinstance(rule, dict) else ():
            out[mine] = list(dict.fromkeys(str(r[key]) for r in state[rule["sum"]] if r.get(key)))
    return out


def new_value(desc: dict, state: dict, name: str, field: str, current: object, rng: random.Random) -> object:
    """A value of ``field`` other than ``current``: another choice, another amount, a code."""
    coll = desc["collections"][name]
    spec, gen = coll["fields"][field], coll["generate"].get(field)
    kind = spec["type"]
    if kind == "choice":
        return pick(rng, [c for c in spec["choices"] if c != current], f"other {field}")
    if kind == "ref":
        return pick(rng, [r["id"] for r in state[spec["to"]] if r["id"] != current], f"other {field}")
    if kind == "boolean":
        return not current
    if kind == "rating":
        return pick(rng, [n for n in range(1, spec["max"] + 1) if n != current], f"other {field}")
    if kind in ("money", "number"):
        value = (
            draw(spec, gen, rng) if gen and gen["range"] else round(rng.randint(5, 400) + rng.randint(0, 99) / 100, 2)
        )
        return value if value != current else round(float(value) + 1, 2)
    if kind == "date":
        return f"2026-12-{rng.randint(1, 28):02d}"
    if kind == "time":
        return f"{rng.randint(7, 20):02d}:{rng.choice(['00', '15', '30', '45'])}"
    return f"Ref {rng.randint(1000, 9999)}"


def open_collection(ui, app: str, desc: dict, name: str):
    """Open the app and go to collection ``name`` (the first page when it is the home)."""
    obs = yield from ui.open_app(app)
    home = desc["home"] or next(iter(desc["collections"]))
    if name != home:
        obs = yield ui.click(f"{app}-nav-{name}")
    return obs


def open_record(ui, app: str, desc: dict, name: str, record_id: str):
    yield from open_collection(ui, app, desc, name)
    return (yield ui.click(f"{app}-{name}-open-{record_id}"))


def fill(ui, app: str, spec: dict, field: str, value: object, before: object = None):
    """Set one form input to ``value`` (a checkbox is clicked only when it must change)."""
    testid = f"{app}-input-{field}"
    kind = spec["type"]
    if kind == "boolean":
        if bool(value) != bool(before):
            yield ui.click(testid)
    elif kind in ("choice", "ref", "rating"):
        yield ui.select(testid, str(value))
    else:
        yield ui.fill(testid, f"{value:.2f}" if kind == "money" else str(value))


_DESCRIBED: list = [None, {}]  # the apps last discovered, and their described apps' descriptions


def described_apps() -> dict:
    """The described apps, by name: their checked descriptions (a new dict each call, gathered
    once per discovery of the apps: a family reads its description at every step of
    instantiating, and picking 58 of 64 apps each time was a tenth of counting instances)."""
    from openapps_sim.config.discovery import discover_apps

    apps = discover_apps()
    if _DESCRIBED[0] is not apps:
        _DESCRIBED[:] = [apps, {n: a.desc for n, a in apps.items() if getattr(a, "source", "") == "described"}]
    return dict(_DESCRIBED[1])


def ident(desc: dict, name: str) -> str:
    return item_name(name, desc["collections"][name])


def infeasible_if(empty: bool, what: str) -> None:
    if empty:
        raise Infeasible(f"no {what}")


def engine_word(lang: str, on: bool) -> str:
    """On or off, as the app's pages write it in ``lang``."""
    key = "state_on" if on else "state_off"
    return engine_texts(lang).get(key, "On" if on else "Off")


def shown_number(text: str) -> float:
    """The number a page shows (``−€1,180.00``, ``45 min``): its digits, point and sign."""
    digits = "".join(ch for ch in text if ch.isdigit() or ch == ".")
    if not digits.strip("."):
        return 0.0
    return -float(digits) if text.strip().startswith(("−", "-")) else float(digits)


#: while a list is here, the families derived are noted in it, not registered (``derive.DERIVE``)
COUNTING: list[list[str]] = []


def noted(fid: str) -> bool:
    """While ``COUNTING``: note ``fid`` (True), so that the caller registers nothing."""
    if COUNTING:
        COUNTING[-1].append(fid)
    return bool(COUNTING)


def declare(fid: str, base: type, app: str, coll: str, steps: int, **attrs) -> None:
    """Register family ``fid``: ``base`` for app ``app`` and collection ``coll``, with ``attrs``."""
    if noted(fid):
        return
    cls = type(base.__name__, (base,), {"__doc__": base.__doc__, "app": app, "coll": coll, **attrs})
    family(fid, apps=app, max_steps=steps)(cls)


def record_count(coll: dict) -> int:
    """How many records a world holds of a collection: the given ones and the generated ones."""
    return len(coll["records"]) + int(coll["count"] or 0)


def home_first(desc: dict) -> list[str]:
    """The collections' names, the home collection (the app's first page) first."""
    home = desc["home"] or next(iter(desc["collections"]))
    return list(dict.fromkeys([home, *desc["collections"]]))
