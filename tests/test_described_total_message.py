"""A described app's flow with a money total, then that total in a message (docs/apps/spec.md,
"Task families": ``<app>.<flow>_then_message``): which apps get it, the total the message must be,
the oracle through the pages and the app tools, and what scores 0."""

from __future__ import annotations

import copy

import pytest

from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.web.world import World

from .oracle_play import play_oracle

FAMILIES = sorted(f for f in all_families() if f.endswith("_then_message"))


def test_every_flow_with_a_money_total_gets_the_family():
    assert FAMILIES == [
        "banking.transfer_then_message",  # the amount the form asks for
        "budget.top_up_then_message",
        "delivery.checkout_then_message",  # the total the app computes from the basket
        "hotels.book_then_message",  # the hotel's rate x the nights
        "parking.park_then_message",  # the car park's hourly price x the hours
        "pharmacy.checkout_then_message",
        "rides.request_then_message",
        "splitbill.settle_then_message",
        "stockroom.order_then_message",
        "tickets.buy_then_message",  # the event's price x the tickets
        "timesheet.invoice_then_message",
    ]
    fam = all_families()["hotels.book_then_message"]
    assert fam.apps == ("hotels", "messenger") and fam.parts == ("hotels.book", "messenger.send_message")
    assert "clinic.book_then_message" not in all_families()  # a fee, but no quantity: no total
    assert "flights.book_then_message" not in all_families()  # passengers, but no price


def _instance(fid: str, pack: str = "default", seed: int = 0):
    world = World()
    world.reset(pack, seed)
    fam = all_families()[fid]
    return fam, instantiate(fam, world.state, world.config, seed, pack, "auto"), world.draw_all()


def test_the_message_is_the_total_as_the_app_writes_money():
    fam, inst, state = _instance("hotels.book_then_message")
    book, message = inst.params["parts"]
    hotel = next(h for h in state["hotels"]["hotels"] if h["id"] == book["values"]["hotel"])
    assert (hotel["name"], hotel["rate"], book["values"]["nights"]) == ("Vesuvio Boutique Hotel", 46, 5)
    assert message["text"] == "€230.00"
    assert "€230.00" not in inst.goal and "Price per night × Nights" in inst.goal
    assert message["contact"] in inst.goal
    _, inst, _ = _instance("banking.transfer_then_message")
    assert inst.params["parts"][1]["text"] == "€179.02" and "Amount €179.02" in inst.goal
    _, inst, _ = _instance("hotels.book_then_message", "german")
    assert "die Summe (Preis pro Nacht × Nächte)" in inst.goal and not inst.fallbacks


@pytest.mark.parametrize("pack", ["default", "german", "french", "spanish", "italian", "mandarin", "arabic"])
def test_the_goals_are_phrased_in_every_shipped_language(pack):
    for fid in FAMILIES:
        _, inst, _ = _instance(fid, pack)
        assert not inst.fallbacks, (fid, pack, inst.fallbacks)
        assert "{" not in inst.goal and inst.params["parts"][1]["contact"] in inst.goal, (fid, inst.goal)


def test_milestones_are_the_flow_then_the_message():
    fam, inst, _ = _instance("tickets.buy_then_message")
    names = [m.name for m in inst.milestones]
    assert names[-2:] == ["tickets.buy", "messenger.send_message"]


def test_only_the_total_to_the_named_contact_scores():
    for fid in (
        "banking.transfer_then_message",
        "hotels.book_then_message",
        "delivery.checkout_then_message",
        "stockroom.order_then_message",
        "timesheet.invoice_then_message",
        "rides.request_then_message",
    ):
        fam, inst, _ = _instance(fid)
        assert evaluate(fam, inst, inst.initial).reward == 0, fid  # doing nothing
        assert evaluate(fam, inst, inst.expected).reward == 1, fid
        cid = inst.params["parts"][1]["contact_id"]
        wrong = copy.deepcopy(inst.expected)
        wrong["messenger"]["conversations"][cid][-1]["text"] = "€1.00"  # a wrong total
        assert evaluate(fam, inst, wrong).reward == 0, fid
        moved = copy.deepcopy(inst.expected)
        sent = moved["messenger"]["conversations"][cid].pop()
        other = next(c for c in moved["messenger"]["conversations"] if c != cid)
        moved["messenger"]["conversations"][other].append(sent)  # the right total, the wrong contact
        assert evaluate(fam, inst, moved).reward == 0, fid
        only = copy.deepcopy(inst.expected)
        only["messenger"] = copy.deepcopy(inst.initial["messenger"])  # the flow done, no message
        result = evaluate(fam, inst, only)
        assert result.reward == 0 and result.subgoals == {fam.parts[0]: True, "messenger.send_message": False}


@pytest.mark.parametrize("interface", ["gui", "api"])
@pytest.mark.parametrize("pack", ["default", "german"])
@pytest.mark.parametrize(
    "fid",
    [
        "banking.transfer_then_message",
        "hotels.book_then_message",
        "tickets.buy_then_message",
        "delivery.checkout_then_message",  # totals the app computes (tests/test_described_totals.py)
        "pharmacy.checkout_then_message",
        "stockroom.order_then_message",
        "timesheet.invoice_then_message",  # hours x the client's rate (tests/test_described_amounts.py)
        "rides.request_then_message",  # distance x the class's rate per km + a base fare
    ],
)
def test_the_oracle_solves_it_on_the_text_backend(interface_envs, fid, pack, interface):
    env = interface_envs[interface]
    obs, info = env.reset(seed=0, options={"task_kwargs": {"family": fid, "variation": pack}})
    reward, last = play_oracle(env, obs, info["task_info"])
    assert reward == 1.0, last.get("task_info", {}).get("explanation")
    sent = env.unwrapped.task.instance.params["parts"][1]
    got = env.unwrapped.world.app_state("messenger")["conversations"][sent["contact_id"]][-1]["text"]
    assert got == sent["text"] and got[0] in "€£", got
