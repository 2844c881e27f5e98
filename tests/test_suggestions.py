"""Did you mean, and every problem at once (issue 40, point 5): an unknown name gets the few
closest allowed names from one helper (:func:`openapps_sim.errors.unknown_name`), a long list is
named by the command that lists it, and an input with several problems raises them all as one
:class:`~openapps_sim.errors.ConfigErrors`, one line each, on the command line (test_bad_inputs),
through ``gym.make``, in agent configs and over MCP (the SDK's own client)."""

from __future__ import annotations

import pickle

import pytest

from openapps_sim.errors import (
    ConfigError,
    ConfigErrors,
    Problems,
    allowed_names,
    close_names,
    did_you_mean,
    unknown_key,
    unknown_name,
)

from .mcp_play import error_of, memory_server, run


# -- the helper -------------------------------------------------------------------------------------
def test_close_names_are_few_closest_first_and_ignore_case():
    ids = ["todo.add_item", "todo.edit_item", "todo.mark_done", "calendar.add_event", "maps.distance_km"]
    assert close_names("todo.add_iten", ids) == ["todo.add_item", "todo.edit_item"]
    assert close_names("TODO.ADD_ITEM", ids) == ["todo.add_item", "todo.edit_item"]
    assert close_names("calender.add_event", ids) == ["calendar.add_event"]
    assert close_names("xyz", ids) == []
    assert did_you_mean("dark_them", ["dark_theme", "german"]) == " (did you mean dark_theme?)"
    assert did_you_mean("a", ["b"]) == ""
    assert did_you_mean("abcd", ["abce", "abcf", "abcg", "abch"]) == " (did you mean abce, abcf or abcg?)"


def test_a_long_list_is_named_by_its_listing_a_short_one_is_shown_whole():
    many = [f"pack{i:02d}" for i in range(13)]
    assert allowed_names(many, ["random-<seed>"], "openapps variations", "packs") == (
        "one of 13 packs or random-<seed>; openapps variations lists them"
    )
    assert allowed_names(many[:12], ["random-<seed>"], "openapps variations", "packs") == (
        "pack00, pack01, pack02, pack03, pack04, pack05, pack06, pack07, pack08, pack09, pack10, pack11, random-<seed>"
    )
    assert allowed_names(many) == ", ".join(many)  # no listing: the list, however long
    assert allowed_names(["gui", "api", "mixed"], keep_order=True) == "gui, api, mixed"
    error = unknown_name("spec.yaml", "tasks[0]", "pack1", many, listing="openapps variations", noun="packs")
    assert str(error) == (
        "spec.yaml: tasks[0]: unknown name 'pack1' (did you mean pack01, pack10 or pack11?); "
        "allowed: one of 13 packs; openapps variations lists them"
    )
    assert str(unknown_key("cfg.yaml", "modle", "modle", ["model", "seed"], what="option")) == (
        "cfg.yaml: modle: unknown option (did you mean model?); allowed: model, seed"
    )


def test_problems_raise_nothing_one_error_or_all_of_them():
    problems = Problems()
    problems.raise_any()  # nothing found: nothing raised
    assert problems.check(int, "7") == 7

    def bad(key: str) -> int:
        raise ConfigError("spec.yaml", key, "wrong")

    assert problems.check(bad, "a", default=-1) == -1
    with pytest.raises(ConfigError) as one:
        problems.raise_any()
    assert type(one.value) is ConfigError and str(one.value) == "spec.yaml: a: wrong"
    with problems.guard():
        bad("b")
    problems.add(ConfigError("spec.yaml", "a", "wrong"))  # found twice, reported once
    with pytest.raises(ConfigErrors) as both:
        problems.raise_any()
    assert str(both.value) == "spec.yaml: a: wrong\nspec.yaml: b: wrong"
    assert (both.value.source, both.value.path, both.value.problem) == ("spec.yaml", "a", "wrong")
    again = pickle.loads(pickle.dumps(both.value))  # crosses to and from worker processes
    assert isinstance(again, ConfigErrors) and str(again) == str(both.value)


def test_a_flood_of_problems_shows_the_first_twenty_and_a_count():
    errors = ConfigErrors([ConfigError("spec.yaml", f"seeds[{i}]", "expected a whole number") for i in range(25)])
    lines = str(errors).splitlines()
    assert len(lines) == 21 and lines[-1] == "spec.yaml: ... and 5 more problems"
    assert len(errors.each()) == 25


