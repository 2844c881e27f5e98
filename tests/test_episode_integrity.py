"""Episode integrity in sweeps: an agent's failures are the agent's, infrastructure errors are
only a dead browser or server; repeated trials of one instance; spec keys checked."""

from __future__ import annotations

import hashlib
import json

import pytest

from openapps_sim.analysis.metrics.reliability import reliability_summary, within_version_deviation
from openapps_sim.analysis.metrics.table import prepare, valid_episodes
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.record import RECORD_FIELDS
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .sweep_helpers import write_spec


@pytest.mark.browser
def test_an_action_that_breaks_the_step_is_the_agents_failure(tmp_path):
    spec = load_spec(write_spec(tmp_path, agents=["tests.sweep_agents:BidCollisionAgent"], max_steps=4))
    summary = run_sweep(spec, tmp_path / "out", workers=1, progress=False)
    [rec] = read_results(tmp_path / "out" / "results.jsonl")
    assert summary["errors"] == 0
    assert rec["error"] is None and rec["attempt"] == 1, rec["error"]
    assert rec["success"] is False and rec["reward"] == 0.0
    # The failed step is recorded as the agent's (the episode then ends, or goes on if the
    # environment reports the failure as a plain failed action).
    assert rec["actions"][0].startswith('goto("data:') and rec["invalid"].get("browser_error", 0) >= 1
    assert set(rec) == set(RECORD_FIELDS)
    # Scored as a failure by every agent metric, and no infrastructure error.
    summary = reliability_summary(prepare(_frame([rec])), ["agent"], n_boot=10)
    assert summary["n"].tolist() == [1] and summary["success_rate"].tolist() == [0.0]
    assert summary["errors"].tolist() == [0]


@pytest.mark.browser
def test_a_killed_browser_is_still_infrastructure(tmp_path):
    from tests.sweep_agents import BrowserKillerAgent, chromium_pids

    BrowserKillerAgent.spare = chromium_pids()
    spec = load_spec(write_spec(tmp_path, agents=["tests.sweep_agents:BrowserKillerAgent"], max_steps=2))
    summary = run_sweep(spec, tmp_path / "out", workers=1, progress=False)
    [rec] = read_results(tmp_path / "out" / "results.jsonl")
    assert summary["errors"] == 1
    assert rec["error"] and rec["attempt"] == 2 and rec["success"] is False
    assert valid_episodes(_frame([rec])).empty


@pytest.mark.browser
def test_infrastructure_fault_tells_a_live_environment_from_a_dead_browser():
    from openapps_sim.envs.browser import close_idle_browsers
    from openapps_sim.envs.registration import make_env
    from openapps_sim.sweeps.failures import infrastructure_fault
    from tests.sweep_agents import chromium_pids, kill_browsers

    close_idle_browsers()  # this env launches its own browser: the one killed below
    spare = chromium_pids()
    env = make_env("todo.add_item", obs_mode="axtree")
    try:
        env.reset(seed=0)
        assert infrastructure_fault(env) is None
        assert kill_browsers(spare) > 0
        assert "browser" in (infrastructure_fault(env) or "")
    finally:
        try:
            env.close()
        except Exception:  # noqa: BLE001 - the browser is dead on purpose
            pass


def _frame(records: list[dict]):
    import pandas as pd

    return pd.DataFrame(records)


@pytest.mark.parametrize(
    "bad,needle",
    [
        ({"record_screenshots": "no"}, "record_screenshots: expected true or false, got 'no'; allowed: true, false"),
        ({"temperatures": ["hot"]}, "temperatures[0]: expected a number >= 0, got 'hot'; allowed: numbers"),
        ({"seeds": []}, "seeds: the list is empty; allowed: a number n (seeds 0..n-1) or a list of seeds, 1 to 100000"),
        ({"seeds": [-2]}, "seeds[0]: expected a whole number >= 0, got -2; allowed: 0, 1, 2"),
        ({"seeds": 0}, "seeds: expected a whole number from 1 to 100000, got 0"),
        ({"workers": 0}, "workers: expected a whole number from 1 to 512, got 0; allowed: 1, 2, ... 512"),
        ({"trials": 0}, "trials: expected a whole number from 1 to 1000, got 0"),
        ({"style": "poetic"}, "style: unknown style 'poetic'; allowed: plain, casual, context"),
    ],
)
def test_bad_spec_values_name_the_key_and_what_is_allowed(tmp_path, bad, needle):
    with pytest.raises(ConfigError) as err:
        load_spec(write_spec(tmp_path, **bad))
    assert "spec.yaml" in str(err.value) and needle in str(err.value)


@pytest.mark.parametrize("workers", [0, -1])
def test_workers_flag_must_be_positive(tmp_path, workers):
    spec = load_spec(write_spec(tmp_path))
    with pytest.raises(ConfigError) as err:
        run_sweep(spec, tmp_path / "out", workers=workers, progress=False)
    assert f"--workers: workers: expected a whole number from 1 to 512, got {workers}; allowed: 1, 2, ... 512" in str(
        err.value
    )


