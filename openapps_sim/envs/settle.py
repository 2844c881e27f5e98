"""Waiting, after an action, for the page load that the action started.

BrowserGym waits for ``domcontentloaded`` after each action, and Playwright waits for the
navigations an input action *signals* while it runs. A submit button pressed with
``mouse_click(x, y)`` or with Enter, though, only *plans* its navigation: the browser queues it
as a task after the click has been handled. On a loaded machine Playwright has returned by
then, the old document still reports "loaded", and the step validated the world before the
form's POST reached the server: the reward of the step that completed a task was 0, and it
turned 1 one step later (seen 3 times in 30 coordinate episodes at load 14; every time with the
renderer slowed 30×). The agent was also shown the page from before its own click.

:data:`LEAVING_SCRIPT` (an init script of every page) notes, when a link is followed or a form
is submitted in the page, the URL the page is leaving for. :func:`settle` waits until that
document has been replaced — the new one has no note — or the deadline passes. Navigations
outside the world are aborted by the origin guard, so they are not waited for; a page shown
again from the back-forward cache forgets its note.

A mouse wheel (BrowserGym's ``scroll``) is another such case: Playwright returns once the browser
has the event, and the page scrolls a frame or more later (a read right after it saw the old
offset in 1 of 3 tries here, 4-7 ms; longer on a loaded machine, where a test saw a whole
observation from before the scroll). :func:`count_wheels` counts the wheels an action sends to
a page, the script counts those that reach it, and :func:`wheels_landed` waits, after the
action, for every one and for the frame that applies it.

The same script notes the page's ``load`` event, so that the read which finds a page staying
also tells whether it has loaded (its images too): then BrowserGym's waits for the load states
of the page and of each of its frames, six messages through Playwright's driver, are not needed.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import playwright.sync_api

LEAVING_SCRIPT = """
(() => {
  const note = (url) => { window.__openappsLeaving = String(url); };
  const replaced = (url) => {
    const to = new URL(url, location.href);
    if (to.protocol !== "http:" && to.protocol !== "https:") return false;
    const here = new URL(location.href);
    return !(to.hash && to.href.split("#")[0] === here.href.split("#")[0]);
  };
  window.addEventListener("submit", (e) => {
    if (e.defaultPrevented) return;
    const form = e.target, by = e.submitter;
    const target = (by && by.getAttribute("formtarget")) || form.getAttribute("target") || "";
    if (target && target !== "_self") return;
    const url = (by && by.hasAttribute("formaction") && by.formAction) || form.action || location.href;
    if (replaced(url) || (form.method || "").toLowerCase() === "post") note(url);
  });
  window.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || !e.target || !e.target.closest) return;
    const a = e.target.closest("a[href]");
    if (!a || a.hasAttribute("download") || (a.target && a.target !== "_self")) return;
    if (replaced(a.href)) note(a.href);
  });
  window.addEventListener("pageshow", () => { window.__openappsLeaving = ""; });
  window.addEventListener("wheel", () => { window.__openappsWheels = (window.__openappsWheels || 0) + 1; },
                          {capture: true, passive: true});
  window.addEventListener("load", () => { window.__openappsLoaded = true; });
})();
"""

# Where the page is going, and whether it has fired its load event and holds no frame (a frame
# may still be loading after its parent's load: then the driver's waits are the ones to use).
_READ = "() => [window.__openappsLeaving || '', window.__openappsLoaded === true && window.frames.length === 0]"


def _read(page: playwright.sync_api.Page) -> tuple[str | None, bool]:
    """:func:`leaving_for`, and whether the document has loaded (see ``_READ``)."""
    try:
        target, loaded = page.evaluate(_READ)
    except playwright.sync_api.Error:
        return None, False
    return target, bool(loaded)


def leaving_for(page: playwright.sync_api.Page) -> str | None:
    """The URL this page's document is leaving for, ``""`` when it is staying, ``None`` while
    the document is being replaced (its execution context is gone)."""
    return _read(page)[0]


def settle(page: playwright.sync_api.Page, allowed: Callable[[str], bool], timeout_ms: int) -> bool | None:
    """Wait until the navigation the last action started in ``page`` has replaced its document
    (``allowed`` tells which URLs the browser may reach). Returns True when that document has
    also fired its load event (nothing left to wait for), None when it is still loading (or the
    page is closed), False when the deadline passed first."""
    if page.is_closed():
        return None
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        target, loaded = _read(page)
        if target == "" or (target and not allowed(target)):
            return True if loaded and target == "" else None
        if time.monotonic() >= deadline or page.is_closed():
            return False
        page.wait_for_timeout(20)


WHEEL_WAIT_MS = 500  # for a wheel to reach the page: only a wheel outside the viewport waits it out

# Resolves once n wheels have reached the page (or ms have passed: a wheel sent outside the
# viewport reaches no page) and a frame has run after them; counts them as waited for.
_WHEELS_LANDED = """async ([n, ms]) => {
  const end = performance.now() + ms;
  while ((window.__openappsWheels || 0) < n && performance.now() < end) await new Promise(r => setTimeout(r, 4));
  await new Promise(r => requestAnimationFrame(() => r()));
  window.__openappsWheels = 0;
}"""


def count_wheels(page: playwright.sync_api.Page) -> None:
    """Count the wheels sent through ``page.mouse`` (whatever its ``wheel`` is) from now on."""
    mouse = page.mouse
    if getattr(mouse.wheel, "counted", False):
        return
    wheel = mouse.wheel

    def counted(delta_x: float, delta_y: float) -> None:
        wheel(delta_x, delta_y)
        counted.sent += 1

    counted.counted, counted.sent = True, 0
    mouse.wheel = counted


def wheels_landed(page: playwright.sync_api.Page, timeout_ms: float) -> None:
    """Wait until the wheels :func:`count_wheels` saw sent have scrolled the page (at most
    ``timeout_ms`` for them to arrive)."""
    sent = getattr(page.mouse.wheel, "sent", 0)
    if not sent or page.is_closed():
        return
    page.mouse.wheel.sent = 0
    with contextlib.suppress(playwright.sync_api.Error):  # the document was replaced meanwhile
        page.evaluate(_WHEELS_LANDED, [sent, timeout_ms])


def after_action(context: playwright.sync_api.BrowserContext, allowed: Callable[[str], bool], timeout_ms: int) -> None:
    """The waits after an action, for every page of ``context``: the wheels it sent have
    scrolled, the page load it started has replaced the document (:func:`settle`), then
    BrowserGym's wait and the images' (validated after the action). A page whose settled read
    found it loaded needs neither of those two."""
    pages = list(context.pages)
    for page in pages:
        wheels_landed(page, WHEEL_WAIT_MS)
    loading = [p for p in pages if not settle(p, allowed, timeout_ms)]
    loading += [p for p in context.pages if p not in pages]  # opened meanwhile: waited for
    for page in loading:
        dom_loaded(page)
    for page in loading:
        images_loaded(page, timeout_ms)


def dom_loaded(page: playwright.sync_api.Page) -> None:
    """BrowserGym's wait after an action, for one page: ``domcontentloaded`` of the page and of
    each of its frames, errors ignored."""
    for waiter in (page, *page.frames):
        with contextlib.suppress(playwright.sync_api.Error):
            waiter.wait_for_load_state("domcontentloaded", timeout=3000)


def images_loaded(page: playwright.sync_api.Page, timeout_ms: float) -> None:
    """Wait (at most ``timeout_ms``) for the page's ``load`` event: its images too. Until then
    Chromium's tree marks the page ``busy=1`` (seen on the map page, whose canvas is an image),
    an attribute the text backend, which loads no images, never shows."""
    with contextlib.suppress(playwright.sync_api.Error):
        page.wait_for_load_state("load", timeout=timeout_ms)


# Tells the environment which page is active; events that mean "the user is here".
ACTIVE_PAGE_SCRIPT = """
(() => {
  const ping = () => window.browsergym_page_activated();
  ping();
  for (const ev of ["focus", "focusin", "load", "pageshow", "mousedown", "mouseup", "wheel", "keydown", "input"]) {
    window.addEventListener(ev, ping, {capture: true});
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") ping(); });
})();
"""
