"""The family contract: a family states its change once, as a plan of app operations, and the
expected state, the W-LCS gold and the API solution follow from it. Families that cannot say
their change that way, or cannot be solved through app tools alone, say why, and are listed here."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.appkit import AppContext, AppSpec, WorldView
from openapps_sim.config.catalog import discover_apps
from openapps_sim.taskkit import API, TaskFamily, all_families, instantiate, normalise_world
from openapps_sim.taskkit.plan import run_plan
from openapps_sim.taskkit.progress import Op, compact_events, in_order, wlcs
from openapps_sim.web.world import World

FAMILIES = sorted(all_families())

#: every family that writes its expected change by hand, with its reason (none today)
NO_PLAN: dict[str, str] = {}
#: every family the oracle cannot solve through app tools alone, with its reason
NO_API = {"start.navigate_to_app": "the goal is a page to end on, and app tools open no page"}


def test_the_families_that_opt_out_are_these_and_say_why():
    fams = all_families()
    assert {f: x.no_plan for f, x in fams.items() if x.no_plan} == NO_PLAN
    assert {f: x.no_api for f, x in fams.items() if x.no_api} == NO_API
    for fid, fam in fams.items():
        assert fam.has_plan or fam.no_plan, f"{fid}: neither a plan nor a no_plan reason"
        assert fam.api_solvable or fam.no_api, f"{fid}: no API solution and no no_api reason"


def test_only_a_family_that_says_no_plan_writes_its_change_by_hand():
    """``apply`` (the expected change written by hand) belongs to a family that says why it has
    no plan; any other family's change is its plan, and an ``apply`` beside it would be a second
    statement of the change that nothing runs."""
    for fid, fam in all_families().items():
        own_apply = type(fam).apply is not TaskFamily.apply
        assert own_apply == bool(fam.no_plan), f"{fid}: apply without no_plan, or no_plan without apply"

    class Planned(TaskFamily):
        id = "planned"
        apps = ("todo",)

        def plan(self, params, initial):
            return [Op.of("todo", "add_item", title="Feed the cat")]

    state = {"todo": {"items": [], "next_id": 1}}
    assert (
        Planned().has_plan and Planned().expect(state, {}, {"todo": {}})["todo"]["items"][0]["title"] == "Feed the cat"
    )


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
        inst = instantiate(fam, copy.deepcopy(state), config, seed, pack)
        plan = fam.plan(inst.params, inst.initial)
        after = copy.deepcopy(inst.initial)
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

    from openapps_sim.errors import ConfigError
    from openapps_sim.taskkit import family

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

    with pytest.raises(ConfigError, match="'todo.add_item' is already registered by openapps_sim.tasks.todo.AddItem"):
        family("todo.add_item", apps="todo")(Twice)
    with pytest.raises(ConfigError, match="needs an id"):
        family("", apps="todo")(Twice)
