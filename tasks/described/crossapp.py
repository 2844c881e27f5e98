"""Cross-app families of every described app, on the multi-step machinery
(``taskkit/composite.py``): a change in the described app, then a hand-built app keeps track
of it. Derived from the description (docs/apps/spec.md, "Task families"):

* every flow with a date field (a booking, a rental, an appointment) becomes a calendar event
  that day: ``<app>.<flow>_then_event`` (the event is titled ``<flow label> – <what>``);
* the app's first change of a record (create, set a status, a toggle or the star, an edit,
  a delete, looked for in the home collection first) becomes a todo item
  ``Follow up on <title>``: ``<app>.<family>_then_todo``;
* every flow with a money total (a money value the app computes, ``set: {total: {sum: ...}}``;
  else a money field its form asks for, the created collection's price first; else a record it
  names with a money price times the first number it asks for: a rate times the nights) goes to
  a contact in the messenger, the message being the total as the app writes money
  (``€1,180.00``): ``<app>.<flow>_then_message``. A computed total is computed from the world
  the task starts in by the app's own rule (``apps/described/computed.py``).

The goal is the described part's goal followed by the hand-built part's clause (a total's is
``described.send_total``, which names the total but does not give it), joined as the language's
``described.cross`` says.
"""

from __future__ import annotations

from openapps_sim.apps.described import computed
from openapps_sim.apps.described.generate import field_default
from openapps_sim.tasks.described import acts, kit
from openapps_sim.tasks.multi.steps import set_event, set_text, set_todo

from openapps_sim.taskkit import language as lang_data
from openapps_sim.taskkit import register_instance
from openapps_sim.taskkit.composite import MultiStepFamily


class DescribedThen(MultiStepFamily):
    """A described app's family, then a hand-built app's (``parts``)."""

    tier = 1

    def styles(self, language):
        return lang_data.family_styles("described.cross", language)

    def goal_values(self, params, language):
        values = super().goal_values(params, language)
        (first, second), (p0, p1) = self.part_families, params["parts"]
        styles = first.styles(language) or first.styles(lang_data.ENGLISH)
        values["first"] = next(iter(styles.values()))[0].format(**first.goal_values(p0, language))
        key = self.clause or second.id
        then = lang_data.clause(key, language) or lang_data.clause(key, lang_data.ENGLISH)
        values["second"] = str(then).format(**second.goal_values(p1, language), **self.clause_values(params, language))
        return values

    clause: str = ""  # the second part's clause, when not its family's own

    def clause_values(self, params: dict, language: str) -> dict:
        """What the second part's clause names besides its family's own values."""
        return {}


def _title(desc: dict, coll: str, p: dict) -> str:
    """What a described part's record is called: the record it changes or creates, else the
    title of the record its flow starts from."""
    if p.get("title"):
        return str(p["title"])
    refs = p.get("refs") or {}
    title = desc["collections"][coll]["title"]
    return str((p.get("values") or {}).get(title) or next(iter(refs.values()), ""))


class FlowThenEvent(DescribedThen):
    """Run a flow with a date, then put it in the calendar that day."""

    flow: str = ""
    date: str = ""

    def link(self, parts, state, config, rng):
        app, flow = self.part_families[0].app, self.part_families[0].flow
        desc = kit.described_apps()[app]
        lang = lang_data.world_language(config)
        label = kit.texts(desc, lang).get(f"flow.{flow}", desc["flows"][flow]["label"])
        what = _title(desc, desc["flows"][flow]["creates"], parts[0])
        set_event(parts[1], state, f"{label} – {what}" if what else label)
        values = parts[0]["values"]
        if self.date not in values:  # a date with a default: the goal gives one all the same
            values[self.date] = kit.new_value(desc, state[app], desc["flows"][flow]["creates"], self.date, None, rng)
        parts[1]["date"] = values[self.date]


class ThenTodo(DescribedThen):
    """Change a record, then add a todo item to follow it up."""

    def link(self, parts, state, config, rng):
        fam = self.part_families[0]
        text = str(lang_data.words(config, "multi.follow_up")).format(title=_title(fam.desc, fam.coll, parts[0]))
        set_todo(parts[1], state, text)


