"""The Ray executor on a running cluster of two Ray nodes on this machine (tests/raycluster.py):
it joins the cluster (``--ray-address``, or ``RAY_ADDRESS``) instead of starting its own Ray,
spreads its workers over both nodes, and keeps the local executor's guarantees: a sweep stopped
by SIGINT and resumed loses and duplicates nothing, only the driver writes results, and no
actor or app server outlives a sweep. Every process the test started, the cluster's own
included, is stopped by PID at the end (never ``ray stop``, which stops every Ray on the machine).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .sweep_helpers import write_spec
from .test_sweep_stop import wait_for_records, wait_until_gone

ROOT = Path(__file__).resolve().parent.parent
# every Ray process of the test on 127.0.0.1, and no token file of another Ray user consulted
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
SLOW_ORACLE = (
    "import time\nfrom openapps_sim.agents.oracle import OracleAgent\n\n\n"
    "class SlowOracle(OracleAgent):\n"
    "    def act(self, obs):\n        time.sleep(0.4)\n        return super().act(obs)\n"
)


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A two-node cluster: (address, node ids, tag of its processes, the agent's folder)."""
    pytest.importorskip("ray")
    folder = tmp_path_factory.mktemp("raycluster")
    (folder / "slow_oracle.py").write_text(SLOW_ORACLE)  # the actors import the agent from here
    tag = f"OPENAPPS_RAY_TEST={uuid.uuid4().hex}"
    env = dict(os.environ, **RAY_ENV, OPENAPPS_RAY_TEST=tag.split("=")[1])
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(ROOT), env.get("PYTHONPATH", "")])
    env.pop("RAY_ADDRESS", None)
    temp_dir = f"/tmp/oa-ray-{uuid.uuid4().hex[:8]}"  # short: Ray's socket paths must fit 107 bytes
    keeper = subprocess.Popen(
        [sys.executable, "-m", "tests.raycluster", temp_dir],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        address = keeper.stdout.readline().strip()
        nodes = {keeper.stdout.readline().strip() for _ in range(2)}
        assert address and len(nodes) == 2, "the two-node Ray cluster did not start"
        yield address, nodes, tag, folder
    finally:
        keeper.stdin.close()
        try:
            keeper.wait(timeout=60)
        except subprocess.TimeoutExpired:
            keeper.kill()
        left = wait_until_gone(tag, 20)
        _kill(left)  # stopped by PID either way; the test fails below if the cluster left any
        shutil.rmtree(temp_dir, ignore_errors=True)
        assert left == [], f"processes of the test's Ray cluster outlived it: {left}"


def _sweep(spec: Path, out: Path, folder: Path, *extra: str, address: str | None = None) -> subprocess.Popen:
    env = dict(os.environ, **RAY_ENV, PYTHONPATH=f"{folder}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    env.pop("RAY_ADDRESS", None)
    if address:
        env["RAY_ADDRESS"] = address
    return subprocess.Popen(
        [sys.executable, "-m", "openapps_sim.cli", "sweep", str(spec), "--out", str(out), "--no-report"]
        + ["--executor", "ray", "--workers", "2", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _nothing_of_the_sweep_left(records: list[dict], tag: str) -> None:
    """The actors that ran the episodes are gone (each served its worlds from a thread of its own)."""
    actors = {r["worker"]["pid"] for r in records}
    deadline = time.time() + 20
    while time.time() < deadline and any(Path(f"/proc/{pid}").exists() for pid in actors):
        time.sleep(0.2)
    assert not [pid for pid in actors if Path(f"/proc/{pid}").exists()], "a Ray actor outlived the sweep"


def test_a_sweep_joins_a_two_node_cluster_spreads_and_resumes_losing_and_duplicating_nothing(cluster, tmp_path):
    address, nodes, tag, folder = cluster
    spec = write_spec(tmp_path, agents=["slow_oracle:SlowOracle"], seeds=6, backends=["text"], workers=2)
    out = tmp_path / "out"
    proc = _sweep(spec, out, folder, "--ray-address", address)  # the flag
    wait_for_records(out, 2, seconds=180)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err
    assert f"--resume --executor ray --ray-address {address}" in err
    first = read_results(out / "results.jsonl")
    assert 2 <= len(first) < 6
    _nothing_of_the_sweep_left(first, tag)

    proc = _sweep(spec, out, folder, "--resume", address=address)  # the environment's RAY_ADDRESS
    stdout, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-2000:]
    assert f'"ran": {6 - len(first)}' in stdout
    records = read_results(out / "results.jsonl")
    ids = [r["episode_id"] for r in records]
    assert len(ids) == 6 and len(set(ids)) == 6, "an episode was lost or recorded twice"
    assert all(r["success"] and r["error"] is None for r in records)
    assert {r["worker"]["executor"] for r in records} == {"ray"}
    assert {r["worker"]["node"] for r in records} == nodes, "the episodes did not run on both nodes"
    _nothing_of_the_sweep_left(records, tag)


def test_a_ray_address_without_the_ray_executor_is_one_clear_error(tmp_path):
    spec = load_spec(write_spec(tmp_path, backends=["text"]))
    with pytest.raises(ConfigError) as e:
        run_sweep(spec, tmp_path / "out", executor="local", progress=False, ray_at="127.0.0.1:6379")
    assert str(e.value).startswith("--ray-address: 127.0.0.1:6379: only the Ray executor joins a Ray cluster")
