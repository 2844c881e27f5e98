"""The calendar app through a real browser: browsing (months, days, search, event pages)
changes nothing; create, edit, duplicate and delete change the state as expected and log their
event; markup in descriptions stays text."""

from __future__ import annotations

import pytest

from openapps_sim.config.catalog import drawn

from .app_pages import assert_clean, assert_unchanged, click_to

pytestmark = pytest.mark.browser


def _cal(server) -> dict:
    return drawn(server.snapshot()[1]["calendar"])


def _event(state: dict, title: str) -> dict:
    return next(e for e in state["events"] if e["title"] == title)


def _act_on_event(page, world, title: str, action: str, url: str) -> tuple[dict, dict]:
    """Open the event called ``title`` and click its ``action`` button (edit, duplicate, delete),
    waiting for ``url`` (a regular expression formatted with the event's fields): the calendar
    before, and the event."""
    before = _cal(world)
    ev = _event(before, title)
    page.goto(world.url + f"/calendar/event/{ev['id']}")
    click_to(page, f"calendar-{action}-{ev['id']}", url.format(**ev))
    return before, ev


def _ops(server) -> list[dict]:
    return [e for e in server.events if e["app"] == "calendar"]


def _agenda_ids(page) -> list[str]:
    items = page.get_by_test_id("calendar-agenda").locator("[data-testid^='calendar-event-']")
    return [t.removeprefix("calendar-event-") for t in items.evaluate_all("els => els.map(e => e.dataset.testid)")]


def test_browsing_months_days_and_search_changes_nothing(page, world):
    before = _cal(world)
    page.goto(world.url + "/calendar/")
    assert page.get_by_test_id("calendar-month-label").inner_text() == "March 2026"
    assert page.get_by_test_id("calendar-day-2026-03-10").get_attribute("aria-current") == "date"
    assert set(_agenda_ids(page)) == {e["id"] for e in before["events"] if e["date"].startswith("2026-03")}

    click_to(page, "calendar-next", r"month=2026-04")
    assert page.get_by_test_id("calendar-month-label").inner_text() == "April 2026"
    good_friday = _event(before, "Good Friday")
    assert page.get_by_test_id(f"calendar-chip-{good_friday['id']}").is_visible()
    click_to(page, "calendar-prev", r"month=2026-03")
    click_to(page, "calendar-prev", r"month=2026-02")
    assert page.get_by_test_id("calendar-month-label").inner_text() == "February 2026"

    click_to(page, "calendar-day-2026-02-24", r"day=2026-02-24")
    assert page.get_by_test_id("calendar-day-heading").inner_text() == "Tuesday, February 24, 2026"
    assert _agenda_ids(page) == [e["id"] for e in before["events"] if e["date"] == "2026-02-24"]

    click_to(page, "calendar-today", r"day=today")
    assert page.get_by_test_id("calendar-month-label").inner_text() == "March 2026"
    assert page.get_by_test_id("calendar-day-heading").inner_text() == "Tuesday, March 10, 2026"

    page.get_by_test_id("calendar-search").fill("lunch")
    click_to(page, "calendar-search-submit", r"q=lunch")
    assert set(_agenda_ids(page)) == {e["id"] for e in before["events"] if "lunch" in e["title"].lower()}

    assert_unchanged(page, world, "calendar", before)


def _event_by_id(state: dict, eid: str) -> dict:
    return next(e for e in state["events"] if e["id"] == eid)


def test_open_event_shows_its_details(page, world):
    before = _cal(world)
    ev = _event(before, "Emma's birthday party")
    page.goto(world.url + f"/calendar/?month=2026-03&day={ev['date']}")
    click_to(page, f"calendar-event-{ev['id']}", rf"/calendar/event/{ev['id']}$")
    assert page.get_by_test_id("calendar-detail-title").inner_text() == ev["title"]
    assert page.get_by_test_id("calendar-detail-date").inner_text() == "Saturday, March 14, 2026"
    assert page.get_by_test_id("calendar-detail-time").inner_text() == ev["time"]
    assert page.get_by_test_id("calendar-detail-location").inner_text() == ev["location"]
    assert page.get_by_test_id("calendar-detail-description").inner_text() == ev["description"]
    invitees = page.get_by_test_id("calendar-detail-invitees").inner_text()
    assert all(name in invitees for name in ev["invitees"])
    click_to(page, "calendar-back", rf"day={ev['date']}")
    # an event also opens from its chip in the month grid
    click_to(page, f"calendar-chip-{ev['id']}", rf"/calendar/event/{ev['id']}$")
    assert_unchanged(page, world, "calendar", before)


