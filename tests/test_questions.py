"""Perception questions (docs/questions.md): generation from a world's state and pages, the
file format, the strict reading of answers, the oracle, the random chooser, an LLM agent through
a real HTTP server, and the command line. Text backend only."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from openapps_sim.agent import Agent
from openapps_sim.analysis.questions.answer import parse_choice
from openapps_sim.analysis.questions.generate import default_packs, generate, question_apps
from openapps_sim.analysis.questions.kinds import CONCEPTS
from openapps_sim.analysis.questions.options import choose_options, same
from openapps_sim.analysis.questions.qfile import read_questions, write_questions
from openapps_sim.analysis.questions.registry import all_kinds
from openapps_sim.analysis.questions.run import make_chooser, run_questions
from openapps_sim.cli.main import main

from .fake_llm_server import FakeLLMServer, request_texts

APPS = ["todo", "banking", "habits", "shop", "calendar", "messenger"]
TODO_DONE = {"Call the dentist to reschedule", "Return library books"}  # apps/todo/content.yaml
TODO_OPEN = {
    "Buy groceries for the week",
    "Water the plants",
    "Finish the quarterly report",
    "Book train tickets to Lyon",
    "Pay the electricity bill",
    "Plan the team offsite",
}


@pytest.fixture(scope="module")
def questions():
    """Every kind over six apps (hand-built and described), in English and German."""
    return generate(["default", "german"], [0], apps=APPS)


@pytest.fixture(scope="module")
def every_app():
    """Every app of the default world, every kind but the one that opens further pages."""
    kinds = [k for k in all_kinds() if k != "link_target"]
    return generate(["default"], [0], kinds=kinds)


def _by(qs, pack: str, app: str, kind: str):
    return next(q for q in qs if (q.pack, q.app, q.kind) == (pack, app, kind))


def _right(q) -> str:
    return q.options[q.answer]


def test_generation_is_deterministic_per_seed():
    one = [q.as_dict() for q in generate(["default"], [0], apps=["banking", "todo"])]
    two = [q.as_dict() for q in generate(["default"], [0], apps=["banking", "todo"])]
    other = [q.as_dict() for q in generate(["default"], [1], apps=["banking", "todo"])]
    assert one == two and len(one) > 10
    assert [q["options"] for q in one] != [q["options"] for q in other]  # the seed draws the worlds' records


def test_every_app_gets_questions_and_the_shipped_packs_give_over_a_thousand(every_app):
    assert sorted({q.app for q in every_app}) == sorted(question_apps())
    assert len(question_apps()) == 64  # the start page (the launcher) is no app of its own
    assert len(default_packs()) == 31  # the shipped packs but live interruptions and pop-ups
    # one world gives at least 380 without link_target (its 60-odd questions aside): 31 x 380 > 1,000
    assert len(every_app) >= 380
    assert all(q.concept in CONCEPTS for q in every_app)


def test_each_kind_answers_from_the_state_and_page(questions):
    q = _by(questions, "default", "todo", "app_name")
    assert _right(q) == "Todo"
    assert _right(_by(questions, "default", "todo", "heading")) == "My tasks"
    assert _right(_by(questions, "default", "todo", "entry_count")) == "8"
    assert _right(_by(questions, "default", "todo", "marked_count")) == "2"
    assert _right(_by(questions, "default", "todo", "marked")) in TODO_DONE
    assert _right(_by(questions, "default", "shop", "badge")) == "0"
    assert _right(_by(questions, "default", "banking", "selected_sort")) == "Date"
    pos = _by(questions, "default", "todo", "entry_position")
    assert _right(pos) == {"first": "Buy groceries for the week", "last": "Plan the team offsite"}[pos.subject["end"]]
    act = _by(questions, "default", "todo", "button_action")
    done = act.subject["title"] in TODO_DONE
    assert _right(act) == ("turns 'done' off" if done else "turns 'done' on")
    ctl = _by(questions, "default", "todo", "control_type")
    expected = {"Edit": "a link", "Delete": "a button", "Mark done": "a button", "Mark not done": "a button"}
    prefix = ctl.subject["name"].split(":")[0]
    assert _right(ctl) == expected.get(prefix, {"Home": "a link", "Add": "a button"}.get(prefix))
    assert _right(_by(questions, "german", "todo", "marked_count")) == "2"


def test_a_link_target_names_the_page_it_opens(questions):
    q = _by(questions, "default", "shop", "link_target")
    # the shop's product links are named "<product> <rating> (<reviews>) <price>"; the product's page is headed by its name
    assert q.subject["path"].startswith("/shop/product/")
    assert q.subject["name"].startswith(_right(q) + " ") and len(_right(q)) > 5


def test_distractors_are_of_the_same_type_and_never_also_true(questions):
    for q in questions:
        assert 3 <= len(q.options) <= 5
        assert sum(same(o, _right(q)) for o in q.options) == 1, q.id
    for q in (q for q in questions if (q.pack, q.app, q.kind) == ("default", "todo", "marked")):
        assert not TODO_DONE.intersection(o for i, o in enumerate(q.options) if i != q.answer)
        assert set(q.options) - {_right(q)} <= TODO_OPEN
    for q in (q for q in questions if q.kind in ("entry_count", "marked_count", "badge")):
        assert all(o.isdigit() for o in q.options)
    for q in (q for q in questions if q.kind == "control_type" and _right(q) == "a search field"):
        assert "a text field" not in q.options  # a search field is a text field too


def test_state_kinds_ask_only_about_entries_the_page_shows_with_a_button(questions):
    state_kinds = ("marked", "marked_count", "button_action")
    # the habits app's home page draws cards with no button per entry: nothing to see the state by
    assert not [q for q in questions if q.app == "habits" and q.kind in state_kinds]
    assert sorted(q.kind for q in questions if q.app == "todo" and q.pack == "default" and q.kind in state_kinds) == [
        "button_action",
        "marked",
        "marked_count",
    ]


def test_options_leave_out_what_reads_as_the_answer():
    import random

    options, answer = choose_options(random.Random(0), "Buy milk", ["buy MILK.", "Eggs", "Tea", "eggs"], 4)
    assert options[answer] == "Buy milk" and sorted(options) == ["Buy milk", "Eggs", "Tea"]
    assert choose_options(random.Random(0), "x", ["X", "y"], 4) is None  # too few that are certainly wrong


@pytest.mark.parametrize(
    "reply, choice",
    [
        ("B", 1),
        ("b.", 1),
        ("(C)", 2),
        ("Answer: A", 0),
        ("**D**", 3),
        ("Todo", 0),
        ("A or B", None),
        ("A, B", None),
        ("I think it is B", None),
        ("E", None),
        ("", None),
    ],
)
def test_an_answer_is_one_letter_or_one_option(reply, choice):
    assert parse_choice(reply, ["Todo", "Maps", "Shop", "Stride"]) == choice


def test_the_oracle_answers_every_question(questions, every_app, tmp_path):
    sample = questions + every_app[::9]
    result = run_questions(sample, make_chooser("oracle"), tmp_path / "oracle")
    assert result["accuracy"] == 1.0 and result["unanswered"] == 0
    assert result["spread"][0]["within_std"] == 0.0 and result["spread"][0]["across_std"] == 0.0


def test_the_random_chooser_scores_near_chance(questions, tmp_path):
    result = run_questions(questions, make_chooser("random", seed=0), tmp_path / "random")
    assert result["n"] == 78
    assert result["chance"] == 0.2564  # 72 questions of four options, 6 of three: 20 / 78
    assert result["accuracy"] == 0.2692  # 21 of 78 right
    rows = [json.loads(line) for line in (tmp_path / "random" / "answers.jsonl").read_text().splitlines()]
    assert len(rows) == 78 and {r["agent"] for r in rows} == {"random"}
    assert set(result["by_pack"]) == {"default", "german"} and result["spread"][0]["n_versions"] == 2


def _reader(body: dict) -> str:
    """A stand-in model that reads the prompt: the letter of the option the page's tree names."""
    text = "\n".join(request_texts(body))
    tree = text.split("as its accessibility tree:", 1)[1].split("\n\n", 1)[0]
    for letter, option in re.findall(r"^([A-E])\. (.+)$", text, re.MULTILINE):
        if f"'{option}'" in tree:
            return letter
    return "no idea"


