"""The oracle answers what the world shows, never what its parameters say (issue 23, point 1):
every answer family, solved through the pages and through the app tools, with the answer-like
parameters poisoned before the oracle sees them, still scores 1. Browser-free (text backend);
``tests/test_arrivals.py`` reads pages under Chromium."""

from __future__ import annotations

import pytest

from openapps_sim.taskkit import all_families
from openapps_sim.taskkit.answers import ActAnswerFamily, AnswerFamily

from .oracle_play import play_oracle
from .tested_families import tested_families

# What the oracle may read of its parameters: where the subject of the question is (ids, paths,
# the page's language and its words for south and west). Every other parameter, named here or
# added later, is poisoned: whatever the answer is, the oracle reads it off the world. ``which``
# is the question of a described app's extreme family (the highest or the lowest).
LOCATORS = frozenset({"event_id", "path", "folder", "a_id", "b_id", "saved_id", "contact_id", "id", "lang", "negative",
                       "field", "choice", "which"})  # fmt: skip
GUI_LOCATORS = LOCATORS | {"date"}  # a calendar event's page is reached through its day
POISON = "999"
# an act-then-answer family needs what the goal asks it to do (the title to add, the product, the
# address); what it must not need is the answer and the start state that makes it
ACT_POISONED = frozenset({"answer", "after", "done_ids", "n_done", "extra_places", "arrivals", "lines", "next_order",
                          "order_lines", "total", "new_content"})  # fmt: skip

ANSWER_FAMILIES = sorted(f for f, fam in tested_families().items() if isinstance(fam, AnswerFamily))
CASES = [
    (fid, pack, interface)
    for fid in ANSWER_FAMILIES
    for pack, interface in (("default", "gui"), ("arabic+mobile", "gui"), ("german", "api"), ("mandarin", "api"))
]


def poison(value):
    """A wrong value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return 999
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return POISON


def kept(params: dict, interface: str, fid: str = "") -> frozenset:
    """The parameters the oracle may read (the rest is poisoned)."""
    if isinstance(all_families().get(fid), ActAnswerFamily):
        return frozenset(params) - ACT_POISONED
    return GUI_LOCATORS if interface == "gui" else LOCATORS


def poisoned(params: dict, interface: str, fid: str = "") -> dict:
    """``params`` with every value the oracle must not need replaced: what an honest agent never had."""
    keep = kept(params, interface, fid)
    return {k: (v if k in keep else poison(v)) for k, v in params.items()}


def run_oracle(env, fid: str, pack: str, seed: int, interface: str) -> tuple[float, dict]:
    obs, info = env.reset(seed=seed, options={"task_kwargs": {"family": fid, "variation": pack}})
    task_info = dict(info["task_info"])
    keep = kept(task_info["params"], interface, fid)
    task_info["params"] = poisoned(task_info["params"], interface, fid)
    if not set(task_info["params"]) - keep:
        # a count or total: every parameter says where to look, and none of them is the answer
        answer = env.unwrapped.task.instance.expected_answer
        assert all(str(v) != answer for v in info["task_info"]["params"].values()), f"{fid}: the answer is a locator"
    else:
        assert set(task_info["params"]) - keep, f"{fid}: no parameter was poisoned"
    return play_oracle(env, obs, task_info)


@pytest.mark.parametrize("fid, pack, interface", CASES)
def test_the_oracle_answers_from_the_world_not_its_parameters(interface_envs, fid, pack, interface):
    for seed in (0, 1, 2):
        reward, info = run_oracle(interface_envs[interface], fid, pack, seed, interface)
        assert reward == 1.0, (fid, pack, interface, seed, info["task_info"].get("explanation"))


def test_the_distance_reads_south_and_west_off_the_page():
    """A saved place south of the equator or west of Greenwich shows "33.87° S" / "70.65° W" in
    its language; the sign comes from that word, so a distance across hemispheres is right."""
    from openapps_sim.tasks.maps.answers import page_coords

    assert page_coords("33.8688° S, 151.2093° E", ["S", "W"]) == (-33.8688, 151.2093)
    assert page_coords("\u206640.7128°\u2069 شمال, \u206674.006°\u2069 غرب", ["جنوب", "غرب"]) == (40.7128, -74.006)
    assert page_coords("48.86° N", ["S", "W"]) is None


def test_the_answer_families_are_all_covered():
    """A new answer family joins the poisoned matrix by existing; this fails if none do."""
    assert {"maps.distance_km", "calendar.days_until", "shop.cart_total_shipping"} <= set(ANSWER_FAMILIES)
