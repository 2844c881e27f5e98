"""Dates and times in the event form as the world's language writes them (issue 26.9): the form
showed Chromium's native date and time inputs, drawn in the browser's UI locale ("03/10/2026",
"--:-- --") whatever the page's language. The reading and writing are pure functions
(apps/calendar/datefmt.py), tested without a browser; what the agent sees and types is tested
through the real BrowserGym env in a real Chromium."""

from __future__ import annotations

import pytest
from browsergym.utils.obs import flatten_axtree_to_str
from openapps_sim.apps.calendar.datefmt import format_date, read_date, read_time

from openapps_sim.config.catalog import compose, drawn
from openapps_sim.errors import ConfigError
from openapps_sim.taskkit.observation import testid_attributes, testid_bids

# what each language pack shows for the calendar's today, 2026-03-10
SHOWN = {
    "default": "03/10/2026",
    "german": "10.03.2026",
    "french": "10/03/2026",
    "italian": "10/03/2026",
    "spanish": "10/03/2026",
    "arabic": "10/03/2026",
    "mandarin": "2026/03/10",
}


@pytest.mark.parametrize("pack", sorted(SHOWN))
def test_each_language_writes_and_reads_its_own_dates(pack):
    strings = compose(pack)["calendar"]["strings"]
    fmt = strings["date_format"]
    assert format_date("2026-03-10", fmt) == SHOWN[pack]
    for iso in ("2026-03-10", "2026-12-01", "1999-01-31", "2026-02-28"):
        assert read_date(format_date(iso, fmt), fmt) == iso
        assert read_date(iso, fmt) == iso  # ISO is read in every language
    assert read_time("14:30", (strings["am"], strings["pm"])) == "14:30"
    assert read_time(f"2:30 {strings['pm']}", (strings["am"], strings["pm"])) == "14:30"
    assert read_time(f"12:05 {strings['am']}", (strings["am"], strings["pm"])) == "00:05"
    # the placeholder and the error name the format a user is asked for
    assert strings["date_placeholder"] and strings["date_placeholder"] in strings["error_date"]


def test_dates_and_times_that_do_not_read():
    for text in ("", "abc", "31.02.2026", "10.03.26", "10.03", "2026-3-10x", "13/13/2026", "0/10/2026", "10.03.2300"):
        assert read_date(text, "DD.MM.YYYY") is None, text
    assert read_date("03/10/2026", "MM/DD/YYYY") == "2026-03-10"
    assert read_date("03/10/2026", "DD/MM/YYYY") == "2026-10-03"
    assert read_date("2026年3月10日", "YYYY/MM/DD") == "2026-03-10"
    assert read_date("١٠/٠٣/٢٠٢٦", "DD/MM/YYYY") == "2026-03-10"  # Arabic-Indic digits
    for text in ("25:00", "14:3", "13:00 PM", "0:30 PM", "14", "2:30 xm", "noon"):
        assert read_time(text) is None, text
    assert [read_time(t) for t in ("9:05", "14.30", "14h30", "12:00 PM", "12:00 AM")] == [
        "09:05",
        "14:30",
        "14:30",
        "12:00",
        "00:00",
    ]
    assert format_date("next Tuesday", "DD.MM.YYYY") == "next Tuesday"  # a mistake is shown back as typed


def test_a_date_format_a_pack_cannot_use_is_one_sentence():
    for bad in ("DD.MM", "DD.MM.YYYY.YYYY", "D.M.Y", "DDMMYYYY"):
        with pytest.raises(ConfigError) as err:
            compose("german", (f"calendar.strings.date_format='{bad}'",))
        message = str(err.value)
        assert "calendar.strings.date_format" in message and "DD.MM.YYYY" in message, message


def _form(env, path: str) -> tuple[str, dict, dict]:
    """The axtree text, the bids and the attributes of the page at ``path``."""
    page = env.unwrapped.page
    page.goto(env.unwrapped.task.live.url + path)
    obs = env.unwrapped._get_obs()
    return flatten_axtree_to_str(obs["axtree_object"]), testid_bids(obs), testid_attributes(obs)


@pytest.mark.browser
@pytest.mark.parametrize("pack", ["german", "arabic+mobile", "mandarin"])
def test_the_form_shows_and_takes_dates_as_the_language_writes_them(pack):
    """Under German the new-event form's date field reads "10.03.2026" (Chromium drew the native
    input as the US "03/10/2026" with month, day and year spin buttons); a date typed the German
    way is saved, an ISO one too, and one that does not read is one message on the form."""
    import gymnasium as gym

    import openapps_sim  # noqa: F401

    lang = pack.split("+")[0]
    strings = compose(pack)["calendar"]["strings"]
    env = gym.make("browsergym/openapps.calendar.add_event", task_kwargs={"variation": pack, "seed": 0})
    try:
        env.reset()
        tree, bids, attrs = _form(env, "/calendar/new")
        assert f"textbox '{strings['field_date']}'" in tree and f"value='{SHOWN[lang]}'" in tree, tree
        assert "spinbutton" not in tree and "03/10/2026" not in tree.replace(SHOWN[lang], "")
        assert attrs["calendar-field-date"]["placeholder"] == strings["date_placeholder"]
        assert attrs["calendar-field-time"]["placeholder"] == strings["time_placeholder"]

        def save(title: str, when: str, time: str) -> tuple[dict, str]:
            _, bids, _ = _form(env, "/calendar/new")
            for testid, text in (("title", title), ("date", when), ("time", time)):
                _, _, _, _, info = env.step(f"fill('{bids['calendar-field-' + testid]}', '{text}')")
                assert not info.get("last_action_error"), info
            _, _, _, _, info = env.step(f"click('{bids['calendar-save']}')")
            assert not info.get("last_action_error"), info
            events = drawn(env.unwrapped.task.live.snapshot()[1]["calendar"])["events"]
            page_tree = flatten_axtree_to_str(env.unwrapped._get_obs()["axtree_object"])
            return next((e for e in events if e["title"] == title), {}), page_tree

        typed = format_date("2026-04-14", strings["date_format"])
        ev, _ = save("Language date", typed, "9:05")
        assert (ev.get("date"), ev.get("time")) == ("2026-04-14", "09:05"), ev
        ev, _ = save("ISO date", "2026-04-15", "14:30")
        assert (ev.get("date"), ev.get("time")) == ("2026-04-15", "14:30"), ev
        ev, tree = save("No date", "next Tuesday", "14:30")
        assert ev == {} and strings["error_date"] in tree and "next Tuesday" in tree
        ev, tree = save("No time", typed, "half past two")
        assert ev == {} and strings["error_time"] in tree and f"value='{typed}'" in tree
    finally:
        env.close()
