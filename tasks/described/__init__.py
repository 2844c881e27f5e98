"""The task families of every described app (docs/apps/spec.md): ``edits`` (create, edit,
delete, toggle, status, quantity, flows, settings), ``answers`` (lookups, counts, totals),
``composed`` (navigate, conditional, sequence, long), ``maths`` (average, highest / lowest,
difference), ``crossapp`` (a flow into the calendar, a flow's total into a message, a change
into a todo item), ``acts`` (one change of a record, as the families of several state it) and
``kit``, what all share."""
