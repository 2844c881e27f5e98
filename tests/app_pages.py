"""What the app tests through a real browser share."""

from __future__ import annotations

import re


def address_data_testid() -> None:
    """Points ``get_by_test_id`` at the pages' ``data-testid``. The setting is Playwright's and
    process-wide, and every env made in the process points it at BrowserGym's ``bid`` instead:
    a test that opens its own page after an env of its process (test order decides) must set it
    again."""
    from browsergym.core import _get_global_playwright

    _get_global_playwright().selectors.set_test_id_attribute("data-testid")


def assert_clean(page) -> None:
    """The page asked no other host for anything and logged no console error (see the ``page``
    fixture)."""
    assert not page.external_requests, page.external_requests
    assert not page.console_errors, page.console_errors


def click_to(page, testid: str, url: str) -> None:
    """Click the element with ``testid`` and wait until the page's URL matches ``url``, a regular
    expression searched in it."""
    page.get_by_test_id(testid).click()
    page.wait_for_url(re.compile(url))


def assert_unchanged(page, server, app: str, before: dict) -> None:
    """Browsing changed nothing: ``app``'s state is still ``before``, no app logged an event, and
    the page stayed clean."""
    assert server.snapshot()[1][app] == before  # an app not read yet equals its drawn state
    assert server.events == []
    assert_clean(page)
