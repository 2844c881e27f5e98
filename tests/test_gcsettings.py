"""The collector's settings of the package's own processes (openapps_sim/gcsettings.py): tuned in
the ``openapps`` command, kept as Python's under ``OPENAPPS_GC=default`` and in a library user's
process (whose first text env raises the thresholds only)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

from openapps_sim.gcsettings import ENV, THRESHOLDS

PROBE = """
import gc, json, sys
{before}
print(json.dumps({{"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}}))
"""


def _probe(before: str, gc_env: str | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != ENV}
    if gc_env is not None:
        env[ENV] = gc_env
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(before=before)], capture_output=True, text=True, env=env, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_the_command_tunes_the_collector_and_freezes_what_it_loaded():
    got = _probe("from openapps_sim.cli.main import main\nmain(['variations', 'list'])")
    assert tuple(got["threshold"]) == THRESHOLDS
    assert got["frozen"] > 10_000  # what the command had imported


def test_openapps_gc_default_keeps_pythons_settings():
    got = _probe("from openapps_sim.cli.main import main\nmain(['variations', 'list'])", gc_env="default")
    assert tuple(got["threshold"]) == (700, 10, 10) and got["frozen"] == 0


def test_importing_the_package_changes_nothing_in_a_users_process():
    got = _probe("import openapps_sim.envs, openapps_sim.sweeps.runner, openapps_sim.web.server")
    assert tuple(got["threshold"]) == (700, 10, 10) and got["frozen"] == 0


def test_this_test_process_is_tuned():
    """tests/conftest.py tunes the session unless OPENAPPS_GC=default asks for Python's settings."""
    if os.environ.get(ENV, "").strip().lower() == "default":
        assert gc.get_threshold() == (700, 10, 10)
    else:
        assert gc.get_threshold() == THRESHOLDS and gc.get_freeze_count() > 0


MAKE_TEXT_ENV = """from openapps_sim.envs.registration import make_env
env = make_env('todo.add_item', backend='text')
env.close()"""


def test_a_text_env_raises_the_thresholds_and_freezes_nothing():
    """A crawl of new pages spent a fifth of its CPU in full collections under Python's settings."""
    got = _probe(MAKE_TEXT_ENV)
    assert tuple(got["threshold"]) == (50_000, 20, 100) and got["frozen"] == 0


def test_a_text_env_keeps_thresholds_a_user_chose_and_openapps_gc_default():
    got = _probe("gc.set_threshold(2000, 5, 5)\n" + MAKE_TEXT_ENV)
    assert tuple(got["threshold"]) == (2000, 5, 5) and got["frozen"] == 0
    got = _probe(MAKE_TEXT_ENV, gc_env="default")
    assert tuple(got["threshold"]) == (700, 10, 10) and got["frozen"] == 0
