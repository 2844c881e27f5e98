"""The values an answer is read for, one rule at a time (issue 42, point 11): dates in every
written form and script, times of day, numerals of every locale, through the ``parse_*``
functions themselves, and the exact texts of the answer errors. Every expected value is written
out; none is computed by the code under test. No browser."""

from __future__ import annotations

import pytest

from openapps_sim.errors import ConfigError
from openapps_sim.taskkit.answers import check_schema, parse_dates, parse_numbers, parse_times, same_answer
from openapps_sim.taskkit.answervalues import values

# -- dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,lang,want",
    [
        # year first, with any of - / . and in Chinese
        ("2026-03-14", "en", [(2026, 3, 14)]),
        ("2026/3/4", "en", [(2026, 3, 4)]),
        ("2026.12.31", "de", [(2026, 12, 31)]),
        ("2026年3月14日", "zh", [(2026, 3, 14)]),
        ("2026 年 11 月 2 号", "zh", [(2026, 11, 2)]),
        ("２０２６年３月１４日", "zh", [(2026, 3, 14)]),
        # day first with dots
        ("14.03.2026", "de", [(2026, 3, 14)]),
        ("am 1.2.2027", "de", [(2027, 2, 1)]),
        # month names, month first
        ("March 14, 2026", "en", [(2026, 3, 14)]),
        ("march 14th 2026", "en", [(2026, 3, 14)]),
        ("on December 2nd", "en", [(None, 12, 2)]),
        ("September 1", "en", [(None, 9, 1)]),
        # month names, day first, in every language
        ("14 de marzo de 2026", "es", [(2026, 3, 14)]),
        ("14. März 2026", "de", [(2026, 3, 14)]),
        ("1er mai 2026", "fr", [(2026, 5, 1)]),
        ("le 3 août", "fr", [(None, 8, 3)]),
        ("21 settembre 2025", "it", [(2025, 9, 21)]),
        ("٢٣ اكتوبر ٢٠٢٦", "ar", [(2026, 10, 23)]),
        ("7 February", "en", [(None, 2, 7)]),
        # Chinese without a year
        ("3月14日", "zh", [(None, 3, 14)]),
        ("12 月 1 号", "zh", [(None, 12, 1)]),
    ],
)
def test_a_date_in_every_written_form(text, lang, want):
    assert parse_dates(text, lang) == want


@pytest.mark.parametrize(
    "text,lang,want",
    [
        # English reads a slash date month first unless the second part cannot be a month
        ("04/03/2026", "en", [(2026, 4, 3)]),
        ("12/05/2026", "en", [(2026, 12, 5)]),
        ("03/14/2026", "en", [(2026, 3, 14)]),
        ("14/03/2026", "en", [(2026, 3, 14)]),
        ("13/12/2026", "en", [(2026, 12, 13)]),
        # every other language day first, unless the second part cannot be a month
        ("04/03/2026", "fr", [(2026, 3, 4)]),
        ("05/12/2026", "de", [(2026, 12, 5)]),
        ("04/13/2026", "es", [(2026, 4, 13)]),
        ("12/12/2026", "it", [(2026, 12, 12)]),
    ],
)
def test_a_slash_date_is_read_month_first_in_english_only(text, lang, want):
    assert parse_dates(text, lang) == want


@pytest.mark.parametrize(
    "text,want",
    [
        ("31.02.2026", [None]),
        ("30.02.2026", [None]),
        ("29.02.2026", [(2026, 2, 29)]),
        ("2026-13-01", [None]),
        ("2026-00-10", [None]),
        ("2026-01-00", [None]),
        ("2026-01-32", [None]),
        ("2026-01-31", [(2026, 1, 31)]),
        ("2026-03-30", [(2026, 3, 30)]),
        ("2026-01-29", [(2026, 1, 29)]),
        ("2026-12-01", [(2026, 12, 1)]),
        ("2026-02-01", [(2026, 2, 1)]),
    ],
)
def test_an_impossible_date_is_none(text, want):
    assert parse_dates(text) == want


