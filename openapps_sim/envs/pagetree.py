"""The accessibility tree and DOM snapshot of a page whose element ids were given by the server.

BrowserGym marks every element of a page with a script before each observation (about a fifth
of a step: ~46 ms of ~235) and smuggles the ids into Chromium's accessibility tree through aria
attributes. Our server writes the same ids into the HTML (:mod:`openapps_sim.web.bids`), so
here the page is read as it is: one CDP session per page, the full accessibility tree and a
DOM snapshot, joined by Chromium's backend node ids — no script runs in the page and the page
is never modified.

Two things differ from BrowserGym's extraction, both on purpose and shared with the text
backend (:mod:`openapps_sim.envs.text`):

* ``InlineTextBox`` nodes are dropped. They say where Chromium wrapped a text at this width and
  font and repeat their ``StaticText`` word for word; ``flatten_axtree_to_str`` keeps them, so
  every text reached an agent's prompt twice (measured in ``make bench``: the "InlineTextBox
  share" line). No agent loses information by their absence.
* ``extra_element_properties`` are computed from the snapshot's layout: visibility is the share
  of an element's box inside the viewport (BrowserGym asks an IntersectionObserver, which also
  sees clipping by scrolled containers), ``set_of_marks`` marks visible interactive elements of
  a set-of-marks tag.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import playwright.sync_api
from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE

from openapps_sim.envs.pwspeed import cdp_send_all

DROPPED_ROLES = ("InlineTextBox",)
_SOM_TAGS = {"INPUT", "TEXTAREA", "SELECT", "BUTTON", "A", "IFRAME", "VIDEO", "LI", "TD", "OPTION"}
_sessions: WeakKeyDictionary = WeakKeyDictionary()


def cdp_session(page: playwright.sync_api.Page):
    """One CDP session per page, kept for the page's life (opening one costs a round trip)."""
    session = _sessions.get(page)
    if session is None:
        session = page.context.new_cdp_session(page)
        _sessions[page] = session
    return session


def drop_roles(axtree: dict, roles: tuple[str, ...] = DROPPED_ROLES) -> dict:
    """``axtree`` without the nodes of ``roles`` (and without their ids in ``childIds``)."""
    gone = {n["nodeId"] for n in axtree["nodes"] if n.get("role", {}).get("value") in roles}
    if not gone:
        return axtree
    nodes = []
    for n in axtree["nodes"]:
        if n["nodeId"] in gone:
            continue
        if any(c in gone for c in n.get("childIds", ())):
            n["childIds"] = [c for c in n["childIds"] if c not in gone]
        nodes.append(n)
    return {**axtree, "nodes": nodes}


def extract(page: playwright.sync_api.Page, also: tuple = ()) -> tuple[dict, dict, dict, list[dict]]:
    """(DOM snapshot, accessibility tree with ``browsergym_id``s, extra element properties, the
    answers of the CDP calls ``also``) of a page whose ids were written by the server. The calls
    ``also`` (a screenshot) go out in the same batch: a capture's wait for a frame overlaps the
    tree's extraction."""
    cdp = cdp_session(page)
    calls = [
        ("Accessibility.getFullAXTree", {}),
        ("DOMSnapshot.captureSnapshot", {"computedStyles": [], "includeDOMRects": True, "includePaintOrder": True}),
    ]
    axtree, dom, *answers = cdp_send_all(cdp, [*calls, *also])
    bids = _bids_by_backend_id(dom)
    for node in axtree["nodes"]:
        bid = bids.get(node.get("backendDOMNodeId"))
        if bid is not None and node.get("role", {}).get("value") not in ("StaticText", "InlineTextBox"):
            node["browsergym_id"] = bid
    viewport = page.viewport_size or {"width": 1280, "height": 720}
    return dom, drop_roles(axtree), _extra_properties(dom, viewport), answers


def _bids_by_backend_id(dom: dict) -> dict[int, str]:
    strings = dom["strings"]
    try:
        bid_id = strings.index(BROWSERGYM_ID_ATTRIBUTE)
    except ValueError:
        return {}
    out = {}
    for doc in dom["documents"]:
        nodes = doc["nodes"]
        for backend_id, attrs in zip(nodes["backendNodeId"], nodes["attributes"], strict=False):
            for k in range(0, len(attrs) - 1, 2):
                if attrs[k] == bid_id:
                    out[backend_id] = strings[attrs[k + 1]]
                    break
    return out


def _extra_properties(dom: dict, viewport: dict) -> dict:
    strings = dom["strings"]
    try:
        bid_id = strings.index(BROWSERGYM_ID_ATTRIBUTE)
    except ValueError:
        return {}
    out: dict[str, dict] = {}
    width, height = viewport["width"], viewport["height"]
    for doc in dom["documents"][:1]:
        nodes = doc["nodes"]
        sx, sy = doc.get("scrollOffsetX", 0), doc.get("scrollOffsetY", 0)
        clickable = set(nodes.get("isClickable", {}).get("index", ()))
        boxes = {}
        for idx, bounds, rects in zip(
            doc["layout"]["nodeIndex"], doc["layout"]["bounds"], doc["layout"]["clientRects"], strict=False
        ):
            if rects:
                boxes[idx] = [bounds[0] - sx, bounds[1] - sy, bounds[2], bounds[3]]
        for idx, attrs in enumerate(nodes["attributes"]):
            bid = None
            for k in range(0, len(attrs) - 1, 2):
                if attrs[k] == bid_id:
                    bid = strings[attrs[k + 1]]
                    break
            if bid is None:
                continue
            box = boxes.get(idx)
            visibility = _visible_share(box, width, height)
            tag = strings[nodes["nodeName"][idx]]
            out[bid] = {
                "visibility": visibility,
                "bbox": box,
                "clickable": idx in clickable,
                "set_of_marks": bool(
                    box and visibility >= 0.5 and box[2] * box[3] >= 20 and (tag in _SOM_TAGS or idx in clickable)
                ),
            }
    return out


def _visible_share(box: list | None, width: float, height: float) -> float:
    if not box or box[2] <= 0 or box[3] <= 0:
        return 0.0
    x, y, w, h = box
    iw = max(0.0, min(x + w, width) - max(x, 0.0))
    ih = max(0.0, min(y + h, height) - max(y, 0.0))
    return round(iw * ih / (w * h), 2)
