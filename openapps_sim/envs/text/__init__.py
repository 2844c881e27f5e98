"""The text backend: BrowserGym's observation and actions without a browser.

Our apps render every page on the server and run no script, so what a text agent reads can be
produced from the HTML alone: :mod:`.dom` parses a page, :mod:`.css` computes the few styles
the accessibility tree depends on, :mod:`.axtree` (with :mod:`.roles` and :mod:`.names`) builds
the tree in the form Chromium's has, :mod:`.page` holds a tab (history, form state, focus) and
runs BrowserGym's bid actions on it, and :mod:`.env` is the Gymnasium environment.
"""
