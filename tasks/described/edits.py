"""The task families of every described app, derived from its ``app.yaml``: create a record,
edit a field, delete, toggle, set a status, run a two-step flow, change a setting, look a field
up and count records (docs/apps/spec.md; the kits in ``tasks/described/kit.py``).

Each family is registered as ``<app>.<kind>_<item>`` (``banking.create_transaction``); its goals
are the phrasings of ``described.<kind>`` in ``tasks/phrasings/<lang>.yaml``, formatted with the
app's own texts in the goal's language. The change is a plan of the app's operations, so the
expected state, W-LCS and the API solution follow; the page script is written once per kind.
"""

from __future__ import annotations

from openapps_sim.apps.described.generate import field_default
from openapps_sim.tasks.described import kit

from openapps_sim.taskkit import TaskFamily, pick
from openapps_sim.taskkit import language as lang_data
from openapps_sim.taskkit.progress import Op


class Derived(TaskFamily):
    """A family of one described app and one of its collections (``coll``)."""

    app: str = ""
    coll: str = ""
    kind: str = ""
    field: str = ""

    @property
    def desc(self) -> dict:
        return kit.described_apps()[self.app]

    @property
    def spec(self) -> dict:
        return self.desc["collections"][self.coll]

    def styles(self, language: str) -> dict[str, list[str]]:
        """The goals of every family of this kind (``described.<kind>`` in the phrasings)."""
        return lang_data.family_styles(f"described.{self.kind}", language)

    def said(self, field: str, value: object, params: dict, lang: str) -> str:
        if field in params.get("refs", {}):
            return params["refs"][field]
        if self.spec["fields"][field]["type"] == "boolean":
            return kit.engine_word(lang, value)
        return kit.said(self.desc, {}, self.coll, field, value, lang)

    def goal_values(self, params: dict, language: str) -> dict:
        out = super().goal_values(params, language)
        desc = self.desc
        out["app"] = kit.texts(desc, language).get("title", desc["title"])
        out["item"] = kit.noun(desc, self.coll, language)
        if self.field:
            out["field"] = kit.field_label(desc, self.coll, self.field, language)
        if "value" in params and self.field:
            out["value"] = self.said(self.field, params["value"], params, language)
        values = params.get("values") or {}
        parts = [
            f"{kit.field_label(desc, self.coll, f, language)} {self.said(f, v, params, language)}"
            for f, v in values.items()
        ]
        out["details"] = ", ".join(parts)
        return out

    def refs(self, values: dict, state: dict) -> dict:
        """How the goal names the records ``values`` refers to (their titles)."""
        fields = self.spec["fields"]
        return {
            f: kit.said(self.desc, state, self.coll, f, v, "en")
            for f, v in values.items()
            if fields[f]["type"] == "ref"
        }

    def pick_record(self, state: dict, rng) -> dict:
        return pick(rng, kit.named(state[self.app], self.desc, self.coll), f"{self.coll} record")

    def record_params(self, record: dict) -> dict:
        return {"id": record["id"], "title": str(record[self.spec["title"]])}


class Create(Derived):
    """Add a record with given field values."""

    def sample(self, state, config, rng):
        own, title = state[self.app], self.spec["title"]
        values = {title: kit.fresh_title(self.desc, own, self.coll, rng)}
        for f, spec in self.spec["fields"].items():
            wanted = spec["required"] or (spec["type"] in ("choice", "money", "number", "rating") and len(values) < 3)
            if f != title and wanted:
                values[f] = kit.new_value(self.desc, own, self.coll, f, field_default(spec), rng)
        return {"values": values, "title": values[title], "refs": self.refs(values, own)}

    def plan(self, params, initial):
        return [Op.of(self.app, f"create_{kit.ident(self.desc, self.coll)}", **params["values"])]

    def solve(self, params, ui):
        yield from kit.open_collection(ui, self.app, self.desc, self.coll)
        yield ui.click(f"{self.app}-{self.coll}-new")
        for f, value in params["values"].items():
            spec = self.spec["fields"][f]
            yield from kit.fill(ui, self.app, spec, f, value, field_default(spec))
        yield ui.click(f"{self.app}-save")


class Edit(Derived):
    """Change one field of a named record to a given value."""

    def sample(self, state, config, rng):
        record = self.pick_record(state, rng)
        if self.field == self.spec["title"]:
            value = kit.fresh_title(self.desc, state[self.app], self.coll, rng)
        else:
            value = kit.new_value(self.desc, state[self.app], self.coll, self.field, record.get(self.field), rng)
        refs = self.refs({self.field: value}, state[self.app])
        return {**self.record_params(record), "value": value, "before": record.get(self.field), "refs": refs}

    def plan(self, params, initial):
        op = f"edit_{kit.ident(self.desc, self.coll)}"
        return [Op.of(self.app, op, id=params["id"], **{self.field: params["value"]})]

    def solve(self, params, ui):
        yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])
        yield ui.click(f"{self.app}-edit")
        spec = self.spec["fields"][self.field]
        yield from kit.fill(ui, self.app, spec, self.field, params["value"], params["before"])
        yield ui.click(f"{self.app}-save")


