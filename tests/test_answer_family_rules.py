"""The answer family's own rules, one at a time (issue 42, point 11): a structured answer parsed
strictly, words counted in every script, the competing candidates of a text answer and when a
reply names one, what an answer family plans, shows and says, and a number in the pack's
format. Every expected value is written out; none is computed by the code under test. No
browser."""

from __future__ import annotations

import pytest

from openapps_sim.errors import ConfigError
from openapps_sim.taskkit.answers import (
    ActAnswerFamily,
    AnswerFamily,
    answer_spec,
    format_number,
    names_a_rival,
    pack_lang,
    rival_texts,
    same_answer,
    strict_json,
    words_of,
)

# -- a structured answer -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,want",
    [
        ('{"a": 1}', {"a": 1}),
        (' \n{"a": "x", "b": 2.5}\n ', {"a": "x", "b": 2.5}),
        ('{"a": {"b": 1}}', {"a": {"b": 1}}),
        ('{"a": 1, "a": 2}', None),  # which of the two would be the answer?
        ('{"a": {"b": 1, "b": 1}}', None),
        ('{"a": 1}{"b": 2}', None),
        ('Answer: {"a": 1}', None),
        ('{"a": 1} thanks', None),
        ('{"a": NaN}', None),
        ('{"a": Infinity}', None),
        ('{"a": -Infinity}', None),
        ("[1, 2]", None),
        ('"a"', None),
        ("12", None),
        ("", None),
        ("[" * 100000 + "]" * 100000, None),
    ],
)
def test_strict_json(text, want):
    assert strict_json(text) == want


def test_strict_json_reads_any_value_as_text():
    assert strict_json(12) is None


# -- words in every script -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,want",
    [
        ("", 0),
        ("hello world", 2),
        ("hello, world!", 2),
        ("snake_case", 2),
        ("3 items", 2),
        ("共有3条", 4),
        ("明天见", 3),
        ("abc三", 2),
        ("三abc", 2),
        ("３", 1),
        ("مرحبا بك", 2),
    ],
)
def test_words_of(text, want):
    assert words_of(text) == want


# -- competing candidates of a text answer -------------------------------------------------------

STATE = {
    "messenger": {
        "conversations": {
            "c1": [{"text": "See you at 8", "from": "ana"}, {"text": "See you", "from": "me"}],
            "c2": [{"text": "Buy bread and eggs today", "from": "bo"}, {"text": "", "from": "me"}],
        },
        "title": "Chats",
    },
    "todo": {"items": [{"title": "See you at 8", "notes": "a note"}, {"title": "Pay rent", "notes": "rent"}]},
}


def test_rival_texts_are_the_other_texts_under_the_expected_ones_key():
    assert rival_texts(STATE, ("messenger",), "see  YOU at 8") == ["buy bread and eggs today", "see you"]
    assert rival_texts(STATE, ["todo"], "Pay rent") == ["see you at 8"]
    assert rival_texts(STATE, ("messenger", "todo"), "See you at 8") == [
        "buy bread and eggs today",
        "chats",  # the messenger's "title", the key of the todo item's "See you at 8"
        "pay rent",
        "see you",
    ]
    assert rival_texts(STATE, ("todo",), "a note") == ["rent"]
    assert rival_texts(STATE, ("messenger",), "Chats") == []  # no other title
    assert rival_texts(STATE, ("messenger",), "42") == []  # not stored: computed
    assert rival_texts(STATE, ("calendar",), "See you") == []  # an app the state lacks
    # texts in a list take the list's key; texts with no key at all are nobody's rivals
    tagged = {"todo": {"items": [{"tags": ["red", "blue"]}, {"tags": ["green"]}]}}
    assert rival_texts(tagged, ("todo",), "red") == ["blue", "green"]
    assert rival_texts({"tags": ["alpha", "beta"]}, ("tags",), "alpha") == []


