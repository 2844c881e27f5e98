"""The report's document model, once for both formats: ``blocks`` (paragraphs, tables, figures,
folds, sections; and their Markdown), ``page`` (the same blocks as FastHTML components: the
self-contained HTML page), ``cells`` (agent, heat and per-agent row cells), ``svg`` (charts),
``style`` (the page's CSS) and ``fmt`` (numbers, intervals, Markdown and terminal tables)."""
