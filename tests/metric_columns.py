"""Columns of the metric tables that several rule tests expect, written out once."""

from __future__ import annotations

SUCCESS_COLUMNS = ["n", "successes", "success_rate", "mean_partial_reward"]
"""``success_rate``'s columns after its group columns (and before ``ci_low``, ``ci_high``)."""
CI_COLUMNS = ["ci_low", "ci_high"]
"""A bootstrap interval's bounds, the last columns of a table asked for with ``ci=True``."""