@pytest.mark.parametrize(
    "given,expected,rivals,want",
    [
        ("See you at 8", "See you at 8", ["See you"], False),  # a short rival inside the answer
        ("See you\nSee you at 8", "See you at 8", ["See you"], True),  # standing alone
        ('"See you" or "See you at 8"', "See you at 8", ["See you"], True),
        ("I said see you, see you at 8", "See you at 8", ["See you"], False),  # in a sentence
        ("Pay rent, then buy bread and eggs today", "Pay rent", ["Buy bread and eggs today"], True),
        ("Pay rent", "Pay rent", ["Buy bread and eggs today"], False),
        ("Pay rent", "Pay rent", ["Pay rent", "", "  "], False),  # the answer itself, empty rivals
        ("Pay rent\nSee you", "Pay rent", ["Pay rent", "", "See you"], True),  # a rival after those
        ("I will buy some milk, and pay rent", "Pay rent", ["buy some milk"], True),  # 3 words: long
        ("Say hello friend and pay rent", "Pay rent", ["hello friend"], True),  # 12 characters: long
        ("Say hello frien and pay rent", "Pay rent", ["hello frien"], False),  # 11: short, not alone
        ("Call the plumber about the sink now", "Call the plumber about the sink now",
         ["Call the plumber about the sink"], False),
        ("Call the plumber about the sink; Call the plumber about the sink now",
         "Call the plumber about the sink now", ["Call the plumber about the sink"], True),
        ("好的明天下午三点开会", "好的", ["明天下午三点开会"], True),  # glued, no spaces
        ("明天下午三点开会", "明天下午三点开会", ["下午三点"], False),
        ("anything", "", ["other thing here now"], False),
        ("other thing here now", "", ["other thing here now"], True),
        ("I go to it now", "Pay rent", ["go to it"], True),  # 3 words in 8 characters: long
        ("blue car park zone", "blue car", ["car park zone"], True),  # overlapping the answer
    ],
)  # fmt: skip
def test_names_a_rival(given, expected, rivals, want):
    assert names_a_rival(given, expected, rivals) is want


# -- an answer family ----------------------------------------------------------------------------


class Count(AnswerFamily):
    id = "demo.count"
    apps = ("todo", "calendar")
    answer_kind = "number"

    def answer(self, state, params):
        return str(len(state["todo"]["items"]) + len(state["calendar"]["events"]))


class Note(AnswerFamily):
    id = "demo.note"
    apps = ("messenger",)


class Pair(AnswerFamily):
    id = "demo.pair"
    apps = ("todo",)
    answer_kind = "json"
    answer_schema = {"count": "number", "when": "time"}
    tolerance = 0.5


class Api:
    def read(self, app):
        return ("read", app)

    def result(self, reply):
        return {"data": reply}["data"]

    def answer(self, text):
        return ("answer", text)

    def plan(self, ops):
        for op in ops:
            yield ("call", op)


def test_an_answer_family_reads_its_apps_then_answers():
    steps = Count().solve_api({}, Api())
    assert next(steps) == ("read", "todo")
    assert steps.send({"items": [1, 2, 3]}) == ("read", "calendar")
    assert steps.send({"events": [1]}) == ("answer", "4")
    with pytest.raises(StopIteration):
        steps.send(None)


def test_the_api_solutions_answer_is_the_one_its_params_give():
    steps = Note().solve_api({"answer": "See you at 8"}, Api())
    assert next(steps) == ("read", "messenger")
    assert steps.send({"chats": []}) == ("answer", "See you at 8")


class Tidy(ActAnswerFamily):
    id = "demo.tidy"
    apps = ("todo",)

    def plan(self, params, initial):
        return [("delete", i) for i in params["ids"]]


def test_an_act_answer_family_runs_its_plan_then_reads_and_answers():
    steps = Tidy().solve_api({"ids": ["t1", "t2"], "answer": 1}, Api())
    assert next(steps) == ("call", ("delete", "t1"))
    assert steps.send(None) == ("call", ("delete", "t2"))
    assert steps.send(None) == ("read", "todo")
    assert steps.send({"items": []}) == ("answer", "1")
    with pytest.raises(StopIteration):
        steps.send(None)


