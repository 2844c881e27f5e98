"""A raw Gymnasium env under bad input (issue 42, point 10): a step before a successful reset says
so and a later reset works; what cannot be an action at all is refused before BrowserGym's
parser (quadratic on garbage) sees it; an action the checker cannot read is ``malformed`` with
its reason. Text backend, no browser."""

from __future__ import annotations

import random
import re

import gymnasium as gym
import pytest

import openapps_sim  # noqa: F401 - registers the env ids
from openapps_sim.envs.actions import MAX_ACTION_CHARS, classify_action
from openapps_sim.envs.apptools import check_action, parse_tool_call
from openapps_sim.envs.callscan import find_calls, python_code
from openapps_sim.envs.registration import make_env
from openapps_sim.envs.spaces import action_set

ENV_ID = "browsergym/openapps.todo.add_item"
RESET_NEEDED = "step() before a successful reset(): the last reset failed or none was made; call reset()"


@pytest.mark.parametrize("step_between", [True, False])
def test_a_failed_first_reset_then_steps_say_reset_needed_and_a_later_reset_works(step_between):
    env = gym.make(ENV_ID, backend="text")
    try:
        with pytest.raises(Exception, match="options.world"):
            env.reset(seed=1, options={"world": "not a world"})
        if step_between:
            with pytest.raises(gym.error.ResetNeeded) as err:
                env.step("noop()")
            assert str(err.value) == RESET_NEEDED
        obs, _ = env.reset(seed=1)
        assert obs["url"].endswith("/")
        for _ in range(2):
            obs, reward, terminated, truncated, _ = env.step("noop()")
            assert (reward, terminated, truncated, obs["last_action_error"]) == (0.0, False, False, "")
    finally:
        env.close()


def test_a_raw_env_says_reset_needed_before_any_reset_and_after_a_failed_one():
    env = make_env("todo.add_item", backend="text")
    try:
        with pytest.raises(gym.error.ResetNeeded, match="successful reset"):
            env.step("noop()")
        env.reset(seed=0)
        env.step("noop()")
        with pytest.raises(Exception, match="options.world"):
            env.reset(seed=0, options={"world": 3})
        with pytest.raises(gym.error.ResetNeeded, match="successful reset"):
            env.step("noop()")  # not a step of the episode before the failed reset
        env.reset(seed=0)
        assert env.step("noop()")[0]["last_action_error"] == ""
    finally:
        env.close()


def test_a_raw_env_refuses_what_cannot_be_an_action_before_parsing_it():
    env = make_env("todo.add_item", backend="text")
    try:
        env.reset(seed=0)
        cases = [
            ("x" * 13_000, "<>", "ValueError: the action is 13000 characters long; at most 12000 are accepted"),
            (42, "<int>", "ValueError: the action must be a string, got int"),
            ("click('1\x00')", "click('1\x00')", "ValueError: the action has a NUL character (at character 9)"),
            (
                "fill('1', '\udc80')",
                "fill('1', '\\udc80')",
                "ValueError: the action is not valid text (a lone surrogate at character 12)",
            ),
        ]
        for n, (action, shown, error) in enumerate(cases, start=1):
            obs, reward, terminated, truncated, _ = env.step(action)
            assert obs["last_action_error"] == error
            if shown != "<>":
                assert obs["last_action"] == shown
            else:
                assert obs["last_action"] == "x" * 200 + "… (13000 characters)"
            assert env.unwrapped.steps_taken == n  # a step, counted as any failed action
        # Python's parser raises MemoryError on a few thousand bare words: the env does not; text
        # with no call in it gets BrowserGym's own answer without its (quadratic) parser
        for garbage in (" ".join(["w"] * 1500), "x" * 11_000, "字" * 11_000):
            obs, *_ = env.step(garbage)
            assert obs["last_action_error"] == "ValueError: Received an empty action."
            assert obs["last_action"] == garbage
        # with a call in it, BrowserGym's parser still finds it in any text around (not strict)
        obs, *_ = env.step("x" * 2000 + " click('nope') " + "y" * 2000)
        assert obs["last_action_error"] == 'ValueError: Could not find element with bid "nope"'
    finally:
        env.close()


def test_the_action_cap_is_twice_the_longest_field():
    assert MAX_ACTION_CHARS == 12_000
    fill = "fill('12', '" + "字" * (12_000 - 14) + "')"
    assert len(fill) == 12_000 and classify_action(fill, None, "bid").valid
    over = fill[:-2] + "x')"
    assert (
        classify_action(over, None, "bid").message == "the action is 12001 characters long; at most 12000 are accepted"
    )