@pytest.mark.parametrize(
    "text,want",
    [
        ("12026-03-14", []),  # five digits are no year
        ("2026-03-145", []),
        ("1.14.03.2026", []),  # part of a longer dotted number
        ("3/14/20261", []),
        ("v2.2026.03.14", []),
        ("14.03.2026 or 2026-03-15", [(2026, 3, 14), (2026, 3, 15)]),
        ("2026-03-15, not March 14", [(2026, 3, 15), (None, 3, 14)]),
        ("on 14 March or 15 March", [(None, 3, 14), (None, 3, 15)]),
        ("no date here, 14:30 and 3 items", []),
        # Chinese dates written one after the other, without a space
        ("3月14日2026年3月15日", [(None, 3, 14), (2026, 3, 15)]),
        ("2026年3月15日3月14日", [(2026, 3, 15), (None, 3, 14)]),
    ],
)
def test_dates_stand_alone_and_in_order(text, want):
    assert parse_dates(text) == want


def test_a_date_without_a_year_matches_on_day_and_month_only():
    assert same_answer("date", "It is on March 14.", "2026-03-14") is True
    assert same_answer("date", "14/03/2026", "2026-03-14") is True
    assert same_answer("date", "14/03/2025", "2026-03-14") is False
    assert same_answer("date", "March 15", "2026-03-14") is False
    assert same_answer("date", "April 14", "2026-03-14") is False
    assert same_answer("date", "March 14, 2026 or March 15", "2026-03-14") is False
    assert same_answer("date", "31.02.2026", "2026-03-14") is False
    assert same_answer("date", "2026-03-14", "31.02.2026") is False
    assert same_answer("date", "no date at all", "2026-03-14") is False


# -- times ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("14:30", "en", [870]),
        ("2:30 pm", "en", [870]),
        ("2:30 P.M.", "en", [870]),
        ("12:15 am", "en", [15]),
        ("12:15 pm", "en", [735]),
        ("7 pm", "en", [1140]),
        ("7am", "en", [420]),
        ("12 am", "en", [0]),
        ("10 o'clock", "en", [600]),
        ("half past two", "en", [150]),
        ("quarter past 9", "en", [555]),
        ("quarter to nine", "en", [525]),
        ("at noon", "en", [720]),
        ("midnight", "en", [0]),
        ("9 in the evening", "en", [1260]),
        ("14h30", "fr", [870]),
        ("14 h 30", "fr", [870]),
        ("9 heures moins le quart", "fr", [525]),
        ("8 heures du soir", "fr", [1200]),
        ("midi", "fr", [720]),
        ("19 Uhr", "de", [1140]),
        ("halb neun", "de", [510]),
        ("viertel vor 9", "de", [525]),
        ("viertel nach 9", "de", [555]),
        ("9 Uhr abends", "de", [1260]),
        ("a las 9 y media", "es", [570]),
        ("a las 9 y cuarto", "es", [555]),
        ("a las 10 de la noche", "es", [1320]),
        ("alle 9 e mezza", "it", [570]),
        ("alle 21:15", "it", [1275]),
        ("الساعة ٣ مساء", "ar", [900]),
        ("下午两点半", "zh", [870]),
        ("上午12点", "zh", [0]),
        ("九点三刻", "zh", [585]),
        ("9点3刻", "zh", [585]),
        ("九点一刻", "zh", [555]),
        ("两点1刻", "zh", [135]),
        ("9点30", "zh", [570]),
        ("晚上8点15分", "zh", [1215]),
        ("9 heures et demie", "fr", [570]),
        ("9 heures et quart", "fr", [555]),
        ("alle 9 e mezzo", "it", [570]),
        ("alle 9 e un quarto", "it", [555]),
        ("halb eins", "de", [30]),
        ("halb 0", "de", [1410]),  # half an hour before hour 0
        ("quarter to 0", "en", [1425]),
        ("19 Uhr 30", "de", [1170]),
        ("9点三刻", "en", [585]),  # Chinese quarters where the pack's language is not Chinese
        ("9点一刻", "en", [555]),
        ("quarter to 1", "en", [45]),
        ("0100 hrs", "en", [60]),
        ("0:30", "en", [30]),
        ("14:00", "en", [840]),
        ("23:59", "en", [1439]),
        ("1430", "en", [870]),
        ("9.30", "en", [570]),
    ],
)
def test_a_time_in_every_written_form(text, lang, want):
    assert parse_times(text, lang) == want