def test_an_answer_family_plans_nothing_and_shows_its_apps_pages():
    fam = Count()
    assert fam.plan({}, {}) == []
    assert AnswerFamily().answer({}, {"answer": 12}) == "12"
    assert AnswerFamily().answer({}, {"answer": "Pay rent"}) == "Pay rent"
    assert fam.answer_pages({}) == ["/todo", "/calendar"]
    marks = fam.milestones({})
    assert [m.name for m in marks] == ["page /todo", "page /calendar"]
    assert [m.check({}, "/todo/item/3") for m in marks] == [True, False]
    assert [m.check({}, "/calendar") for m in marks] == [False, True]
    assert (AnswerFamily.returns_value, AnswerFamily.structure, AnswerFamily.answer_kind) == (True, "answer", "text")


def test_a_json_answer_is_every_field_of_the_schema_matched_by_its_kind():
    fam, want = Pair(), '{"count": 3, "when": "14:30"}'
    assert fam.check_answer('{"count": 3, "when": "2:30 pm"}', want) is True
    assert fam.check_answer('{"count": "3.4", "when": "14:30"}', want) is True  # within 0.5
    assert fam.check_answer('{"count": 3.6, "when": "14:30"}', want) is False
    assert fam.check_answer('{"count": 3, "when": "14:45"}', want) is False
    assert fam.check_answer('{"count": 3}', want) is False
    assert fam.check_answer('{"count": 3, "when": "14:30", "note": "x"}', want) is False
    assert fam.check_answer('{"count": true, "when": "14:30"}', want) is False
    assert fam.check_answer('{"count": [3], "when": "14:30"}', want) is False
    assert fam.check_answer('{"count": 3, "count": 4, "when": "14:30"}', want) is False
    assert fam.check_answer('Here: {"count": 3, "when": "14:30"}', want) is False
    assert fam.judge_answer('{"count": 3, "when": "14:30"}', want, state=STATE) is True


def test_a_json_answer_checks_its_schema_and_passes_on_language_and_tolerances():
    class Bad(AnswerFamily):
        id, answer_kind, answer_schema = "demo.bad", "json", {"hue": "colour"}

    class Slot(AnswerFamily):
        answer_kind, answer_schema, relative_tolerance = "json", {"day": "date", "km": "number"}, 0.1

    with pytest.raises(ConfigError) as err:
        Bad().check_answer('{"hue": "red"}', '{"hue": "red"}')
    assert (
        str(err.value) == "task demo.bad: answer_schema.hue: unknown kind 'colour'; allowed: number, time, date, text"
    )
    want = '{"day": "2026-03-04", "km": 100}'
    assert Slot().check_answer('{"day": "03/04/2026", "km": 100}', want) is True  # English: month first
    assert Slot().check_answer('{"day": "04/03/2026", "km": 100}', want, "fr") is True  # day first
    assert Slot().check_answer('{"day": "03/04/2026", "km": 100}', want, "fr") is False
    assert Slot().check_answer('{"day": "2026-03-04", "km": 109}', want) is True  # within 10%
    assert Slot().check_answer('{"day": "2026-03-04", "km": 111}', want) is False


def test_a_date_answer_is_read_in_english_by_default():
    class Due(AnswerFamily):
        answer_kind = "date"

    assert Due().check_answer("03/04/2026", "2026-03-04") is True
    assert Due().check_answer("03/04/2026", "2026-04-03", "fr") is True


def test_a_number_answer_takes_the_familys_tolerances():
    class Distance(AnswerFamily):
        answer_kind = "number"
        tolerance = 0.2
        relative_tolerance = 0.1

    assert Distance().check_answer("About 12.1 km", "12") is True
    assert Distance().check_answer("13.2 km", "12") is True  # 10% of 12
    assert Distance().check_answer("13.3 km", "12") is False
    assert Distance().check_answer("0.65", "0.5") is True  # 0.2 is more than 10% of 0.5
    assert Distance().check_answer("0.75", "0.5") is False
    assert Count().check_answer("vier", "4", "de") is True
    assert Count().check_answer("vier", "4", "en") is False
    assert Count().judge_answer("vier", "4", "de") is True  # the language reaches the check
    assert Count().judge_answer("vier", "4") is False


