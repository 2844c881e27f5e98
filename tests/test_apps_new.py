"""``openapps apps new`` (docs/apps/spec.md, "Generating an app") against a real HTTP server on
127.0.0.1 that speaks the OpenAI chat-completions and the Anthropic messages APIs: the model's
broken app.yaml is answered with the format check's problems, its fixed one is checked by the
oracle on the text backend and only then written; a model that never gets it right writes nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from openapps_sim.cli.appcheck import episode_problems
from openapps_sim.cli.main import main
from tests.fake_llm_server import FakeLLMServer, request_texts

ROOT = Path(__file__).resolve().parent.parent

# a field of an unknown type, and a collection without its title field
BROKEN = """Here is the app:
```yaml
title: Plant Diary
category: House & Home
collections:
  plants:
    label: Plants
    fields:
      name: {type: text, required: true}
      room: {type: place}
      thirsty: {type: boolean, default: false}
    actions: {create: true, toggle: [thirsty]}
    records:
      - {name: Monstera, room: kitchen}
```
"""
FIXED = """title: Plant Diary
description: Water your houseplants on time.
category: House & Home
accent: "#15803d"
collections:
  plants:
    label: Plants
    item: plant
    title: name
    subtitle: room
    filter: room
    fields:
      name: {type: text, required: true}
      room: {type: choice, choices: [kitchen, bedroom, hall], default: kitchen}
      thirsty: {type: boolean, default: false}
    actions: {create: true, delete: true, toggle: [thirsty]}
    records:
      - {name: Monstera, room: kitchen}
      - {name: Fern, room: bedroom, thirsty: true}
      - {name: Cactus, room: hall}
"""
# passes the format check (and derives 9 families), but a collection without records leaves the
# oracle nothing to act on
EMPTY = """```yaml
title: Plant Diary
category: House & Home
collections:
  plants:
    label: Plants
    item: plant
    title: name
    filter: room
    fields:
      name: {type: text, required: true}
      room: {type: choice, choices: [kitchen, hall], default: kitchen}
      thirsty: {type: boolean, default: false}
    actions: {delete: true, edit: [room], toggle: [thirsty]}
```"""
# valid, but derives 4 task families (toggle, navigate, a sequence, a toggle then a todo)
TOO_FEW = """title: Tiny Notes
category: Productivity
collections:
  notes:
    label: Notes
    item: note
    title: name
    fields:
      name: {type: text, required: true}
      pinned: {type: boolean, default: false}
    actions: {toggle: [pinned]}
    records:
      - {name: Groceries}
      - {name: Ideas, pinned: true}
      - {name: Trip}
