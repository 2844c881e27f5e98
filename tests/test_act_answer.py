"""Act, then answer (issue 43, point 2): families that change the world and then return a value of
the world as it is afterwards, checked together with the complete state. Doing nothing, acting
without answering and answering without acting all score 0; the oracle solves every one through
the pages (text backend, and Chromium for some) and through the app tools; the answer's type and
JSON Schema reach the agent as the observation field ``answer_schema`` (MCP: tests/test_mcp_typed.py)."""

from __future__ import annotations

import json

import pytest
from openapps_sim.agents.oracle import OracleAgent

from openapps_sim.envs.registration import make_env
from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.taskkit.answers import ActAnswerFamily, parse_numbers
from openapps_sim.web.world import World

from .familytools import with_side_effect
from .oracle_cases import on_backends
from .oracle_play import play_oracle

FAMS = all_families()
ACTS = sorted(f for f, x in FAMS.items() if isinstance(x, ActAnswerFamily))
PACKS = ("default", "german", "arabic+mobile", "mandarin", "sparse")
URL = "http://127.0.0.1:1/"


@pytest.fixture(scope="module")
def world():
    return World()


def _wrong(fam, right: str) -> str:
    if fam.answer_kind == "json":
        obj = json.loads(right)
        key = next(iter(obj))
        return json.dumps(dict(obj, **{key: obj[key] + 1}))
    return str(parse_numbers(right)[0] + 1)


def test_at_least_ten_families_across_the_apps():
    assert len(ACTS) >= 10, ACTS
    assert {FAMS[f].apps[0] for f in ACTS} == {"todo", "calendar", "messenger", "maps", "shop", "code_editor"}
    assert {FAMS[f].answer_kind for f in ACTS} == {"number", "json"}
    assert all(FAMS[f].returns_value and FAMS[f].structure == "answer" for f in ACTS)


@pytest.mark.parametrize("fid", ACTS)
def test_state_and_answer_are_checked_together(world, fid):
    fam = FAMS[fid]
    for pack in PACKS:
        for seed in (0, 3):
            world.reset(pack, seed)
            inst = instantiate(fam, world.state, world.config, seed, pack)
            right = inst.expected_answer
            assert inst.oracle_ops and inst.expected != inst.initial, f"{fid}: acting must change the world"
            assert evaluate(fam, inst, inst.expected, right, URL).success
            assert not evaluate(fam, inst, inst.expected, None, URL).success, "acted, never answered"
            assert not evaluate(fam, inst, inst.initial, right, URL).success, "answered, never acted"
            assert not evaluate(fam, inst, inst.initial, None, URL).success, "did nothing"
            assert not evaluate(fam, inst, inst.expected, _wrong(fam, right), URL).success
            noisy = with_side_effect(inst.expected, fam.apps[0])
            assert not evaluate(fam, inst, noisy, right, URL).success, "a side effect fails"


def _answer_before(fam, inst, config) -> str:
    """The same question asked of the world before the change."""
    from openapps_sim.tasks.shop.actanswer import CartAfter, cart_after

    if isinstance(fam, CartAfter):
        return fam.from_cart(cart_after(config, inst.initial["shop"]["cart"]))
    return fam.answer(inst.initial, inst.params)


@pytest.mark.parametrize("fid", ACTS)
def test_the_answer_is_known_only_after_acting(world, fid):
    """The value asked for is the world's after the change, never its value before it."""
    fam = FAMS[fid]
    for seed in range(6):
        world.reset("default", seed)
        inst = instantiate(fam, world.state, world.config, seed)
        assert _answer_before(fam, inst, world.config) != inst.expected_answer, (fid, seed)


def test_the_expected_answers_written_out():
    """Two instances, their answers written out: what the pages show after acting."""
    w = World()
    w.reset("default", 0)
    inst = instantiate(FAMS["todo.add_count_open"], w.state, w.config, 0)
    open_before = sum(1 for i in inst.initial["todo"]["items"] if not i["done"])
    assert inst.expected_answer == str(open_before + 1)
    inst = instantiate(FAMS["shop.checkout_number"], w.state, w.config, 0)
    assert inst.expected_answer == str(inst.params["next_order"])
    assert inst.expected["shop"]["orders"][-1]["id"] == inst.expected_answer


