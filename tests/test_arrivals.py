"""Arrivals never touch the task (issue 23, point 1): a message that arrives during an episode
lands only where the task refers to nothing, so the answer, the message to forward and the
branch to take are what the goal says whenever the agent looks. Browser-free: the worlds of the
honest-agent matrix, built as the server builds them, every arrival fired in them. Through the
real env (marked ``browser``): the reported cases, and the oracle reading its answers off pages."""

from __future__ import annotations

import copy

import pytest
from openapps_sim.apps.messenger.model import ME

from openapps_sim.config.interruptions import apply_arrival, make_arrival
from openapps_sim.taskkit import all_families, instantiate
from openapps_sim.taskkit.arrivals import task_keys
from openapps_sim.taskkit.statecopy import copy_apps
from openapps_sim.web.world import World

from .honest_cases import SEEDS, honest_families, interruption_packs
from .oracle_cases import on_backends


@pytest.fixture(scope="module")
def world():
    return World()


def _parts(fid: str, params: dict) -> list[tuple[str, dict]]:
    fam = all_families()[fid]
    return list(zip(fam.parts, params["parts"], strict=True)) if "parts" in params else [(fid, params)]


def _last_theirs(state: dict, cid: str) -> dict | None:
    theirs = [x for x in state["messenger"]["conversations"].get(cid, []) if x["sender"] == cid]
    return theirs[-1] if theirs else None


def _what_went_wrong(fid: str, inst, before: dict, after: dict) -> list[str]:
    """How a world-made change made the goal's answer, target or branch different."""
    fam, wrong = all_families()[fid], []
    # the answer read off the same state without the arrival (an act-then-answer family's answer
    # is the expected state's; read off the start it is another, arrival or not)
    if inst.expected_answer is not None and fam.answer(after, inst.params) != fam.answer(before, inst.params):
        wrong.append(f"answer {fam.answer(before, inst.params)!r} became {fam.answer(after, inst.params)!r}")
    for part, p in _parts(fid, inst.params):
        if part == "messenger.forward_message":
            last = _last_theirs(after, p["source_id"])
            if not last or last["id"] != p["message_id"]:
                wrong.append(f"the last message from {p['source_id']} is no longer {p['message_id']}")
        if part in ("messenger.last_from_contact", "messenger.count_from_contact", "messenger.reply_if_waiting"):
            conv = after["messenger"]["conversations"].get(p["contact_id"], [])
            if conv != before["messenger"]["conversations"].get(p["contact_id"], []):
                wrong.append(f"the conversation with {p['contact_id']} changed")
        if part == "messenger.reply_if_waiting":
            last = [s["messenger"]["conversations"][p["contact_id"]][-1]["sender"] != ME for s in (before, after)]
            if last[0] != last[1]:
                wrong.append(f"whose turn it is in the chat with {p['contact_id']} changed")
    return wrong


def arrival_problems(world: World, fid: str, pack: str, seed: int, reset: bool = True) -> tuple[list[str], int]:
    """Every arrival the pack declares, fired as the server fires it (with the task's references)
    on the state at the start and on the state the task asks for; the problems and the number of
    arrivals that landed. ``reset=False``: the world is already ``pack`` and ``seed``."""
    if reset:
        world.reset(pack, seed)
    inst = instantiate(all_families()[fid], world.state, world.config, seed, pack)
    keys = task_keys(inst.params, inst.initial, inst.expected, world.config)
    lang, problems, landed = world.config["shell"]["lang"], [], 0
    for iid, rule in world.config.get("interruptions", {}).items():
        arrival = rule["arrival"]
        if not rule["enabled"] or not arrival["app"]:
            continue
        for moment, base in (("at the start", inst.initial), ("once done", inst.expected)):
            after = copy_apps(base, [arrival["app"]])  # an arrival changes its own app alone
            effect = make_arrival(after[arrival["app"]], arrival, lang, keys, arrival["app"] in inst.apps)
            if effect is None:
                continue
            landed += 1
            apply_arrival(after, effect)
            problems += [f"{iid} {moment}: {w}" for w in _what_went_wrong(fid, inst, base, after)]
    return problems, landed


def test_the_matrix_is_what_the_issue_names():
    fams = honest_families()
    assert {"messenger.last_from_contact", "messenger.count_from_contact", "messenger.forward_message",
            "messenger.reply_if_waiting", "multi.forward_and_tick", "todo.item_notes"} <= set(fams)  # fmt: skip
    assert {"interrupt_message", "interrupt_mixed", "popups_openapps"} <= set(interruption_packs())


@pytest.mark.parametrize("pack", interruption_packs())
def test_no_arrival_touches_what_the_task_refers_to(world, pack):
    landed, failures = 0, []
    for seed in SEEDS:
        world.reset(pack, seed)  # one world per seed: instantiating leaves it as it is
        for fid in honest_families():
            problems, n = arrival_problems(world, fid, pack, seed, reset=False)
            landed += n
            failures += [f"{fid} seed {seed}: {p}" for p in problems]
    assert not failures, "\n".join(failures)
    if pack in ("interrupt_message", "interrupt_mixed"):
        assert landed > 0  # messages still arrive: the rule moves them, it does not drop them


REPORTED = [  # over seeds 0-59 the toast's message broke 8, 6, 3 and 1 seeds of these, and 3 of the multi
    ("messenger.last_from_contact", 10),
    ("messenger.count_from_contact", 12),
    ("messenger.forward_message", 0),
    ("messenger.reply_if_waiting", 45),
    ("multi.forward_and_tick", 11),
]


