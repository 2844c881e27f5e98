"""Keeping an episode inside its world, and giving actions a machine-sized timeout.

:class:`OriginGuard` makes the episode's app origin (``http://w3.localhost:PORT``) the only
place the browser context can reach:

* every request to another http(s) origin (links, forms, redirects, sub-resources) is aborted
  by a Playwright route whose pattern matches everything *but* the origin, so requests to the
  app itself never make a round trip through Python;
* ``page.goto`` of every page of the context refuses any URL outside the origin, including
  ``data:``, ``file:``, ``javascript:``, ``about:`` and ``chrome:`` URLs that routing never
  sees. The refusal is an exception inside the action, so BrowserGym reports it as the step's
  ``last_action_error`` and the episode goes on.

:func:`raise_action_timeouts` rewrites BrowserGym's ``timeout=500`` keyword arguments in the
action code, token by token, so that text the agent types (a string literal) is never touched
and any action mapping a harness brings gets the same treatment.
"""

from __future__ import annotations

import io
import re
import tokenize
from functools import lru_cache
from urllib.parse import urlsplit

import playwright.sync_api


class BlockedNavigation(Exception):
    """An action tried to leave the episode's world."""


def same_origin(url: str, origin: str) -> bool:
    """Whether ``url`` has the scheme, host and port of ``origin`` (``http://host:port``)."""
    try:
        a, b = urlsplit(url), urlsplit(origin)
        return a.scheme in ("http", "https") and (a.scheme, a.hostname, a.port) == (b.scheme, b.hostname, b.port)
    except ValueError:
        return False


class OriginGuard:
    def __init__(self, origin: str):
        u = urlsplit(origin)
        self.origin = f"{u.scheme}://{u.netloc}"
        # Everything that does not start with the origin followed by "/", "?", "#" or the end.
        self._outside = re.compile("^(?!" + re.escape(self.origin) + r"(?:[/?#]|$))")

    def allowed(self, url: str) -> bool:
        return same_origin(url, self.origin)

    def install(self, context: playwright.sync_api.BrowserContext) -> None:
        context.route(self._outside, self._abort)
        context.on("page", self.guard_page)
        for page in context.pages:
            self.guard_page(page)

    @staticmethod
    def _abort(route: playwright.sync_api.Route) -> None:
        route.abort("blockedbyclient")

    def guard_page(self, page: playwright.sync_api.Page) -> None:
        """Replace this page's ``goto`` with one that refuses URLs outside the origin."""
        if getattr(page, "_openapps_guarded", False):
            return
        original = page.goto
        guard = self

        def goto(url: str, *args, **kwargs):
            if not guard.allowed(url):
                raise BlockedNavigation(
                    f"navigation to {url[:200]!r} is blocked: only {guard.origin} is reachable in this episode"
                )
            return original(url, *args, **kwargs)

        page.goto = goto
        page._openapps_guarded = True


_TIMEOUT_LITERAL = "500"


def raise_action_timeouts(code: str, timeout_ms: int) -> str:
    """``code`` with every ``timeout=500`` keyword argument set to ``timeout_ms``; string
    literals (what the agent types) stay as they are."""
    if "timeout=500" not in code:
        return code
    # The action set's function definitions repeat every step and the call is the last line
    # (``repr`` keeps the agent's arguments on one line): tokenize and rewrite them once.
    body = code.rstrip("\n")
    head, sep, tail = body.rpartition("\n")
    if sep and _tokens_safe(head + "\n"):
        return _rewrite(head + "\n", timeout_ms) + _rewrite(tail + code[len(body) :], timeout_ms)
    return _rewrite(code, timeout_ms)


@lru_cache(maxsize=32)
def _tokens_safe(code: str) -> bool:
    try:
        list(tokenize.generate_tokens(io.StringIO(code).readline))
        return True
    except (tokenize.TokenError, SyntaxError):
        return False


@lru_cache(maxsize=64)
def _rewrite_cached(code: str, timeout_ms: int) -> str:
    return _rewrite_uncached(code, timeout_ms)


def _rewrite(code: str, timeout_ms: int) -> str:
    if len(code) > 2000:
        return _rewrite_cached(code, timeout_ms)
    return _rewrite_uncached(code, timeout_ms)


def _rewrite_uncached(code: str, timeout_ms: int) -> str:
    if "timeout=500" not in code:
        return code
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return code
    lines = code.splitlines(keepends=True)
    edits = []
    for i in range(2, len(tokens)):
        name, op, num = tokens[i - 2], tokens[i - 1], tokens[i]
        if (
            num.type == tokenize.NUMBER
            and num.string == _TIMEOUT_LITERAL
            and op.type == tokenize.OP
            and op.string == "="
            and name.type == tokenize.NAME
            and name.string == "timeout"
        ):
            edits.append(num.start)
    for row, col in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + str(timeout_ms) + line[col + len(_TIMEOUT_LITERAL) :]
    return "".join(lines)
