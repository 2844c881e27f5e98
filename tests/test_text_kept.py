"""What the text backend keeps across tabs, episodes and threads (``envs.text.kept``): a page
parsed once per HTML and width, an observation built once per page state; every tab gets its
own copy, so what one tab (or agent) does never shows in another."""

from __future__ import annotations

import threading

from browsergym.utils.obs import flatten_axtree_to_str

from openapps_sim.envs.text.actions import TextBrowser
from openapps_sim.envs.text.axtree import build
from openapps_sim.envs.text.cascade import compute_styles
from openapps_sim.envs.text.dom import parse
from openapps_sim.envs.text.env import page_observation
from openapps_sim.envs.text.kept import OBSERVATIONS, Kept
from openapps_sim.envs.text.snapshot import dom_snapshot

HTML = (
    "<html><head><title>Kept</title><style>.x{display:none}</style></head><body>"
    '<a bid="1" href="/next">Next</a><input bid="2" name="q" value="start"><p bid="3" class="x">gone</p>'
    '<label bid="4"><input bid="5" type="checkbox" name="c">Box</label></body></html>'
)


def fresh(html: str, url: str, value: str | None = None, checked: bool = False) -> tuple[dict, dict]:
    doc = parse(html, url)
    compute_styles(doc.root, doc.stylesheet, 1280, doc.focused)
    if value is not None:
        doc.by_bid["2"].value = value
    doc.by_bid["5"].checked = checked
    return build(doc), dom_snapshot(doc)


def tab(origin: str, html: str, path: str = "/p"):
    page = TextBrowser(origin, {"width": 1280}).page
    page._show(html, origin + path)
    return page


def test_every_tab_gets_its_own_copy_of_a_page_seen_before():
    html = HTML.replace("Kept", "Kept copies")
    pages = [tab(f"http://w{i}.localhost", html) for i in range(4)]  # the third and fourth from the store
    docs = [p.doc for p in pages]
    assert len({id(d) for d in docs}) == 4 and len({id(d.root) for d in docs}) == 4
    docs[3].by_bid["2"].value = "typed in the fourth tab"
    docs[3].by_bid["5"].checked = True
    for i, doc in enumerate(docs[:3]):
        assert doc.by_bid["2"].value == "start" and not doc.by_bid["5"].checked
        assert page_observation(doc) == fresh(html, f"http://w{i}.localhost/p")
    axtree, snapshot = page_observation(docs[3])
    assert "typed in the fourth tab" in flatten_axtree_to_str(axtree)
    assert (axtree, snapshot) == fresh(html, "http://w3.localhost/p", "typed in the fourth tab", True)
    assert "gone" not in flatten_axtree_to_str(axtree)  # styled as parsed: the .x rule holds
    assert docs[3].url == "http://w3.localhost/p" and docs[0].url == "http://w0.localhost/p"


def test_a_kept_observation_is_handed_out_as_new_objects():
    html = HTML.replace("Kept", "Kept objects")
    first = tab("http://w1.localhost", html)
    page_observation(first.doc)  # made (kept from the second time on)
    got = page_observation(first.doc)  # made again, and kept
    got[0]["nodes"].clear()  # an agent may change what it got
    got[1]["strings"].clear()
    second = tab("http://w1.localhost", html)
    assert page_observation(second.doc) == fresh(html, "http://w1.localhost/p")


def test_an_observation_made_once_is_not_pickled():
    """Most pages of a crawl are observed once: pickling their observation was wasted work."""
    html = HTML.replace("Kept", "Kept once")
    page = tab("http://w1.localhost", html)
    before = OBSERVATIONS.kept_bytes
    assert page_observation(page.doc) == fresh(html, "http://w1.localhost/p")
    assert OBSERVATIONS.kept_bytes == before
    assert page_observation(page.doc) == fresh(html, "http://w1.localhost/p")
    assert OBSERVATIONS.kept_bytes > before  # the second time, kept


def test_the_same_html_at_another_width_is_styled_at_that_width():
    html = HTML.replace("Kept", "Kept widths").replace(
        ".x{display:none}", "@media (max-width: 600px){.x{display:none}}"
    )
    for _ in range(3):
        wide = TextBrowser("http://w1.localhost", {"width": 1280}).page
        wide._show(html, "http://w1.localhost/p")
        narrow = TextBrowser("http://w1.localhost", {"width": 400}).page
        narrow._show(html, "http://w1.localhost/p")
        assert "gone" in flatten_axtree_to_str(page_observation(wide.doc)[0])
        assert "gone" not in flatten_axtree_to_str(page_observation(narrow.doc)[0])


def test_threads_loading_the_same_page_each_see_their_own_input():
    html = HTML.replace("Kept", "Kept threads")
    errors: list[str] = []

    def session(i: int) -> None:
        for round_ in range(5):
            page = tab(f"http://w{i}.localhost", html)
            value = f"session {i} round {round_}"
            page.doc.by_bid["2"].value = value
            text = flatten_axtree_to_str(page_observation(page.doc)[0])
            if f"StaticText '{value}'" not in text or text.count("session ") != 2:
                errors.append(text)

    threads = [threading.Thread(target=session, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_store_keeps_at_most_its_bytes_and_forgets_the_least_recently_used():
    store = Kept(max_bytes=4000)
    made: list[str] = []

    def maker(key: str):
        return lambda: made.append(key) or {"key": key, "pad": "x" * 500}

    for key in ("a", "b", "c", "d", "e", "f", "g", "h"):
        assert store.get(key, maker(key))["key"] == key
    assert made == ["a", "b", "c", "d", "e", "f", "g", "h"]
    store.get("h", maker("h"))  # kept
    store.get("a", maker("a"))  # forgotten: made again
    assert made[-1] == "a" and made.count("h") == 1
    assert 0 < store.kept_bytes <= 4000


def test_with_second_sight_a_value_is_kept_from_its_second_use_on():
    store = Kept(max_bytes=1 << 20, second_sight=True)
    made: list[int] = []
    for _ in range(4):
        value = store.get("page", lambda: made.append(1) or ["parsed"])
        assert value == ["parsed"]
        value.append("changed by its user")  # never reaches the store
    assert len(made) == 2