@pytest.mark.parametrize("fid, seed", REPORTED)
def test_the_reported_cases_keep_their_goal(world, fid, seed):
    """The repros of issue 23: the toast's message fired by the server's own code, after the
    task told the world what it refers to. Before, it landed in the contact's conversation
    (seed 10: the last message became "Are you free later? ...")."""
    world.reset("interrupt_message", seed)
    inst = instantiate(all_families()[fid], world.state, world.config, seed, "interrupt_message")
    world.set_state(inst.initial)
    world.interrupts.refer_task(list(inst.apps), task_keys(inst.params, inst.initial, inst.expected, world.config))
    before = copy.deepcopy(world.state)
    world.interrupts._fire(world, "message_toast", "/messenger/", "en")
    assert world.interrupts.arrivals, "the message still arrives somewhere"
    assert not _what_went_wrong(fid, inst, before, world.state)


def test_an_arrival_with_no_free_place_is_withheld(world):
    world.reset("interrupt_message", 0)
    every = list(world.app_state("messenger")["conversations"])
    world.interrupts.refer_task(["messenger"], every)
    world.interrupts._fire(world, "message_toast", "/messenger/", "en")
    assert world.interrupts.arrivals == [] and world.interrupts.report()["withheld"] == ["message_toast"]


def test_a_plain_list_arrival_stays_out_of_the_tasks_apps():
    state = {"items": [{"title": "a"}]}
    arrival = {"app": "todo", "path": "items", "key": "first", "value": {"title": "new"}}
    assert make_arrival(state, arrival, "en", (), app_in_task=True) is None
    assert make_arrival(state, arrival, "en", (), app_in_task=False)["index"] == 1
    convs = {"conversations": {"c1": [], "c2": [], "c3": []}}
    pick = {"app": "messenger", "path": "conversations", "value": {}}
    assert make_arrival(convs, {**pick, "key": "first"}, "en", ["c1"])["key"] == "c2"
    assert make_arrival(convs, {**pick, "key": "last"}, "en", ["c3"])["key"] == "c2"
    assert make_arrival(convs, {**pick, "key": "c1"}, "en", ["c1"]) is None


@pytest.mark.parametrize("fid, seed, backend", on_backends(REPORTED, every=2))
def test_the_honest_oracle_solves_the_reported_cases(env_on, fid, seed, backend):
    """The oracle reads the answer, the message to forward and whose turn it is off the page (an
    honest agent's reading). Before the rule it scored 0 on the first three: it answered "Are you
    free later? ..." and forwarded the message that had just arrived."""
    env = env_on(backend)
    from .test_interruptions import run

    reward, info, shown = run(env, fid, "interrupt_message", seed)
    assert reward == 1.0, info.get("explanation")
    arrivals = env.unwrapped.task.interruptions()["arrivals"]
    inst = env.unwrapped.task.instance
    assert arrivals and arrivals[0]["key"] not in task_keys(inst.params, inst.initial, inst.expected, world_config(env))


def world_config(env) -> dict:
    return env.unwrapped.task.world.config()


def test_the_honest_sweep_names_the_whole_matrix():
    """``openapps sweep honest_arrivals`` runs every answer, forward and reply family under every
    interruption pack, seeds 0-5: a family or pack added later joins it, or this fails."""
    from openapps_sim.sweeps.spec import load_spec

    spec = load_spec("honest_arrivals")
    assert spec.tasks == honest_families() and spec.variations == interruption_packs()
    assert spec.seeds == list(SEEDS) and [a["name"] for a in spec.agents] == ["oracle"]


PAGE_READERS = [  # family, pack, seed, overrides: each reads its answer off the page
    ("todo.count_open", "interrupt_mixed", 1, ()),
    ("todo.item_notes", "german", 1, ()),
    ("maps.place_note", "interrupt_message", 1, ()),
    ("calendar.event_time", "default", 1, ()),
    ("calendar.event_time", "german", 1, ("calendar.clock=12h",)),  # "10:00 vorm.": read from the form
    ("code_editor.count_lines", "interrupt_crash", 2, ()),  # 35 lines of a textarea
    ("messenger.count_from_contact", "arabic", 1, ()),
    ("calendar.days_until", "mandarin", 4, ()),  # today off the grid, the date off the edit form
    ("code_editor.folder_summary", "interrupt_mixed", 3, ()),
    ("shop.cart_summary_json", "german", 1, ()),  # "105,98 €" read off the cart
]


@pytest.mark.parametrize("fid, pack, seed, overrides, backend", on_backends(PAGE_READERS, every=2))
def test_the_oracle_answers_what_the_page_shows(env_on, fid, pack, seed, overrides, backend):
    """The answer the oracle sends is read off the page (its parameters hold the same value, so a
    wrong reading fails here)."""
    from openapps_sim.agents.oracle import OracleAgent

    env = env_on(backend)

    kwargs = {"family": fid, "variation": pack, "overrides": list(overrides)}
    obs, info = env.reset(seed=seed, options={"task_kwargs": kwargs})
    agent = OracleAgent()
    agent.reset(obs["goal"], info["task_info"])
    for _ in range(info["task_info"]["max_steps"]):
        obs, reward, terminated, truncated, last = env.step(agent.act(obs))
        if terminated:
            break
    assert reward == 1.0, last["task_info"].get("explanation")
    assert env.unwrapped.task.last_answer is not None
