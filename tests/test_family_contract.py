"""The family contract: a family states its change once, as a plan of app operations, and the
expected state, the W-LCS gold and the API solution follow from it. Families that cannot be solved
through app tools alone say why, and are listed here."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.appkit import AppContext, AppSpec, WorldView
from openapps_sim.config.catalog import discover_apps
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit import API, TaskFamily, all_families, family, instantiate, normalise_world
from openapps_sim.taskkit.plan import run_plan
from openapps_sim.taskkit.progress import Op, compact_events, in_order, wlcs
from openapps_sim.taskkit.statecopy import copy_state
from openapps_sim.web.world import World

from .tested_families import tested_families

FAMILIES = sorted(tested_families())

#: every family the oracle cannot solve through app tools alone, with its reason
NO_API = {"start.navigate_to_app": "the goal is a page to end on, and app tools open no page"}


def test_the_families_that_opt_out_are_these_and_say_why():
    fams = all_families()
    opted = {f: x.no_api for f, x in fams.items() if x.no_api}
    # and each described app's navigation (``<app>.open_<item>``, one per app), for the same reason
    described = {n for n, s in discover_apps().items() if getattr(s, "source", "") == "described"}
    navigate = {f for f in opted if f.split(".")[0] in described and ".open_" in f}
    assert len(navigate) == 58
    assert {f: opted[f] for f in navigate} == dict.fromkeys(navigate, NO_API["start.navigate_to_app"])
    assert {f: r for f, r in opted.items() if f not in navigate} == NO_API
    for fid, fam in fams.items():
        assert type(fam).plan is not TaskFamily.plan, f"{fid}: no plan"
        assert fam.api_solvable or fam.no_api, f"{fid}: no API solution and no no_api reason"


def test_the_change_is_the_plan_and_nothing_else():
    """A family's expected change is its plan, with no second way to write it: there is no
    ``apply`` to write the change by hand and no ``no_plan`` to say why, and a header naming
    ``no_plan`` is refused like any unknown attribute."""
    assert not hasattr(TaskFamily, "apply") and not hasattr(TaskFamily, "no_plan")

    class Unplanned(TaskFamily):
        """A family that would write its change by hand."""

    with pytest.raises(ConfigError, match="unknown family attribute 'no_plan'"):
        family("test.unplanned", apps="todo", no_plan="by hand")(Unplanned)

    class Planned(TaskFamily):
        id = "planned"
        apps = ("todo",)

        def plan(self, params, initial):
            return [Op.of("todo", "add_item", title="Feed the cat")]

    state = {"todo": {"items": [], "next_id": 1}}
    assert Planned().expect(state, {}, {"todo": {}})["todo"]["items"][0]["title"] == "Feed the cat"
    assert Planned().oracle_ops({}, state) == [Op.of("todo", "add_item", title="Feed the cat")]


@pytest.fixture(scope="module")
def worlds():
    world, out = World(), {}
    for pack in ("default", "german", "interrupt_mixed"):
        for seed in (0, 1):
            world.reset(pack, seed)
            out[pack, seed] = (copy.deepcopy(world.state), world.config)
    return out


@pytest.mark.parametrize("family_id", FAMILIES)
def test_the_plan_runs_and_its_events_are_the_gold(worlds, family_id):
    """The plan's operations run on the initial state (the app accepts every call), reach the
    expected state, and the events they write score W-LCS 1 against the family's gold, in order."""
    fam = all_families()[family_id]
    for (pack, seed), (state, config) in worlds.items():
        # whole copies (a world state's own deep copy, as deepcopy would make it, in half the time)
        inst = instantiate(fam, copy_state(state), config, seed, pack)
        plan = fam.plan(inst.params, inst.initial)
        after = copy_state(inst.initial)
        events = compact_events(run_plan(plan, after, config))
        where = f"{family_id} / {pack} / {seed}"
        assert normalise_world(after) == normalise_world(inst.expected), where
        assert [e["op"] for e in events] == [op.op for op in plan], f"{where}: events not named after operations"
        assert wlcs(events, inst.oracle_ops) == 1.0 and in_order(inst.oracle_ops, events), where
        if inst.branching is not None:
            assert inst.branching.chosen(events) == inst.branching.correct, where


