"""Sweeps: spec validation, results records, resume after a kill, crash retry, isolation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import RECORD_FIELDS
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .sweep_helpers import write_spec


@pytest.mark.parametrize(
    "bad,needle",
    [
        ({"agentz": ["oracle"]}, "agentz: unknown key (did you mean agents?); allowed: name, description, agents"),
        ({"agents": ["nobody"]}, "unknown name 'nobody'"),
        ({"tasks": ["nothing.*"]}, "tasks[0]: unknown name 'nothing.*'"),
        ({"variations": ["dark_theme+klingon"]}, "unknown name 'klingon'"),
        ({"seeds": "three"}, "seeds: expected a whole number, got 'three'"),
        ({"viewports": ["big"]}, "expected WIDTHxHEIGHT"),
        ({"languages": ["xx"]}, "unknown language 'xx'"),
    ],
)
def test_bad_specs_name_the_file_and_key(tmp_path, bad, needle):
    path = write_spec(tmp_path, **bad)
    with pytest.raises(ConfigError) as err:
        load_spec(path)
    assert "spec.yaml" in str(err.value) and needle in str(err.value)


def test_spec_expands_axes_and_globs(tmp_path):
    spec = load_spec(
        write_spec(
            tmp_path,
            tasks=["todo.*"],
            variations=["default", {"sample": {"n": 3, "seed": 1}}],
            seeds=[0, 4],
            viewports=["1280x720", "480x320"],
        )
    )
    assert all(t.startswith("todo.") for t in spec.tasks) and len(spec.tasks) >= 2
    assert spec.variations[1:] == ["random-1-0", "random-1-1", "random-1-2"]
    assert len(spec.episodes()) == len(spec.tasks) * 4 * 2 * 2
    assert set(spec.axes()) >= {"task", "variation", "seed", "viewport"}
    assert len({e.episode_id for e in spec.episodes()}) == len(spec.episodes())


def test_shipped_specs_validate():
    from openapps_sim.cli.args import shipped_specs

    names = shipped_specs()
    assert {"demo", "paper", "multistep", "oracle_packs", "oracle_decisions"} <= set(names)
    for name in names:
        spec = load_spec(name)
        assert spec.episodes(), name


def test_validity_sweeps_cover_every_pack_and_every_decision_family():
    """The oracle validity sweeps name their packs and families: a pack or a decision, answer,
    ordered, constraint or infeasible family added later must join them, or the matrix silently skips it."""
    from openapps_sim.config.packs import list_packs
    from openapps_sim.taskkit import all_families

    packs, interrupts = load_spec("oracle_packs"), load_spec("oracle_interruptions")
    decisions = load_spec("oracle_decisions")
    assert sorted(packs.variations + interrupts.variations) == sorted(list_packs())
    assert not set(packs.variations) & set(interrupts.variations)
    assert set(packs.tasks) == set(interrupts.tasks) == set(all_families())
    kinds = {"decision", "math", "count", "lookup", "constraint", "order", "infeasible"}
    # the described apps' lookups, counts and totals are in their own matrices (oracle_apps_1, _2)
    hand_built = load_spec("oracle_text").tasks
    assert set(decisions.tasks) == {f for f in hand_built if all_families()[f].category in kinds}
    assert decisions.variations == packs.variations and not set(decisions.seeds) & set(packs.seeds)
    # the text backend's matrices: every family x every pack, the hand-built apps' families in
    # oracle_text and the described apps' in oracle_apps_1 and _2 x 3 seeds (CI: oracle_apps_ci)
    text, apps, ci = load_spec("oracle_text"), load_spec("oracle_apps_1"), load_spec("oracle_apps_ci")
    second = load_spec("oracle_apps_2")
    assert not set(apps.tasks) & set(second.tasks) and apps.variations == second.variations
    assert apps.seeds == second.seeds and second.backends == ["text"]
    apps.tasks = apps.tasks + second.tasks
    assert sorted(text.variations) == sorted(apps.variations) == sorted(list_packs())
    # the long-horizon families: every pack, seed 0 (oracle_long; 20 to 70 steps an episode)
    long = load_spec("oracle_long")
    assert long.tasks == sorted(f for f in all_families() if f.startswith("multi.long_")) and len(long.tasks) >= 12
    assert sorted(long.variations) == sorted(list_packs()) and long.seeds == [0] and long.backends == ["text"]
    assert not set(long.tasks) & (set(text.tasks) | set(apps.tasks))
    assert set(text.tasks) | set(apps.tasks) | set(long.tasks) == set(all_families())
    assert not set(text.tasks) & set(apps.tasks)
    assert {"banking.transfer", "hotels.book"} <= set(apps.tasks) == set(ci.tasks)
    assert {"todo.add_item", "multi.busy_evening", "start.navigate_to_app"} <= set(text.tasks)
    assert text.backends == apps.backends == ["text"] and apps.seeds == [0, 1, 2]
    # CI's shares of the hand-built apps' matrix: every pack at seed 0, six packs at seeds 1-2;
    # oracle_text_full is all of it (the long-horizon families too)
    full, seeds = load_spec("oracle_text_full"), load_spec("oracle_text_seeds")
    assert text.seeds == [0] and seeds.seeds == [1, 2] and full.seeds == [0, 1, 2]
    assert seeds.tasks == text.tasks and set(full.tasks) == set(text.tasks) | set(long.tasks)
    assert sorted(full.variations) == sorted(list_packs()) and len(seeds.variations) == 6
    assert {"default", "german", "arabic", "interrupt_mixed"} <= set(seeds.variations) < set(list_packs())


def test_a_bang_pattern_takes_families_out(tmp_path):
    spec = load_spec(write_spec(tmp_path, tasks=["todo.*", "!todo.add*", "todo.add_item"]))
    assert "todo.add_item" in spec.tasks and "todo.add_in_order" not in spec.tasks
    assert "todo.mark_done" in spec.tasks
    with pytest.raises(ConfigError, match=r"tasks\[1\]"):
        load_spec(write_spec(tmp_path, tasks=["todo.*", "!nothing.*"]))


@pytest.mark.browser
def test_sweep_records_resume_and_refuse_overwrite(tmp_path):
    spec = load_spec(
        write_spec(tmp_path, tasks=["todo.add_item", "todo.mark_done"], variations=["default", "dark_theme"])
    )
    out = tmp_path / "out"
    first = run_sweep(spec, out, workers=1, progress=False, limit=2)
    assert first["ran"] == 2
    with pytest.raises(ConfigError, match="--resume"):
        run_sweep(spec, out, workers=1, progress=False)
    second = run_sweep(spec, out, workers=1, progress=False, resume=True)
    assert second["ran"] == 2 and second["skipped"] == 2
    records = read_results(out / "results.jsonl")
    assert len(records) == 4 and len({r["episode_id"] for r in records}) == 4
    assert all(r["success"] and r["reward"] == 1.0 and r["error"] is None for r in records)
    rec = records[0]
    # One record schema, defined once: every record has exactly the documented keys.
    assert set(rec) == set(RECORD_FIELDS)
    manifest = json.loads((out / "manifest.json").read_text())
    assert (
        manifest["spec_hash"] == spec.spec_hash
        and manifest["browser"]
        and "chrom" in manifest["browser_binary"]
        and manifest["version"]
    )
    assert (out / "trajectories" / f"{rec['episode_id']}.json").exists()


def test_a_killed_sweep_resumes_without_loss_or_duplicates(tmp_path):
    """The results file's rules, on the text backend (killed browsers: test_sweep_stop)."""
    spec_path = write_spec(
        tmp_path,
        tasks=["todo.add_item", "todo.mark_done", "todo.remove_item"],
        variations=["default", "dark_theme"],
        seeds=3,  # 18 episodes: a text episode is fast, the kill must still land mid-sweep
        backends=["text"],
    )
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "openapps_sim.cli.main",
        "sweep",
        str(spec_path),
        "--out",
        str(out),
        "--quiet",
        "--no-report",
    ]
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline:
        if results.exists() and len(read_results(results)) >= 2:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = read_results(results)
    assert 2 <= len(before) < 18
    subprocess.run(cmd + ["--resume"], check=True, timeout=300, stdout=subprocess.DEVNULL)
    after = read_results(results)
    ids = [r["episode_id"] for r in after]
    assert len(ids) == 18 and len(set(ids)) == 18
    assert {r["episode_id"] for r in before} <= set(ids)
    assert all(r["success"] for r in after)


