"""What the environment reads from the page each step, where BrowserGym's own extraction is
wrong or slow for us.

* :func:`screenshot` — BrowserGym's ``extract_screenshot`` opens a throwaway CDP session, sets
  ``Emulation.setDeviceMetricsOverride`` on it, captures, "restores" the metrics on the same
  session and detaches. Detaching drops that session's override, and Chromium then lays the
  page out at the browser *window* size (800×600 in the headless shell, 780×493 in full
  Chromium) instead of Playwright's viewport, until the next navigation: the agent saw a
  1280×720 screenshot but its clicks landed on an 800×600 layout. Here the capture never
  touches the device metrics, so the page keeps the viewport the screenshot shows. (Nothing in
  browsergym-core sets ``page._bgym_scale_factor``; a harness that sets it for high-resolution
  screenshots gets viewport-sized ones here.)
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


def screenshot(page: playwright.sync_api.Page) -> np.ndarray:
    """The visible viewport as an RGB array (height, width, 3), without changing the page's
    device metrics."""
    cdp = page.context.new_cdp_session(page)
    try:
        answer = cdp.send("Page.captureScreenshot", {"format": "png"})
    finally:
        cdp.detach()
    with io.BytesIO(base64.b64decode(answer["data"])) as f:
        return np.array(PIL.Image.open(f).convert(mode="RGB"))


# The focused element's bid in one round trip (through shadow roots); an iframe answers
# {frame: true} and the caller falls back to BrowserGym's frame-by-frame walk.
_FOCUSED_BID_SCRIPT = """
(attr) => {
  let el = document.activeElement;
  while (el && el.shadowRoot) el = el.shadowRoot.activeElement;
  if (!el) return {frame: false, bid: ""};
  if (el.tagName === "IFRAME" || el.tagName === "FRAME") return {frame: true, bid: ""};
  return {frame: false, bid: el.getAttribute(attr) || ""};
}
"""


def focused_element_bid(page: playwright.sync_api.Page) -> str:
    """BrowserGym's ``extract_focused_element_bid`` with one call instead of four per step."""
    found = page.evaluate(_FOCUSED_BID_SCRIPT, BROWSERGYM_ID_ATTRIBUTE)
    if found["frame"]:
        return extract_focused_element_bid(page)
    return found["bid"]


_EXTRA_TAKES_SCALE = "scale_factor" in inspect.signature(extract_dom_extra_properties).parameters


def dom_extra_properties(dom: dict, page: playwright.sync_api.Page) -> dict:
    """Visibility, bounding boxes and clickability per bid (browsergym-core 0.14.0 – 0.14.x)."""
    if _EXTRA_TAKES_SCALE:
        return extract_dom_extra_properties(dom, scale_factor=getattr(page, "_bgym_scale_factor", 1.0))
    return extract_dom_extra_properties(dom)
