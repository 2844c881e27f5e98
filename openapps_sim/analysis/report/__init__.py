"""Reliability report for a results folder: ``report.md`` and a self-contained ``report.html``.

A results folder (written by a sweep) holds::

    results.jsonl                      one JSON object per episode (see docs/metrics.md)
    manifest.json                      what reproduces the run (version, commit, spec, seeds ...)
    trajectories/<episode_id>.json     optional: goal and per-step action, error, url, screenshot
    screenshots/...                    optional: PNGs the trajectories point to

    thumbnails/...                     small JPEGs of every step (recorded by default)

(or the ``episode.json`` of one ``openapps run --out``). Every number comes from a module of
:mod:`openapps_sim.analysis.metrics`, and so does every section but the core ones. The HTML needs
nothing but itself: CSS is inline, charts are inline SVG components, screenshots are embedded as
(downscaled) data URIs, and there is no script. It loads nothing from any host.

Modules: ``load`` (reading a results folder), ``analysis`` (the frames several sections share,
computed once), ``build`` (every module's ``SHOWN`` drawn in order: the report, its summary and
its paper views), ``headline``, ``sections`` and ``rows`` (the core sections), ``trajectories``,
``viewer`` and ``images`` (the trajectory viewer) and ``write``. The document model they draw
into is :mod:`openapps_sim.analysis.doc`.
"""