def test_torn_last_line_is_repaired_and_rerun(tmp_path):
    spec = load_spec(write_spec(tmp_path, variations=["default", "dark_theme"], backends=["text"]))
    out = tmp_path / "out"
    run_sweep(spec, out, workers=1, progress=False)
    lines = (out / "results.jsonl").read_bytes().splitlines(keepends=True)
    (out / "results.jsonl").write_bytes(lines[0] + lines[1][: len(lines[1]) // 2])  # a kill mid-write
    summary = run_sweep(spec, out, workers=1, progress=False, resume=True)
    assert summary["ran"] == 1
    records = read_results(out / "results.jsonl")
    assert len(records) == 2 and len({r["episode_id"] for r in records}) == 2


@pytest.mark.browser
def test_crash_is_retried_and_episodes_are_isolated():
    from openapps_sim.sweeps.record import EpisodeSpec
    from openapps_sim.sweeps.runner import Worker, run_with_retry

    worker = Worker()
    try:
        a = run_with_retry(worker, EpisodeSpec("oracle", "todo.remove_item", WorldSpec("default", 1)), None, "r")
        assert a.record["success"]
        # The next episode starts from a fresh world and a fresh browser context.
        b = run_with_retry(worker, EpisodeSpec("oracle", "todo.remove_item", WorldSpec("default", 1)), None, "r")
        assert b.record["success"] and b.record["goal"] == a.record["goal"]
        assert len(worker.env.unwrapped.context.pages) == 1
        # an env is one task family, fixed when it is made (never overridden on reset)
        first_env = worker.env
        assert (
            first_env.unwrapped.task.family_id == "todo.remove_item" and "family" not in first_env.unwrapped.task_kwargs
        )
        # Kill the browser under the worker: the next episode gets a new one.
        worker.env.unwrapped.browser.close()
        c = run_with_retry(worker, EpisodeSpec("oracle", "todo.add_item", WorldSpec("default", 2)), None, "r")
        assert c.record["error"] is None and c.record["success"]
        assert worker.env is not first_env and worker.env.unwrapped.task.family_id == "todo.add_item"
    finally:
        worker.close()


class FlakyWorker:
    """Fails the first ``failures`` runs like a crashed browser would."""

    def __init__(self, failures):
        self.failures = failures
        self.restarts = 0

    def run(self, spec, out_dir, run_id, attempt, beat=None):
        from openapps_sim.sweeps.runner import EpisodeResult

        if self.failures:
            self.failures -= 1
            raise RuntimeError("Target page, context or browser has been closed")
        return EpisodeResult({"episode_id": spec.episode_id, "success": True, "attempt": attempt, "error": None})

    def restart(self):
        self.restarts += 1


def test_a_crash_is_retried_once_then_recorded_as_an_error():
    from openapps_sim.sweeps.record import EpisodeSpec
    from openapps_sim.sweeps.runner import run_with_retry

    spec = EpisodeSpec("oracle", "todo.add_item")
    once = FlakyWorker(1)
    res = run_with_retry(once, spec, None, "r")
    assert res.record["success"] and res.record["attempt"] == 2 and once.restarts == 1
    twice = FlakyWorker(2)
    res = run_with_retry(twice, spec, None, "r")
    assert res.record["error"].startswith("RuntimeError") and res.record["success"] is False
    assert res.record["attempt"] == 2
    assert set(res.record) == set(RECORD_FIELDS)  # error records have the same schema


def test_ray_executor_matches_local(tmp_path):
    """The executor, not the browser, is under test: the text backend (Ray with Chromium workers
    runs in tests/test_agentlab_study.py)."""
    pytest.importorskip("ray")
    spec = load_spec(
        write_spec(tmp_path, tasks=["todo.add_item"], variations=["default", "dark_theme"], backends=["text"])
    )
    run_sweep(spec, tmp_path / "local", workers=1, progress=False)
    run_sweep(spec, tmp_path / "ray", workers=1, executor="ray", progress=False)

    def table(folder):
        keep = ("episode_id", "task", "variation", "seed", "goal", "reward", "success", "actions")
        return sorted(tuple(json.dumps(r[k]) for k in keep) for r in read_results(folder / "results.jsonl"))

    assert table(tmp_path / "local") == table(tmp_path / "ray")


def test_one_reader_one_rule_for_damaged_results(tmp_path):
    """A damaged middle line and a torn last line are skipped with a note by --resume and by the
    report alike (the report used to fail on a damaged middle line)."""
    from openapps_sim.analysis.report.load import load_results
    from openapps_sim.sweeps.store import read_records

    good = [{"episode_id": f"e{i}", "agent": "oracle", "task": "todo.add_item", "success": True} for i in range(2)]
    path = tmp_path / "results.jsonl"
    path.write_text(
        json.dumps(good[0]) + "\n{not json\n" + json.dumps(good[1]) + '\n{"episode_id": "e', encoding="utf-8"
    )
    records, notes = read_records(path)
    assert [r["episode_id"] for r in records] == ["e0", "e1"]
    assert len(notes) == 2 and "line 2" in notes[1] and "truncated" in notes[0]
    df = load_results(tmp_path)
    assert list(df["episode_id"]) == ["e0", "e1"] and len(df.attrs["notes"]) == 2
