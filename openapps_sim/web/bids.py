"""Element ids (BrowserGym ``bid``s) given at render time.

BrowserGym gives every element of a page a ``bid`` attribute with a script it runs in the page
before each observation (a counter over the standard HTML elements in document order). Our pages
are rendered on the server and run no script, so the server can write the same attributes
into the HTML it sends: the browser then needs no marking pass, and a backend without a browser
reads the very same ids from the same document.

Ids are given only to requests that ask for them (header :data:`~openapps_sim.protocol.BIDS_HEADER`),
so that stock BrowserGym — whose marking pass refuses a page that already carries ``bid``
attributes — still works on our pages. The numbering is BrowserGym's: every element whose tag
is a standard HTML tag (``svg`` is, the shapes inside it are not), counted from 0 in document
order.
"""

from __future__ import annotations

import re
from collections import deque

BID_ATTRIBUTE = "bid"

# BrowserGym's "standard_html" tags (frame_mark_elements.js): the elements its marking pass counts.
STANDARD_TAGS = frozenset(
    """a abbr acronym address applet area article aside audio b base basefont bdi bdo big
    blockquote body br button canvas caption center cite code col colgroup data datalist dd del
    details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame
    frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend
    li link main map mark menu meta meter nav noframes noscript object ol optgroup option output p
    param picture pre progress q rp rt ruby s samp script search section select small source span
    strike strong style sub summary sup svg table tbody td template textarea tfoot th thead time
    title tr track tt u ul var video wbr""".split()
)
# elements whose content is text, not markup (a "<" inside is not a tag)
_RAW_TEXT = ("style", "script", "textarea", "title")
_TAG = re.compile(r"<(!--|[!/?]|[A-Za-z][^\s/>]*)")


def mark_bids(html: str) -> str:
    """``html`` with ``bid="N"`` written into the start tag of every standard element."""
    return _mark(html, 0)[0]


def mark_piece(piece: str, first: int) -> tuple[str, int, bool]:
    """``(marked, next id, whole)``: a piece of a page (markup written as it is) marked from id
    ``first`` on as :func:`mark_bids` marks it inside the page, which it does when ``whole``:
    its comments and raw-text elements end inside it, and no tag is cut at its end."""
    marked, counter, open_end = _mark(piece, first)
    if open_end or "<" in piece[-3:]:
        return marked, counter, False
    last = deque(_TAG.finditer(piece), maxlen=1)
    return marked, counter, not last or last[0].end() < len(piece)


def tag_kind(tag: str) -> int:
    """How :func:`mark_bids` reads the start tag ``<tag``: 0 not counted, 1 counted, 3 counted,
    its content raw text; 2: a tag name it would read another way (cut short, or a comment)."""
    if tag.startswith("!--") or any(c.isspace() or c in "/>" for c in tag):
        return 2
    lower = tag.lower()
    if lower not in STANDARD_TAGS:
        return 2 if lower in _RAW_TEXT or not tag.isascii() else 0
    return 3 if lower in _RAW_TEXT else 1


def _mark(html: str, counter: int) -> tuple[str, int, bool]:
    """``html`` marked from id ``counter`` on, the next id, and whether a comment or a raw-text
    element runs to its end."""
    lower = html.lower()
    out: list[str] = []
    pos = 0  # html[:pos] is in out
    skip_until = 0  # inside a comment or raw text: no tags there
    open_end = False
    for m in _TAG.finditer(html):
        if m.start() < skip_until:
            continue
        token = m.group(1)
        if token == "!--":
            end = html.find("-->", m.end())
            skip_until = len(html) if end < 0 else end + 3
            open_end = open_end or end < 0
            continue
        if token in ("!", "/", "?"):
            continue
        tag = token.lower()
        if tag in STANDARD_TAGS:
            out.append(html[pos : m.end()])
            out.append(f' {BID_ATTRIBUTE}="{counter}"')
            counter += 1
            pos = m.end()
        if tag in _RAW_TEXT:
            close = lower.find(f"</{tag}", m.end())
            skip_until = len(html) if close < 0 else close
            open_end = open_end or close < 0
    out.append(html[pos:])
    return "".join(out), counter, open_end