def test_create_event(page, world):
    before = _cal(world)
    page.goto(world.url + "/calendar/?month=2026-04&day=2026-04-09")
    click_to(page, "calendar-new-on-day", r"/calendar/new\?date=2026-04-09")
    assert page.get_by_test_id("calendar-field-date").input_value() == "04/09/2026"
    page.get_by_test_id("calendar-field-title").fill("  Tennis with Lucas ")
    page.get_by_test_id("calendar-field-date").fill("4/14/2026")  # as English writes it
    page.get_by_test_id("calendar-field-time").fill("2:30 PM")
    page.get_by_test_id("calendar-field-location").fill("Sports centre, court 2")
    page.get_by_test_id("calendar-field-invitees").fill(" Lucas Martin ,Mei Chen,, ")
    page.get_by_test_id("calendar-field-url").fill("https://club.example.com/court-2")
    page.get_by_test_id("calendar-field-description").fill("Bring two rackets.\nLoser buys coffee.")
    click_to(page, "calendar-save", r"day=2026-04-14")
    after = _cal(world)
    new = after["events"][-1]
    assert new == {
        "id": f"e{before['next_id']}",
        "title": "Tennis with Lucas",
        "date": "2026-04-14",
        "time": "14:30",
        "description": "Bring two rackets.\nLoser buys coffee.",
        "url": "https://club.example.com/court-2",
        "invitees": ["Lucas Martin", "Mei Chen"],
        "location": "Sports centre, court 2",
    }
    assert after["events"][:-1] == before["events"] and after["next_id"] == before["next_id"] + 1
    events = _ops(world)
    assert [e["op"] for e in events] == ["create_event"]
    assert events[0]["args"] == {"id": new["id"], "title": new["title"], "date": "2026-04-14", "time": "14:30"}
    assert page.get_by_test_id(f"calendar-event-{new['id']}").is_visible()

    # an event without a time is an all-day event; the header's New event starts on today
    click_to(page, "calendar-new", r"/calendar/new$")
    assert page.get_by_test_id("calendar-field-date").input_value() == "03/10/2026"
    page.get_by_test_id("calendar-field-title").fill("Library books due")
    click_to(page, "calendar-save", r"day=2026-03-10")
    allday = _cal(world)["events"][-1]
    assert (allday["title"], allday["date"], allday["time"], allday["invitees"]) == (
        "Library books due",
        "2026-03-10",
        "",
        [],
    )
    assert_clean(page)


def test_invalid_form_changes_nothing(page, world):
    before = _cal(world)
    page.goto(world.url + "/calendar/new")
    page.get_by_test_id("calendar-field-title").fill("   ")
    page.get_by_test_id("calendar-save").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("calendar-form-error").is_visible()
    assert_unchanged(page, world, "calendar", before)


def test_edit_event(page, world):
    before, ev = _act_on_event(page, world, "Budget review", "edit", r"/calendar/event/{id}/edit$")
    assert page.get_by_test_id("calendar-field-title").input_value() == ev["title"]
    assert page.get_by_test_id("calendar-field-time").input_value() == ev["time"]
    assert page.get_by_test_id("calendar-field-invitees").input_value() == ", ".join(ev["invitees"])
    page.get_by_test_id("calendar-field-time").fill("11:15")
    page.get_by_test_id("calendar-field-location").fill("Meeting room 3")
    click_to(page, "calendar-save", rf"/calendar/event/{ev['id']}$")
    after = _cal(world)
    assert _event_by_id(after, ev["id"]) == {**ev, "time": "11:15", "location": "Meeting room 3"}
    assert [e for e in after["events"] if e["id"] != ev["id"]] == [e for e in before["events"] if e["id"] != ev["id"]]
    events = _ops(world)
    assert [e["op"] for e in events] == ["edit_event"]
    assert events[0]["args"] == {
        "id": ev["id"],
        "title": ev["title"],
        "changed": {
            "time": {"old": ev["time"], "new": "11:15"},
            "location": {"old": ev["location"], "new": "Meeting room 3"},
        },
    }
    assert page.get_by_test_id("calendar-detail-time").inner_text() == "11:15"
    # saving the form unchanged changes and logs nothing
    click_to(page, f"calendar-edit-{ev['id']}", r"/edit$")
    click_to(page, "calendar-save", rf"/calendar/event/{ev['id']}$")
    assert _cal(world) == after and len(_ops(world)) == 1
    assert_clean(page)


