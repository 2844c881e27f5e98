"""Reliability report for a results folder: ``report.md`` and a self-contained ``report.html``.

A results folder (written by a sweep) holds::

    results.jsonl                      one JSON object per episode (see docs/metrics.md)
    manifest.json                      what reproduces the run (version, commit, spec, seeds ...)
    trajectories/<episode_id>.json     optional: goal and per-step action, error, url, screenshot
    screenshots/...                    optional: PNGs the trajectories point to

    thumbnails/...                     small JPEGs of every step (recorded by default)

(or the ``episode.json`` of one ``openapps run --out``). Every number comes from
:mod:`openapps_sim.analysis.metrics`. The HTML needs nothing but itself: CSS is inline, charts
are inline SVG components, screenshots are embedded as (downscaled) data URIs, and there is no
script. It loads nothing from any host.

Modules: ``load`` (reading a results folder), ``analysis`` (every frame shown, computed once),
``blocks`` (a section's content, for both formats), ``build`` (the list of sections), the
sections in ``sections``, ``paper`` and ``breaks`` (with ``rows``, ``progress`` and
``robustness``), ``markdown`` and ``page``/``html`` (the two renderings), ``svg``, ``style``,
``trajectories``, ``viewer`` and ``images`` (the trajectory viewer), ``fmt`` and ``write``.
"""
