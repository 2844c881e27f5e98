"""The action classifier, the execution-error kinds, the answer parser and the UI-TARS parser."""

from __future__ import annotations

import numpy as np
import pytest
from openapps_sim.agents.llm import extract_action, scale_coordinates
from openapps_sim.agents.prompts import action_help, system_prompt
from openapps_sim.agents.uitars import CoordFrame, hotkey_to_playwright, parse_point, parse_uitars, smart_resize

from openapps_sim.envs.actions import (
    ACTION_CATEGORIES,
    ACTION_SPACES,
    InvalidActionCounter,
    classify_action,
    classify_execution_error,
    execution_error_kind,
)
from openapps_sim.envs.env import action_mapping

# an observation with two elements on the page and a 1280x720 screenshot
OBS = {
    "extra_element_properties": {"12": {"visibility": 1.0}, "15": {"visibility": 1.0}, "a7": {}},
    "screenshot": np.zeros((720, 1280, 3), dtype=np.uint8),
}

CASES = [
    # (action, action space, category)
    ("noop()", "bid", "valid"),
    ("noop(500)", "coord", "valid"),
    ("click('12')", "bid", "valid"),
    ('click("12")', "bid", "valid"),
    ("click(bid='12', button='right')", "bid", "valid"),
    ("click('12', modifiers=['Shift'])", "bid", "valid"),
    ("fill('15', 'Buy oat milk')", "bid", "valid"),
    ("fill('15', \"it's fine\")", "bid", "valid"),
    ("  click('12')  # the Add button", "bid", "valid"),
    ("select_option('15', ['red', 'blue'])", "bid", "valid"),
    ("scroll(0, -300)", "bid", "valid"),
    ("mouse_click(612, 300)", "coord", "valid"),
    ("mouse_click(612.5, 300, 'right')", "coord", "valid"),
    ("scroll_at(640, 360, 0, 500)", "coord", "valid"),
    ("keyboard_type('hello\\n')", "coord", "valid"),
    ("keyboard_press('Control+a')", "coord", "valid"),
    ("send_msg_to_user('done')", "coord", "valid"),
    ("report_infeasible('no such item')", "bid", "valid"),
    ("goto('http://127.0.0.1:8000/todo/')", "bid", "valid"),
    ("go_back()", "all", "valid"),
    ("tab_focus(0)", "bid", "valid"),
    ("click('12')", "all", "valid"),
    # malformed: not one Python call
    ("no-op", "bid", "malformed"),
    ("noop", "bid", "malformed"),
    ("mouse_click(x=612 y)", "coord", "malformed"),
    ("mouse_click(x=612, y=300", "coord", "malformed"),
    ("", "bid", "malformed"),
    ("   ", "bid", "malformed"),
    ("I will click the Add button.", "bid", "malformed"),
    ("Action: click('12')", "bid", "malformed"),
    ("click('12')\nfill('15', 'x')", "bid", "malformed"),
    ("click('12'); click('15')", "bid", "malformed"),
    ("x = click('12')", "bid", "malformed"),
    ("{'action': 'click', 'bid': '12'}", "bid", "malformed"),
    # unknown actions
    ("remove_item('Water the plants')", "bid", "unknown_action"),
    ("finished(content='done')", "coord", "unknown_action"),
    ("click(start_box='(10,20)')".replace("click", "left_double"), "coord", "unknown_action"),
    ("type(content='hello')", "coord", "unknown_action"),
    ("page.click('12')", "bid", "unknown_action"),
    ("browser.mouse_click(1, 2)", "coord", "unknown_action"),
    ("check('12')", "bid", "unknown_action"),  # a BrowserGym function, but in no action set
    ("mouse_click(612, 300)", "bid", "unknown_action"),  # outside the active space
    ("click('12')", "coord", "unknown_action"),
    ("tab_focus(0)", "coord", "unknown_action"),
    # bad arguments
    ("click(bid)", "bid", "bad_arguments"),
    ("click(twelve)", "bid", "bad_arguments"),
    ("click(12)", "bid", "bad_arguments"),
    ("click('99')", "bid", "bad_arguments"),  # not on the page
    ("click()", "bid", "bad_arguments"),
    ("click('12', 'left', [], 'extra')", "bid", "bad_arguments"),
    ("click('12', button='middle-ish')", "bid", "bad_arguments"),
    ("fill('15')", "bid", "bad_arguments"),
    ("fill('15', 42)", "bid", "bad_arguments"),
    ("fill(bid='15', text='milk')", "bid", "bad_arguments"),
    ("scroll(direction='down', point=(966, 546))", "all", "bad_arguments"),
    ("scroll('down')", "bid", "bad_arguments"),
    ("mouse_click(x=612)", "coord", "bad_arguments"),
    ("mouse_click('612', '300')", "coord", "bad_arguments"),
    ("mouse_click(1900, 300)", "coord", "bad_arguments"),  # outside the 1280x720 viewport
    ("mouse_click(-5, 300)", "coord", "bad_arguments"),
    ("mouse_click(x + 1, 300)", "coord", "bad_arguments"),
    ("tab_focus('1')", "bid", "bad_arguments"),
    ("send_msg_to_user()", "bid", "bad_arguments"),
    ("keyboard_type(*args)", "coord", "bad_arguments"),
    ("drag_and_drop('12', '404')", "bid", "bad_arguments"),
]


