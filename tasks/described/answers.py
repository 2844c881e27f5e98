"""The rest of the families of described apps — a setting, a look-up and a count — and the one
place that registers every derived family of every described app (``<app>.<kind>_<item>``)."""

from __future__ import annotations

import re

from openapps_sim.tasks.described import kit
from openapps_sim.tasks.described.edits import (
    Create,
    Delete,
    DeleteMissing,
    Derived,
    Edit,
    Flow,
    Quantity,
    Status,
    Toggle,
)

from openapps_sim.taskkit import pick
from openapps_sim.taskkit.answers import AnswerFamily, format_number, pack_lang
from openapps_sim.taskkit.observation import testid_texts
from openapps_sim.taskkit.progress import Op

LOOKUP_TYPES = ("text", "longtext", "date", "time", "choice", "ref")


class Setting(Derived):
    """Change one of the app's settings to a given value."""

    def sample(self, state, config, rng):
        settings = self.desc["settings"]
        name = pick(rng, sorted(settings), "setting")
        current = state[self.app]["settings"].get(name)
        spec = settings[name]
        value = (
            (not current)
            if spec["type"] == "boolean"
            else pick(rng, [c for c in spec["choices"] if c != current], "choice")
        )
        return {"name": name, "value": value, "before": current}

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        spec, own = self.desc["settings"][params["name"]], kit.texts(self.desc, language)
        out["field"] = own.get(f"setting.{params['name']}", spec["label"])
        if spec["type"] == "boolean":
            out["value"] = kit.engine_word(language, params["value"])
        else:
            out["value"] = own.get(
                f"setting.{params['name']}.{params['value']}", params["value"].replace("_", " ").capitalize()
            )
        return out

    def plan(self, params, initial):
        return [Op.of(self.app, f"set_setting_{params['name']}", value=params["value"])]

    def solve(self, params, ui):
        yield from ui.open_app(self.app)
        yield ui.click(f"{self.app}-nav-settings")
        testid = f"{self.app}-setting-{params['name']}"
        if isinstance(params["value"], bool):
            yield ui.click(testid)
        else:
            yield ui.select(testid, params["value"])
        yield ui.click(f"{self.app}-settings-save")


def lookup_fields(coll: dict) -> list[str]:
    """The fields a look-up may ask of a record of ``coll``: one the app shows as text, other
    than the title, that every world fills in (a choice, a default, a generator or a value in
    every given record); none, and there is no look-up family."""
    out = []
    for f, spec in coll["fields"].items():
        if spec["type"] not in LOOKUP_TYPES or f == coll["title"]:
            continue
        given = bool(coll["records"]) and all(r.get(f) not in (None, "") for r in coll["records"])
        drawn = f in coll["generate"] or any(f in v for v in coll["variants"]) or not coll["count"]
        if spec["type"] == "choice" or spec["default"] not in (None, "") or (given and drawn):
            out.append(f)
    return out


class Lookup(Derived, AnswerFamily):
    """Answer with one field of a named record, as the app shows it."""

    category = "lookup"

    def sample(self, state, config, rng):
        own = state[self.app]
        fields = [f for f, s in self.spec["fields"].items() if s["type"] in LOOKUP_TYPES and f != self.spec["title"]]
        record = pick(rng, [r for r in kit.named(own, self.desc, self.coll) if any(r.get(f) for f in fields)], "record")
        field = pick(rng, [f for f in fields if record.get(f)], "field")
        lang = pack_lang(config)
        return {**self.record_params(record), "field": field, "lang": lang}

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        out["field"] = kit.field_label(self.desc, self.coll, params["field"], language)
        return out

    def answer(self, state, params):
        own = state[self.app]
        record = next((r for r in own[self.coll] if r["id"] == params["id"]), {})
        return kit.said(self.desc, own, self.coll, params["field"], record.get(params["field"]), params["lang"])

    def solve(self, params, ui):
        obs = yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])
        yield ui.answer(testid_texts(obs).get(f"{self.app}-detail-{params['field']}", ""))


