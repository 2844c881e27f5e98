"""Cross-app families of every described app, on the multi-step machinery
(``taskkit/composite.py``): a change in the described app, then a hand-built app keeps track
of it. Derived from the description (docs/apps/spec.md, "Task families"):

* every flow with a date field (a booking, a rental, an appointment) becomes a calendar event
  that day: ``<app>.<flow>_then_event`` (the event is titled ``<flow label> – <what>``);
* the app's first change of a record (create, set a status, a toggle or the star, an edit,
  a delete, looked for in the home collection first) becomes a todo item
  ``Follow up on <title>``: ``<app>.<family>_then_todo``.

The goal is the described part's goal followed by the hand-built part's clause, joined as the
language's ``described.cross`` says.
"""

from __future__ import annotations

from openapps_sim.tasks.described import acts, kit
from openapps_sim.tasks.multi.steps import set_event, set_todo

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
        then = lang_data.clause(second.id, language) or lang_data.clause(second.id, lang_data.ENGLISH)
        values["second"] = str(then).format(**second.goal_values(p1, language))
        return values


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
    cls = type(base.__name__, (base,), {"id": fid, "parts": parts, "description": description, **attrs})
    register_instance(cls())


def register() -> None:
    for app, desc in kit.described_apps().items():
        for name, flow in desc["flows"].items():
            fields = desc["collections"][flow["creates"]]["fields"]
            day = next((f for f in flow["fields"] if fields[f]["type"] == "date"), "")
            if day:
                what = f"Run '{flow['label']}' in {desc['title']}, then add it to the calendar that day."
                _make(FlowThenEvent, f"{app}.{name}_then_event", (f"{app}.{name}", "calendar.add_event"), what,
                      date=day)  # fmt: skip
        change = first_change(app, desc)
        if change:
            what = f"{change.split('.', 1)[1]} in {desc['title']}, then a todo item to follow it up."
            _make(ThenTodo, f"{change}_then_todo", (change, "todo.add_item"), what)


register()
