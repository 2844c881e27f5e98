"""A page a tab no longer shows is freed at once, by reference counting, not left as cyclic
garbage for the collector (issue 41 point 4: the collector was a fifth of a crawl's CPU)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from openapps_sim.envs.text.actions import TextBrowser
from openapps_sim.envs.text.dom import Element, Text

PAGE_A = (
    "<html><head><title>A</title></head><body><main bid='1'><ul>"
    + "".join(f"<li bid='a{i}'><a href='/b' bid='l{i}'>item {i}</a> text</li>" for i in range(40))
    + "</ul></main></body></html>"
)
PAGE_B = "<html><head><title>B</title></head><body><p bid='2'>Only <b>this</b></p></body></html>"


@contextmanager
def _collector_off() -> Iterator[None]:
    """What is garbage now collected, then the collector off until the block ends (so that only
    reference counting frees anything inside it)."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _alive() -> tuple[int, int]:
    """The elements and text nodes alive in this process."""
    objects = gc.get_objects()
    return sum(type(o) is Element for o in objects), sum(type(o) is Text for o in objects)


def test_a_page_left_for_another_is_freed_without_the_collector():
    tabs = TextBrowser("http://127.0.0.1:9", {"width": 1280})  # no request is made
    tabs.page._show(PAGE_A, "http://127.0.0.1:9/a")
    with _collector_off():
        elements, texts = _alive()
        tabs.page._show(PAGE_B, "http://127.0.0.1:9/b")
        # page A: html, head, title, body, main, ul, 40 li, 40 a = 86 elements and 81 texts
        # (a title, 40 link texts, 40 " text" tails); page B: html, head, title, body, p, b and
        # 3 texts ("B", "Only ", "this")
        assert _alive() == (elements - 86 + 6, texts - 81 + 3)


def test_a_closed_tab_frees_its_page_without_the_collector():
    tabs = TextBrowser("http://127.0.0.1:9", {"width": 1280})
    tabs.page._show(PAGE_A, "http://127.0.0.1:9/a")
    with _collector_off():
        elements, texts = _alive()
        tabs.close()
        del tabs
        # page A's 86 elements and 81 texts are gone
        assert _alive() == (elements - 86, texts - 81)