# -- gym.make and agent configs ----------------------------------------------------------------------
def test_task_kwargs_report_every_problem_with_suggestions():
    from openapps_sim.envs.registration import make_env

    with pytest.raises(ConfigErrors) as caught:
        make_env("todo.add_item", task_kwargs={"variaton": "german", "seed": -1, "style": "plian"}, backend="text")
    assert str(caught.value).splitlines() == [
        "task_kwargs: variaton: unknown key (did you mean variation or termination?); allowed: variation, seed, "
        "language, overrides, family, style, viewport, live, start_path, termination",
        "task_kwargs: style: unknown style 'plian' (did you mean plain?); allowed: plain, casual, context",
        "task_kwargs: seed: expected a whole number >= 0, got -1; allowed: 0, 1, 2, ... 4294967295 (2**32 - 1)",
    ]


def test_an_agent_config_reports_every_option_problem(tmp_path):
    from openapps_sim.agents import load_agent_config

    path = tmp_path / "cfg.yaml"
    path.write_text("agent: lexical\nmax_app: 2\nstop_mesage: done\n", encoding="utf-8")
    with pytest.raises(ConfigErrors) as caught:
        load_agent_config(path)
    assert str(caught.value).splitlines() == [
        f"{path}: max_app: unknown option (did you mean max_apps?); allowed: max_apps, stop_message",
        f"{path}: stop_mesage: unknown option (did you mean stop_message?); allowed: max_apps, stop_message",
    ]


def test_a_world_spec_reports_every_field():
    from openapps_sim.config.world import WorldSpec

    with pytest.raises(ConfigErrors) as caught:
        WorldSpec.make("reset", "germn+dark_them", 2**32, "dee", languages=["en", "de"])
    lines = str(caught.value).splitlines()
    assert len(lines) == 4, lines
    assert lines[0].startswith("reset: variation: unknown name 'germn' (did you mean german?); allowed: one of ")
    assert lines[1].startswith("reset: variation: unknown name 'dark_them' (did you mean dark_theme?)")
    assert lines[2].startswith("reset: seed: expected a whole number < 2**32, got 4294967296")
    assert lines[3] == "reset: language: unknown language 'dee' (did you mean de?); allowed: en, de, auto"


# -- MCP, through the SDK's own client ---------------------------------------------------------------
def test_mcp_reset_with_a_misspelt_task_gets_the_closest_ids_briefly():
    async def main():
        async with memory_server() as (_server, client):
            text = error_of(await client.call_tool("reset", {"task": "todo.add_iten", "backend": "text"}))
            assert text.startswith(
                "reset: task: unknown name 'todo.add_iten' (did you mean todo.add_item, todo.add_count_open or "
                "todo.edit_item?); allowed: one of "
            ), text
            assert text.endswith(" task ids; openapps tasks (MCP: list_tasks) lists them") and len(text) < 300
            text = error_of(await client.call_tool("reset", {"task": "todo.add_item", "variation": "darktheme"}))
            assert text.startswith("reset: variation: unknown name 'darktheme' (did you mean dark_theme?)"), text
            text = error_of(await client.call_tool("observe", {"mode": "txt"}))
            assert text == "observe: mode: unknown mode 'txt' (did you mean text?); allowed: text, screenshot, both"

    run(main)


def test_mcp_reset_reports_every_bad_argument_in_one_error_result():
    async def main():
        async with memory_server() as (_server, client):
            args = {"task": "todo.add_iten", "variation": "germn", "seed": -1, "backend": "txt"}
            result = await client.call_tool("reset", args)
            assert len(result.content) == 1
            lines = error_of(result).splitlines()
            assert len(lines) == 4, lines
            assert lines[0].startswith("reset: task: unknown name 'todo.add_iten' (did you mean todo.add_item")
            assert lines[1].startswith("reset: variation: unknown name 'germn' (did you mean german?)")
            assert lines[2].startswith("reset: seed: expected a whole number >= 0, got -1")
            assert lines[3] == "reset: backend: unknown backend 'txt' (did you mean text?); allowed: chromium, text"

    run(main)
