"""Reading record fields: a container is never a missing value, whatever it holds (``make
mutants`` runs these against ``analysis/metrics/values.py``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from openapps_sim.analysis.metrics.values import as_list, is_error, is_missing


@pytest.mark.parametrize(
    "value",
    [[None], [float("nan")], (None,), np.array([np.nan]), [None, None], {"k": None}, set(), [], np.array([])],
)
def test_a_container_is_never_missing(value):
    assert is_missing(value) is False


@pytest.mark.parametrize("value", [None, float("nan"), np.nan, pd.NA, pd.NaT, np.float64("nan")])
def test_missing_scalars(value):
    assert is_missing(value) is True


def test_a_series_is_not_missing():
    """pandas cannot say whether a Series is missing as a whole: it is a value, never missing."""
    assert is_missing(pd.Series([1.0, None])) is False


def test_a_list_of_one_missing_item_keeps_its_item():
    """One action recorded as null is still one action (its step counts)."""
    assert as_list([None]) == [None]
    assert as_list(np.array([np.nan])) == [pytest.approx(np.nan, nan_ok=True)]
    frame = pd.DataFrame([{"agent": "A", "task": "t", "success": False, "actions": [None]}])
    from openapps_sim.analysis.metrics.table import prepare

    assert prepare(frame)["steps"].tolist() == [1]


def test_an_error_is_a_non_empty_text():
    assert is_error("crash") and is_error(0) and is_error(False)
    assert not is_error(None) and not is_error(float("nan")) and not is_error("") and not is_error("  \n")