class Delete(Derived):
    """Delete a named record."""

    def sample(self, state, config, rng):
        return self.record_params(self.pick_record(state, rng))

    def plan(self, params, initial):
        return [Op.of(self.app, f"delete_{kit.ident(self.desc, self.coll)}", id=params["id"])]

    def solve(self, params, ui):
        yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])
        yield ui.click(f"{self.app}-delete")


class Toggle(Derived):
    """Switch a yes/no field of a named record on or off."""

    def sample(self, state, config, rng):
        record = self.pick_record(state, rng)
        return {**self.record_params(record), "value": not record.get(self.field)}

    def plan(self, params, initial):
        op = f"toggle_{kit.ident(self.desc, self.coll)}_{self.field}"
        return [Op.of(self.app, op, id=params["id"])]

    def solve(self, params, ui):
        yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])
        yield ui.click(f"{self.app}-toggle-{self.field}")


class Status(Derived):
    """Set the status of a named record to another value."""

    def sample(self, state, config, rng):
        record = self.pick_record(state, rng)
        value = kit.new_value(self.desc, state[self.app], self.coll, self.field, record.get(self.field), rng)
        return {**self.record_params(record), "value": value}

    def plan(self, params, initial):
        op = f"set_{kit.ident(self.desc, self.coll)}_{self.field}"
        return [Op.of(self.app, op, id=params["id"], value=params["value"])]

    def solve(self, params, ui):
        yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])
        yield ui.click(f"{self.app}-status-{self.field}-{params['value']}")


class Flow(Derived):
    """Run a two-step flow (a transfer, a booking, an order) with given values and confirm it."""

    flow: str = ""

    def sample(self, state, config, rng):
        flow, own = self.desc["flows"][self.flow], state[self.app]
        fields = self.spec["fields"]
        values, filled = {}, kit.summed_refs(flow, own)
        for f in flow["fields"]:
            spec = fields[f]
            if f == self.spec["title"]:
                values[f] = kit.fresh_title(self.desc, own, self.coll, rng)
            elif filled.get(f):  # a computed total adds up the lines of this ref: one that has lines
                values[f] = pick(rng, filled[f], f"{f} with lines")
            elif spec["required"] or spec["default"] is None:
                values[f] = kit.new_value(self.desc, own, self.coll, f, None, rng)
            elif f == flow["fields"][-1] and not values:  # none needed: the goal names one choice all the same
                values[f] = kit.new_value(self.desc, own, self.coll, f, field_default(spec), rng)
        return {"values": values, "refs": self.refs(values, own)}

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        out["flow"] = kit.texts(self.desc, language).get(f"flow.{self.flow}", self.desc["flows"][self.flow]["label"])
        return out

    def plan(self, params, initial):
        return [Op.of(self.app, self.flow, **params["values"])]

    def solve(self, params, ui):
        flow, app, values = self.desc["flows"][self.flow], self.app, params["values"]
        start = next((f for f in values if flow["start"] and self.spec["fields"][f]["to"] == flow["start"]), None)
        if start:
            yield from kit.open_record(ui, app, self.desc, flow["start"], values[start])
        else:
            yield from kit.open_collection(ui, app, self.desc, self.coll)
        yield ui.click(f"{app}-flow-{self.flow}")
        for f, value in values.items():
            if f != start:
                yield from kit.fill(ui, app, self.spec["fields"][f], f, value)
        yield ui.click(f"{app}-review")
        yield ui.click(f"{app}-confirm")


class Quantity(Derived):
    """Change a named record's quantity to a given number with its - and + buttons."""

    def sample(self, state, config, rng):
        record = self.pick_record(state, rng)
        current = int(record.get(self.field) or 0)
        by = pick(rng, [d for d in (-2, -1, 1, 2, 3) if current + d >= 1], "change of quantity")
        return {**self.record_params(record), "by": by, "value": current + by}

    def plan(self, params, initial):
        op = f"change_{kit.ident(self.desc, self.coll)}_{self.field}"
        step = 1 if params["by"] > 0 else -1
        return [Op.of(self.app, op, id=params["id"], by=float(step)) for _ in range(abs(params["by"]))]

    def solve(self, params, ui):
        yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])
        button = f"{self.app}-{'inc' if params['by'] > 0 else 'dec'}-{self.field}"
        for _ in range(abs(params["by"])):
            yield ui.click(button)


class DeleteMissing(Derived):
    """Delete a record the app does not hold (infeasible: look it up, report it, change nothing)."""

    infeasible = True
    category = "infeasible"

    def sample(self, state, config, rng):
        return {"title": kit.fresh_title(self.desc, state[self.app], self.coll, rng)}

    def plan(self, params, initial):
        return []

    def infeasible_target(self, params):
        return f"{self.id}:{params['title']}"

    def solve(self, params, ui):
        yield from kit.open_collection(ui, self.app, self.desc, self.coll)
        if self.spec["search"]:
            yield ui.fill(f"{self.app}-search", params["title"])
            yield ui.click(f"{self.app}-search-submit")
        yield ui.report_infeasible(f"{params['title']!r} is not in {self.spec['label']}")

    def solve_api(self, params, api):
        yield api.read(self.app)
        yield api.report_infeasible(f"{params['title']!r} is not in {self.spec['label']}")