@pytest.mark.parametrize("action,space,category", CASES)
def test_classify_action(action, space, category):
    check = classify_action(action, OBS, space)
    assert check.category == category, (action, check.message)
    assert check.category in ACTION_CATEGORIES
    if category != "valid":
        assert check.message


def test_messages_say_what_is_wrong():
    assert "bare name" in classify_action("click(bid)", OBS, "bid").message
    msg = classify_action("scroll(direction='down', point=(966, 546))", OBS, "all").message
    assert "direction" in msg and "scroll(delta_x: float, delta_y: float)" in msg
    assert "'bid' action space" in classify_action("mouse_click(1, 2)", OBS, "bid").message
    assert "not a BrowserGym action" in classify_action("finished(content='x')", OBS, "coord").message
    assert "'99'" in classify_action("click('99')", OBS, "bid").message


def test_without_page_information_bids_and_points_are_not_checked():
    assert classify_action("click('99')", None, "bid").valid
    assert classify_action("click('99')", {"screenshot": np.zeros((0, 0, 3), np.uint8)}, "bid").valid
    assert classify_action("mouse_click(5000, 10)", {}, "coord").valid


def test_bids_from_the_dom_snapshot_when_there_are_no_extra_properties():
    dom = {"strings": ["bid", "12", "data-testid", "x"], "documents": [{"nodes": {"attributes": [[0, 1, 2, 3]]}}]}
    assert classify_action("click('12')", {"dom_object": dom}, "bid").valid
    assert classify_action("click('13')", {"dom_object": dom}, "bid").category == "bad_arguments"


def test_the_env_maps_exactly_the_actions_of_each_space():
    # one table (envs.actions.ACTION_SPACES) drives the env's mapping and the classifier
    for space in ACTION_SPACES:
        for name, allowed in (("mouse_click", "coord"), ("click", "bid"), ("tab_focus", "tab")):
            ok = classify_action(f"{name}(1, 2)" if name == "mouse_click" else f"{name}('1')", {}, space)
            assert (ok.category != "unknown_action") == (allowed in ACTION_SPACES[space]), (space, name)
        assert action_mapping(space) is not None


@pytest.mark.parametrize(
    "error,kind",
    [
        ("", ""),
        ('ValueError: Could not find element with bid "9999"', "not_found"),
        (
            "Error: Locator.fill: Error: Element is not an <input>, <textarea> or [contenteditable] element\nCall log:",
            "not_fillable",
        ),
        ("Error: Locator.select_option: Error: Element is not a <select> element\nCall log:", "not_select"),
        (
            "TimeoutError: Locator.click: Timeout 500ms exceeded.\nCall log:\n  - element is not visible\n  - retrying",
            "not_visible",
        ),
        ("TimeoutError: Locator.click: Timeout 500ms exceeded.\nCall log:\nwaiting for get_by_test_id", "timeout"),
        ("Error: Page.goto: net::ERR_NAME_NOT_RESOLVED at http://example.invalid/", "navigation"),
        ("ValueError: Received an empty action.", "parse_error"),
        ("NameError: Invalid action type 'remove_item'.", "parse_error"),
        ("ValueError: expected a string, got 12", "bad_value"),
        ("IndexError: list index out of range", "bad_value"),
        ("Something odd happened", "other"),
    ],
)
def test_execution_errors(error, kind):
    assert execution_error_kind(error) == kind
    assert classify_execution_error(error) == ("browser_error" if error else "valid")


