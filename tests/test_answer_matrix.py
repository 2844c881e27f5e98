"""Answers matched by type, one rule for every language and script (issue 42, point 5): answer
types x every shipped language x hedge forms and honest forms. A hedge between two values of the
answer's type fails; a value of another type beside the answer (a time next to a count, a date
next to a time) is context and passes. Every expectation is written out. No browser."""

from __future__ import annotations

import json

import pytest

from openapps_sim.taskkit import evaluate, get_family, instantiate
from openapps_sim.taskkit.answers import same_answer
from openapps_sim.web.world import World

# pack -> language, for every shipped language pack (variations/<language>/pack.yaml)
PACKS = {
    "default": "en",
    "german": "de",
    "french": "fr",
    "spanish": "es",
    "italian": "it",
    "arabic": "ar",
    "mandarin": "zh",
}

# -- number: the expected count is 3 ------------------------------------------------------------
COUNT_HONEST = {
    "en": ["You have 3 open items.", "three", "As of 14:30 on March 14, 2026 there are 3 open items.",
           "3 (three) items are open", "The last one is open; 3 in all."],
    "de": ["Es sind 3 offene Einträge.", "drei", "Stand 14:30 Uhr am 14. März 2026: 3 offen.",
           "Eine Liste mit 3 offenen Einträgen."],
    "fr": ["Il y a 3 tâches ouvertes dans une liste.", "trois", "À 14 h 30, il reste 3 tâches."],
    "es": ["Hay 3 tareas abiertas.", "tres", "A las 14:30 hay 3 tareas en una lista."],
    "it": ["Ci sono 3 attività aperte.", "tre", "Alle 14:30 ci sono 3 attività in una lista."],
    "ar": ["لديك ٣ مهام مفتوحة", "ثلاثة", "الساعة ١٤:٣٠ لديك ٣ مهام", "3 مهام"],
    "zh": ["一共有3条", "三", "下午两点半的时候有3条", "最后一条之前共有三条", "３条"],
}  # fmt: skip
COUNT_HEDGES = {
    "en": ["3 or four", "three or 4", "3 or one.", "3 or 4", "3-4", "3 (maybe 30)", "3 or twenty-one"],
    "de": ["3 oder vier", "drei oder 4", "3 oder sechsundzwanzig", "3 oder eins"],
    "fr": ["3 ou quatre", "trois ou 4", "3 ou vingt-deux", "3 ou une."],
    "es": ["3 o cuatro", "tres o 4", "3 o veintiséis", "3 o cuarenta y seis"],
    "it": ["3 o quattro", "tre o 4", "3 o ventotto", "3 o quarantasei"],
    "ar": ["٣ أو أربعة", "ثلاثة أو ٤", "٣ أو 4", "3 أو ستة وأربعون"],
    "zh": ["3或四", "三或4", "３或４", "三还是二十三", "3条或者一"],
}  # fmt: skip


def test_one_written_as_a_word_alone_is_a_count():
    assert same_answer("number", "Only one item is open", "1", lang="en") is True
    assert same_answer("number", "Il y en a une.", "1", lang="fr") is True
    assert same_answer("number", "只有一条", "1", lang="zh") is True


# -- number: the maps distance (every digit script, both decimal separators) ---------------------
@pytest.mark.parametrize(
    "reply,ok",
    [
        ("١٢٣٫٤ كم", True),  # Arabic-Indic digits, Arabic decimal separator
        ("۱۲۳٫۴ km", True),  # Eastern Arabic-Indic (Persian) digits
        ("١٢٣,٤ كم", True),
        ("１２３.４ km", True),  # full-width digits
        ("123,4 km", True),
        ("123.4 km", True),
        ("about 124 km", True),  # within 1 %
        ("١٢٣٫٤ أو ١٣٠ كم", False),
        ("123.4 or 140 km", False),
        ("150 km", False),
    ],
)
def test_the_distance_reads_every_script(reply, ok):
    world = World()
    world.reset("arabic", 1)
    fam = get_family("maps.distance_km")
    inst = instantiate(fam, world.state, world.config, 1, "arabic")
    assert inst.expected_answer == "4.0"  # this seed's distance, written as the pack writes it
    assert fam.check_answer(reply, "123.4", "ar") is ok


