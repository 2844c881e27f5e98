"""The state check's normalisation shortcuts give what normalising everything gives (pure logic)."""

from __future__ import annotations

import copy
import json

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import all_families, instantiate
from openapps_sim.taskkit.reward import normalise_world, normalised_expected
from openapps_sim.web.world import World


def _instance():
    world = World()
    world.reset("default", 0)
    return instantiate(all_families()["todo.add_item"], world.draw_all(), world.config, 0)


def test_unchanged_apps_take_the_initial_normalisation_and_equal_a_full_one():
    inst = _instance()
    initial = normalised_expected(inst.initial)
    want = normalised_expected(inst.expected, base=inst.initial)
    assert want == normalise_world(inst.expected)
    changed = [a for a in inst.expected if inst.expected[a] != inst.initial[a]]
    assert changed and set(changed) < set(want)
    for app in want:
        assert (want[app] is initial[app]) == (app not in changed), app
    actual = json.loads(json.dumps(inst.initial))  # as read from the server
    got = normalise_world(actual, memo=True, base=inst.initial)
    assert got == normalise_world(actual)
    assert all(got[a] is initial[a] for a in got)


def test_a_state_equal_but_of_other_types_is_normalised_itself():
    inst = _instance()
    initial = normalised_expected(inst.initial)
    app = next(a for a, v in inst.initial.items() if isinstance(v, dict) and v)
    actual = json.loads(json.dumps(inst.initial))
    key = next(iter(actual[app]))
    actual[app] = copy.deepcopy(actual[app])
    actual[app]["_probe"] = 1.0
    base = copy.deepcopy(inst.initial)
    base[app]["_probe"] = 1  # == 1.0, but another JSON text: not taken from there
    assert actual[app] == base[app] and key
    normalised_expected(base)
    got = normalise_world(actual, memo=True, base=base)
    assert got[app] is not initial[app]
    assert got == normalise_world(actual)


def test_norm_text_kept_or_not_folds_the_same():
    """A str is folded once and kept (a cache); a str subclass and a non-str are folded each time:
    all three give the written-out form, the first call and the kept one alike."""
    cases = {"  Buy MILK. ": "buy milk", "Ｆｕｌｌ width": "full width", "«Zitat»": "zitat", "": "", "a\t\n b": "a b"}
    for text, want in cases.items():
        assert norm_text(text) == want, text  # folded
        assert norm_text(text) == want, text  # kept
        assert norm_text(type("S", (str,), {})(text)) == want, text
    assert norm_text(12) == "12"
