"""One change to one record of a described app, as the families made of several changes (a
conditional, a sequence, a long list) state it: drawn from the record's actions in the app's
description, planned as the app's operation, done through the record's page, checked on the
world's state and said as a clause of the goal (``described.do_<kind>`` in the phrasings).

An act is a plain dict (it is part of an instance's parameters): ``coll``, ``kind`` (``status``,
``toggle``, ``delete`` or ``edit``), ``field``, the record's ``id`` and ``title``, the new
``value`` and, for a reference, ``ref`` (the title of the record it names).
"""

from __future__ import annotations

from openapps_sim.tasks.described import kit

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import language as lang_data
from openapps_sim.taskkit.progress import Op

#: the kinds of change, in the order a family prefers them
KINDS = ("status", "toggle", "delete", "edit")


def record_actions(desc: dict, name: str) -> list[tuple[str, str]]:
    """The changes a record of collection ``name`` allows, as ``(kind, field)``: its status, each
    toggle and the star, delete, and the first field it edits unless that is the title (a goal
    of several changes names each record by its title; a new title would also rename it in
    every record that refers to it)."""
    coll = desc["collections"][name]
    acts = coll["actions"]
    out = [("status", acts["status"])] if acts["status"] else []
    out += [("toggle", f) for f in [*acts["toggle"], *([acts["star"]] if acts["star"] else [])]]
    out += [("delete", "")] if acts["delete"] else []
    return out + [("edit", f) for f in acts["edit"][:1] if f != coll["title"]]


def draw_act(desc: dict, own: dict, name: str, kind: str, field: str, record: dict, rng, value=None) -> dict:
    """The change ``kind`` of ``field`` to ``record``: to ``value`` when given, else a new value
    drawn as the app draws its values (a toggle flips)."""
    coll = desc["collections"][name]
    act = {"coll": name, "kind": kind, "field": field, "id": record["id"], "title": str(record[coll["title"]])}
    if kind == "toggle":
        act["value"] = not bool(record.get(field))
    elif kind in ("status", "edit"):
        if value is None and field == coll["title"]:
            value = kit.fresh_title(desc, own, name, rng)
        elif value is None:
            value = kit.new_value(desc, own, name, field, record.get(field), rng)
        act["value"], act["before"] = value, record.get(field)
        if coll["fields"][field]["type"] == "ref":
            act["ref"] = kit.said(desc, own, name, field, value, "en")
    return act


def act_op(app: str, desc: dict, act: dict) -> Op:
    """The app's operation that makes the change."""
    item, kind, field = kit.ident(desc, act["coll"]), act["kind"], act["field"]
    if kind == "delete":
        return Op.of(app, f"delete_{item}", id=act["id"])
    if kind == "toggle":
        return Op.of(app, f"toggle_{item}_{field}", id=act["id"])
    if kind == "status":
        return Op.of(app, f"set_{item}_{field}", id=act["id"], value=act["value"])
    return Op.of(app, f"edit_{item}", id=act["id"], **{field: act["value"]})


def act_steps(ui, app: str, desc: dict, act: dict):
    """The page steps: open the record, then its button (or its edit form)."""
    yield from kit.open_record(ui, app, desc, act["coll"], act["id"])
    kind, field = act["kind"], act["field"]
    if kind == "delete":
        yield ui.click(f"{app}-delete")
    elif kind == "toggle":
        yield ui.click(f"{app}-toggle-{field}")
    elif kind == "status":
        yield ui.click(f"{app}-status-{field}-{act['value']}")
    else:
        yield ui.click(f"{app}-edit")
        spec = desc["collections"][act["coll"]]["fields"][field]
        yield from kit.fill(ui, app, spec, field, act["value"], act["before"])
        yield ui.click(f"{app}-save")


def act_done(app: str, act: dict):
    """A check on the raw world state: is the change made?"""

    def done(world: dict) -> bool:
        record = next((r for r in world[app][act["coll"]] if r["id"] == act["id"]), None)
        if act["kind"] == "delete":
            return record is None
        if record is None:
            return False
        if act["kind"] == "toggle":
            return bool(record.get(act["field"])) == act["value"]
        return norm_text(str(record.get(act["field"]))) == norm_text(str(act["value"]))

    return done


def template(key: str, lang: str) -> str:
    """The first template of phrasing entry ``key`` in ``lang`` (English when it has none)."""
    styles = lang_data.family_styles(key, lang) or lang_data.family_styles(key, lang_data.ENGLISH)
    return next(iter(styles.values()))[0]


def quote(text: str, lang: str) -> str:
    """A record's title in the quotation marks of ``lang`` (``described.quote``)."""
    return template("described.quote", lang).format(title=text)


def titles(texts: list[str], lang: str) -> str:
    return template("described.list", lang).join(quote(t, lang) for t in texts)


def value_text(desc: dict, act: dict, lang: str) -> str:
    if act["kind"] == "toggle":
        return kit.engine_word(lang, act["value"])
    if "ref" in act:
        return act["ref"]
    return kit.said(desc, {}, act["coll"], act["field"], act.get("value"), lang)


def clause(desc: dict, act: dict, lang: str, title: str | None = None) -> str:
    """The change as a clause of a goal (``delete 'X'``), naming ``title`` (the record's, quoted,
    unless given)."""
    values = {"title": quote(act["title"], lang) if title is None else title, "field": "", "value": ""}
    if act["field"]:
        values["field"] = kit.field_label(desc, act["coll"], act["field"], lang)
        values["value"] = value_text(desc, act, lang)
    return template(f"described.do_{act['kind']}", lang).format(**values)