"""
TOO_FEW_PROBLEM = (
    "app.yaml: derives 4 task families ({0}.toggle_note_pinned, {0}.open_note, {0}.sequence, "
    "{0}.toggle_note_pinned_then_todo); an app needs at least 8; allowed: add what derives more: a field besides "
    "the title that every record fills in: a choice, a default (look a field up); actions.create: true on a "
    "collection (create a record; a todo to follow it up); actions.delete: true"
)
TYPE_PROBLEM = (
    "app.yaml: collections.plants.fields.room.type: unknown value 'place'; allowed: text, longtext, number, "
    "money, date, time, boolean, choice, rating, ref, icon"
)
TITLE_PROBLEM = "app.yaml: collections.plants.title: missing required key; allowed: a string"


def _config(tmp_path: Path, agent: str, url: str, more: str = "") -> str:
    path = tmp_path / f"{agent}.yaml"
    path.write_text(f"agent: {agent}\nmodel: fake\nbase_url: {url}\nrequire_api_key: false\nretries: 0\n{more}")
    return str(path)


def test_a_broken_answer_gets_its_problems_and_the_fixed_one_is_written(tmp_path, capsys):
    out = tmp_path / "myapps"
    written_before_round_2 = []

    def fixed(body: dict) -> str:
        written_before_round_2.append((out / "diaryhouseplants").exists())
        return f"```yaml\n{FIXED}```"

    with FakeLLMServer([BROKEN, fixed]) as server:
        config = _config(tmp_path, "openai", server.url + "/v1")
        code = main(["apps", "new", "a diary of my houseplants", "--agent-config", config, "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert len(server.requests) == 2 and written_before_round_2 == [False]
    first, second = (r["body"]["messages"] for r in server.requests)
    assert "a diary of my houseplants" in first[1]["content"][0]["text"]
    assert "'diaryhouseplants'" in first[1]["content"][0]["text"]
    assert "collections:" in first[0]["content"] and "Airwaves Radio" in first[0]["content"]  # format, example
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert server.requests[0]["body"]["max_tokens"] == 16000  # an app.yaml, not one action
    assert second[2]["content"] == BROKEN
    assert f"- {TYPE_PROBLEM}\n" in second[3]["content"] and f"- {TITLE_PROBLEM}\n" in second[3]["content"]
    assert "round 1/4: format check: 2 problems\n" in printed
    solved = re.search(
        r"round 2/4: format check passed; oracle: (\d+) / (\d+) episodes solved over (\d+) families\n", printed
    )
    assert solved, printed
    assert (out / "diaryhouseplants" / "app.yaml").read_text(encoding="utf-8") == FIXED
    assert main(["apps", "check", str(out / "diaryhouseplants")]) == 0
    listing = subprocess.run(
        [sys.executable, "-m", "openapps_sim.cli", "apps", "--json"],
        env={**os.environ, "OPENAPPS_APPS": str(out)},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    row = next(r for r in json.loads(listing.stdout) if r["name"] == "diaryhouseplants")
    assert (row["category"], row["source"]) == ("House & Home", "described")
    # every family derived from the app (the derivation may add more kinds than these six),
    # each solved by the oracle through the pages and through the app tools
    assert {
        "diaryhouseplants.count_plant",
        "diaryhouseplants.create_plant",
        "diaryhouseplants.delete_missing_plant",
        "diaryhouseplants.delete_plant",
        "diaryhouseplants.lookup_plant",
        "diaryhouseplants.toggle_plant_thirsty",
    } <= set(row["families"])
    n = len(row["families"])
    # through the tools too, but for the navigation family (pages only: the oracle says so there)
    pages_only = [f for f in row["families"] if f.startswith("diaryhouseplants.open_")]
    assert len(pages_only) == 1
    assert [int(g) for g in solved.groups()] == [2 * n - 1, 2 * n - 1, n]


@pytest.mark.parametrize("agent, base", [("openai", "/v1"), ("anthropic", "")])
def test_a_model_that_never_gets_it_right_writes_nothing(tmp_path, capsys, agent, base):
    out = tmp_path / "myapps"
    with FakeLLMServer([BROKEN, BROKEN]) as server:
        config = _config(tmp_path, agent, server.url + base, "max_tokens: 3000\n")
        argv = ["apps", "new", "a diary of my houseplants", "--agent-config", config, "--out", str(out)]
        code = main([*argv, "--name", "plants2", "--rounds", "2"])
    captured = capsys.readouterr()
    assert code == 1 and not out.exists(), captured
    assert len(server.requests) == 2
    assert "round 2/2: format check: 2 problems\n" in captured.out
    assert f"  {TITLE_PROBLEM}\n" in captured.out
    assert "no app written: round 2 of 2 still had 2 problems (above)" in captured.out
    last = request_texts(server.requests[1]["body"])
    assert any(TYPE_PROBLEM in text for text in last), last
    assert server.requests[0]["body"]["max_tokens"] == 3000  # as the config says
    if agent == "anthropic":
        roles = [m["role"] for m in server.requests[1]["body"]["messages"]]
        assert roles == ["user", "assistant", "user"] and "collections:" in server.requests[1]["body"]["system"]


def test_the_families_the_oracle_failed_are_the_next_message(tmp_path, capsys):
    out = tmp_path / "myapps"
    with FakeLLMServer([EMPTY, BROKEN]) as server:
        config = _config(tmp_path, "openai", server.url + "/v1")
        argv = ["apps", "new", "a diary of my houseplants", "--agent-config", config, "--out", str(out)]
        code = main([*argv, "--name", "plants3", "--rounds", "2"])
    printed = capsys.readouterr().out
    assert code == 1 and not out.exists(), printed
    assert re.search(
        r"round 1/2: format check passed; oracle: \d+ / \d+ episodes solved over \d+ families \(\d+ failed\)\n", printed
    )
    failed = [
        f"family plants3.{family} (seed 0, {interface}): reward 0.0, infrastructure: Infeasible: no plants record "
        "to choose from"
        for family in ("delete_plant", "toggle_plant_thirsty")
        for interface in ("gui", "api")
    ]
    message = server.requests[1]["body"]["messages"][-1]["content"]
    assert message.startswith("Your app.yaml has these problems:\n")
    assert all(f"- {line}\n" in message for line in failed), message
    assert "round 2/2: format check: 2 problems" in printed


@pytest.mark.parametrize(
    "flags, message",
    [
        ([], "openapps apps new: --agent-config: missing"),
        (["--rounds", "0"], "openapps apps new: --rounds: got '0'; allowed: a whole number from 1 to 20"),
        (["--name", "Plants"], "openapps apps new: --name: 'Plants' is no app name"),
        (["--name", "todo"], "openapps apps new: --name: 'todo' is the name of another app; allowed: a new name"),
        (
            ["--variation", "dark_theme+nopack"],
            "openapps apps new: --variation: unknown name 'nopack'; allowed: one of ",
        ),
        (["--seeds", "many"], "openapps apps new: --seeds: got 'many'; allowed: a whole number from 1 to 10"),
    ],
)
def test_bad_flags_are_one_config_error(tmp_path, capsys, flags, message):
    code = main(["apps", "new", "a diary of my houseplants", "--out", str(tmp_path), *flags])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"openapps: error: {message}") and len(err.splitlines()) == 1, err


def test_without_an_output_folder_the_search_path_is_asked_for(monkeypatch, capsys):
    monkeypatch.delenv("OPENAPPS_APPS", raising=False)
    assert main(["apps", "new", "a diary of my houseplants", "--agent-config", "gpt-4o"]) == 2
    assert "--out: no folder given and OPENAPPS_APPS is not set; allowed: --out DIR, or export OPENAPPS_APPS=DIR" in (
        capsys.readouterr().err
    )


def test_a_failed_oracle_episode_names_its_family_and_what_was_wrong(tmp_path):
    records = [
        {"episode_id": "a", "task": "plantdiary.create_plant", "seed": 0, "interface": "gui", "reward": 1.0},
        {
            "episode_id": "b",
            "task": "plantdiary.toggle_plant_thirsty",
            "seed": 1,
            "interface": "api",
            "reward": 0.0,
            "state_diff": ["plants: 'Fern' thirsty: expected true, got false"],
            "goal": "Mark 'Fern' as thirsty.",
        },
    ]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps({"v": 1, **r}) + "\n" for r in records), encoding="utf-8")
    problems, solved = episode_problems(results)
    assert problems == [
        "family plantdiary.toggle_plant_thirsty (seed 1, api): reward 0.0, state differs: plants: 'Fern' "
        "thirsty: expected true, got false, goal was \"Mark 'Fern' as thirsty.\""
    ]
    assert solved == "1 / 2 episodes solved over 2 families (1 failed)"


def test_an_agent_that_asks_no_model_is_refused(tmp_path, capsys):
    argv = ["apps", "new", "a diary of my houseplants", "--out", str(tmp_path), "--agent-config", "lexical"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.endswith("agents/configs/lexical.yaml: agent: 'lexical' asks no model; allowed: openai, anthropic\n")
    assert len(err.splitlines()) == 1


def test_the_model_is_told_every_key_of_the_format_and_an_example():
    from openapps_sim.config.discovery import app_guide

    guide = app_guide()
    for line in (
        "title: a string, required; the app's name on the start page and its top bar, in English",
        "  fields: a mapping of names to mappings with these keys, required; the fields of its records, in the order "
        "forms and detail pages show them",
        "    type: one of text, longtext, number, money, date, time, boolean, choice, rating, ref, icon, required; "
        "what the field holds",
        "    quantity: a string; a number field changed with - and + buttons",
        "  adjust: a list of mappings with these keys; numbers of referenced records the confirmed flow changes",
        "    sign: an integer from -1 to 1; -1 subtracts, 1 adds",
        "  setting.<name>, setting.<name>.<choice>; languages: ar, de, es, fr, it, zh.",
        "title: Airwaves Radio",
        "- The app must derive at least 8 task families: each action (create, edit, delete, toggle, star,",
    ):
        assert f"\n{line}\n" in guide, line
    assert "Weather, required; its Google Play category" in guide


def test_the_app_goes_to_the_first_folder_of_the_search_path(tmp_path, monkeypatch, capsys):
    first, second = tmp_path / "first", tmp_path / "second"
    (first / "plants4").mkdir(parents=True)
    monkeypatch.setenv("OPENAPPS_APPS", os.pathsep.join([str(first), str(second)]))
    assert main(["apps", "new", "a diary of my houseplants", "--name", "plants4", "--agent-config", "gpt-4o"]) == 2
    err = capsys.readouterr().err
    assert f"--out: {first / 'plants4'} exists already; allowed: a folder without an app of that name" in err


def test_a_description_that_derives_fewer_than_8_families_is_one_problem(tmp_path, capsys):
    """``openapps apps check`` and a round of ``openapps apps new`` both refuse an app with fewer
    than 8 task families: one problem naming app.yaml, the families and what derives more."""
    app = tmp_path / "tiny"
    app.mkdir()
    (app / "app.yaml").write_text(TOO_FEW, encoding="utf-8")
    assert main(["apps", "check", str(app)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"openapps: error: {app / TOO_FEW_PROBLEM.format('tiny')}"), err
    assert err.count("\n") == 1 and "flows: a two-step flow" in err, err  # one line
    assert "actions.toggle" not in err and "actions.star" not in err  # the app has a toggle
    out = tmp_path / "myapps"
    with FakeLLMServer([TOO_FEW, FIXED]) as server:
        config = _config(tmp_path, "openai", server.url + "/v1")
        argv = ["apps", "new", "my notes", "--agent-config", config, "--out", str(out), "--name", "tinier"]
        code = main([*argv, "--rounds", "2"])
    printed = capsys.readouterr().out
    assert code == 0 and "round 1/2: format check: 1 problems\n" in printed, printed
    message = server.requests[1]["body"]["messages"][-1]["content"]
    assert f"- {TOO_FEW_PROBLEM.format('tinier')}" in message, message


def test_every_shipped_described_app_derives_at_least_8_families():
    from openapps_sim.tasks.described import kit

    from openapps_sim.taskkit.registry import derived_families

    counts = {name: len(derived_families(name, desc)) for name, desc in kit.described_apps().items()}
    assert len(counts) == 58 and min(counts.values()) == 13 and min(counts, key=counts.get) == "coins"
