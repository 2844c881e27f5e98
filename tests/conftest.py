"""Shared fixtures: a world served by this process's app server and a real headless Chromium."""

from __future__ import annotations

import pytest

from openapps_sim.gcsettings import tune_gc
from openapps_sim.taskkit import numberwords, reward

from .app_pages import address_data_testid
from .pack_helpers import clear_pack_caches

tune_gc()  # a test process is a long-running process of this package (openapps_sim/gcsettings.py)


# Modules whose tests take tens of seconds each, mostly waiting (watchdog time-outs, Ray clusters,
# servers, AgentLab's and vf-eval's workers, sweep subprocesses), with their seconds in a run
# under load (pytest --durations, 2026-11-27). They start first, spread over half of the test
# workers (one of 3, two of 4), so that they wait while the other workers keep both cores busy,
# and never form the run's tail.
# The two that start Ray share a block: two Ray instances starting at once on a loaded machine
# left the two-node cluster unstarted (its setup failed once so).
WAITS_FIRST = {
    ("tests/test_agentlab_study.py", "tests/test_ray_cluster.py"): 750,
    "tests/test_agent_hangs.py": 170,
    "tests/test_verifiers_env.py": 150,
    "tests/test_openenv.py": 100,
    "tests/test_sweep_stop.py": 100,
    "tests/test_mcp": 60,
    "tests/test_lifecycle.py": 30,
}


@pytest.hookimpl(trylast=True)  # after -m's deselection: the blocks are cut from what runs
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, put the WAITS_FIRST modules at the heads of the first half of the
    blocks that ``--dist worksteal`` deals out at the start (the collection cut into equal
    consecutive blocks, one per worker), each where the least is put so far; work stealing then
    takes short tests from these blocks' ends."""
    workers = getattr(config, "workerinput", {}).get("workercount", 0)
    if workers < 2:
        return
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0] * (workers // 2)
    prefixes = tuple(p for key in WAITS_FIRST for p in ((key,) if isinstance(key, str) else key))
    for key, seconds in WAITS_FIRST.items():  # a module stays in one block: its fixtures start once
        least = load.index(min(load))
        load[least] += seconds
        for prefix in (key,) if isinstance(key, str) else key:
            heads[least] += [item for item in items if item.nodeid.startswith(prefix)]
    rest = [item for item in items if not item.nodeid.startswith(prefixes)]
    ordered, left = [], len(items)
    for block, head in enumerate(heads):
        size = left // (workers - block)  # as xdist's WorkStealingScheduling.check_schedule cuts
        left -= size
        take = max(0, size - len(head))
        ordered += head + rest[:take]
        rest = rest[take:]
    items[:] = ordered + rest


def pytest_collection_finish(session: pytest.Session) -> None:
    """The collected items (thousands of parametrised cases) live until the run ends: frozen, the
    collector no longer walks them at every full collection."""
    tune_gc()


@pytest.fixture(scope="session", autouse=True)
def _one_env_browser_per_test_process():
    """Envs made and closed one after another in a test process share one browser instead of
    launching one each (74 launches fewer in a run of the suite)."""
    from openapps_sim.envs.browser import browsers_kept_open

    with browsers_kept_open():
        yield


@pytest.fixture(scope="session")
def server():
    """A world served from a thread of this process as the default world of its own app server:
    at ``http://127.0.0.1:PORT``, for Chromium and for plain HTTP clients alike."""
    from openapps_sim.web.server import AppServer
    from openapps_sim.web.world import World

    host = AppServer(World())
    host.start()
    yield host.default
    host.stop()


@pytest.fixture(scope="session")
def browser():
    from openapps_sim.envs.browser import launch_browser

    b = launch_browser(headless=True)
    yield b
    b.close()


@pytest.fixture()
def page(browser, server):
    """A fresh page; fails the test on any request to another host or any console error."""
    address_data_testid()  # page tests address elements by data-testid
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.external_requests = []
    page.console_errors = []
    host = server.url.split("//")[1]

    def on_request(req):
        url = req.url
        if not (url.startswith(f"http://{host}") or url.startswith("data:") or url.startswith("about:")):
            page.external_requests.append(url)

    page.on("request", on_request)
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: page.console_errors.append(str(err)))
    yield page
    context.close()


@pytest.fixture(scope="module")
def env_on():
    """``env_on(backend)``: one env per backend for the module (made when first asked for)."""
    from openapps_sim.envs.registration import make_env

    made = {}

    def get(backend: str):
        if backend not in made:
            made[backend] = make_env("todo.add_item", obs_mode="axtree", backend=backend)
        return made[backend]

    yield get
    for e in made.values():
        e.close()


@pytest.fixture(scope="module")
def interface_envs():
    """``{"gui": env, "api": env}``: a text env per interface (pages, app tools) for the module."""
    from openapps_sim.envs.registration import make_env

    made = {i: make_env("todo.add_item", backend="text", obs_mode="axtree", interface=i) for i in ("gui", "api")}
    yield made
    for env in made.values():
        env.close()


@pytest.fixture()
def world(server):
    """The served world, reset to default/seed 0."""
    server.reset("default", 0)
    return server


@pytest.fixture()
def pack_dir(tmp_path, monkeypatch):
    """A temporary folder on the pack search path; the pack caches are cleared before and after."""
    monkeypatch.setenv("OPENAPPS_VARIATIONS", str(tmp_path))
    clear_pack_caches()
    yield tmp_path
    clear_pack_caches()


@pytest.fixture(autouse=True)
def _fresh_number_words():
    """Every test reads the number words afresh: a mutant run (``make mutants``) forks after the
    tests ran once, and a vocabulary cached then would hide a changed ``fold`` from them."""
    numberwords.clear_cache()


@pytest.fixture(autouse=True)
def _fresh_reward_memos():
    """Every test normalises states afresh: a mutant run forks after the tests ran once, and the
    reward's memos filled then (normalised app states, normalised expected states) would hand a
    mutated ``normalise_world`` the unmutated results; so would the apps' declared list keys
    (with the paths they matched) a mutated ``declared_keys`` or ``_key_for``."""
    reward._NORMALISED.clear()
    reward._EXPECTED.clear()
    reward._DECLARED[:] = [None, None]