class Count(Derived, AnswerFamily):
    """Answer how many records have a given value of a choice field."""

    category = "count"
    answer_kind = "number"

    def sample(self, state, config, rng):
        choices = self.spec["fields"][self.field]["choices"]
        present = sorted({r.get(self.field) for r in state[self.app][self.coll]} & set(choices))
        return {"choice": pick(rng, present, f"{self.field} value")}

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        out["value"] = self.said(self.field, params["choice"], params, language)
        return out

    def answer(self, state, params):
        return str(sum(1 for r in state[self.app][self.coll] if r.get(self.field) == params["choice"]))

    def solve(self, params, ui):
        yield from kit.open_collection(ui, self.app, self.desc, self.coll)
        obs = yield ui.click(f"{self.app}-filter-{params['choice']}")
        shown = testid_texts(obs).get(f"{self.app}-count", "")
        yield ui.answer("".join(re.findall(r"\d", shown)))


class Total(Count):
    """Answer the total of the money or number shown at the rows' end over the records with a
    given value of a choice field (SimuWoB's arithmetic over records)."""

    category = "math"
    tolerance = 0.005

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        out["total"] = kit.field_label(self.desc, self.coll, self.spec["price"], language)
        return out

    def answer(self, state, params):
        price = self.spec["price"]
        rows = [r for r in state[self.app][self.coll] if r.get(self.field) == params["choice"]]
        total = sum(float(r.get(price) or 0) for r in rows)
        return format_number(total, params.get("lang", "en"), 2)

    def sample(self, state, config, rng):
        return {**super().sample(state, config, rng), "lang": pack_lang(config)}

    def solve(self, params, ui):
        yield from kit.open_collection(ui, self.app, self.desc, self.coll)
        obs = yield ui.click(f"{self.app}-filter-{params['choice']}")
        prefix = f"{self.app}-{self.coll}-price-"
        shown = [text for testid, text in testid_texts(obs).items() if testid.startswith(prefix)]
        total = sum(kit.shown_number(text) for text in shown)
        yield ui.answer(format_number(total, params.get("lang", "en"), 2))


def _collection_families(app: str, desc: dict, name: str) -> None:
    coll, item = desc["collections"][name], kit.ident(desc, name)
    acts = coll["actions"]
    if lookup_fields(coll):
        kit.declare(f"{app}.lookup_{item}", Lookup, app, name, 8, kind="lookup")
    if coll["filter"] or coll["tabs"]:
        kit.declare(f"{app}.count_{item}", Count, app, name, 8, kind="count", field=coll["filter"] or coll["tabs"])
    if (coll["filter"] or coll["tabs"]) and coll["price"]:
        kit.declare(f"{app}.total_{item}", Total, app, name, 8, kind="total", field=coll["filter"] or coll["tabs"])
    if acts["create"]:
        kit.declare(f"{app}.create_{item}", Create, app, name, 14, kind="create")
    for f in acts["edit"][:1]:
        kit.declare(f"{app}.edit_{item}", Edit, app, name, 10, kind="edit", field=f)
    if acts["delete"]:
        kit.declare(f"{app}.delete_{item}", Delete, app, name, 8, kind="delete")
        kit.declare(f"{app}.delete_missing_{item}", DeleteMissing, app, name, 8, kind="delete")
    for f in [*acts["toggle"], *([acts["star"]] if acts["star"] else [])]:
        kit.declare(f"{app}.toggle_{item}_{f}", Toggle, app, name, 8, kind="toggle", field=f)
    if acts["status"]:
        kit.declare(f"{app}.set_{item}_{acts['status']}", Status, app, name, 8, kind="status", field=acts["status"])
    if acts["quantity"]:
        kit.declare(
            f"{app}.change_{item}_{acts['quantity']}", Quantity, app, name, 10, kind="quantity", field=acts["quantity"]
        )


def register(apps: dict | None = None) -> None:
    """Every derived family of every described app (of ``apps``, by name, when given)."""
    for app, desc in (kit.described_apps() if apps is None else apps).items():
        for name in desc["collections"]:
            _collection_families(app, desc, name)
        for name, flow in desc["flows"].items():
            kit.declare(f"{app}.{name}", Flow, app, flow["creates"], 16, kind="flow", flow=name)
        if desc["settings"]:
            kit.declare(f"{app}.change_setting", Setting, app, next(iter(desc["collections"])), 8, kind="setting")


register()
