"""The families of a described app that go beyond one change: navigate to a record's page, a
conditional (one change if a record has a value, another if not), a sequence of changes in
order and a long list of changes (at least 20 oracle steps), derived from the description like
the rest (docs/apps/spec.md, "Task families"; the changes are ``tasks/described/acts.py``)."""

from __future__ import annotations

from openapps_sim.tasks.described import acts, kit
from openapps_sim.tasks.described.edits import Derived

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Infeasible, Subgoal, pick
from openapps_sim.taskkit.answers import pack_lang
from openapps_sim.taskkit.branching import BranchingFamily, Condition, Decision, OrderedFamily
from openapps_sim.taskkit.observation import testid_texts

#: how many records the long family changes (each at least four oracle steps: 32 or more)
LONG_RECORDS = 8


class Navigate(Derived):
    """Open the page of a named record; nothing may change, the browser must end on that page."""

    category = "navigate"
    no_api = "the goal is a page to end on, and app tools open no page"

    def sample(self, state, config, rng):
        ids = [r["id"] for r in state[self.app][self.coll]]
        # a record whose path starts no other record's path (t1 and t12): only its page is the goal
        alone = [r for r in kit.named(state[self.app], self.desc, self.coll) if not any(
            i != r["id"] and i.startswith(r["id"]) for i in ids)]  # fmt: skip
        return self.record_params(pick(rng, alone, f"{self.coll} record"))

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), title=acts.quote(params["title"], language))

    def plan(self, params, initial):
        return []

    def expected_path(self, params):
        return f"/{self.app}/c/{self.coll}/{params['id']}"

    def solve(self, params, ui):
        yield from kit.open_record(ui, self.app, self.desc, self.coll, params["id"])


class Conditional(Derived, BranchingFamily):
    """If a named record has a given value of a choice field, make one change; otherwise make
    another (a second action on it, or the same action on a second record)."""

    cfield: str = ""

    def sample(self, state, config, rng):
        own, choices = state[self.app], self.spec["fields"][self.cfield]["choices"]
        named = kit.named(own, self.desc, self.coll)
        record = pick(rng, [r for r in named if r.get(self.cfield) in choices], f"{self.coll} with a {self.cfield}")
        branch = rng.choice(["yes", "no"])
        current = record[self.cfield]
        value = current if branch == "yes" else pick(rng, [c for c in choices if c != current], "other choice")
        options = acts.record_actions(self.desc, self.coll)
        if len(options) >= 2:
            (k1, f1), (k2, f2) = rng.sample(options, 2)
            other = record
        else:
            (k1, f1), (k2, f2) = options[0], options[0]
            other = pick(rng, [r for r in named if r["id"] != record["id"]], "second record")
        yes = acts.draw_act(self.desc, own, self.coll, k1, f1, record, rng)
        no = acts.draw_act(self.desc, own, self.coll, k2, f2, other, rng)
        return {**self.record_params(record), "value": value, "yes": yes, "no": no, "branch": branch,
                "lang": pack_lang(config)}  # fmt: skip

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        out["title"] = acts.quote(params["title"], language)
        out["field"] = kit.field_label(self.desc, self.coll, self.cfield, language)
        out["value"] = kit.said(self.desc, {}, self.coll, self.cfield, params["value"], language)
        out["yes"] = acts.clause(self.desc, params["yes"], language)
        out["no"] = acts.clause(self.desc, params["no"], language)
        return out

    def decision(self, params):
        app, coll, field, value = self.app, self.coll, self.cfield, params["value"]
        shown = kit.said(self.desc, {}, coll, field, value, params["lang"])

        def test(data: dict) -> bool:
            return any(r["id"] == params["id"] and r.get(field) == value for r in data.get(coll, []))

        def look(ui):
            obs = yield from kit.open_record(ui, app, self.desc, coll, params["id"])
            return norm_text(testid_texts(obs).get(f"{app}-detail-{field}", "")) == norm_text(shown)

        return Decision.when(Condition(app, test, look), "yes", "no")

    def branch_plans(self, params, initial):
        return {leaf: [acts.act_op(self.app, self.desc, params[leaf])] for leaf in ("yes", "no")}

    def act(self, leaf, params, ui):
        yield from acts.act_steps(ui, self.app, self.desc, params[leaf])


class Several(Derived):
    """Changes to several records (``params["steps"]``, acts), one milestone each."""

    def plan(self, params, initial):
        return [acts.act_op(self.app, self.desc, a) for a in params["steps"]]

    def solve(self, params, ui):
        for a in params["steps"]:
            yield from acts.act_steps(ui, self.app, self.desc, a)

    def subgoals(self, params, initial=None, expected=None):
        return [Subgoal(f"{a['kind']} {a['coll']} {a['id']}", acts.act_done(self.app, a)) for a in params["steps"]]


