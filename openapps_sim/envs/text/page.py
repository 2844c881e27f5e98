"""One browser tab without a browser: it loads pages from the world (in memory, through the
app server's routes: ``fetch``), keeps the history, the focus and what was typed into forms,
and submits forms as a browser does.

Pages are asked for with the server's element-id header, so every page arrives with the same
``bid`` attributes Chromium sees. Only the world's own origin is reachable, as under the Chromium
backend's origin guard. Redirects are followed as a browser follows them (303, 302 and 301
turn a POST into a GET; 307 and 308 repeat it).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urljoin, urlsplit

from openapps_sim.envs.guard import BlockedNavigation, same_origin
from openapps_sim.envs.text.cascade import compute_styles
from openapps_sim.envs.text.css import stylesheet
from openapps_sim.envs.text.dom import Document, Element, option_value, parse
from openapps_sim.envs.text.kept import PAGES

BLANK = "about:blank"
_BLANK_HTML = "<html><head></head><body></body></html>"
_MAX_REDIRECTS = 10
# how a tab loads a page: (method, path and query, form body or None) -> (status, location, html)
Fetch = Callable[[str, str, "bytes | None"], tuple[int, str, str]]


class TextPage:
    """A tab: ``url``, the parsed ``doc``, its history, and the viewport width CSS sees."""

    def __init__(self, origin: str, viewport: dict, fetch: Fetch | None = None) -> None:
        u = urlsplit(origin)
        self.origin = f"{u.scheme}://{u.netloc}"
        self.viewport = dict(viewport)
        self.fetch = fetch
        self.history: list[str] = []
        self.position = -1
        self.doc: Document = parse(_BLANK_HTML, BLANK)
        self._html = _BLANK_HTML
        self._style()
        self.closed = False

    @property
    def url(self) -> str:
        return self.doc.url

    def title(self) -> str:
        return self.doc.title

    def is_closed(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True
        self.doc.release()

    # -- navigation ------------------------------------------------------------------------------
    def goto(self, url: str, *_, **__) -> None:
        if url == BLANK:
            self._show(_BLANK_HTML, BLANK)
            self._push(BLANK)
            return
        self.navigate("GET", url)  # another origin is refused by _fetch, before anything changes

    def navigate(self, method: str, url: str, body: str | None = None, replace: bool = False) -> None:
        final, html = self._fetch(method, url, body)
        self._show(html, final)
        if replace and self.position >= 0:
            self.history[self.position] = final
        else:
            self._push(final)

    def reload(self) -> None:
        if self.url != BLANK:
            final, html = self._fetch("GET", self.url, None)
            self._show(html, final)

    def go_back(self) -> None:
        if self.position > 0:
            self.position -= 1
            self._revisit()

    def go_forward(self) -> None:
        if self.position < len(self.history) - 1:
            self.position += 1
            self._revisit()

    def _revisit(self) -> None:
        url = self.history[self.position]
        if url == BLANK:
            self._show(_BLANK_HTML, BLANK)
        else:
            final, html = self._fetch("GET", url, None)
            self._show(html, final)

    def _push(self, url: str) -> None:
        del self.history[self.position + 1 :]
        self.history.append(url)
        self.position = len(self.history) - 1

    def _show(self, html: str, url: str) -> None:
        # The same HTML (a reload, a link to the page shown, a redirect back to it, another URL
        # that renders the same page) is the page already parsed, brought back to its state as
        # loaded at this URL: no new parse or styles, and no new tree when the URL is the same
        # too (the observation is kept per state of the page, URL included: text.kept).
        if html == self._html and self.doc.restore(url):
            if self.doc.focused is not self.doc.styled_focus:
                self.restyle()
            return
        old, self.doc = self.doc, load(html, url, int(self.viewport.get("width", 1280)))
        old.release()  # no tab shows it any more: freed now, not by the collector
        self._html = html

    def _style(self) -> None:
        doc = self.doc
        compute_styles(doc.root, doc.stylesheet, int(self.viewport.get("width", 1280)), doc.focused)
        doc.styled_focus = doc.focused

    def restyle(self, focus_only: bool = True) -> None:
        """Compute styles again: after the focus moved (only when a rule of the page's style
        sheet reads ``:focus``), or after an attribute changed (``focus_only=False``)."""
        if focus_only and not stylesheet(self.doc.stylesheet).reads_focus:
            self.doc.styled_focus = self.doc.focused  # no rule reads it: the styles hold
            return
        self._style()

    # -- loading ----------------------------------------------------------------------------------
    def _fetch(self, method: str, url: str, body: str | None) -> tuple[str, str]:
        for _ in range(_MAX_REDIRECTS):
            if not same_origin(url, self.origin):
                raise BlockedNavigation(
                    f"navigation to {url[:200]!r} is blocked: only {self.origin} is reachable in this episode"
                )
            status, location, html = self._request(method, url, body)
            if status in (301, 302, 303, 307, 308) and location:
                url = urljoin(url, location)
                if status not in (307, 308):
                    method, body = "GET", None
                continue
            return url, html
        raise RuntimeError(f"net::ERR_TOO_MANY_REDIRECTS at {url}")

    def _request(self, method: str, url: str, body: str | None) -> tuple[int, str, str]:
        if self.fetch is None:
            raise RuntimeError(f"net::ERR_FAILED at {url}: this tab reaches no world")
        u = urlsplit(url)
        target = (u.path or "/") + (f"?{u.query}" if u.query else "")
        return self.fetch(method, target, body.encode() if body is not None else None)

    # -- forms ------------------------------------------------------------------------------------
    def submit(self, form: Element, submitter: Element | None = None) -> None:
        """Submit ``form`` as a browser does, ``submitter`` being the button that did it."""
        sub = submitter.attrs if submitter is not None else {}
        method = (sub.get("formmethod") or form.get("method") or "get").lower()
        action = sub.get("formaction") if "formaction" in sub else form.get("action")
        url = urljoin(self.url, action) if action else self.url
        entries = urlencode(form_entries(self.doc, form, submitter))
        if method == "post":
            self.navigate("POST", url, entries)
        else:
            base = url.split("#")[0].split("?")[0]
            self.navigate("GET", f"{base}?{entries}")


def load(html: str, url: str, width: int) -> Document:
    """``html`` parsed and styled at viewport ``width``, as loaded at ``url``: a fresh copy of
    the page kept for the same HTML and width (any tab, episode or thread of the process; the
    launcher of every reset), else parsed now."""
    doc = PAGES.get((html, width), lambda: _parsed(html, width))
    doc.url = url
    return doc


def _parsed(html: str, width: int) -> Document:
    doc = parse(html, BLANK)  # the URL is the caller's
    compute_styles(doc.root, doc.stylesheet, width, doc.focused)
    doc.styled_focus = doc.focused
    doc.source = (html, width)
    return doc


def form_controls(doc: Document, form: Element) -> list[Element]:
    owned = form.get("id")
    out = []
    for el in doc.elements:
        if el.tag not in ("input", "select", "textarea", "button"):
            continue
        owner = el.get("form")
        if (owner is not None and owner == owned) or (owner is None and el.closest("form") is form):
            out.append(el)
    return out


def form_entries(doc: Document, form: Element, submitter: Element | None) -> list[tuple[str, str]]:
    """The name-value pairs a browser submits, in tree order (line breaks of text areas as CRLF)."""
    entries: list[tuple[str, str]] = []
    for el in form_controls(doc, form):
        name = el.get("name")
        if el.has("disabled") or any(a.tag == "fieldset" and a.has("disabled") for a in el.ancestors()):
            continue
        kind = el.input_type
        if el.tag == "button" or kind in ("submit", "reset", "button", "image"):
            if el is not submitter:
                continue
            if kind == "image":  # clicked where Playwright clicks: the middle of the image
                prefix = f"{name}." if name else ""
                x, y = _size(el.get("width")) // 2, _size(el.get("height")) // 2
                entries += [(prefix + "x", str(x)), (prefix + "y", str(y))]
                continue
        if not name:
            continue
        if el.tag == "select":
            entries += [(name, option_value(o)) for o in el.iter() if o.tag == "option" and o.selected]
        elif kind in ("checkbox", "radio"):
            if el.checked:
                entries.append((name, el.get("value", "on")))
        elif el.tag == "textarea":
            entries.append((name, (el.value or "").replace("\r\n", "\n").replace("\n", "\r\n")))
        elif kind == "file":
            continue
        else:
            entries.append((name, el.value if el.value is not None else el.get("value", "")))
    return entries


def _size(value: str | None) -> int:
    try:
        return int(float(value or 0))
    except ValueError:
        return 0
