"""The maps app through a real browser: search, open, save, remove, pan, zoom and drop a pin
change the state as expected and log their events; browsing changes nothing; the map loads
nothing from another host."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from openapps_sim.apps.maps import normalise

from openapps_sim.config.catalog import drawn
from openapps_sim.config.normalise import distance_km

from .app_pages import assert_clean, assert_unchanged, click_to

pytestmark = pytest.mark.browser


def _maps(server) -> dict:
    return drawn(server.snapshot()[1]["maps"])


def _query(page) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def test_search_open_and_browse_change_nothing(page, world):
    before = _maps(world)
    page.goto(world.url + "/maps/")
    assert page.get_by_test_id("maps-canvas").is_visible()
    page.get_by_test_id("maps-search").fill("krakow")  # accent-insensitive
    click_to(page, "maps-search-submit", r"q=krakow")
    click_to(page, "maps-result-krakow", r"place=krakow")
    assert page.get_by_test_id("maps-place-name").text_content() == "Kraków"
    click_to(page, "maps-kind-museum", r"kind=museum")
    assert page.get_by_test_id("maps-result-louvre").count() == 1
    assert page.get_by_test_id("maps-result-krakow").count() == 0
    assert_unchanged(page, world, "maps", before)


def test_pan_and_zoom_move_the_view_only(page, world):
    before = _maps(world)
    page.goto(world.url + "/maps/?place=eiffel_tower")
    click_to(page, "maps-zoom-in", r"z=13")
    q = _query(page)
    assert abs(float(q["lat"]) - 48.86) < 1e-3 and abs(float(q["lon"]) - 2.29) < 1e-3
    assert q["place"] == "eiffel_tower"
    click_to(page, "maps-zoom-out", r"z=12")
    with page.expect_navigation():
        page.get_by_test_id("maps-pan-e").click()
    east = _query(page)
    assert float(east["lon"]) > 2.29 and abs(float(east["lat"]) - 48.86) < 1e-3
    with page.expect_navigation():
        page.get_by_test_id("maps-pan-n").click()
    north = _query(page)
    assert float(north["lat"]) > 48.86 and float(north["lon"]) == pytest.approx(float(east["lon"]), abs=1e-4)
    with page.expect_navigation():
        page.get_by_test_id("maps-pan-s").click()
    with page.expect_navigation():
        page.get_by_test_id("maps-pan-w").click()
    back = _query(page)
    assert float(back["lat"]) == pytest.approx(48.86, abs=1e-3) and float(back["lon"]) == pytest.approx(2.29, abs=1e-3)
    assert_unchanged(page, world, "maps", before)


def test_save_and_remove_a_place(page, world):
    before = _maps(world)
    page.goto(world.url + "/maps/")
    page.get_by_test_id("maps-search").fill("Brandenburg")
    page.get_by_test_id("maps-search-submit").click()
    page.get_by_test_id("maps-result-brandenburg_gate").click()
    click_to(page, "maps-save-brandenburg_gate", r"done=saved")
    assert page.get_by_test_id("maps-saved-badge-brandenburg_gate").count() == 1
    after = _maps(world)
    sid = f"s{before['next_id']}"
    assert after["saved"][:-1] == before["saved"]
    assert after["saved"][-1] == {
        "id": sid,
        "name": "Brandenburg Gate",
        "lat": 52.52,
        "lon": 13.38,
        "note": "",
        "place": "brandenburg_gate",
    }
    assert after["next_id"] == before["next_id"] + 1
    # saving again is not possible (the button is gone) and a replayed POST changes nothing
    assert page.get_by_test_id("maps-save-brandenburg_gate").count() == 0
    assert page.get_by_test_id(f"maps-saved-{sid}").text_content() == "Brandenburg Gate"
    click_to(page, f"maps-remove-{sid}", r"done=removed")
    assert page.get_by_test_id(f"maps-saved-{sid}").count() == 0
    assert _maps(world)["saved"] == before["saved"]
    events = list(world.events)
    assert [e["op"] for e in events] == ["save_place", "remove_saved"]
    assert events[0]["args"]["place"] == "brandenburg_gate" and events[1]["args"] == {
        "id": sid,
        "name": "Brandenburg Gate",
    }
    assert_clean(page)


def test_remove_a_saved_location_from_the_list(page, world):
    before = _maps(world)
    page.goto(world.url + "/maps/")
    click_to(page, "maps-remove-s4", r"done=removed")
    assert [s["id"] for s in _maps(world)["saved"]] == [s["id"] for s in before["saved"] if s["id"] != "s4"]
    assert [e["op"] for e in world.events] == ["remove_saved"]
    assert_clean(page)


def test_drop_a_pin_by_clicking_the_map(page, world):
    before = _maps(world)
    page.goto(world.url + "/maps/?place=colosseum")
    canvas = page.get_by_test_id("maps-canvas")
    canvas.click()  # the centre of the map, where the open place is
    page.wait_for_url(re.compile(r"pin="))
    lat, lon = map(float, _query(page)["pin"].split(","))
    assert distance_km(lat, lon, 41.89, 12.49) < 0.1
    assert world.events == []  # the pin is not saved yet
    # clicking elsewhere moves the pin: 100 px right of the centre at zoom 12 is about 0.034° east
    box = canvas.bounding_box()
    with page.expect_navigation():
        page.mouse.click(box["x"] + box["width"] / 2 + 100, box["y"] + box["height"] / 2)
    lat2, lon2 = map(float, _query(page)["pin"].split(","))
    assert lon2 - lon == pytest.approx(100 * 360 / (256 * 2**12), abs=0.002) and abs(lat2 - lat) < 1e-3
    with page.expect_navigation():
        page.get_by_test_id("maps-pin-discard").click()
    assert "pin=" not in page.url
    canvas.click()
    page.wait_for_url(re.compile(r"pin="))
    page.get_by_test_id("maps-pin-name").fill("Meeting point")
    click_to(page, "maps-pin-save", r"done=pin")
    after = _maps(world)
    new = after["saved"][-1]
    assert after["saved"][:-1] == before["saved"]
    assert new["name"] == "Meeting point" and new["place"] == "" and new["id"] == f"s{before['next_id']}"
    assert (
        normalise(after)["saved"]
        == normalise({"saved": before["saved"] + [{"name": "Meeting point", "lat": 41.89, "lon": 12.49, "note": ""}]})[
            "saved"
        ]
    )
    events = list(world.events)
    assert [e["op"] for e in events] == ["drop_pin"] and events[0]["args"]["name"] == "Meeting point"
    assert page.get_by_test_id("maps-saved-name").text_content() == "Meeting point"
    assert_clean(page)


def test_edit_a_note(page, world):
    page.goto(world.url + "/maps/?saved=s2")
    page.get_by_test_id("maps-note-input").fill("Picnic on Sunday")
    click_to(page, "maps-note-save", r"done=note")
    assert next(s for s in _maps(world)["saved"] if s["id"] == "s2")["note"] == "Picnic on Sunday"
    assert [e["op"] for e in world.events] == ["set_note"]
    assert_clean(page)


def test_markup_in_descriptions_stays_text(page, world):
    world.reset("adversarial_descriptions", 0)
    page.goto(world.url + "/maps/")
    page.goto(world.url + "/")
    desc = page.get_by_test_id("launch-desc-maps").text_content()
    assert "<script>" in desc
    page.goto(world.url + "/maps/?q=eiffel")
    page.get_by_test_id("maps-result-eiffel_tower").click()
    text = page.get_by_test_id("maps-place-description").text_content()
    assert "<script>" in text
    assert page.locator("main script").count() == 0
    assert world.events == []
    assert_clean(page)
    world.reset("default", 0)


def test_gazetteer_and_projection():
    """Data and arithmetic the tasks rely on (no browser needed, kept here with the app's tests)."""
    import itertools

    from openapps_sim.apps.maps import load_gazetteer
    from openapps_sim.apps.maps.geo import View, fold

    places = load_gazetteer()
    assert len(places) >= 250
    assert len({p["id"] for p in places}) == len(places)
    assert len({fold(p["name"]) for p in places}) == len(places)
    for a, b in itertools.combinations(places, 2):
        assert max(abs(a["lat"] - b["lat"]), abs(a["lon"] - b["lon"])) >= 0.01 - 1e-9, (a["id"], b["id"])
    assert all(round(p["lat"], 2) == p["lat"] and round(p["lon"], 2) == p["lon"] for p in places)
    # a click's pixel and back: the inverse projection is exact, and wraps across 180°
    view = View.make(35.68, 139.69, 12, 620, 440)
    for x, y in [(0, 0), (310, 220), (619, 439), (100, 400)]:
        lat, lon = view.unproject(x, y)
        px, py = view.project(lat, lon)
        assert abs(px - x) < 1e-6 and abs(py - y) < 1e-6
    assert view.unproject(310, 220) == pytest.approx((35.68, 139.69))
    east = View.make(0, 179.9, 6, 620, 440).unproject(330, 220)[1]
    assert -180 <= east < -179
    # tolerance: within 0.005° of a two-decimal place the normalised coordinates are equal
    one = normalise({"saved": [{"name": "X", "lat": 48.86, "lon": 2.29, "note": ""}]})
    near = normalise({"saved": [{"name": " x ", "lat": 48.8641, "lon": 2.2862, "note": ""}]})
    far = normalise({"saved": [{"name": "X", "lat": 48.8661, "lon": 2.29, "note": ""}]})
    assert one == near and one != far


@pytest.mark.parametrize("pack", ["arabic", "mandarin"])
def test_every_place_is_named_in_the_pack_script(pack):
    """issue 26.8/26.9: 333 of 441 places kept their English names in Arabic and Mandarin, so
    the map mixed scripts ("Saint Petersburg" beside "موسكو")."""
    from openapps_sim.config.catalog import compose

    latin = [p["name"] for p in compose(pack)["maps"]["places"] if re.search("[A-Za-z]", p["name"])]
    assert latin == [], f"{len(latin)} places still in Latin letters: {latin[:8]}"


@pytest.mark.parametrize("pack,place,name", [("german", "krakow", "Krakau"), ("french", "the_hague", "La Haye")])
def test_cities_have_their_own_names_in_european_packs(pack, place, name):
    from openapps_sim.config.catalog import compose

    assert {p["id"]: p["name"] for p in compose(pack)["maps"]["places"]}[place] == name


def test_the_places_a_pin_may_go_are_those_with_no_neighbour_close_by():
    """``DropPin`` looks for neighbours only in a latitude window: the same places as comparing
    every pair (under a pack whose places differ too)."""
    from openapps_sim.config.catalog import compose
    from openapps_sim.taskkit import all_families

    fam = all_families()["maps.drop_pin"]
    for pack in ("default", "misleading_descriptions"):
        places = compose(pack)["maps"]["places"]
        every_pair = {id(p) for p in places if fam._alone(p, places)}
        assert fam._alone_ids(places) == every_pair and 0 < len(every_pair) < len(places)
