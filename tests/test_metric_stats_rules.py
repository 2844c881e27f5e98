"""More of the statistics' rules with every answer written out (hand-made values, no browser;
``make mutants`` runs these against ``analysis/metrics/stats.py``)."""

from __future__ import annotations

import math
import warnings

import pandas as pd

from openapps_sim.analysis.metrics.stats import bootstrap_ci, mean_absolute_deviation, pass_k_summary, population_std


def test_deviations_read_values_as_numbers():
    """Rewards as JSON may leave them: an object column with a None (a missing reward: NaN), or
    numbers written as text."""
    assert population_std(["1", "3"]) == 1.0
    assert mean_absolute_deviation(["1", "3", "5"]) == 4 / 3
    assert math.isnan(population_std(pd.Series([1.0, None], dtype=object)))
    assert math.isnan(mean_absolute_deviation(pd.Series([1.0, None], dtype=object)))
    assert population_std(pd.Series([0, 2], dtype=object)) == 1.0


def test_deviations_of_nothing_are_nan_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(population_std([]))
        assert math.isnan(mean_absolute_deviation([]))


def ep(task: str, variation: str, seed: int, ok: bool) -> dict:
    return {"agent": "A", "task": task, "variation": variation, "seed": seed, "success": ok}


def test_pass_k_summary_cells_are_the_cell_columns_given():
    """cell=["variation"]: the two tasks of v0 make one cell of four episodes (not two of two)."""
    rows = [ep("t1", "v0", 0, True), ep("t1", "v0", 1, False), ep("t2", "v0", 2, False), ep("t2", "v0", 3, False)]
    s = pass_k_summary(pd.DataFrame(rows), ["agent"], ["variation"])
    assert s["k"].tolist() == [1, 2, 3, 4]
    assert s["cells"].tolist() == [1, 1, 1, 1]
    assert s["pass_at_k"].tolist() == [0.25, 0.5, 0.75, 1.0]
    assert s["pass_hat_k"].tolist() == [0.25, 0.0, 0.0, 0.0]


def test_bootstrap_ci_defaults_by_value():
    """Twelve distinct rewards: 2000 resamples with seed 0 give this interval; 2001 resamples or
    seed 1 move it in the fifth decimal."""
    x = [0.013, 0.171, 0.29, 0.377, 0.458, 0.533, 0.618, 0.702, 0.811, 0.999, 0.046, 0.254]
    lo, hi = bootstrap_ci(x)
    assert abs(lo - 0.2769125) < 1e-12 and abs(hi - 0.6031958333333333) < 1e-12
    assert bootstrap_ci(["1", "0"] * 5) == (0.2, 0.8)  # numbers written as text are read as numbers


def test_success_rate_interval_defaults_by_value():
    """Agent A, 11 of 15: 2000 resamples seeded by (0, A) give (0.53167, 14/15); 2001 give
    (8/15, 14/15) and seed 1 (7/15, 14/15). Success counts are integers."""
    from openapps_sim.analysis.metrics.stats import success_rate

    rows = [{"agent": "A", "task": "t", "seed": i, "success": i < 11} for i in range(15)]
    got = success_rate(pd.DataFrame(rows), by=["agent"], ci=True).iloc[0]
    assert abs(got["ci_low"] - 0.5316666666666696) < 1e-9 and abs(got["ci_high"] - 14 / 15) < 1e-12
    assert got["successes"] == 11
    assert success_rate(pd.DataFrame(rows), by=["agent"])["successes"].dtype.kind == "i"