class Sequence(Several, OrderedFamily):
    """Make two or three changes to different records, in a given order (different kinds of
    change first, across the app's collections)."""

    def sample(self, state, config, rng):
        own = state[self.app]
        options = [(n, k, f) for n in self.desc["collections"] for k, f in acts.record_actions(self.desc, n)]
        rng.shuffle(options)
        steps: list[dict] = []
        for fresh_kind in (True, False):
            for name, kind, field in options:
                used = {a["id"] for a in steps}
                if len(steps) == 3 or (fresh_kind and kind in {a["kind"] for a in steps}):
                    continue
                free = [r for r in kit.named(own, self.desc, name) if r["id"] not in used]
                if free:
                    steps.append(acts.draw_act(self.desc, own, name, kind, field, rng.choice(free), rng))
        if len(steps) < 2:
            raise Infeasible(f"no two changes in {self.app}")
        return {"steps": steps}

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        parts = [f"({i}) {acts.clause(self.desc, a, language)}" for i, a in enumerate(params["steps"], 1)]
        out["steps"] = "; ".join(parts)
        return out


class Long(Several):
    """Make one change (``change``: kind and field) to each of eight named records: switch a
    toggle, set a status, delete or edit a field to the same value."""

    change: tuple[str, str] = ("", "")

    def candidates(self, own: dict, rng) -> tuple[list[dict], object]:
        """The records the change would change, and the value they get."""
        kind, field = self.change
        named = kit.named(own, self.desc, self.coll)
        if kind == "toggle":
            off = [r for r in named if not r.get(field)]
            on = [r for r in named if r.get(field)]
            return (off, True) if len(off) >= len(on) else (on, False)
        if kind == "delete":
            return named, None
        spec = self.spec["fields"][field]
        if kind == "edit" and field == self.spec["title"]:
            raise Infeasible("eight records get no one title")
        if spec["type"] == "choice":
            many = [c for c in spec["choices"] if sum(r.get(field) != c for r in named) >= LONG_RECORDS]
            value = pick(rng, many, f"{field} value")
        else:
            value = kit.new_value(self.desc, own, self.coll, field, None, rng)
        return [r for r in named if r.get(field) != value], value

    def sample(self, state, config, rng):
        own, (kind, field) = state[self.app], self.change
        records, value = self.candidates(own, rng)
        if len(records) < LONG_RECORDS:
            raise Infeasible(f"fewer than {LONG_RECORDS} records of {self.coll} to change")
        chosen = rng.sample(records, LONG_RECORDS)
        return {"steps": [acts.draw_act(self.desc, own, self.coll, kind, field, r, rng, value) for r in chosen]}

    def goal_values(self, params, language):
        out = super().goal_values(params, language)
        names = acts.titles([a["title"] for a in params["steps"]], language)
        out["action"] = acts.clause(self.desc, params["steps"][0], language, title=names)
        out["n"] = len(params["steps"])
        return out


def long_change(desc: dict) -> tuple[str, tuple[str, str]] | None:
    """The collection and change of the long family: the home collection's (else the first
    collection's with a record action and at least eight records), the first of status, a
    toggle, delete and an edit of a field other than the title; None when no collection has one."""
    home = desc["home"] or next(iter(desc["collections"]))
    for name in [home, *desc["collections"]]:
        if kit.record_count(desc["collections"][name]) < LONG_RECORDS:
            continue
        title = desc["collections"][name]["title"]
        for kind in acts.KINDS:
            for k, f in acts.record_actions(desc, name):
                if k == kind and not (k == "edit" and f == title):
                    return name, (k, f)
    return None


def conditional_field(desc: dict, name: str) -> str:
    """The choice field a conditional asks about (the collection's first), when the collection
    has one and two changes to choose between (two actions, or one action and two records)."""
    coll, options = desc["collections"][name], acts.record_actions(desc, name)
    choice = next((f for f, s in coll["fields"].items() if s["type"] == "choice"), "")
    return choice if len(options) >= 2 or (options and kit.record_count(coll) >= 2) else ""


def register(apps: dict | None = None) -> None:
    """One family of each kind per app: navigate to a record of the home collection, a
    conditional on the first collection (home first) that allows one, a sequence, a long list."""
    for app, desc in (kit.described_apps() if apps is None else apps).items():
        home = kit.home_first(desc)[0]
        kit.declare(f"{app}.open_{kit.ident(desc, home)}", Navigate, app, home, 8, kind="navigate")
        name = next((n for n in kit.home_first(desc) if conditional_field(desc, n)), "")
        if name:
            cfield = conditional_field(desc, name)
            kit.declare(f"{app}.if_{kit.ident(desc, name)}", Conditional, app, name, 20, kind="conditional",
                        cfield=cfield)  # fmt: skip
        if any(acts.record_actions(desc, n) for n in desc["collections"]):
            kit.declare(f"{app}.sequence", Sequence, app, home, 30, kind="sequence")
        found = long_change(desc)
        if found:
            name, change = found
            steps = LONG_RECORDS * 8 + 10
            kit.declare(f"{app}.long_{kit.ident(desc, name)}", Long, app, name, steps, kind="long", change=change)


register()