def test_an_operation_names_its_log_entry_and_only_operations_log():
    spec: AppSpec = discover_apps()["todo"]
    world = WorldView({"todo": {}}, {"todo": {"items": [], "next_id": 1}})
    ops = spec.load_operations()
    ctx = AppContext(world, spec, None)
    ops["add_item"](ctx, title="Feed the cat")
    assert [e["op"] for e in world.events] == ["add_item"] and ctx.operation == ""
    with pytest.raises(RuntimeError, match="outside an operation"):
        ctx.log(title="x")


def test_a_plan_naming_an_unknown_operation_is_one_clear_error():
    from openapps_sim.errors import ConfigError

    with pytest.raises(ConfigError, match="todo.<operation>.*'add'.*add_item"):
        run_plan([Op.of("todo", "add", title="x")], {"todo": {"items": [], "next_id": 1}}, {"todo": {}}, "task t")


def _first_steps(fam, params) -> list[str]:
    """The tools the family's API solution calls first (reads answered with an empty app)."""
    script, steps = fam.solve_api(params, API), []
    step = next(script)
    while step.testid.endswith(".read"):
        steps.append(step.testid)
        step = script.send({"tool_result": '{"events": [{"id": "e1", "title": "T", "date": "2026-03-01"}]}'})
    return [*steps, step.testid]


def test_the_api_solution_reads_the_world_only_when_the_plan_looks_at_it():
    """A plan from the parameters alone is called straight away; one that needs the initial
    state (a copy of an existing event) reads the family's apps first."""
    fams = all_families()
    assert _first_steps(fams["todo.remove_item"], {"id": "t1"}) == ["todo.delete_item"]
    copy_event = {"event_id": "e1", "new_date": "2026-03-02"}
    assert _first_steps(fams["calendar.duplicate_event"], copy_event) == ["calendar.read", "calendar.create_event"]


def test_a_family_header_is_its_decorator_and_its_description_its_docstring():
    import inspect

    for fid, fam in all_families().items():
        assert isinstance(fam.apps, tuple) and isinstance(fam.clicks, tuple), fid
        doc = type(fam).__dict__.get("__doc__")
        if doc:  # a subclass family without a docstring keeps its base's description
            assert fam.description == " ".join(inspect.cleandoc(doc).split("\n\n")[0].split()), fid
    assert all_families()["todo.remove_item"].clicks == ("todo-delete-{id}",)

    class Misspelt(TaskFamily):
        """A family with a typo in its header."""

    with pytest.raises(ConfigError, match="unknown family attribute 'max_step'.*allowed: .*max_steps"):
        family("test.misspelt", apps="todo", max_step=3)(Misspelt)

    class Twice(TaskFamily):
        """A family whose id is taken."""

    with pytest.raises(
        ConfigError, match="'todo.add_item' is already registered by openapps_sim.tasks.todo.edits.AddItem"
    ):
        family("todo.add_item", apps="todo")(Twice)
    with pytest.raises(ConfigError, match="needs an id"):
        family("", apps="todo")(Twice)


def test_families_live_by_app():
    """Every family is in its app's package, ``tasks/<app>/`` (the part of its id before the dot:
    ``calendar.add_if_free`` in ``tasks/calendar/``), cross-app ones in ``tasks/multi/``, those
    derived from the described apps' ``app.yaml`` in ``tasks/described/``; the
    registry finds them in the sub-packages by itself, so a new family is a new file there."""
    described = {name for name, spec in discover_apps().items() if getattr(spec, "source", "") == "described"}
    assert {"banking", "recipes", "hotels"} <= described

    def home(fid: str) -> str:  # a described app's families are derived in tasks/described/
        app = fid.split(".")[0]
        return f"openapps_sim.tasks.{'described' if app in described else app}."

    misplaced = {
        fid: type(fam).__module__
        for fid, fam in all_families().items()
        if not type(fam).__module__.startswith(home(fid))
    }
    assert not misplaced, misplaced
    modules = {type(fam).__module__ for fam in all_families().values()}
    assert {m for m in modules if m.startswith("openapps_sim.tasks.calendar.")} == {
        "openapps_sim.tasks.calendar.actanswer",
        "openapps_sim.tasks.calendar.answers",
        "openapps_sim.tasks.calendar.decisions",
        "openapps_sim.tasks.calendar.edits",
        "openapps_sim.tasks.calendar.infeasible",
        "openapps_sim.tasks.calendar.postpone",
    }
