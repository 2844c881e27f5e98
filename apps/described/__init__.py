"""Described apps: every folder holding an ``app.yaml`` on the search path becomes an app
(docs/apps/spec.md). The format is :mod:`.format` and :mod:`.checks`."""
