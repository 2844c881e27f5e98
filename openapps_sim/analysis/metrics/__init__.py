"""Reliability metrics over a results table: pure functions of a pandas DataFrame.

One row of the table is one episode (see docs/metrics.md for the columns). Every function in this package
is pure: it reads the frame it is given, returns a new object and does no I/O. Episodes whose
``error`` is set (an infrastructure failure: the browser crashed, the server died; or a
model-service failure: the agent's model API failed after its retries; ``error_kind`` says which)
are excluded from every agent metric; :func:`error_summary` counts them separately, next to the
episodes the agent's own exception ended (``agent_error``), which are scored failures.

The definitions follow the OpenApps paper (Ullrich et al.) where it gives one:

* success rate (pass@1): the mean of ``success`` over episodes;
* deviation *within* a version: the population standard deviation (and mean absolute
  deviation) of the rewards of one agent on one task in one app version: over the repeated
  trials of each instance when the results have trials (the paper's fixed-prompt repeats),
  else over seeds (``within_over`` says which);
* deviation *across* versions: the same statistics over the rewards of every version pooled;
* fluctuation: the largest minus the smallest per-version success rate of a task;
* loops: maximal runs of actions that consist entirely of a repeated subsequence;
* invalid actions: malformed, unknown, bad-argument and browser-rejected actions;
* intent misunderstanding: the agent opened an app the task does not need;
* ESAR (A3): the share of a task's essential states (milestones) the episode reached;
* decision accuracy (DAC-Bench): the episode's first state-changing operation belongs to the
  correct branch (deeper decisions for hierarchical tasks); W-LCS: the weighted longest common
  subsequence of the episode's operations and the oracle's;
* answer accuracy (SimuWoB): the returned value was right (return-value tasks).

Grouping arguments (``by``, ``cell``, ``unit``, ``version``) are sequences of column names.
Missing values in grouping columns (an unset temperature) form their own group: nothing is
silently dropped.

The package is split by subject (``values``, ``behaviour``, ``table``, ``stats``,
``reliability``, ``rates``, ``axes``, ``robustness`` (RSR, interruptions, perception drift),
``progress``, ``paper`` (the OpenApps paper's tables with intervals over tasks), ``breaks``
(rollups, loop kinds, paired versions), ``completion`` (termination modes: declarations,
premature stops, overruns), ``categories`` (success by task category and by SimuWoB's classes));
everything public is importable from here.
"""

from openapps_sim.analysis.metrics.axes import axis_breakdown, axis_label, varied_axes, version_columns
from openapps_sim.analysis.metrics.behaviour import (
    DEFAULT_MIN_REPEATS,
    START_APP,
    count_loops,
    find_loops,
    intent_misunderstood,
)
from openapps_sim.analysis.metrics.breaks import (
    KINDS,
    loop_kind_rates,
    loop_kinds,
    pack_kinds,
    paired_summary,
    paired_versions,
    rollup_columns,
    rollups,
    variation_kind,
)
from openapps_sim.analysis.metrics.categories import (
    SIMUWOB_CLASSES,
    category_success,
    simuwob_class,
    with_classes,
)
from openapps_sim.analysis.metrics.completion import COMPLETION_COLUMNS, completion_summary, terminations
from openapps_sim.analysis.metrics.paper import (
    MULTI_STEP,
    axis_grid,
    deviation_intervals,
    multi_step,
    task_reliability,
    version_reliability,
)
from openapps_sim.analysis.metrics.progress import (
    PROGRESS_COLUMNS,
    decisions_by_level,
    deeper_decisions,
    episode_progress,
    first_decision,
    progress_summary,
)
from openapps_sim.analysis.metrics.rates import (
    effort,
    error_messages,
    error_summary,
    intent_misunderstanding_rate,
    invalid_actions,
    invalid_rates,
    loop_rates,
)
from openapps_sim.analysis.metrics.reliability import (
    WITHIN_OVER,
    across_version_deviation,
    agent_deviation,
    apply_by,
    deviation_summary,
    fluctuation,
    has_trials,
    reliability_summary,
    version_label,
    version_success,
    within_version_deviation,
)
from openapps_sim.analysis.metrics.robustness import (
    interrupting_versions,
    interruption_breakdown,
    interruption_rows,
    perception_drift,
    robust_success_rate,
    rsr_by_buttons,
    rsr_by_kind,
    rsr_table,
)
from openapps_sim.analysis.metrics.stats import (
    bootstrap_ci,
    mean_absolute_deviation,
    pass_at_k,
    pass_hat_k,
    pass_k,
    pass_k_summary,
    population_std,
    success_rate,
    wilson_interval,
)
from openapps_sim.analysis.metrics.table import (
    UNSET,
    Grouping,
    deduplicate,
    invalid_categories,
    prepare,
    sort_key,
    valid_episodes,
)
from openapps_sim.analysis.metrics.values import is_error, is_missing, token_total
from openapps_sim.taskkit.progress import wlcs

__all__ = [
    "SIMUWOB_CLASSES",
    "category_success",
    "simuwob_class",
    "with_classes",
    "COMPLETION_COLUMNS",
    "completion_summary",
    "terminations",
    "KINDS",
    "MULTI_STEP",
    "axis_grid",
    "deviation_intervals",
    "loop_kind_rates",
    "loop_kinds",
    "multi_step",
    "pack_kinds",
    "paired_summary",
    "paired_versions",
    "rollup_columns",
    "rollups",
    "task_reliability",
    "variation_kind",
    "version_reliability",
    "DEFAULT_MIN_REPEATS",
    "PROGRESS_COLUMNS",
    "decisions_by_level",
    "deeper_decisions",
    "episode_progress",
    "first_decision",
    "progress_summary",
    "wlcs",
    "Grouping",
    "START_APP",
    "UNSET",
    "WITHIN_OVER",
    "is_missing",
    "across_version_deviation",
    "agent_deviation",
    "apply_by",
    "axis_breakdown",
    "axis_label",
    "bootstrap_ci",
    "count_loops",
    "deduplicate",
    "deviation_summary",
    "effort",
    "error_messages",
    "error_summary",
    "find_loops",
    "fluctuation",
    "has_trials",
    "intent_misunderstanding_rate",
    "intent_misunderstood",
    "interrupting_versions",
    "interruption_breakdown",
    "interruption_rows",
    "invalid_actions",
    "invalid_categories",
    "invalid_rates",
    "is_error",
    "loop_rates",
    "mean_absolute_deviation",
    "pass_at_k",
    "perception_drift",
    "pass_hat_k",
    "pass_k",
    "pass_k_summary",
    "population_std",
    "prepare",
    "reliability_summary",
    "robust_success_rate",
    "rsr_by_buttons",
    "rsr_by_kind",
    "rsr_table",
    "sort_key",
    "success_rate",
    "token_total",
    "valid_episodes",
    "varied_axes",
    "version_columns",
    "version_label",
    "version_success",
    "wilson_interval",
    "within_version_deviation",
]
