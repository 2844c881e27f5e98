"""Arithmetic over a described app's records beyond count and total (SimuWoB's math tasks): the
average and the highest or lowest of the money or number shown at the rows' end over the records
with a given value of a choice field, and the difference of that value between two named
records (docs/apps/spec.md, "Task families")."""

from __future__ import annotations

from openapps_sim.tasks.described import acts, kit
from openapps_sim.tasks.described.answers import Total
from openapps_sim.tasks.described.edits import Derived

from openapps_sim.taskkit import pick
from openapps_sim.taskkit.answers import AnswerFamily, format_number, pack_lang
from openapps_sim.taskkit.observation import testid_texts


class Average(Total):
    """Answer the average of the price field over the records with a given value of a choice
    field."""

    def summary(self, values: list[float], params: dict) -> float:
        return sum(values) / len(values) if values else 0.0

    def answer(self, state, params):
        price = self.spec["price"]
        rows = [r for r in state[self.app][self.coll] if r.get(self.field) == params["choice"]]
        values = [float(r.get(price) or 0) for r in rows]
        return format_number(self.summary(values, params), params.get("lang", "en"), 2)

    def solve(self, params, ui):
        yield from kit.open_collection(ui, self.app, self.desc, self.coll)
        obs = yield ui.click(f"{self.app}-filter-{params['choice']}")
        prefix = f"{self.app}-{self.coll}-price-"
        shown = [kit.shown_number(text) for testid, text in testid_texts(obs).items() if testid.startswith(prefix)]
        yield ui.answer(format_number(self.summary(shown, params), params.get("lang", "en"), 2))


class Extreme(Average):
    """Answer the highest or the lowest (``params["which"]``) price over the records with a
    given value of a choice field."""

    def sample(self, state, config, rng):
        return {**super().sample(state, config, rng), "which": rng.choice(["max", "min"])}

    def phrasing_id(self, params):
        return f"described.{params['which']}"

    def summary(self, values, params):
        return (max if params["which"] == "max" else min)(values) if values else 0.0


class Difference(Derived, AnswerFamily):
    """Answer by how much the price field of one named record exceeds another's."""

    category = "math"
    answer_kind = "number"
    tolerance = 0.005

    def sample(self, state, config, rng):
        price = self.spec["price"]
        named = [r for r in kit.named(state[self.app], self.desc, self.coll) if r.get(price) is not None]
        first = pick(rng, named, f"{self.coll} record")
        lower = [r for r in named if float(r[price]) < float(first[price])]
        if not lower:
            higher = [r for r in named if float(r[price]) > float(first[price])]
            first, second = pick(rng, higher, f"{self.coll} with another {price}"), first
        else:
            second = rng.choice(lower)
        return {**self.record_params(first), "b_id": second["id"],
                "other": str(second[self.spec["title"]]), "lang": pack_lang(config)}  # fmt: skip

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        out["title"] = acts.quote(params["title"], language)
        out["other"] = acts.quote(params["other"], language)
        out["total"] = kit.field_label(self.desc, self.coll, self.spec["price"], language)
        return out

    def answer(self, state, params):
        price, rows = self.spec["price"], {r["id"]: r for r in state[self.app][self.coll]}
        gap = float(rows[params["id"]][price]) - float(rows[params["b_id"]][price])
        return format_number(gap, params.get("lang", "en"), 2)

    def solve(self, params, ui):
        testid, shown = f"{self.app}-detail-{self.spec['price']}", []
        for rid in (params["id"], params["b_id"]):
            obs = yield from kit.open_record(ui, self.app, self.desc, self.coll, rid)
            shown.append(kit.shown_number(testid_texts(obs).get(testid, "")))
        yield ui.answer(format_number(shown[0] - shown[1], params.get("lang", "en"), 2))


def register(apps: dict | None = None) -> None:
    """Per app: the average and the highest / lowest over the first collection (home first)
    with a price and a filter or tabs, the difference over the first with a price and three
    records or more."""
    for app, desc in (kit.described_apps() if apps is None else apps).items():
        colls = desc["collections"]
        names = kit.home_first(desc)
        name = next((n for n in names if colls[n]["price"] and (colls[n]["filter"] or colls[n]["tabs"])), "")
        if name:
            item, field = kit.ident(desc, name), colls[name]["filter"] or colls[name]["tabs"]
            kit.declare(f"{app}.average_{item}", Average, app, name, 8, kind="average", field=field)
            kit.declare(f"{app}.extreme_{item}", Extreme, app, name, 8, kind="max", field=field)
        name = next((n for n in names if colls[n]["price"] and kit.record_count(colls[n]) >= 3), "")
        if name:
            kit.declare(f"{app}.difference_{kit.ident(desc, name)}", Difference, app, name, 12, kind="difference")


register()