# -- time: the expected time is 09:30 -----------------------------------------------------------
TIME_HONEST = {
    "en": ["It starts at 9:30.", "half past nine", "9:30 am", "On 14.03.2026, with 3 people, at 9:30.", "0930"],
    "de": ["Um 9:30 Uhr.", "halb zehn", "9.30 Uhr, mit 3 Leuten", "Am 14. März 2026 um 9:30"],
    "fr": ["À 9 h 30.", "neuf heures et demie", "9h30, 3 personnes"],
    "es": ["A las 9:30.", "a las nueve y media", "El 14 de marzo de 2026 a las 9:30"],
    "it": ["Alle 9:30.", "alle nove e mezza", "alle 9:30 con 3 persone"],
    "ar": ["الساعة ٩:٣٠", "٩:٣٠ ص", "الساعة 9:30 مع ٣ أشخاص"],
    "zh": ["上午9点30分", "九点半", "2026年3月14日上午9:30，3个人"],
}  # fmt: skip
TIME_HEDGES = {
    "en": ["9:30 or 1030", "9:30 or half past ten", "9:30 or ten o'clock", "9:30 or 10 am", "9:30 or noon",
           "half past nine or quarter to eleven"],
    "de": ["9:30 oder 10 Uhr", "halb zehn oder halb elf", "9:30 oder 1030", "9:30 oder zehn Uhr"],
    "fr": ["9 h 30 ou 10 h 30", "9:30 ou dix heures", "9h30 ou midi"],
    "es": ["a las 9:30 o a las 10", "9:30 o 10:30", "a las nueve y media o a las diez"],
    "it": ["alle 9:30 o alle 10", "9:30 o 10.30", "alle nove e mezza o alle dieci"],
    "ar": ["الساعة ٩:٣٠ أو الساعة ١٠", "٩:٣٠ أو ١٠:٣٠", "9:30 أو 10 م"],
    "zh": ["九点半或十点", "9:30或10:30", "上午9点30分或者下午3点"],
}  # fmt: skip


# A count or a time with context of another type passes in every language; one hedged between
# two numbers or two times fails.
WRITTEN = [
    *[("number", "3", lang, COUNT_HONEST[lang], True) for lang in sorted(COUNT_HONEST)],
    *[("number", "3", lang, COUNT_HEDGES[lang], False) for lang in sorted(COUNT_HEDGES)],
    *[("time", "09:30", lang, TIME_HONEST[lang], True) for lang in sorted(TIME_HONEST)],
    *[("time", "09:30", lang, TIME_HEDGES[lang], False) for lang in sorted(TIME_HEDGES)],
]


@pytest.mark.parametrize(
    "kind,want,lang,replies,passes",
    WRITTEN,
    ids=[f"{kind}-{lang}-{'honest' if passes else 'hedged'}" for kind, _, lang, _, passes in WRITTEN],
)
def test_an_answer_with_context_passes_and_one_hedged_between_two_fails(kind, want, lang, replies, passes):
    for reply in replies:
        assert same_answer(kind, reply, want, lang=lang) is passes, (lang, reply)


# -- date: the expected date is 2026-03-14 ------------------------------------------------------
DATE_FORMS = {  # (honest, hedge)
    "en": ("March 14, 2026 at 9:30", "March 14, 2026 or March 21, 2026"),
    "de": ("Am 14. März 2026 um 9:30 Uhr", "14.03.2026 oder 21.03.2026"),
    "fr": ("Le 14 mars 2026, 3 personnes", "le 14 mars 2026 ou le 15 mars 2026"),
    "es": ("El 14 de marzo de 2026", "14 de marzo de 2026 o 2026-03-21"),
    "it": ("Il 14 marzo 2026 alle 9:30", "14 marzo 2026 o 15 marzo 2026"),
    "ar": ("١٤ مارس ٢٠٢٦ الساعة ٩:٣٠", "١٤ مارس ٢٠٢٦ أو ٢١ مارس ٢٠٢٦"),
    "zh": ("2026年3月14日上午9点", "2026年3月14日或2026年3月21日"),
}


@pytest.mark.parametrize("lang", sorted(DATE_FORMS))
def test_a_date_with_a_time_beside_it_passes_and_two_dates_fail(lang):
    honest, hedge = DATE_FORMS[lang]
    assert same_answer("date", honest, "2026-03-14", lang=lang) is True
    assert same_answer("date", hedge, "2026-03-14", lang=lang) is False


# -- json: parsed strictly ----------------------------------------------------------------------
JSON_WANT = '{"files": 3, "folders": 1}'


