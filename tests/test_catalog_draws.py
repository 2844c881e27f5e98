"""A world's draw at a new seed does only the draw: the config is not parsed nor its sections
written again, a field's generator is worked out once per collection with the very values and
stream use of ``draw``, and a drawn state is copied to JSON's types without a JSON text."""

from __future__ import annotations

import json
import random

import pytest
from openapps_sim.apps.described import generate

from openapps_sim.config import catalog

SPEC = {"type": "text", "default": None, "choices": []}
GENERATORS = [
    (SPEC, None),
    ({"type": "choice", "default": None, "choices": ["a", "b", "c"]}, None),
    ({"type": "choice", "default": "b", "choices": ["a", "b"]}, None),
    (SPEC, {"times": [], "pool": ["x", "y", "z"], "combine": [], "range": [], "dates": [], "step": 1}),
    (SPEC, {"times": ["n"], "pool": [], "combine": [], "range": [], "dates": [], "step": 1}),
    (
        SPEC,
        {
            "times": [],
            "pool": [],
            "combine": [["a", "b"], ["c", "d"]],
            "sep": " ",
            "range": [1, 9],
            "dates": [],
            "step": 1,
        },
    ),
    (
        {"type": "number", "default": None},
        {"times": [], "pool": [], "combine": [], "range": [1.5, 80], "dates": [], "step": 0.25},
    ),
    (
        {"type": "rating", "default": None},
        {"times": [], "pool": [], "combine": [], "range": [1, 5], "dates": [], "step": 0.5},
    ),
    (SPEC, {"times": [], "pool": [], "combine": [], "range": [], "dates": ["2026-01-30", "2026-03-02"], "step": 1}),
    (
        {"type": "boolean", "default": None},
        {"times": [], "pool": [], "combine": [], "range": [], "dates": [], "step": 1, "chance": 0.3},
    ),
    (
        {"type": "number", "default": None},
        {"times": [], "pool": [], "combine": [], "range": [1, 5], "dates": [], "step": 0},
    ),
]


@pytest.mark.parametrize(("spec", "gen"), GENERATORS)
def test_a_fields_drawer_draws_what_draw_draws_from_the_same_stream(spec: dict, gen: dict | None):
    plain = generate.drawer(spec, gen)
    ours, theirs = random.Random("7:app"), random.Random("7:app")
    for _ in range(40):
        try:
            expected = generate.draw(spec, gen, theirs)
        except ZeroDivisionError:  # a generator draw refuses is refused by its drawer, when drawn
            with pytest.raises(ZeroDivisionError):
                plain(ours)
            return
        got = plain(ours)
        assert (got, type(got)) == (expected, type(expected))
    assert ours.getstate() == theirs.getstate()


def test_a_drawn_state_is_copied_to_jsons_types_as_json_would():
    shared = [1, 2]
    value = {"a": (1, 2.5, None), "b": [shared, shared], "c": {"d": True, "e": "x"}}
    got = catalog.as_json_value(value)
    assert got == json.loads(json.dumps(value)) and type(got["a"]) is list
    assert got["b"][0] is not got["b"][1] and got["b"][0] is not shared  # new objects throughout
    odd = {"n": {1: "one", None: "none"}, "t": [(1, {2: 3})]}  # keys JSON writes as strings
    assert catalog.as_json_value(odd) == json.loads(json.dumps(odd))


def test_a_draw_at_a_new_seed_neither_parses_the_config_nor_writes_its_sections(monkeypatch: pytest.MonkeyPatch):
    text = catalog.composed_json("default", ())
    catalog.fresh_state(text, 0)  # the config's sections are worked out once
    calls = []

    def counted(name):
        real = getattr(json, name)
        return lambda *a, **k: calls.append(name) or real(*a, **k)

    monkeypatch.setattr(catalog.json, "loads", counted("loads"))
    monkeypatch.setattr(catalog.json, "dumps", counted("dumps"))
    fresh = catalog.fresh_state(text, 987_654)  # a seed no test has drawn
    assert calls == []
    assert len(fresh) == len(catalog.discover_apps())