@pytest.mark.parametrize("fid, interface, backend", on_backends([(f, i) for f in ACTS for i in ("gui", "api")], 2))
def test_the_oracle_solves_it(fid, interface, backend):
    if backend == "chromium" and interface == "api":
        pytest.skip("app tools need no browser")
    cases = (("default", 0), ("german", 1), ("arabic+mobile", 2)) if backend == "text" else (("default", 0),)
    env = make_env(fid, backend=backend, interface=interface)
    try:
        for pack, seed in cases:
            obs, info = env.reset(seed=seed, options={"task_kwargs": {"variation": pack}})
            reward, last = play_oracle(env, obs, info["task_info"])
            assert reward == 1.0, (fid, pack, seed, last.get("task_info", {}).get("explanation"))
    finally:
        env.close()


def _play(env, fid: str, seed: int, how: str) -> tuple[float, bool]:
    """One episode (auto termination) by an agent that does nothing, acts without answering
    (the oracle's steps but its answer) or answers without acting (the right value at once)."""
    obs, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.interface = "gui"
    agent.reset(obs["goal"], info["task_info"])
    right = env.unwrapped.task.instance.expected_answer
    reward, done = 0.0, False
    for i in range(info["task_info"]["max_steps"]):
        if how == "answer":
            action = f"send_msg_to_user({json.dumps(right)})" if i == 0 else "noop()"
        elif how == "act":
            action = agent.act(obs)
            action = "noop()" if action.startswith("send_msg_to_user") else action
        else:
            action = "noop()"
        obs, reward, terminated, truncated, _ = env.step(action)
        done = terminated
        if terminated or truncated:
            break
    return reward, done


@pytest.mark.parametrize("fid", ACTS)
def test_nothing_acting_only_and_answering_only_score_zero(fid):
    env = make_env(fid, backend="text")
    try:
        for seed in (0, 1):
            assert _play(env, fid, seed, "nothing") == (0.0, False)
            reward, _ = _play(env, fid, seed, "act")
            assert reward == 0.0
            goal_met = env.unwrapped.task.evaluate_now(None).diff == []
            assert goal_met, f"{fid}: the acting agent reached the state, and still scores 0"
            assert _play(env, fid, seed, "answer") == (0.0, True), "a message before acting ends the episode at 0"
    finally:
        env.close()


def test_the_answer_schema_is_an_observation_field():
    env = make_env("shop.add_then_summary_json", backend="text")
    try:
        assert "answer_schema" in env.observation_space.spaces
        obs, info = env.reset(seed=0)
        assert json.loads(obs["answer_schema"]) == {
            "type": "json",
            "schema": {
                "type": "object",
                "properties": {"lines": {"type": "number"}, "units": {"type": "number"}, "total": {"type": "number"}},
                "required": ["lines", "units", "total"],
                "additionalProperties": False,
            },
        }
        assert info["task_info"]["answer_schema"] == json.loads(obs["answer_schema"])
        obs, *_ = env.step("noop()")
        assert json.loads(obs["answer_schema"])["type"] == "json", "every observation of the episode carries it"
        assert env.observation_space["answer_schema"].contains(obs["answer_schema"])
    finally:
        env.close()
    env = make_env("todo.clear_done_count", backend="text")
    try:
        obs, _ = env.reset(seed=0)
        assert json.loads(obs["answer_schema"]) == {"type": "number", "schema": {"type": "number"}}
    finally:
        env.close()
    env = make_env("todo.add_item", backend="text")
    try:
        obs, info = env.reset(seed=0)
        assert obs["answer_schema"] == "" and info["task_info"]["answer_schema"] is None
    finally:
        env.close()


# how each shipped language's goals name a number answer
NUMBER_WORDS = ("(a number)", "(eine Zahl)", "(un nombre)", "(un número)", "(un numero)", "（一个数字）", "(رقم)")


@pytest.mark.parametrize("fid", ACTS)
def test_every_goal_names_the_answers_type(fid):
    """The type is in the goal too, in every phrasing of every shipped language."""
    fam = FAMS[fid]
    assert set(fam.languages()) >= {"en", "de", "fr", "es", "it", "zh", "ar"}
    for lang in fam.languages():
        for templates in fam.styles(lang).values():
            for template in templates:
                if fam.answer_kind == "json":
                    assert "JSON" in template, (fid, lang, template)
                else:
                    assert any(w in template for w in NUMBER_WORDS), (fid, lang, template)
