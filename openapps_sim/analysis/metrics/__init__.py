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
"""