def test_counter():
    c = InvalidActionCounter()
    c.record(classify_action("click('12')", OBS, "bid"))
    c.record(classify_action("click('12')", OBS, "bid"), "TimeoutError: Timeout 500ms exceeded.")
    c.record(classify_action("no-op", OBS, "bid"))
    c.add("unknown_action")
    c.add(classify_execution_error("ValueError: Could not find element"), "ValueError: Could not find element")
    c.add("timeout")  # a sub-kind counts as browser_error
    assert c.as_dict() == {"malformed": 1, "unknown_action": 1, "bad_arguments": 0, "browser_error": 3}
    summary = c.summary()
    assert summary["valid"] == 1 and summary["total"] == 6 and summary["invalid"] == 5
    assert summary["browser_error_kinds"] == {"not_found": 1, "timeout": 2}
    with pytest.raises(ValueError):
        c.add("weird")


# -- the LLM answer parser ------------------------------------------------------------------------

REPLIES = [
    ("Thought: the Add button is [16].\nAction: click('16')", "click('16')"),
    ("Thought: type it\nAction: fill('15', 'Buy oat milk')\n", "fill('15', 'Buy oat milk')"),
    ("I will press Add.\n```python\nclick('16')\n```", "click('16')"),
    ("```\n# the textbox\nfill('15', 'x')\n```\nDone.", "fill('15', 'x')"),
    ("**Action:** `click('16')`", "click('16')"),
    ("Action:\nclick('16')", "click('16')"),
    ("<think>maybe click('3')?</think>\nAction: click('16')", "click('16')"),
    ("Let me think.\nclick('16')", "click('16')"),
    ("Action: click('16').", "click('16')"),
    ("```python\nclick('16')\nfill('15', 'x')\n```", "click('16')\nfill('15', 'x')"),
    ("I am not sure what to do.", "I am not sure what to do."),
    ("Action: no-op", "no-op"),
    ("Action: finished(content='done')", "finished(content='done')"),
]


@pytest.mark.parametrize("reply,action", REPLIES)
def test_extract_action(reply, action):
    assert extract_action(reply) == action


def test_extracted_actions_are_then_judged_honestly():
    assert classify_action(extract_action("```python\nclick('12')\nfill('15', 'x')\n```"), OBS, "bid").category == (
        "malformed"
    )
    assert classify_action(extract_action("I am not sure."), OBS, "bid").category == "malformed"


def test_scale_coordinates():
    assert scale_coordinates("mouse_click(100, 50)", 2.0, 1.5) == "mouse_click(x=200.0, y=75.0)"
    assert scale_coordinates("mouse_click(100, 50, 'right')", 0.5, 0.5) == "mouse_click(x=50.0, y=25.0, button='right')"
    assert scale_coordinates("mouse_drag_and_drop(1, 2, 3, 4)", 2, 2) == (
        "mouse_drag_and_drop(from_x=2, from_y=4, to_x=6, to_y=8)"
    )
    assert scale_coordinates("scroll_at(10, 10, 0, 300)", 2, 2) == "scroll_at(x=20, y=20, dx=0, dy=300)"
    assert scale_coordinates("click('12')", 2, 2) == "click('12')"
    assert scale_coordinates("mouse_click(100, 50)", 1, 1) == "mouse_click(100, 50)"


def test_prompt_examples_are_valid_actions():
    import re

    for space in ("bid", "coord", "all"):
        help_text = action_help(space)
        examples = re.findall(r": ([a-z_]+\(.*\))$", help_text, re.M)
        assert len(examples) >= 8
        for ex in examples:
            assert classify_action(ex, None, space).valid, (space, ex)
        assert "{" not in system_prompt("axtree", space)


# -- UI-TARS --------------------------------------------------------------------------------------

VIEWPORT = (1280, 720)
IMAGE = CoordFrame(VIEWPORT, VIEWPORT, "image")
RELATIVE = CoordFrame(VIEWPORT, VIEWPORT, "relative")
SMART = CoordFrame(VIEWPORT, VIEWPORT, "smart_resize")

