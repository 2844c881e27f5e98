"""The text backend shows what Chromium shows: the oracle runs under Chromium, its actions are
replayed under the text backend in the same world, and every observation (flattened as agents
read it, nothing normalised) must be identical, with the same rewards. The full matrix (every
family x six packs) is ``openapps parity``; this is a sample that covers every app, every kind of
form control (date, time, number, select, image button, text area) and the packs that change
the tree most."""

from __future__ import annotations

import pytest

from openapps_sim.sweeps.parity import check

CASES = [
    ("todo.add_item", "default"),
    ("calendar.add_event", "default"),
    ("shop.checkout", "default"),
    ("code_editor.create_file", "default"),
    ("maps.drop_pin", "default"),
    ("messenger.forward_message", "default"),
    ("multi.cart_and_reminder", "default"),
    ("todo.add_item", "german"),
    ("calendar.add_event", "arabic+mobile"),
    ("messenger.send_message", "interrupt_mixed"),
    ("shop.checkout", "palette_nord+large_text"),
    ("code_editor.edit_file", "dense"),
]


@pytest.mark.parametrize("task,variation", CASES)
def test_text_backend_matches_chromium(task, variation):
    result = check(task, variation, seed=0)
    assert result.pages >= 2
    assert not result.differences, "\n".join(d.line() for d in result.differences)
    assert result.rewards_equal == 1
