"""The task families of every described app (docs/apps/spec.md): ``edits`` (create, edit,
delete, toggle, status, quantity, flows, settings), ``answers`` (lookups, counts, totals) and
``kit``, what both share."""