def test_a_text_answer_is_judged_against_the_other_texts_of_its_apps():
    note = Note()
    assert note.judge_answer("The last message: See you at 8", "See you at 8", state=STATE) is True
    assert note.judge_answer("See you\nSee you at 8", "See you at 8", state=STATE) is False
    assert note.judge_answer("See you\nSee you at 8", "See you at 8") is True  # no state: no rivals
    assert note.judge_answer("Buy bread", "See you at 8", state=STATE) is False
    assert Count().judge_answer("See you\n4", "4", state=STATE) is True  # a number has no rival texts
    # a rival inside the expected text counts only outside it
    task, want = Tidy(), "Call the plumber about the sink now"  # a text answer, of the todo app
    todo = {"todo": {"items": [{"title": want}, {"title": "Call the plumber about the sink"}]}}
    assert task.judge_answer(want, want, state=todo) is True
    assert task.judge_answer("Call the plumber about the sink; " + want, want, state=todo) is False


# -- the pack's language and number format -------------------------------------------------------


def test_pack_lang():
    assert pack_lang({"shell": {"lang": "de"}}) == "de"
    assert pack_lang({"shell": {}}) == "en"
    assert pack_lang({}) == "en"


@pytest.mark.parametrize(
    "value,lang,digits,want",
    [
        (12.5, "en", 2, "12.50"),
        (12.5, "de", 2, "12,50"),
        (12.5, "fr", 1, "12,5"),
        (1234.5, "es", 1, "1234,5"),
        (3.25, "it", 2, "3,25"),
        (2.5, "ar", 1, "2.5"),
        (2.5, "zh", 1, "2.5"),
        (3.0, "de", 0, "3"),
        (41.0, "en", 0, "41"),
        (7.0, "xx", 1, "7.0"),  # a language without a content file: a dot
    ],
)
def test_format_number(value, lang, digits, want):
    assert format_number(value, lang, digits) == want


def test_format_number_defaults_to_whole_numbers():
    assert format_number(12.0, "de") == "12"


def test_an_expected_value_with_two_values_matches_nothing():
    assert same_answer("time", "14:30", "14:30 or 15:00") is False
    assert same_answer("time", "14:30", "14:30 and 14:30") is True
    assert same_answer("date", "March 14", "2026-03-14 or 2026-03-14") is True
    assert same_answer("date", "2026-03-14", "March 14") is True  # the expected value names no year
    assert same_answer("date", "2026-03-14", "14.03.2025") is False


def test_the_answer_spec_of_each_kind():
    assert answer_spec("number") == {"type": "number", "schema": {"type": "number"}}
    assert answer_spec("text") == {"type": "text", "schema": {"type": "string"}}
    assert answer_spec("time") == {
        "type": "time",
        "schema": {"type": "string", "format": "time", "description": "a time of day, e.g. 14:30"},
    }
    assert answer_spec("date", {"ignored": "number"}) == {
        "type": "date",
        "schema": {"type": "string", "format": "date", "description": "a date, e.g. 2026-03-14"},
    }
    assert answer_spec("json", {"total": "number", "when": "date"}) == {
        "type": "json",
        "schema": {
            "type": "object",
            "properties": {
                "total": {"type": "number"},
                "when": {"type": "string", "format": "date", "description": "a date, e.g. 2026-03-14"},
            },
            "required": ["total", "when"],
            "additionalProperties": False,
        },
    }
    assert answer_spec("json") == {
        "type": "json",
        "schema": {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
    }


def test_the_answer_spec_is_a_fresh_copy_each_time():
    first = answer_spec("number")
    first["schema"]["type"] = "changed"
    assert answer_spec("number") == {"type": "number", "schema": {"type": "number"}}
    spec = answer_spec("json", {"n": "number"})
    spec["schema"]["properties"]["n"]["type"] = "changed"
    assert answer_spec("json", {"n": "number"})["schema"]["properties"] == {"n": {"type": "number"}}


def test_a_familys_answer_spec_names_its_kind_and_schema():
    class Totals(AnswerFamily):
        id = "test.totals"
        answer_kind = "json"
        answer_schema = {"count": "number"}

    got = Totals.answer_spec(Totals.__new__(Totals))
    assert got["type"] == "json"
    assert got["schema"]["properties"] == {"count": {"type": "number"}}
    assert got["schema"]["required"] == ["count"]
