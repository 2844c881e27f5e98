"""Measuring pages in a real browser: horizontal overflow and words broken at odd points.

``python -m tests.layout_probe [pack ...]`` prints the table of every app page × pack × width
that is wider than the viewport or breaks a word mid-word (what tests/test_layout.py asserts).
"""

from __future__ import annotations

import re
import sys
from urllib.parse import urlsplit

from openapps_sim.config.catalog import discover_apps

WIDTHS = (360, 390, 480)
PAGES_PER_APP = 6

# A word (a run of letters, digits and dots: "reschedule", "README.md") drawn on more than one
# line, although it is narrower than its box or than 45% of the viewport: a break no reader
# expects, such as "reschedul/e" or "REA/DME/.md". Breaks at spaces, hyphens, slashes and other
# punctuation are fine, as are longer words (URLs, long file names) and Chinese or Japanese
# text, which breaks between any two characters.
BAD_BREAKS_JS = r"""
() => {
  const bad = [];
  const vw = window.innerWidth;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest('script,style,textarea,pre,svg,code')) continue;
    const re = /[\p{L}\p{N}\p{M}_.]+/gu;
    let m;
    while ((m = re.exec(node.data))) {
      if (m[0].length < 3 || cjk.test(m[0])) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0.5);
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (tops.size < 2) continue;
      const width = rects.reduce((s, r) => s + r.width, 0);
      let box = el;
      while (box.parentElement && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
      const cs = getComputedStyle(box);
      const avail = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (width <= Math.max(avail, 0.45 * vw)) bad.push(m[0]);
    }
  }
  return bad.slice(0, 8);
}
"""


def app_pages(page, base_url: str, app: str) -> list[str]:
    """The app's start page and up to PAGES_PER_APP - 1 pages it links to, one per kind of
    page (first path segment and query keys), so lists, details and forms are all measured."""
    root = "/" if app == "start" else f"/{app}/"
    page.goto(base_url + root)
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    kinds: dict[str, str] = {}
    for href in hrefs:
        if app == "start" or not href.startswith(root) or href == root:
            continue
        parts = urlsplit(href)
        segment = parts.path[len(root) :].split("/")[0]
        keys = ",".join(sorted(q.split("=")[0] for q in parts.query.split("&") if q))
        kinds.setdefault(f"{segment}?{keys}", href.split("#")[0])
    return [root, *list(kinds.values())[: PAGES_PER_APP - 1]]


def measure(page, url: str) -> dict:
    resp = page.goto(url)
    page.wait_for_load_state("load")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    view = page.evaluate("() => window.innerWidth")
    return {"status": resp.status if resp else 0, "width": width, "viewport": view, "bad": page.evaluate(BAD_BREAKS_JS)}


def problems(server, browser, pack: str, widths=WIDTHS, apps=None) -> list[str]:
    """One line per page of ``pack`` that is too wide or breaks a word badly."""
    server.reset(pack, 0)
    out = []
    context = browser.new_context(viewport={"width": widths[0], "height": 740})
    page = context.new_page()
    try:
        for app in apps or discover_apps():
            for path in app_pages(page, server.url, app):
                for w in widths:
                    page.set_viewport_size({"width": w, "height": 320 if w == 480 else 740})
                    got = measure(page, server.url + path)
                    if got["status"] != 200:
                        out.append(f"{pack:24} {w:4} {path}: HTTP {got['status']}")
                    if got["width"] > got["viewport"]:
                        out.append(f"{pack:24} {w:4} {path}: {got['width']} px wide")
                    if got["bad"]:
                        out.append(f"{pack:24} {w:4} {path}: words broken: {', '.join(got['bad'])}")
    finally:
        context.close()
    return out


def _main(argv: list[str]) -> None:
    from openapps_sim.config.packs import list_packs
    from openapps_sim.envs.browser import launch_browser
    from openapps_sim.web.server import app_server

    chosen = argv or sorted(list_packs())
    server = app_server().add()
    browser = launch_browser(headless=True)
    try:
        total = 0
        for pack in chosen:
            lines = problems(server, browser, pack)
            total += len(lines)
            for line in lines:
                print(re.sub(r"\s+$", "", line), flush=True)
        print(f"{total} problem(s) over {len(chosen)} pack(s) x widths {WIDTHS}")
    finally:
        browser.close()
        app_server().drop(server)


if __name__ == "__main__":
    _main(sys.argv[1:])