class FlowThenTotal(DescribedThen):
    """Run a flow, then send a contact its total as the app shows it (``flow_total``)."""

    clause = "described.send_total"
    total: str = ""  # the money field asked for, or the ref to a record with a money price
    quantity: str = ""  # with a ref: the number field the price is multiplied by

    def link(self, parts, state, config, rng):
        fam = self.part_families[0]
        values, own, coll = parts[0]["values"], state[fam.app], fam.coll
        rule = fam.desc["flows"][fam.flow]["set"].get(self.total)
        if computed.is_rule(rule):  # the app computes it (an order's total): from the state, as the app does
            record = {**{f: field_default(s) for f, s in fam.spec["fields"].items()}, **values}
            amount = computed.compute(fam.desc, own, coll, rule, record)
            set_text(parts[1], state, money_text(fam.spec["fields"][self.total], amount))
            return
        for f in (self.total, self.quantity):
            spec = fam.spec["fields"].get(f)
            if f and f not in values:
                values[f] = kit.new_value(fam.desc, own, coll, f, None, rng)
            if spec and spec["type"] == "number" and not (fam.spec["generate"].get(f) or {}).get("range"):
                values[f] = rng.randint(1, 5)  # a quantity the app draws no range of: a whole one
        set_text(parts[1], state, total_text(fam.desc, own, coll, self.total, self.quantity, values))

    def clause_values(self, params, language):
        fam = self.part_families[0]
        desc, coll = fam.desc, fam.coll
        what = kit.field_label(desc, coll, self.total, language)
        if self.quantity:  # the named record's price × the number asked for
            to = fam.spec["fields"][self.total]["to"]
            price = kit.field_label(desc, to, desc["collections"][to]["price"], language)
            what = f"{price} × {kit.field_label(desc, coll, self.quantity, language)}"
        return {"what": what, "app": kit.texts(desc, language).get("title", desc["title"])}


def flow_total(desc: dict, flow: str) -> tuple[str, str] | None:
    """How a flow's total is found (the module's docstring): ``(money field, "")`` or ``(ref,
    number field)``; None for a flow with no money total."""
    asked, coll = desc["flows"][flow]["fields"], desc["collections"][desc["flows"][flow]["creates"]]
    fields = coll["fields"]
    made = [f for f, v in desc["flows"][flow]["set"].items() if computed.is_rule(v) and fields[f]["type"] == "money"]
    if made:  # a total the app computes
        return (coll["price"] if coll["price"] in made else made[0]), ""
    money = [f for f in asked if fields[f]["type"] == "money"]
    if money:
        return (coll["price"] if coll["price"] in money else money[0]), ""
    quantity = next((f for f in asked if fields[f]["type"] == "number"), "")
    for f in asked:
        target = desc["collections"][fields[f]["to"]] if fields[f]["type"] == "ref" else None
        if quantity and target and target["price"] and target["fields"][target["price"]]["type"] == "money":
            return f, quantity
    return None


def total_text(desc: dict, own: dict, coll: str, total: str, quantity: str, values: dict) -> str:
    """The total of a flow's ``values`` as the app writes money (``−€1,180.00``)."""
    spec = desc["collections"][coll]["fields"][total]
    if quantity:
        target = desc["collections"][spec["to"]]
        record = next(r for r in own[spec["to"]] if r["id"] == values[total])
        spec = target["fields"][target["price"]]
        amount = round(float(record[target["price"]]) * float(values[quantity]), 2)
    else:
        amount = float(values[total])
    return money_text(spec, amount)


def money_text(spec: dict, amount: float) -> str:
    """``amount`` as the app writes a money field ``spec`` (``−€1,180.00``)."""
    return f"{'−' if amount < 0 else ''}{spec['currency']}{abs(amount):,.2f}"


def first_change(app: str, desc: dict) -> str | None:
    """The id of the app's first family that changes one record (see the module's docstring)."""
    home = desc["home"] or next(iter(desc["collections"]))
    for name in dict.fromkeys([home, *desc["collections"]]):
        coll, item = desc["collections"][name], kit.ident(desc, name)
        if coll["actions"]["create"]:
            return f"{app}.create_{item}"
        for kind, field in acts.record_actions(desc, name):
            return {
                "status": f"{app}.set_{item}_{field}",
                "toggle": f"{app}.toggle_{item}_{field}",
                "delete": f"{app}.delete_{item}",
                "edit": f"{app}.edit_{item}",
            }[kind]
    return None


def _make(base: type, fid: str, parts: tuple[str, ...], description: str, **attrs) -> None:
    if kit.noted(fid):
        return
    cls = type(base.__name__, (base,), {"id": fid, "parts": parts, "description": description, **attrs})
    register_instance(cls())


def register(apps: dict | None = None) -> None:
    for app, desc in (kit.described_apps() if apps is None else apps).items():
        for name, flow in desc["flows"].items():
            fields = desc["collections"][flow["creates"]]["fields"]
            day = next((f for f in flow["fields"] if fields[f]["type"] == "date"), "")
            if day:
                what = f"Run '{flow['label']}' in {desc['title']}, then add it to the calendar that day."
                _make(FlowThenEvent, f"{app}.{name}_then_event", (f"{app}.{name}", "calendar.add_event"), what,
                      date=day)  # fmt: skip
            found = flow_total(desc, name)
            if found:
                what = f"Run '{flow['label']}' in {desc['title']}, then send a contact its total in the messenger."
                _make(FlowThenTotal, f"{app}.{name}_then_message", (f"{app}.{name}", "messenger.send_message"), what,
                      total=found[0], quantity=found[1])  # fmt: skip
        change = first_change(app, desc)
        if change:
            what = f"{change.split('.', 1)[1]} in {desc['title']}, then a todo item to follow it up."
            _make(ThenTodo, f"{change}_then_todo", (change, "todo.add_item"), what)


register()