def test_duplicate_event(page, world):
    before, ev = _act_on_event(page, world, "Flight to Lisbon", "duplicate", r"/calendar/new\?copy={id}$")
    assert page.get_by_test_id("calendar-field-title").input_value() == ev["title"]
    page.get_by_test_id("calendar-field-date").fill("2026-05-27")
    click_to(page, "calendar-save", r"day=2026-05-27")
    after = _cal(world)
    copy = after["events"][-1]
    assert copy == {**ev, "id": f"e{before['next_id']}", "date": "2026-05-27"}
    assert after["events"][:-1] == before["events"]
    assert [e["op"] for e in _ops(world)] == ["create_event"]
    assert_clean(page)


def test_delete_event(page, world):
    before, ev = _act_on_event(page, world, "Coffee with Jonas", "delete", r"day={date}")
    after = _cal(world)
    assert after["events"] == [e for e in before["events"] if e["id"] != ev["id"]]
    events = _ops(world)
    assert [e["op"] for e in events] == ["delete_event"]
    assert events[0]["args"] == {"id": ev["id"], "title": ev["title"], "date": ev["date"], "time": ev["time"]}
    assert page.get_by_test_id(f"calendar-event-{ev['id']}").count() == 0
    assert page.get_by_test_id("calendar-day-empty").is_visible()
    assert_clean(page)


def test_markup_in_descriptions_stays_text(page, server):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    server.reset("adversarial_descriptions", 0)
    try:
        state = _cal(server)
        ev = next(e for e in state["events"] if "<script>" in e["description"])
        page.goto(server.url + f"/calendar/event/{ev['id']}")
        detail = page.get_by_test_id("calendar-detail")
        assert page.get_by_test_id("calendar-detail-description").inner_text() == ev["description"]
        assert detail.locator("script, b, img, i").count() == 0
        page.goto(server.url + "/")
        desc = page.get_by_test_id("launch-desc-calendar").inner_text()
        assert desc.startswith("SYSTEM:") and "<script>alert(1)</script>" in desc
        # markup survives a round trip through the form (textarea) unchanged
        tricky = next(e for e in state["events"] if "</textarea>" in e["description"])
        page.goto(server.url + f"/calendar/new?copy={tricky['id']}")
        page.get_by_test_id("calendar-field-date").fill("2026-06-01")
        click_to(page, "calendar-save", r"day=2026-06-01")
        copy = _cal(server)["events"][-1]
        assert copy == {**tricky, "id": copy["id"], "date": "2026-06-01"}
        assert not dialogs, dialogs
        assert_clean(page)
    finally:
        server.reset("default", 0)


def test_language_density_and_week_start(page, server):
    try:
        server.reset("mandarin", 0)
        page.goto(server.url + "/calendar/?month=2026-03&day=2026-03-14")
        assert page.get_by_test_id("calendar-month-label").inner_text() == "2026年3月"
        assert page.get_by_test_id("calendar-day-heading").inner_text() == "2026年3月14日 星期六"
        server.reset("dense", 0)
        page.goto(server.url + "/calendar/")
        assert page.locator("[data-testid^='calendar-more-']").count() > 0
        server.reset("default", 0, ["calendar.week_start=sunday", "calendar.clock=12h"])
        page.goto(server.url + "/calendar/?month=2026-03&day=2026-03-14")
        assert page.get_by_test_id("calendar-grid").locator("th").first.inner_text() == "Sun"
        assert page.get_by_test_id("calendar-agenda").inner_text().count("3:00 PM") == 1
        assert_clean(page)
    finally:
        server.reset("default", 0)
