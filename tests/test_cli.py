"""The command line as a user meets it: help, version, and one clear line for every mistake."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys

import pytest

from openapps_sim.cli.args import shipped_specs
from openapps_sim.cli.main import build_parser

from .cli_process import openapps


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_version():
    done = openapps("--version")
    assert done.returncode == 0 and done.stdout.startswith("openapps-sim ")


def test_every_option_has_a_help_text_and_shows_its_default():
    missing = []
    for name, sub in _subparsers(build_parser()).items():
        assert issubclass(sub.formatter_class, argparse.ArgumentDefaultsHelpFormatter), name
        assert sub.format_help().count("(default") == sub.format_help().count("(default:"), name
        assert "(default: None)" not in sub.format_help(), name  # said once, in words
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, "options without a help text: " + ", ".join(missing)
    text = _subparsers(build_parser())["serve"].format_help()
    assert "(default: 127.0.0.1)" in text


def test_sweep_help_lists_every_shipped_spec():
    text = openapps("sweep", "--help").stdout
    names = shipped_specs()
    assert {"demo", "paper"} <= set(names)
    assert all(n in " ".join(text.split()) for n in names)


def test_agents_are_described_in_plain_text():
    out = openapps("agents").stdout
    lines = {line.split()[0]: line for line in out.splitlines() if line and not line.startswith(" ")}
    assert "``" not in out and ":func:" not in out
    assert len(lines["oracle"].split()) > 3, "the oracle has a description"


@pytest.mark.parametrize(
    "args, needle",
    [
        (("report", "{tmp}"), "results.jsonl: not found"),
        (("serve", "--port", "99999"), "99999 is not a TCP port"),
        (("run", "--task", "todo.add_item", "--headed"), "xvfb-run"),
        (("sweep", "demo", "--headed", "--out", "{tmp}/o"), "xvfb-run"),
        (("variations", "sample", "--n", "abc"), "'abc' is not a whole number"),
        (("variations", "sample", "--n", "0"), "--n: expected a whole number from 1 to 10000, got '0'"),
        (
            ("sweep", "nonexistent-spec"),
            "allowed: a path, or one of 27 shipped specs; openapps sweep --help lists them",
        ),
        (("sweep", "demo", "--workers", "0"), "--workers: expected a whole number from 1 to 512, got '0'"),
        (("run", "--task", "todo.nothing"), "unknown name 'todo.nothing'"),
        (("run", "--task", "todo.add_item", "--out", "/proc/x/y"), "--out: /proc/x/y: cannot be created"),
        (("export", "{tmp}", "--out", "/proc/x"), "--out: /proc/x: cannot be created"),
        (("gallery", "--out", "/proc/x"), "--out: /proc/x: cannot be created"),
        (("variations", "sample", "--out", "/proc/x"), "--out: /proc/x: cannot be created"),
        (("run", "--task", "todo.add_item", "--seed", "-1"), "--seed: expected a whole number >= 0, got '-1'"),
        (("serve", "--seed", "-1"), "--seed: expected a whole number >= 0, got '-1'"),
        (("tasks", "--seeds", "-3"), "--seeds: expected a whole number from 0 to 100000, got '-3'"),
        (("variations", "sample", "--seed", "-1"), "--seed: expected a whole number >= 0, got '-1'"),
        (("run", "--task", "todo.add_item", "--out", "{sweep}"), "holds a sweep (its manifest.json)"),
    ],
)
def test_user_mistakes_are_one_line_without_a_traceback(tmp_path, args, needle):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    (tmp_path / "sweep").mkdir()
    (tmp_path / "sweep" / "manifest.json").write_text("{}")
    args = [a.replace("{tmp}", str(tmp_path)).replace("{sweep}", str(tmp_path / "sweep")) for a in args]
    done = openapps(*args, cwd=tmp_path, env=env)
    assert done.returncode == 2, done.stderr
    assert needle in done.stderr and "Traceback" not in done.stderr
    assert len([line for line in done.stderr.splitlines() if line.startswith("openapps")]) == 1


def test_a_closed_pipe_is_not_an_error():
    proc = subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.cli", "variations", "show", "dense"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.read(200)  # like `| head -c 200`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err and "BrokenPipe" not in err


def test_shipped_specs_are_found_from_any_directory(tmp_path):
    probe = "from openapps_sim.sweeps.spec import load_spec; print(len(load_spec('demo').episodes()))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and int(done.stdout) > 0, done.stderr


def test_a_port_in_use_is_one_sentence(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        done = openapps("serve", "--port", port, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"--port: {port}: cannot listen on 127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr
    assert "allowed: a free port, or 0" in done.stderr


def test_tasks_lists_without_counting_unless_asked():
    done = openapps("tasks")
    assert done.returncode == 0 and "todo.add_item" in done.stdout and "instances/" not in done.stdout
    done = openapps("tasks", "--seeds", "2")
    assert done.returncode == 0 and "instances/2" in done.stdout


def test_tasks_shows_the_oracles_steps_of_the_families_asked_for():
    done = openapps("tasks", "--oracle-steps", "--match", "todo.clear_done_count", "--match", "maps.remove_then_*")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["id"][-2:] == ["oracle", "steps"]
    # open the app (2 steps), clear / remove (1), answer (1)
    assert rows["todo.clear_done_count"][-1] == "4" and rows["maps.remove_then_count"][-1] == "4"
    assert "2 task families" in done.stdout and "todo.add_item" not in done.stdout


def test_the_screenshot_switch_says_what_happens_by_default():
    text = " ".join(_subparsers(build_parser())["run"].format_help().split())
    assert "(default: True)" not in text and "screenshots are recorded" in text
