"""A described app's records in a new world: its fixed ``records`` and ``count`` more drawn
with the world's seeded random stream of the app (docs/apps/spec.md, "Keys")."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from openapps_sim.apps.described import computed
from openapps_sim.apps.described.checks import item_name

MAX_TRIES = 200  # draws of a unique value before giving up on uniqueness


def draw(spec: dict, gen: dict | None, rng: random.Random) -> object:
    """One value of a field ``spec`` drawn by its generator ``gen`` (None: the field's default,
    or a random choice)."""
    kind = spec["type"]
    if gen is None:
        if kind == "choice" and spec["default"] is None:
            return rng.choice(spec["choices"])
        return field_default(spec)
    if gen["times"]:
        return None  # computed from the record once it is drawn: see initial_state
    if gen["pool"]:
        return rng.choice(gen["pool"])
    if gen["combine"]:
        return gen["sep"].join(rng.choice(pool) for pool in gen["combine"])
    if gen["range"]:
        lo, hi = gen["range"][0], gen["range"][-1]
        steps = int(round((hi - lo) / gen["step"]))
        value = lo + gen["step"] * rng.randint(0, max(steps, 0))
        return int(round(value)) if kind == "rating" else round(value, 2)
    if gen["dates"]:
        first = datetime.date.fromisoformat(gen["dates"][0])
        last = datetime.date.fromisoformat(gen["dates"][-1])
        return (first + datetime.timedelta(days=rng.randint(0, max((last - first).days, 0)))).isoformat()
    if kind == "boolean":
        return rng.random() < gen["chance"]
    return field_default(spec)


def field_default(spec: dict) -> object:
    """The value of a field a new record does not give: its ``default``, else false for a
    boolean, no stars for a rating, the first choice of a choice (what a form shows first)."""
    if spec["default"] is not None:
        return spec["default"]
    return {"boolean": False, "rating": 0, "choice": (spec["choices"] or [None])[0]}.get(spec["type"])


def drawer(spec: dict, gen: dict | None) -> Callable[[random.Random], object]:
    """``draw`` of the field ``spec`` by ``gen`` as a function of the stream alone (the same
    calls on it in the same order, the same values), worked out once per collection; a
    generator that cannot be worked out ahead fails (or not) where ``draw`` would, when drawn."""
    try:
        return _drawer(spec, gen)
    except (ArithmeticError, LookupError, TypeError, ValueError):
        return lambda rng: draw(spec, gen, rng)


def _drawer(spec: dict, gen: dict | None) -> Callable[[random.Random], object]:
    kind = spec["type"]
    if gen is None and kind == "choice" and spec["default"] is None:
        choices = spec["choices"]
        return lambda rng: rng.choice(choices)
    if gen is None or gen["times"]:
        value = None if gen is not None else field_default(spec)
        return lambda rng: value
    if gen["pool"]:
        pool = gen["pool"]
        return lambda rng: rng.choice(pool)
    if gen["combine"]:
        return lambda rng: draw(spec, gen, rng)
    if gen["range"]:
        lo, hi, step = gen["range"][0], gen["range"][-1], gen["step"]
        steps = max(int(round((hi - lo) / step)), 0)
        if kind == "rating":
            return lambda rng: int(round(lo + step * rng.randint(0, steps)))
        return lambda rng: round(lo + step * rng.randint(0, steps), 2)
    if gen["dates"]:
        first = datetime.date.fromisoformat(gen["dates"][0])
        days = max((datetime.date.fromisoformat(gen["dates"][-1]) - first).days, 0)
        return lambda rng: (first + datetime.timedelta(days=rng.randint(0, days))).isoformat()
    return lambda rng: draw(spec, gen, rng)


def raw_records(name: str, coll: dict, rng: random.Random) -> list[dict]:
    """The collection's records with every field filled (refs still titles, or None to draw)."""
    fields, out = coll["fields"], []
    defaults = {f: field_default(spec) for f, spec in fields.items()} if coll["records"] else {}
    for given in coll["records"]:
        out.append({f: given.get(f, default) for f, default in defaults.items()})
    generate = coll["generate"]
    seen = {f: {str(r[f]) for r in out} for f, g in generate.items() if g["unique"]}
    plan = [(f, spec, generate.get(f), drawer(spec, generate.get(f)), seen.get(f)) for f, spec in fields.items()]
    variants = coll["variants"]
    for _ in range(coll["count"]):
        variant = rng.choice(variants) if variants else {}
        record = {}
        for f, spec, gen, plain, unique in plan:
            given = variant.get(f) if variant else None
            value = plain(rng) if given is None else _drawn(spec, gen, given, rng)
            if unique is not None:
                for _ in range(MAX_TRIES):
                    if str(value) not in unique:
                        break
                    value = plain(rng) if given is None else _drawn(spec, gen, given, rng)
                unique.add(str(value))
            record[f] = value
        out.append(record)
    return out


def _drawn(spec: dict, gen: dict | None, given: object, rng: random.Random) -> object:
    """A field of a generated record: the variant's value (its ``{}`` filled with a draw), else a draw."""
    if given is None:
        return draw(spec, gen, rng)
    if isinstance(given, dict):  # the variant's own generator
        return draw(spec, given, rng)
    if isinstance(given, str) and "{}" in given:
        return given.replace("{}", str(draw(spec, gen, rng)), 1)
    return given


def initial_state(desc: dict, rng: random.Random) -> dict:
    """The app's state in a new world: records of every collection (refs as ids), settings."""
    state: dict = {"next_id": {}}
    for name, coll in desc["collections"].items():
        records = raw_records(name, coll, rng)
        item = item_name(name, coll)
        for i, record in enumerate(records):
            record["id"] = f"{item}-{i + 1}"
        state[name] = [{"id": r.pop("id"), **r} for r in records]
        state["next_id"][name] = len(records) + 1
    for name, coll in desc["collections"].items():
        for f, spec in coll["fields"].items():
            if spec["type"] == "ref":
                _resolve_refs(state, name, f, spec["to"], desc["collections"][spec["to"]]["title"], rng)
    for name, coll in desc["collections"].items():
        _compute_generated(desc, state, name, coll)
    state["settings"] = {k: setting_default(s) for k, s in desc["settings"].items()}
    return state


def _compute_generated(desc: dict, state: dict, name: str, coll: dict) -> None:
    """The computed fields (a generator with ``times``) of the generated records, from their
    drawn fields and the records their refs name: a ride's fare follows its distance and class."""
    for f, gen in coll["generate"].items():
        if gen["times"]:  # the generator is the rule: its times and plus (it sums nothing)
            for record in state[name][len(coll["records"]) :]:
                record[f] = computed.compute(desc, state, name, gen, record)


def _resolve_refs(state: dict, name: str, field: str, to: str, title: str, rng: random.Random) -> None:
    by_title = {r[title]: r["id"] for r in state[to]}
    targets = [r["id"] for r in state[to]]
    for record in state[name]:
        value = record.get(field)
        if value is None:
            record[field] = rng.choice(targets) if targets else ""
        else:
            record[field] = by_title.get(value, value if value in targets else "")


def setting_default(setting: dict) -> object:
    if setting["default"] is not None:
        return setting["default"]
    return False if setting["type"] == "boolean" else setting["choices"][0]