@pytest.mark.parametrize(
    "reply,ok",
    [
        ('{"files": 3, "folders": 1}', True),
        ('\n  {"folders": 1, "files": 3}  \n', True),
        ('{"files": "3", "folders": "1"}', True),
        ('{"files": 9, "folders": 1, "files": 3}', False),  # a key twice: the last would win
        ('{"files": 3, "folders": 1, "files": 3}', False),  # even the same value twice
        ('The summary: {"files": 3, "folders": 1}', False),  # prose around the object
        ('{"files": 3, "folders": 1} (I think)', False),
        ('```json\n{"files": 3, "folders": 1}\n```', False),
        ('{"files": 3, "folders": 1, "note": "x"}', False),  # not the schema
        ('{"Files": 3, "folders": 1}', False),
        ('{"files": 3}', False),
        ('{"files": true, "folders": 1}', False),
        ('{"files": [3], "folders": 1}', False),
        ('{"files": "3 or 4", "folders": 1}', False),
        ('{"files": 3, "folders": 1}{"files": 4, "folders": 1}', False),
        ('[{"files": 3, "folders": 1}]', False),
        ('{"files": NaN, "folders": 1}', False),
    ],
)
def test_json_answers_are_parsed_strictly(reply, ok):
    fam = get_family("code_editor.folder_summary")
    assert fam.check_answer(reply, JSON_WANT, "en") is ok


# -- text: competing candidates in every script -------------------------------------------------
TEXT_FAMILIES = ("messenger.last_from_contact", "todo.item_notes", "maps.place_note")


def _candidates(fid: str, state: dict) -> list[str]:
    if fid.startswith("messenger"):
        return [m["text"] for conv in state["messenger"]["conversations"].values() for m in conv]
    if fid.startswith("todo"):
        return [i["notes"] for i in state["todo"]["items"] if i.get("notes")]
    return [s["note"] for s in state["maps"]["saved"] if s.get("note")]


@pytest.mark.parametrize("pack", sorted(PACKS))
@pytest.mark.parametrize("fid", TEXT_FAMILIES)
def test_pasting_every_candidate_fails_and_the_answer_alone_passes(pack, fid):
    """Joined by new lines, by nothing (Chinese has no spaces), or by commas: seeds 0-9."""
    fam, world = get_family(fid), World()
    for seed in range(10):
        world.reset(pack, seed)
        inst = instantiate(fam, world.state, world.config, seed, pack)
        want = inst.expected_answer
        assert evaluate(fam, inst, inst.initial, want).answer_ok is True, (seed, want)
        assert evaluate(fam, inst, inst.initial, f'"{want}"').answer_ok is True, (seed, want)
        others = [c for c in _candidates(fid, inst.initial) if c.strip().lower() != want.strip().lower()]
        if not others:
            continue
        for sep in ("\n", "", "，", ", "):
            pasted = sep.join([*others[:1], want, *others[1:]])
            assert evaluate(fam, inst, inst.initial, pasted).answer_ok is False, (seed, sep, pasted)


def test_a_short_rival_counts_where_it_stands_alone():
    from openapps_sim.taskkit.answers import names_a_rival

    assert names_a_rival('It was "See you at 8" or "Sounds good"', "See you at 8", ["Sounds good"])
    assert names_a_rival("See you at 8\nSounds good", "See you at 8", ["Sounds good"])
    assert names_a_rival("订好了晚上八点的两人桌！\n好的", "订好了晚上八点的两人桌！", ["好的"])
    assert not names_a_rival("Sounds good: the last one was 'See you at 8'", "See you at 8", ["Sounds good"])
    assert not names_a_rival("好的，最后一条是：订好了晚上八点的两人桌！", "订好了晚上八点的两人桌！", ["好的"])
    # a Chinese rival inside running text, with no space around it
    assert names_a_rival("最后一条是订好了晚上八点的两人桌还有我在路上了", "订好了晚上八点的两人桌", ["我在路上了"])


def test_a_time_answer_scored_end_to_end_in_every_language():
    fam, world = get_family("calendar.event_time"), World()
    for pack in PACKS:
        world.reset(pack, 0)
        inst = instantiate(fam, world.state, world.config, 0, pack)
        h, m = (int(x) for x in inst.expected_answer.split(":"))
        assert evaluate(fam, inst, inst.initial, f"{h}:{m:02d}, 3 people").answer_ok is True, pack
        other = f"{(h + 1) % 24:02d}{m:02d}"
        assert evaluate(fam, inst, inst.initial, f"{h}:{m:02d} or {other}").answer_ok is False, pack


def test_json_is_scored_end_to_end():
    fam, world = get_family("shop.cart_summary_json"), World()
    world.reset("german", 0)
    inst = instantiate(fam, world.state, world.config, 0, "german")
    want = json.loads(inst.expected_answer)
    dup = '{"lines": 99, ' + json.dumps(want)[1:]
    assert evaluate(fam, inst, inst.initial, json.dumps(want)).answer_ok is True
    assert evaluate(fam, inst, inst.initial, dup).answer_ok is False