def test_cli_workers_zero_is_a_clear_error(tmp_path, capsys):
    from openapps_sim.cli.main import main

    with pytest.raises(SystemExit) as exit_:
        main(["sweep", str(write_spec(tmp_path)), "--out", str(tmp_path / "o"), "--workers", "0", "--no-report"])
    assert (
        exit_.value.code != 0 and "--workers: expected a whole number from 1 to 512, got '0'" in capsys.readouterr().err
    )


def test_trials_and_style_expand_into_distinct_episodes_of_one_instance(tmp_path):
    spec = load_spec(write_spec(tmp_path, seeds=[3], trials=3, style="casual"))
    eps = spec.episodes()
    assert [e.trial for e in eps] == [0, 1, 2] and {e.world.seed for e in eps} == {3}
    assert len({e.episode_id for e in eps}) == 3
    assert len({e.agent_seed for e in eps}) == 3 and eps[0].agent_seed == 3
    # Without trials or a style the ids are those of earlier versions (old results resume).
    plain = load_spec(write_spec(tmp_path, seeds=[3])).episodes()[0]
    old_key = json.dumps(["oracle", None, [], "todo.add_item", "default", 3, None, "1280x720", "en"], sort_keys=True)
    assert plain.episode_id == hashlib.sha1(old_key.encode()).hexdigest()[:16]
    assert plain.episode_id != eps[0].episode_id  # the style is part of the key


@pytest.mark.browser
def test_trials_give_one_identical_goal_and_resume(tmp_path):
    spec = load_spec(
        write_spec(tmp_path, agents=["tests.sweep_agents:SeedRecorder"], seeds=[4], trials=3, style="plain")
    )
    out = tmp_path / "out"
    run_sweep(spec, out, workers=1, progress=False, limit=2)
    run_sweep(spec, out, workers=1, progress=False, resume=True)
    recs = read_results(out / "results.jsonl")
    assert sorted(r["trial"] for r in recs) == [0, 1, 2]
    assert len({r["episode_id"] for r in recs}) == 3
    assert len({r["goal"] for r in recs}) == 1 and {r["style"] for r in recs} == {"plain"}
    assert {r["seed"] for r in recs} == {4} and len({r["agent_seed"] for r in recs}) == 3
    assert all(r["actions"] == [f"send_msg_to_user('seed {r['agent_seed']}')"] for r in recs)
    again = run_sweep(spec, out, workers=1, progress=False, resume=True)
    assert again["ran"] == 0 and again["skipped"] == 3


def _trial_records(trials: bool) -> list[dict]:
    """One agent, one task, one version; seed 0 always succeeds, seed 1 always fails."""
    recs = []
    for seed, reward in ((0, 1.0), (1, 0.0)):
        for trial in (0, 1, 2) if trials else (0,):
            recs.append(
                {
                    "episode_id": f"{seed}-{trial}",
                    "agent": "a",
                    "task": "t",
                    "variation": "default",
                    "seed": seed,
                    "trial": trial,
                    "reward": reward,
                    "success": reward == 1.0,
                    "error": None,
                }
            )
    return recs


def test_within_version_deviation_is_over_trials_when_trials_exist():
    with_trials = _frame(_trial_records(True))
    w = within_version_deviation(with_trials)
    assert w["within_over"].tolist() == ["trials"] and w["std"].tolist() == [0.0] and w["n"].tolist() == [6]
    seeds = within_version_deviation(with_trials, over="seeds")
    assert seeds["std"].tolist() == [0.5]
    head = reliability_summary(with_trials, ["agent"], n_boot=10)
    assert head["within_over"].tolist() == ["trials"] and head["within_std"].tolist() == [0.0]
    no_trials = reliability_summary(_frame(_trial_records(False)), ["agent"], n_boot=10)
    assert no_trials["within_over"].tolist() == ["seeds"] and no_trials["within_std"].tolist() == [0.5]


def test_report_says_what_within_is_over_and_warns_about_infrastructure_errors():
    from openapps_sim.analysis.report.analysis import analyse
    from openapps_sim.analysis.report.build import build

    recs = _trial_records(True)
    assert "over the repeated trials of one instance" in build(analyse(_frame(recs), n_boot=10)).markdown()
    recs[0] = dict(recs[0], error="TargetClosedError: Browser has been closed")
    text = build(analyse(_frame(_trial_records(False) + [recs[0]]), n_boot=10)).markdown()
    assert "over the seeds of one version" in text
    assert "Warning: the infrastructure-error rate is not 0 (a: 1 of 3 (33.3%))" in text
    clean = build(analyse(_frame(_trial_records(False)), n_boot=10)).markdown()
    assert "infrastructure-error rate is not 0" not in clean
