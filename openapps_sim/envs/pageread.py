"""One observation's reading of a Chromium page: the DOM snapshot, the accessibility tree, the
screenshot and a thumbnail, taken in one batch of CDP calls where the server wrote the element
ids (a capture waits for the compositor's next frames, about 45 ms here; that wait now overlaps
the tree's extraction instead of following it), else with BrowserGym's own marking pass.
"""

from __future__ import annotations

import base64
import dataclasses
import time

import numpy as np
import playwright.sync_api
from browsergym.core.observation import (
    MarkingError,
    _post_extract,
    _pre_extract,
    extract_dom_snapshot,
    extract_merged_axtree,
)

from openapps_sim.envs.extract import (
    SCREENSHOT_CALL,
    decode_png,
    dom_extra_properties,
    focused_element_bid,
    thumbnail_call,
)
from openapps_sim.envs.pagetree import cdp_session, drop_roles
from openapps_sim.envs.pagetree import extract as extract_marked
from openapps_sim.envs.pwspeed import cdp_send_all

# Errors of BrowserGym's marking pass while a page is being replaced: tried again.
_TRANSIENT = (
    "Frame was detached",
    "Frame with the given frameId is not found",
    "Execution context was destroyed",
    "Frame has been detached",
    "Cannot mark a child frame without a bid",
    "Cannot read properties of undefined",
)


@dataclasses.dataclass
class PageRead:
    dom: dict = dataclasses.field(default_factory=dict)
    axtree: dict = dataclasses.field(default_factory=lambda: {"nodes": []})
    extra: dict = dataclasses.field(default_factory=dict)
    focused: str = ""
    screenshot: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 0, 3), dtype=np.uint8))
    thumbnail: bytes | None = None  # JPEG, when asked for


def read_page(
    page: playwright.sync_api.Page,
    facts: dict | None,
    want_tree: bool,
    want_shot: bool,
    thumbnail: tuple[int, int] | None = None,
    tags_to_mark: str = "standard_html",
) -> PageRead:
    """What an observation reads from ``page`` (``facts``: :func:`~openapps_sim.envs.extract.page_facts`,
    None while the page is being replaced); ``thumbnail``: (width, JPEG quality) of a thumbnail
    to take with it."""
    out = PageRead()
    captures = [SCREENSHOT_CALL] if want_shot else []
    if thumbnail is not None and facts is not None:
        captures.append(thumbnail_call(page, facts["left"], facts["top"], *thumbnail))
    answers: list[dict] = []
    if want_tree and facts is not None and facts["marked"]:
        out.dom, out.axtree, out.extra, answers = extract_marked(page, tuple(captures))
        out.focused = focused_element_bid(page, facts)
    else:
        if want_tree:
            out.dom, out.axtree, out.extra, out.focused = _read_unmarked(page, tags_to_mark)
        if captures:
            answers = cdp_send_all(cdp_session(page), captures)
    if want_shot:
        out.screenshot = decode_png(answers.pop(0))
    if answers:
        out.thumbnail = base64.b64decode(answers[0]["data"])
    return out


def _read_unmarked(page: playwright.sync_api.Page, tags_to_mark: str) -> tuple[dict, dict, dict, str]:
    """BrowserGym's extraction with its marking pass, for a page without server-written ids."""
    for retries_left in reversed(range(5)):
        try:
            _pre_extract(page, tags_to_mark=tags_to_mark, lenient=(retries_left == 0))
            dom = extract_dom_snapshot(page)
            axtree = extract_merged_axtree(page)
            focused = focused_element_bid(page)
            extra = dom_extra_properties(dom, page)
        except (playwright.sync_api.Error, MarkingError) as e:
            if retries_left > 0 and any(t in str(e) for t in _TRANSIENT):
                _post_extract(page)
                time.sleep(0.1)
                continue
            raise
        break
    _post_extract(page)
    return dom, drop_roles(axtree), extra, focused