# Which exception Python's parser gives up with depends on its version: the verdict does not.
PARSER = "not a Python call ("


@pytest.mark.parametrize(
    "action,message",
    [
        (" ".join(["w"] * 1500), PARSER),  # 3.11: MemoryError
        (" ".join(["字"] * 1500), PARSER),
        (".".join(["a"] * 3000) + "()", PARSER),  # 3.11: RecursionError
        ("click(" + "-" * 3000 + "1)", PARSER),
        ("(" * 300 + ")" * 300, PARSER),
        ("\x00", "the action has a NUL character (at character 1)"),
        (None, "the action must be a string, got NoneType"),
    ],
)
def test_the_checker_judges_every_text_and_raises_nothing(action, message):
    for interface in ("gui", "api", "mixed"):
        check = check_action(action, None, "bid", 1, interface)
        assert check.category in ("malformed", "unknown_action")
    check = classify_action(action, None, "bid")
    assert check.category == "malformed" and check.message.startswith(message)
    if isinstance(action, str):
        assert parse_tool_call(action) is None


def test_several_actions_are_split_where_python_splits_them():
    """A line separator inside a string is not a new line for Python: the second action is one
    call (it used to be cut at U+2028 and called malformed)."""
    check = classify_action("click('1')\nfill('2', 'a\u2028b')", None, "bid", max_actions=2)
    assert check.valid and check.name == "click"


def _random_texts(n: int, seed: int) -> list[str]:
    """Text mixing calls, near-calls, strings, comments, digits, Latin-1 and other letters."""
    rng = random.Random(seed)
    pieces = [
        "click('12')",
        "fill('3', \"a b\")",
        "noop()",
        "x",
        "ab",
        "9",
        "é",
        "·",
        "字",
        " ",
        "  ",
        "\n",
        "\t",
        "(",
        ")",
        "'",
        '"',
        ",",
        "=",
        "[",
        "]",
        "{",
        "}",
        ":",
        "#",
        "# c\n",
        "send_msg_to_user('hi')",
        "scroll(0, -5)",
        "f(a=1)",
        "g(1, [2, 'x'], {'k': None})",
        "True",
        "h (",
        "k\t(",
        "1e5",
        "-",
        "\\",
    ]
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 30))) for _ in range(n)]


def test_the_linear_reading_finds_what_browsergyms_search_finds():
    from browsergym.core.action.parsers import highlevel_action_parser

    texts = _random_texts(500, 42) + ["x" * 300 + " click('1')", "9click('1')", "click # note\n('1')", "", "()"]
    for text in texts:
        try:
            want = sum(highlevel_action_parser.search_string(text).as_list(), [])
        except Exception as e:  # noqa: BLE001 - the same exception, then
            with pytest.raises(type(e)):
                find_calls(text)
            continue
        assert find_calls(text) == want, text


def test_the_linear_reading_gives_browsergyms_python_code():
    for multi in (False, True):
        actions = action_set("bid", multiaction=multi)
        for text in _random_texts(150, 7):
            try:
                want = actions.to_python_code(text)
            except Exception as e:  # noqa: BLE001
                with pytest.raises(type(e), match=re.escape(str(e))):
                    python_code(actions, text)
                continue
            assert python_code(actions, text) == want


def test_the_text_backends_reading_of_one_plain_call_is_both_of_browsergyms():
    """``click('12')`` and its kind are read without the grammar: the same calls either way."""
    from browsergym.core.action.parsers import highlevel_action_parser

    from openapps_sim.envs.text.actions import _ONE_PLAIN_CALL, _parsed

    rng = random.Random(5)
    texts = ["click('12')", 'click("a-1.b_")', "None('')", "_f('x')", "click('1') ", "click('1',)", "fill('1', 'x')"]
    for _ in range(400):
        quote = rng.choice("'\"")
        inner = "".join(rng.choices("'\"ab9_.- \\,", k=rng.randint(0, 4)))
        texts.append(rng.choice(["click", "x9", "_"]) + "(" + quote + inner + quote + rng.choice([")", ") ", ""]))
    plain = [t for t in texts if _ONE_PLAIN_CALL.fullmatch(t)]
    assert len(plain) > 10
    for text in plain:
        want = highlevel_action_parser.parse_string(text, parse_all=True).as_list()
        assert _parsed.__wrapped__(text, True) == want == find_calls(text) == _parsed.__wrapped__(text, False), text