UITARS_IMAGE = {
    # reply: action, with coordinates in the screenshot's pixels
    "Thought: open the todo app\nAction: click(start_box='(235,512)')": "mouse_click(235, 512)",
    "Action: click(start_box='<|box_start|>(235,512)<|box_end|>')": "mouse_click(235, 512)",
    "Action: click(start_box='[100, 200, 300, 400]')": "mouse_click(200, 300)",
    "Action: click(point='<point>640 360</point>')": "mouse_click(640, 360)",
    "Action: click(start_box='<bbox>10 20 30 40</bbox>')": "mouse_click(20, 30)",
    "Action: right_single(start_box='(100,100)')": "mouse_click(100, 100, 'right')",
    "Action: hover(start_box='(10,10)')": "mouse_move(10, 10)",
    "Action: drag(start_box='(10,20)', end_box='(110,120)')": "mouse_drag_and_drop(10, 20, 110, 120)",
    "Action: type(content='Buy oat milk')": "keyboard_type('Buy oat milk')",
    "Action: type(content='Buy oat milk\\n')": "keyboard_type('Buy oat milk\\n')",
    "Action: type(content='It's done')": 'keyboard_type("It\'s done")',
    "Action: hotkey(key='ctrl c')": "keyboard_press('Control+c')",
    "Action: hotkey(key='enter')": "keyboard_press('Enter')",
    "Action: hotkey(key='ctrl shift T')": "keyboard_press('Control+Shift+t')",
    "Action: press(key='pagedown')": "keyboard_press('PageDown')",
    "Action: scroll(direction='down', point='(966, 546)')": "scroll_at(966, 546, 0, 500)",
    "Action: scroll(start_box='(966,546)', direction='up')": "scroll_at(966, 546, 0, -500)",
    "Action: scroll(direction='right')": "scroll_at(640, 360, 500, 0)",
    "Action: wait()": "noop(1000)",
    "Thought: all set.\nAction: finished(content='The item was added.')": "send_msg_to_user('The item was added.')",
    "Action: finished()": "send_msg_to_user('done')",
    "Action: call_user()": "report_infeasible('the agent asked the user for help (call_user)')",
    "Action: click(start_box='(100,100)')\n\nAction: type(content='x')": "mouse_click(100, 100)",
}
UITARS_RELATIVE = {
    # reply: action, with coordinates in thousandths of the viewport
    "Action: click(start_box='(500,500)')": "mouse_click(640, 360)",
    "Action: left_double(start_box='(500,250)')": "mouse_dblclick(640, 180)",
    "Action: scroll(start_box='(500,500)', direction='left')": "scroll_at(640, 360, -500, 0)",
}
UITARS = [(r, IMAGE, a) for r, a in UITARS_IMAGE.items()] + [(r, RELATIVE, a) for r, a in UITARS_RELATIVE.items()]


@pytest.mark.parametrize("reply,frame,action", UITARS)
def test_uitars_parser(reply, frame, action):
    parsed = parse_uitars(reply, frame)
    assert parsed.ok, parsed.error
    assert parsed.action == action
    assert classify_action(parsed.action, OBS, "coord").category in ("valid", "unknown_action")


def test_uitars_parser_keeps_thought_and_first_action():
    parsed = parse_uitars("Thought: first click\nAction: click(start_box='(1,2)')\n\ntype(content='x')", IMAGE)
    assert parsed.thought == "first click"
    assert parsed.action == "mouse_click(1, 2)"


@pytest.mark.parametrize(
    "reply,category",
    [
        ("Action: remove_item(start_box='(1,2)')", "unknown_action"),
        ("Action: click()", "unknown_action"),
        ("I cannot see the page.", "malformed"),
        ("Action: scroll(direction='sideways')", "unknown_action"),
    ],
)
def test_uitars_failures_are_counted_not_hidden(reply, category):
    parsed = parse_uitars(reply, IMAGE)
    assert not parsed.ok and parsed.error
    assert classify_action(parsed.action, OBS, "coord").category == category


def test_smart_resize_and_frames():
    assert smart_resize(720, 1280) == (728, 1288)
    h, w = smart_resize(2000, 4000, max_pixels=1000 * 28 * 28)
    assert h % 28 == 0 and w % 28 == 0 and h * w <= 1000 * 28 * 28
    h, w = smart_resize(20, 30)
    assert h * w >= 56 * 56
    # a UI-TARS-1.5 point in the resized frame lands on the same spot of the viewport
    x, y = SMART.to_viewport(644, 364)
    assert abs(x - 640) < 0.6 and abs(y - 360) < 0.6
    # a screenshot sent at half size: the model's pixels are twice as large
    half = CoordFrame(VIEWPORT, (640, 360), "image")
    assert half.to_viewport(320, 180) == (640, 360)
    # the scroll point is scaled, the wheel delta is not the point
    parsed = parse_uitars("Action: scroll(start_box='(500,500)', direction='down')", RELATIVE, scroll_amount=300)
    assert parsed.action == "scroll_at(640, 360, 0, 300)"


def test_point_and_key_helpers():
    assert parse_point("(1,2)") == (1.0, 2.0)
    assert parse_point("<|box_start|>(1.5, 2.5)<|box_end|>") == (1.5, 2.5)
    assert parse_point([0, 0, 10, 20]) == (5.0, 10.0)
    assert parse_point("(1,2,3)") is None
    assert hotkey_to_playwright("cmd+shift+z") == "Meta+Shift+z"
    assert hotkey_to_playwright("F5") == "F5"
