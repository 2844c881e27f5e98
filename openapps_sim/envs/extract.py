"""What the environment reads from the page each step, where BrowserGym's own extraction is
wrong or slow for us.

* :data:`SCREENSHOT_CALL` — BrowserGym's ``extract_screenshot`` opens a throwaway CDP session, sets
  ``Emulation.setDeviceMetricsOverride`` on it, captures, "restores" the metrics on the same
  session and detaches. Detaching drops that session's override, and Chromium then lays the
  page out at the browser *window* size (800×600 in the headless shell, 780×493 in full
  Chromium) instead of Playwright's viewport, until the next navigation: the agent saw a
  1280×720 screenshot but its clicks landed on an 800×600 layout. Here the capture never
  touches the device metrics, so the page keeps the viewport the screenshot shows. (Nothing in
  browsergym-core sets ``page._bgym_scale_factor``; a harness that sets it for high-resolution
  screenshots gets viewport-sized ones here.)
* :func:`thumbnail_jpeg` — a small JPEG of the viewport, scaled and encoded by Chromium, for
  a sweep's step log when the agent reads no screenshot.
* :func:`focused_element_bid` — the focused element's bid in one round trip instead of four.
* :func:`dom_extra_properties` — BrowserGym's extraction, across its 0.14.x signatures.
"""

from __future__ import annotations

import base64
import inspect
import io

import numpy as np
import PIL.Image
import playwright.sync_api
from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE
from browsergym.core.observation import extract_dom_extra_properties, extract_focused_element_bid

from openapps_sim.envs.pagetree import cdp_session
from openapps_sim.envs.pwspeed import cdp_send

SCREENSHOT_CALL = ("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
"""The CDP call of a PNG of the visible viewport that leaves the page's device metrics as they are,
for a batch (``cdp_send_all``); decode with :func:`decode_png`."""


def decode_png(answer: dict) -> np.ndarray:
    """A ``Page.captureScreenshot`` answer as an RGB array (height, width, 3)."""
    with io.BytesIO(base64.b64decode(answer["data"])) as f:
        image = PIL.Image.open(f)
        image.load()
    return np.array(image if image.mode == "RGB" else image.convert(mode="RGB"))


def thumbnail_call(page: playwright.sync_api.Page, left: float, top: float, width: int, quality: int) -> tuple:
    """The CDP call of a JPEG of the viewport scrolled to (``left``, ``top``) at most ``width``
    pixels wide, scaled and encoded by Chromium; its answer's ``data`` is the JPEG in base64."""
    size = page.viewport_size or {"width": 1280, "height": 720}
    clip = {
        "x": left,  # the clip is in document coordinates: the viewport where it is scrolled to
        "y": top,
        "width": size["width"],  # the whole viewport, its scroll bars included, as a screenshot shows it
        "height": size["height"],
        "scale": min(1.0, width / max(1, size["width"])),
    }
    return "Page.captureScreenshot", {"format": "jpeg", "quality": quality, "optimizeForSpeed": True, "clip": clip}


def thumbnail_jpeg(page: playwright.sync_api.Page, width: int, quality: int = 70) -> bytes:
    """The visible viewport as a JPEG at most ``width`` pixels wide (:func:`thumbnail_call`):
    what a step log keeps, for well under half the CPU of a full PNG screenshot decoded,
    resized and encoded again in Python."""
    session = cdp_session(page)
    view = cdp_send(session, "Page.getLayoutMetrics")["cssVisualViewport"]
    call = thumbnail_call(page, view["pageX"], view["pageY"], width, quality)
    return base64.b64decode(cdp_send(session, *call)["data"])


# In one round trip: whether the server wrote the element ids (the root element carries one),
# the focused element's bid (through shadow roots; an iframe answers frame: true and the caller
# takes BrowserGym's frame-by-frame walk), the document's title (what ``page.title()`` reads) and
# the scroll position of its viewport.
_FACTS_SCRIPT = """
(attr) => {
  let el = document.activeElement;
  while (el && el.shadowRoot) el = el.shadowRoot.activeElement;
  const frame = !!el && (el.tagName === "IFRAME" || el.tagName === "FRAME");
  return {
    marked: document.documentElement.hasAttribute(attr),
    frame: frame,
    bid: (el && !frame && el.getAttribute(attr)) || "",
    title: document.title,
    left: window.visualViewport ? window.visualViewport.pageLeft : window.scrollX,
    top: window.visualViewport ? window.visualViewport.pageTop : window.scrollY,
  };
}
"""


def page_facts(page: playwright.sync_api.Page) -> dict | None:
    """``{marked, frame, bid, title, left, top}`` of the page's document (``left``, ``top``:
    where its viewport is scrolled to), or None while it is being replaced (its execution
    context is gone)."""
    try:
        return page.evaluate(_FACTS_SCRIPT, BROWSERGYM_ID_ATTRIBUTE)
    except playwright.sync_api.Error:
        return None


def focused_element_bid(page: playwright.sync_api.Page, facts: dict | None = None) -> str:
    """BrowserGym's ``extract_focused_element_bid``, from :func:`page_facts` where possible."""
    facts = facts or page_facts(page)
    if facts is None or facts["frame"]:
        return extract_focused_element_bid(page)
    return facts["bid"]


_EXTRA_TAKES_SCALE = "scale_factor" in inspect.signature(extract_dom_extra_properties).parameters


def dom_extra_properties(dom: dict, page: playwright.sync_api.Page) -> dict:
    """Visibility, bounding boxes and clickability per bid (browsergym-core 0.14.0 – 0.14.x)."""
    if _EXTRA_TAKES_SCALE:
        return extract_dom_extra_properties(dom, scale_factor=getattr(page, "_bgym_scale_factor", 1.0))
    return extract_dom_extra_properties(dom)