def _config(tmp_path: Path, server: FakeLLMServer) -> Path:
    path = tmp_path / "model.yaml"
    path.write_text(
        f"agent: openai\nmodel: m\nbase_url: {server.url}/v1\nrequire_api_key: false\nretries: 0\nbackoff: 0\n",
        encoding="utf-8",
    )
    return path


def test_an_llm_agent_answers_through_its_http_client(questions, tmp_path):
    asked = [q for q in questions if q.kind == "app_name"]
    with FakeLLMServer(default=_reader) as server:
        result = run_questions(asked, make_chooser("openai", str(_config(tmp_path, server))), tmp_path / "llm")
    assert len(server.requests) == len(asked) == 12
    first = "\n".join(request_texts(server.requests[0]["body"]))
    assert "RootWebArea" in first and "A. " in first and "Which app is this page from?" in first
    assert result["accuracy"] == 1.0
    with FakeLLMServer(default="A or B") as server:  # a hedge is no answer
        hedged = run_questions(asked, make_chooser("openai", str(_config(tmp_path, server))), tmp_path / "hedge")
    assert hedged["accuracy"] == 0.0 and hedged["unanswered"] == 12


def test_the_command_line_end_to_end(tmp_path, capsys):
    qfile = tmp_path / "q.jsonl"
    assert main(["questions", "generate", "--packs", "default", "--apps", "todo", "shop", "--out", str(qfile)]) == 0
    out = capsys.readouterr().out
    n = sum(1 for _ in qfile.open())
    assert f"wrote {n} questions" in out and n >= 12
    assert main(["questions", "run", "--questions", str(qfile), "--agent", "oracle", "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert f"oracle: {n} questions, accuracy 100.0%" in out
    summary = json.loads((tmp_path / "o" / "questions.json").read_text())
    assert summary["accuracy"] == 1.0 and set(summary["by_app"]) == {"todo", "shop"}
    assert (tmp_path / "o" / "questions.md").read_text().startswith("# Perception questions: oracle")


def _bad(tmp_path, capsys, lines: list[str]) -> str:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["questions", "run", "--questions", str(path), "--agent", "oracle", "--out", str(tmp_path / "o")]) == 2
    return capsys.readouterr().err


GOOD = {
    "id": "default/0/todo/app_name",
    "kind": "app_name",
    "concept": "identification",
    "app": "todo",
    "pack": "default",
    "seed": 0,
    "url": "/todo/",
    "family": "maps.save_place",
    "question": "Which app is this page from?",
    "options": ["Maps", "Todo", "Shop"],
    "answer": 1,
    "subject": {},
}


@pytest.mark.parametrize(
    "change, expected",
    [
        (None, "bad.jsonl:2: not JSON"),
        ({"kind": "colour"}, "bad.jsonl:1: kind: unknown kind 'colour'; allowed: app_name, badge"),
        ({"answer": 3}, "bad.jsonl:1: answer: 3 is not an option's index; allowed: 0 to 2"),
        ({"options": ["Todo", "Maps"]}, "bad.jsonl:1: options: 2 options; allowed: 3 to 5 non-empty strings"),
        ({"seed": "0"}, "bad.jsonl:1: seed: expected an integer, got '0'; allowed: an integer"),
        ({"url": "todo"}, "bad.jsonl:1: url: 'todo' is not a path of the world"),
        ({"pack": "dark_themes"}, "bad.jsonl:1: pack: unknown name 'dark_themes' (did you mean dark_theme?)"),
        ({"app": "todos"}, "bad.jsonl:1: app: unknown app 'todos' (did you mean todo?)"),
    ],
)
def test_a_bad_questions_file_is_one_message(tmp_path, capsys, change, expected):
    lines = [json.dumps({**GOOD, **(change or {})})] + (["{not json"] if change is None else [])
    err = _bad(tmp_path, capsys, lines)
    assert expected in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_command_line_input_is_one_message(tmp_path, capsys):
    out = str(tmp_path / "q.jsonl")
    assert main(["questions", "generate", "--apps", "todoo", "--out", out]) == 2
    assert "--apps: unknown app 'todoo' (did you mean todo?)" in capsys.readouterr().err
    assert main(["questions", "generate", "--kinds", "colour", "--out", out]) == 2
    assert "--kinds: unknown kind 'colour'; allowed: app_name" in capsys.readouterr().err
    write_questions(Path(out), [])
    assert main(["questions", "run", "--questions", out, "--agent", "oracle", "--out", str(tmp_path / "o")]) == 2
    assert "holds no question" in capsys.readouterr().err
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    args = [
        "questions",
        "run",
        "--questions",
        str(path),
        "--agent",
        "openai",
        "-o",
        "obs_mode=screenshot",
        "-o",
        "action_space=coord",
    ]
    assert main([*args, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path / "s")]) == 2
    assert "--backend: text: agent 'openai' reads screenshots only" in capsys.readouterr().err
    assert len(read_questions(path)) == 1