@pytest.mark.parametrize(
    "text,want",
    [
        ("25:00", []),
        ("24:00", []),
        ("9:60", []),
        ("2026-03-14 at 14:30", [870]),  # a date is no time
        ("14.03.2026, 9:15", [555]),
        ("9:15 or 10:45", [555, 645]),
        ("3 items", []),
    ],
)
def test_times_are_read_apart_from_dates(text, want):
    assert parse_times(text) == want


# -- numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,want",
    [
        ("1,234.50", [1234.5]),
        ("1.234,50", [1234.5]),
        ("1 234,50", [1234.5]),
        ("1\u00a0234", [1234.0]),
        ("1\u202f234,5", [1234.5]),
        ("1'234", [1234.0]),
        ("12,5", [12.5]),
        ("12,50", [12.5]),
        ("1,234", [1234.0]),
        ("1,234,567", [1234567.0]),
        ("1.234.567", [1234567.0]),
        ("12.5", [12.5]),
        ("-5", [-5.0]),
        ("−5", [-5.0]),
        ("a-5", [5.0]),
        ("١٢٫٥", [12.5]),
        ("١٬٢٣٤", [1234.0]),
        ("３条", [3.0]),
        ("3 and 4", [3.0, 4.0]),
        ("1,234.5", [1234.5]),
        ("1,234.567,89", []),  # a dot between two commas: no numeral of any locale
        ("1.234,567.89", []),
    ],
)
def test_a_numeral_of_every_locale(text, want):
    assert parse_numbers(text) == want


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("On 14.03.2026 at 14:30 there were 3.", "en", [3.0]),
        ("On 2026-03-14 at 14:30, 5 and at 9:15 pm, 6", "en", [5.0, 6.0]),
        ("On 2026-03-14 and 2026-03-15 there were 3", "en", [3.0]),
        ("At 9:15 and 14:30 there were 3", "en", [3.0]),
        ("Stand 14:30 Uhr: 3 offen", "de", [3.0]),
        ("At 9.30 there were 4", "en", [9.3, 4.0]),  # 9.30 is a time only where a time is asked
        ("1430 steps", "en", [1430.0]),
        ("2026年3月14日有3条", "zh", [3.0]),
    ],
)
def test_numbers_leave_out_dates_and_sure_times(text, lang, want):
    assert parse_numbers(text, lang) == want


def test_the_parse_functions_default_to_english():
    assert parse_numbers("three") == [3.0]
    assert parse_numbers("drei") == []
    assert parse_numbers("drei", "de") == [3.0]
    assert parse_times("half past two") == [150]
    assert parse_dates("04/03/2026") == [(2026, 4, 3)]
    assert values("date", "04/03/2026") == [(2026, 4, 3)]
    assert values("date", "04/03/2026", "de") == [(2026, 3, 4)]
    assert values("number", "drei") == []


