"""Answers matched by type (issue 23, point 3): a reply that wraps the right value in a sentence
passes; a reply that also gives a competing candidate from the same app (another message,
another note, another event's time, another answer object) fails. Scored by the real
``evaluate`` on the world the task was instantiated in; no browser needed."""

from __future__ import annotations

import json

import pytest

from openapps_sim.taskkit import evaluate, get_family, instantiate
from openapps_sim.taskkit.answers import same_answer
from openapps_sim.web.world import World


def instance(family_id: str, seed: int, pack: str = "default"):
    fam = get_family(family_id)
    world = World()
    world.reset(pack, seed)
    return fam, instantiate(fam, world.state, world.config, seed, pack)


def judged(family_id: str, seed: int, reply: str) -> bool:
    fam, inst = instance(family_id, seed)
    return evaluate(fam, inst, inst.initial, reply).answer_ok


# -- text ----------------------------------------------------------------------------------------
def test_pasting_every_message_of_every_chat_fails_last_from_contact_seed_3():
    fam, inst = instance("messenger.last_from_contact", 3)
    chats = inst.initial["messenger"]["conversations"].values()
    every = "\n".join(m["text"] for conv in chats for m in conv)
    assert inst.expected_answer in every
    assert evaluate(fam, inst, inst.initial, every).answer_ok is False
    # only the contact's own chat pasted: still the other messages of that chat
    own = "\n".join(m["text"] for m in inst.initial["messenger"]["conversations"][inst.params["contact_id"]])
    assert evaluate(fam, inst, inst.initial, own).answer_ok is False


def test_pasting_every_todo_note_fails_item_notes_seed_1():
    fam, inst = instance("todo.item_notes", 1)
    every = "; ".join(i["notes"] for i in inst.initial["todo"]["items"] if i.get("notes"))
    assert inst.expected_answer in every and every != inst.expected_answer
    assert evaluate(fam, inst, inst.initial, every).answer_ok is False


@pytest.mark.parametrize(
    "family_id,seed,template",
    [
        ("messenger.last_from_contact", 3, "The last message was '{}'."),
        ("messenger.last_from_contact", 3, "{}"),
        ("messenger.last_from_contact", 10, 'They wrote: "{}"'),
        ("todo.item_notes", 1, "The notes say: {}"),
        ("maps.place_note", 2, "The note saved with it reads '{}'."),
    ],
)
def test_a_text_answer_wrapped_in_a_sentence_passes(family_id, seed, template):
    fam, inst = instance(family_id, seed)
    assert evaluate(fam, inst, inst.initial, template.format(inst.expected_answer)).answer_ok is True


def test_another_place_note_is_a_competitor_and_a_short_phrase_is_not():
    from openapps_sim.taskkit.answers import names_a_rival, rival_texts

    fam, inst = instance("maps.place_note", 2)
    rivals = rival_texts(inst.initial, fam.apps, inst.expected_answer)
    assert rivals and all(r != inst.expected_answer.lower() for r in rivals)
    reply = f"{inst.expected_answer} (or maybe: {rivals[0]})"
    assert evaluate(fam, inst, inst.initial, reply).answer_ok is False
    # a rival inside the expected text counts only outside of it; a short one never
    assert not names_a_rival("The message was 'See you at the station at 8'", "See you at the station at 8",
                             ["see you at the station", "ok"])  # fmt: skip
    assert names_a_rival("See you at the station. See you at the station at 8", "See you at the station at 8",
                         ["see you at the station"])  # fmt: skip
    assert not names_a_rival("Ok, the note says: pack the tent", "pack the tent", ["ok"])


# -- time ----------------------------------------------------------------------------------------
def test_time_answers_wrapped_pass_and_every_events_time_fails():
    fam, inst = instance("calendar.event_time", 0)
    want = inst.expected_answer
    assert evaluate(fam, inst, inst.initial, f"It starts at {want}.").answer_ok is True
    events = sorted(inst.initial["calendar"]["events"], key=lambda e: e["time"] != want)  # the right one first
    listing = "\n".join(f"{e['title']} ({e['date']}): {e['time']}" for e in events if e.get("time"))
    assert len({e["time"] for e in events if e.get("time")}) > 1
    assert evaluate(fam, inst, inst.initial, listing).answer_ok is False
    # a date next to the time is not a second time
    assert same_answer("time", "On 14.03.2026 it starts at 9:30.", "09:30")
    from openapps_sim.taskkit.answers import parse_times

    assert parse_times("9:30 or 2:30 pm, 19 Uhr") == [570, 870, 1140]


# -- number --------------------------------------------------------------------------------------
def test_number_answers_wrapped_pass_and_a_second_number_fails():
    fam, inst = instance("todo.count_open", 0)
    n = int(inst.expected_answer)
    assert judged("todo.count_open", 0, f"You have {n} open items on your list.") is True
    assert judged("todo.count_open", 0, f"{n} open, {n + 2} done") is False
    assert judged("todo.count_open", 0, f"{n} or {n + 1}") is False


# -- date ----------------------------------------------------------------------------------------
def test_date_answers_wrapped_pass_and_a_second_date_fails():
    assert same_answer("date", "It is on March 14, 2026.", "2026-03-14")
    assert same_answer("date", "14.03.2026 (2026-03-14)", "2026-03-14")  # the same date twice
    assert not same_answer("date", "2026-03-14, or maybe 2026-03-21", "2026-03-14")
    assert not same_answer("date", "March 14, 2026 and 21 March 2026", "2026-03-14")
    from openapps_sim.taskkit.answers import parse_dates

    assert parse_dates("14.03.2026 then 2026-03-21") == [(2026, 3, 14), (2026, 3, 21)]


# -- json ----------------------------------------------------------------------------------------
def test_json_answers_are_one_object_and_nothing_else():
    fam, inst = instance("shop.cart_summary_json", 0)
    want = json.loads(inst.expected_answer)
    right = json.dumps(want)
    wrong = json.dumps(dict(want, units=want["units"] + 1))
    assert evaluate(fam, inst, inst.initial, f"  {right}\n").answer_ok is True
    assert evaluate(fam, inst, inst.initial, f"Here is the summary: {right}. Anything else?").answer_ok is False
    assert evaluate(fam, inst, inst.initial, f"Either {right} or {wrong}").answer_ok is False
    assert evaluate(fam, inst, inst.initial, f'{right} {{"note": "thanks"}}').answer_ok is False
