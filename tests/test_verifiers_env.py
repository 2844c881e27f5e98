"""The verifiers environment (environments/openapps) run by verifiers' own `vf-eval` against a
real OpenAI-compatible HTTP server on 127.0.0.1 (tests/fake_llm_server.py), with the rewards
it reports. verifiers lives in .venv-verifiers, which `make test` installs (the Makefile says
why it is a venv of its own); without it this test fails saying why, it never skips.

The model is :class:`~tests.fake_llm_server.ConversationReader`: it reads each observation of
the conversation as the project's stand-in model reads a prompt, and plays todo.add_item right,
except where the goal names 'Defrost the freezer' (seed 0): there it adds 'Defrost the fridge'
and declares the task done, which the environment's full-state reward scores 0.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
from collections import defaultdict
from pathlib import Path

import pytest

from .fake_llm_server import ConversationReader, FakeLLMServer

ROOT = Path(__file__).resolve().parent.parent
VF_VENV = ROOT / ".venv-verifiers"
VF_LOG = ROOT / ".venv-verifiers.log"


def vf_eval() -> Path:
    """verifiers' `vf-eval` from .venv-verifiers (OPENAPPS_VF_EVAL names another)."""
    path = Path(os.environ.get("OPENAPPS_VF_EVAL") or VF_VENV / "bin" / "vf-eval")
    if path.exists() and (os.environ.get("OPENAPPS_VF_EVAL") or (VF_VENV / ".installed-stamp").exists()):
        return path
    said = VF_LOG.read_text(errors="replace")[-3000:] if VF_LOG.exists() else "(no install log: run `make test`)"
    pytest.fail(
        f"verifiers is not installed: {path} is missing. `make test` installs verifiers, this package and "
        f"environments/openapps into {VF_VENV.name} (the Makefile's VF_STAMP); its install log {VF_LOG.name} "
        f"ends with:\n{said}"
    )


def run_vf_eval(tmp_path: Path, server: FakeLLMServer, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(tmp_path), COLUMNS="100", OPENAPPS_FAKE_KEY="sk-fake")
    command = [
        str(vf_eval()),
        "openapps",
        *args,
        "-m",
        "fake-model",
        "--client.base-url",
        server.url + "/v1",
        "--client.api-key-var",
        "OPENAPPS_FAKE_KEY",
        "--no-push",
        "-o",
        str(tmp_path / "out"),
    ]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=540)


def test_vf_eval_reports_the_full_state_reward_of_each_rollout(tmp_path):
    with FakeLLMServer(default=ConversationReader(spoil={"Defrost the freezer": "Defrost the fridge"})) as server:
        done = run_vf_eval(
            tmp_path, server, "--env.taskset.tasks", "todo.add_item", "--env.taskset.seeds", "0", "1", "2", "-r", "2"
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # what vf-eval printed: its dashboard's summary of the 3 instances x 2 rollouts
    printed = done.stdout
    assert "6/6" in printed and "reward 0.67" in printed, printed
    assert "openapps_reward 0.67" in printed and "success 0.67" in printed, printed
    # and what it wrote: one episode per rollout, grouped by instance
    (run,) = (tmp_path / "out").iterdir()
    episodes = [json.loads(line) for line in (run / "traces.jsonl").read_text().splitlines()]
    rewards, ended = defaultdict(list), set()
    for episode in episodes:
        (trace,) = episode["traces"]
        rewards[episode["task"]["data"]["name"]].append(trace["rewards"]["openapps_reward"]["score"])
        ended.add(trace["info"]["openapps"]["ended"])
        assert episode["ok"] and not episode["errors"]
    assert {name: sorted(values) for name, values in rewards.items()} == {
        "todo.add_item/default/0": [0.0, 0.0],
        "todo.add_item/default/1": [1.0, 1.0],
        "todo.add_item/default/2": [1.0, 1.0],
    }
    assert ended == {"task"}  # every episode ended by the environment, not cut off
    spoiled = next(e for e in episodes if e["task"]["data"]["seed"] == 0)["traces"][0]
    assert spoiled["info"]["openapps"]["explanation"] == (
        "2 state difference(s):\n  todo.items: missing todo 'defrost the freezer'\n  todo.items: extra todo 'defrost the fridge'"
    )
    # the model was asked over HTTP once per step: 3 steps for each good rollout (open the app,
    # fill, add) and 4 for each spoiled one (and its declaration), each with the whole conversation
    assert len(server.requests) == 4 * 3 + 2 * 4
    first = server.requests[0]["body"]
    assert first["model"] == "fake-model"
    assert first["messages"][0]["role"] == "system" and "<action>" in first["messages"][0]["content"]
    assert first["messages"][1]["content"].startswith("Task: ")
    longest = max(len(r["body"]["messages"]) for r in server.requests)
    assert longest == 1 + 2 * 4 - 1  # system, then 4 observations and the 3 answers between them


class EveryOtherRolloutWrong:
    """A model that plays the 2nd, 4th... rollout of each instance wrong (it adds 'Not <title>'):
    it tells rollouts apart by the X-Session-ID header verifiers sends with each request of one."""

    def __init__(self, server: FakeLLMServer) -> None:
        self.server = server
        self.good, self.bad = ConversationReader(), ConversationReader(spoil={" '": " 'Not "})
        self.sessions: dict[str, list[str]] = defaultdict(list)
        self.lock = threading.Lock()

    def __call__(self, body: dict) -> str:
        session = self.server.request_headers().get("x-session-id", "")
        goal = next(m["content"] for m in body["messages"] if m["role"] == "user").partition("\n")[0]
        with self.lock:
            seen = self.sessions[goal]
            if session not in seen:
                seen.append(session)
            wrong = seen.index(session) % 2 == 1
        return (self.bad if wrong else self.good)(body)


def test_the_grpo_example_of_docs_training_runs_as_written(tmp_path):
    text = (ROOT / "docs" / "training.md").read_text()
    (example,) = re.findall(r"```python\n(# grpo_groups.py.*?)```", text, re.S)
    (tmp_path / "grpo_groups.py").write_text(example)
    python = vf_eval().parent / "python"
    with FakeLLMServer() as server:
        server.default = EveryOtherRolloutWrong(server)
        env = dict(os.environ, HOME=str(tmp_path), OPENAI_BASE_URL=server.url + "/v1", OPENAI_API_KEY="sk-fake")
        done = subprocess.run(
            [str(python), "grpo_groups.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=540
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.splitlines() == [
        f"todo.add_item/default/{seed} rewards [0.0, 0.0, 1.0, 1.0] advantages [-1.0, -1.0, 1.0, 1.0]"
        for seed in (0, 1, 2)
    ]
    assert len({r["headers"]["x-session-id"] for r in server.requests}) == 12  # 3 groups of 4 rollouts


def test_vf_eval_says_which_argument_is_wrong(tmp_path):
    with FakeLLMServer(default="<action>noop()</action>") as server:
        done = run_vf_eval(tmp_path, server, "--env.taskset.variations", "dark_them")
    assert done.returncode != 0
    said = " ".join((done.stdout + done.stderr).replace("│", " ").split())
    assert "--env.taskset: variations[0]: unknown name 'dark_them'" in said, said
    assert "did you mean dark_theme" in said, said
    assert "Traceback" not in said
    assert server.requests == []
