"""A world's config and state at reset (``taskkit.statecopy.loads_fresh``): what ``json.loads``
gives, value for value and type for type, as new objects at every reset."""

from __future__ import annotations

import json

from openapps_sim.config.catalog import composed_json, initial_state_json
from openapps_sim.taskkit import statecopy
from openapps_sim.taskkit.statecopy import loads_fresh
from openapps_sim.web.world import World

TEXT = (
    '{"b": [1, 2.5, -0.0, true, null, "ü\\u00e9", {"z": 1, "a": [[]]}], "a": {"1e3": 1e3, "big": 12345678901234567890}}'
)


def test_the_value_of_a_json_text_with_every_kind_of_value():
    for _ in range(3):  # parsed, then loaded from what was kept
        got = loads_fresh(TEXT)
        assert got == {
            "b": [1, 2.5, -0.0, True, None, "üé", {"z": 1, "a": [[]]}],
            "a": {"1e3": 1000.0, "big": 12345678901234567890},
        }
        assert list(got) == ["b", "a"] and list(got["b"][6]) == ["z", "a"]
        assert [type(v) for v in got["b"]] == [int, float, float, bool, type(None), str, dict]
        assert type(got["a"]["1e3"]) is float and str(got["b"][2]) == "-0.0"
        got["b"].append("changed by its user")


def test_every_reset_is_a_new_state_equal_to_the_json():
    world = World()
    world.reset("default", 3)
    first = world.state
    world.app_state("todo")["items"].clear()
    world.reset("default", 3)
    assert world.state is not first and world.app_state("todo")["items"]
    assert world.state == json.loads(initial_state_json("default", (), 3))
    assert world.config == json.loads(composed_json("default", ()))


def test_a_round_of_forty_texts_is_parsed_once_and_the_least_used_is_let_go(monkeypatch):
    """Tests and sweeps go round the worlds of 24 or 40 seeds: each text is parsed on its first
    use only (16 kept parsed every text again on every round), and the text used longest ago is
    the one let go."""
    parsed = []
    real = json.loads
    monkeypatch.setattr(statecopy.json, "loads", lambda text: parsed.append(text) or real(text))
    monkeypatch.setattr(statecopy, "_PARSED", {})
    texts = [f'{{"seed": {i}}}' for i in range(40)]
    for _ in range(3):
        assert [loads_fresh(t) for t in texts] == [{"seed": i} for i in range(40)]
    assert parsed == texts
    loads_fresh(texts[0])  # used again: the oldest is now texts[1]
    for i in range(40, 40 + 64 - 40 + 1):  # one text more than is kept
        loads_fresh(f'{{"seed": {i}}}')
    parsed.clear()
    loads_fresh(texts[0])
    loads_fresh(texts[1])
    assert parsed == [texts[1]]