def test_counts_per_kind_in_one_world(every_app):
    counts = Counter(q.kind for q in every_app)
    assert counts["app_name"] == 64 and counts["control_type"] == 64 and counts["region"] == 64
    assert counts["heading"] == 64 and counts["badge"] == 1


@pytest.mark.browser
def test_on_chromium_a_vision_agent_gets_the_screenshot(questions, tmp_path):
    from .fake_llm_server import request_images

    asked = [q for q in questions if q.kind == "app_name" and q.pack == "default"][:2]
    oracle = run_questions(asked, make_chooser("oracle"), tmp_path / "oracle", backend="chromium")
    assert oracle["accuracy"] == 1.0
    with FakeLLMServer(default="A") as server:
        chooser = make_chooser(
            "openai",
            None,
            {
                "model": "m",
                "base_url": server.url + "/v1",
                "require_api_key": False,
                "obs_mode": "screenshot",
                "action_space": "coord",
            },
        )
        run_questions(asked, chooser, tmp_path / "vision", backend="chromium")
    images = [request_images(r["body"]) for r in server.requests]
    assert len(images) == 2 and all(len(i) == 1 and i[0][:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert not any("RootWebArea" in t for r in server.requests for t in request_texts(r["body"]))


class AnswersB(Agent):
    """Any agent that is not an LLM's client: it answers through its action, reading the goal."""

    name = "answers-b"

    def reset(self, goal, task_info=None, seed=0):
        self.goal = goal

    def act(self, obs):
        assert obs["goal"] == self.goal and "A. " in self.goal and obs["axtree_object"]["nodes"]
        return "send_msg_to_user('B')"


def test_any_other_agent_answers_through_its_action(questions, tmp_path):
    asked = [q for q in questions if q.pack == "default" and q.app == "todo"]
    result = run_questions(asked, make_chooser("tests.test_questions:AnswersB"), tmp_path / "b")
    assert result["unanswered"] == 0 and result["n"] == len(asked) == 9
    assert [q.answer for q in asked].count(1) == 2 and result["accuracy"] == 0.2222  # B is right twice in nine