def test_a_number_answer_within_its_tolerance():
    assert same_answer("number", "12.4 km", "12.5", tolerance=0.1) is True
    assert same_answer("number", "12.3 km", "12.5", tolerance=0.1) is False
    assert same_answer("number", "101", "100", tolerance=0.5, relative=0.01) is True
    assert same_answer("number", "101.5", "100", tolerance=0.5, relative=0.01) is False
    assert same_answer("number", "-100.9", "-100", relative=0.01) is True
    assert same_answer("number", "3", "3") is True
    assert same_answer("number", 3, 3) is True
    assert same_answer("number", 3.0, "3") is True
    assert same_answer("number", True, "1") is False
    assert same_answer("number", None, "3") is False
    assert same_answer("number", [3], "3") is False
    assert same_answer("number", "no number", "3") is False
    assert same_answer("number", "3", "3 or 4") is False
    # the bound itself passes: 0.5 off, plus the 1e-9 every comparison allows for rounding
    assert same_answer("number", "0.500000001", "0", tolerance=0.5) is True
    assert same_answer("number", "0.500000002", "0", tolerance=0.5) is False


def test_a_date_answer_reads_both_sides_in_the_answers_language():
    # English reads a slash date month first, every other language day first: the expected
    # value too, and English is the default
    assert same_answer("date", "2026-03-04", "03/04/2026") is True
    assert same_answer("date", "03/04/2026", "2026-03-04") is True
    assert same_answer("date", "2026-04-03", "03/04/2026", lang="fr") is True
    assert same_answer("date", "2026-03-04", "03/04/2026", lang="fr") is False


def test_a_time_answer_is_every_time_the_expected_one():
    assert same_answer("time", "at 2:30 pm", "14:30") is True
    assert same_answer("time", "at 2:30 pm or 14:45", "14:30") is False
    assert same_answer("time", "on 14.03.2026 at 14:30", "14:30") is True
    assert same_answer("time", "14:31", "14:30") is False


def test_a_text_answer():
    assert same_answer("text", "The note says: Buy  MILK.", "buy milk") is True
    assert same_answer("text", "buy bread", "buy milk") is False
    assert same_answer("text", "anything", "") is False


# -- error texts ---------------------------------------------------------------------------------


def test_an_unknown_answer_kind_is_named():
    with pytest.raises(ValueError) as err:
        same_answer("colour", "red", "red")
    assert str(err.value) == "unknown answer kind 'colour'"


def test_an_answer_schema_error_names_the_task_the_field_and_the_kinds():
    with pytest.raises(ConfigError) as err:
        check_schema("demo.pair", {"when": "time", "hue": "colour"})
    assert (
        str(err.value) == "task demo.pair: answer_schema.hue: unknown kind 'colour'; allowed: number, time, date, text"
    )
    with pytest.raises(ConfigError) as err:
        check_schema("demo.pair", {"inner": "json"})
    assert (
        str(err.value) == "task demo.pair: answer_schema.inner: unknown kind 'json'; allowed: number, time, date, text"
    )
    with pytest.raises(ConfigError) as err:
        check_schema("demo.empty", {})
    assert str(err.value) == (
        "task demo.empty: answer_schema: a json answer needs at least one field; allowed: number, time, date, text"
    )
    check_schema("demo.ok", {"n": "number", "t": "time", "d": "date", "s": "text"})  # no error


@pytest.mark.parametrize(
    "text,lang,want",
    [
        ("12:00 midnight", "en", [0]),  # the hour and its name: one time
        ("12 midnight", "en", [0]),
        ("0 h minuit", "fr", [0]),
        ("12 Uhr Mitternacht", "de", [0]),
        ("midnight or 1 am", "en", [0, 60]),
        ("半夜两点", "zh", [120]),  # 半夜 before an hour: in the night
        ("半夜12点", "zh", [0]),
        ("午夜12点", "zh", [0]),
        ("午夜", "zh", [0]),
        ("半夜", "zh", [0]),
    ],
)
def test_midnight_beside_an_hour_is_one_time(text, lang, want):
    assert parse_times(text, lang) == want


def test_an_honest_midnight_answer_passes():
    assert same_answer("time", "12:00 midnight", "00:00") is True
    assert same_answer("time", "半夜两点", "02:00", lang="zh") is True
    assert same_answer("time", "半夜两点或三点", "02:00", lang="zh") is False
