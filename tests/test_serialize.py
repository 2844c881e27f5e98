"""openapps_sim.web.serialize writes what fastcore's ``to_xml`` writes: literally on small trees,
and the same bytes as fastcore on the trees of real pages (a crawl of the text backend), so the
test fails if the two ever diverge (a fastcore upgrade included)."""

from __future__ import annotations

import random
from urllib.parse import urlsplit

import fasthtml.common as fh
import pytest
from fastcore import xml

import openapps_sim.web.shell as shell
from openapps_sim.config.world import WorldSpec
from openapps_sim.envs.registration import make_env
from openapps_sim.web.bids import mark_bids
from openapps_sim.web.serialize import marked_xml, to_xml

LITERAL = [
    (fh.P("a < b & c > d"), "<p>a &lt; b &amp; c &gt; d</p>\n"),
    (fh.Span("x", cls="c", hidden=True, disabled=False, value=0), '<span hidden value="0" class="c">x</span>'),
    (fh.Div(fh.Span("1"), "t", None, 3, 1.5), "<div>\n<span>1</span>t31.5</div>\n"),
    (fh.Div(fh.Ul(fh.Li("a"), fh.Li())), "<div>\n  <ul>\n    <li>a</li>\n    <li></li>\n  </ul>\n</div>\n"),
    (
        fh.Input(type="text", placeholder="it's", title='say "hi"'),
        '<input type="text" placeholder="it\'s" title=\'say "hi"\'>\n',
    ),
    (fh.Input(title='"it\'s"'), "<input title='\"it&#39;s\"'>\n"),
    (fh.A("go", href="/a?b=1&c=<2>"), '<a href="/a?b=1&amp;c=&lt;2&gt;">go</a>'),
    (fh.Pre(fh.Div(fh.P("x"))), "<pre><div><p>x</p></div></pre>"),
    (fh.Div(fh.Div(fh.P("x")), contenteditable="true"), '<div contenteditable="true"><div><p>x</p></div></div>'),
    (fh.Div(fh.NotStr("<b>raw</b>")), "<div><b>raw</b></div>\n"),
    (fh.Div(fh.NotStr("<b>"), "<i>"), "<div>\n<b>&lt;i&gt;</div>\n"),
    (fh.Div(None), "<div></div>\n"),
    (fh.Div(("a", ("b", fh.Br()))), "<div>\nab<br></div>\n"),
    (fh.Html(fh.Body("x"), lang="en"), '<!doctype html>\n<html lang="en">\n  <body>x</body>\n</html>\n'),
    (fh.Span(data={"k": 1}), '<span data="k:1"></span>'),
    (
        xml.FT("span", (), {"data": {"k": 1}, "n": 2.5, "x_": "dropped", "_": "u"}),
        '<span data=\'{"k": 1}\' n="2.5" _="u"></span>',
    ),
]


@pytest.mark.parametrize("tree, expected", LITERAL, ids=range(len(LITERAL)))
def test_small_trees_literally(tree, expected):
    assert to_xml(tree) == expected
    assert xml.to_xml(tree) == expected  # fastcore's own: the expectation is its output


def test_arguments_as_fastcore_takes_them():
    tree = fh.Div(fh.P("x"), "y")
    for args, kw in [((tree, "raw <b>", None, b"by"), {}), ((tree,), {"indent": False}), ((tree,), {"lvl": 4}),
                     (([tree, 1],), {}), ((tree,), {"do_escape": False})]:  # fmt: skip
        assert to_xml(*args, **kw) == xml.to_xml(*args, **kw)
        assert type(to_xml(*args, **kw)) is xml.Safe


def test_real_pages_as_fastcore_writes_them(monkeypatch):
    """Every page of a crawl (hand-built and described apps, three packs), rendered by both, and
    marked with element ids as mark_bids marks fastcore's text."""
    pages = []

    def both(doc):
        ours, theirs = to_xml(doc), xml.to_xml(doc)
        marked = marked_xml(doc)
        pages.append(ours == theirs and marked == mark_bids(theirs))
        assert ours == theirs and marked == mark_bids(theirs)
        return marked

    monkeypatch.setattr(shell, "marked_xml", both)
    env = make_env("todo.add_item", backend="text", obs_mode="axtree", task_kwargs={"termination": "agent"})
    try:
        for pack in ("default", "arabic+mobile", "interrupt_mixed"):
            for app in ("start", "todo", "calendar", "shop", "code_editor", "messenger", "banking", "recipes"):
                obs, _ = env.reset(options={"world": WorldSpec.make("test", pack, 1)})
                base = urlsplit(obs["url"])
                obs = env.step(f"goto('{base.scheme}://{base.netloc}/{app}/')")[0]
                rng = random.Random(app)
                for _ in range(3):
                    bids = [n["browsergym_id"] for n in obs["axtree_object"]["nodes"]
                            if (n.get("role") or {}).get("value") in ("link", "button") and n.get("browsergym_id")]  # fmt: skip
                    obs = env.step(f"click('{rng.choice(sorted(bids) or ['0'])}')")[0]
    finally:
        env.close()
    assert len(pages) >= 60 and all(pages)


MARKED = [
    fh.Html(
        fh.Head(fh.Title("T <1>"), fh.Style("a > b {}")), fh.Body(fh.Div(fh.P("x"), fh.Svg(fh.Path(d="M0")))), lang="en"
    ),
    fh.Div(fh.NotStr("<b>raw</b><!-- <i> --><span>s</span>"), fh.P("after")),
    fh.Div(fh.NotStr("<b>open <!-- comment"), fh.P("hidden by the comment")),
    fh.Div(fh.NotStr("<style>p{}"), fh.P("inside the raw text")),
    fh.Div(fh.NotStr("<b>cut <spa"), fh.NotStr("n>x</span>"), fh.P("y")),
    fh.Div(fh.NotStr("<!-"), "-x", fh.P("z")),
    fh.Div(fh.Script("if (a < b) {}"), fh.Textarea("<p>typed</p>"), fh.P("q")),
    fh.Div(xml.FT("style", (fh.P("an element in raw text"),), {}), fh.Title(fh.NotStr("<b>t</b>")), fh.P("r")),
    fh.Div(fh.Span("\u0130" * 20), fh.Textarea("x"), fh.P("s"), fh.Title("t"), fh.B("u")),
    fh.Div(xml.FT("x y", (fh.P("a"),), {}), xml.FT("a/b", (), {}), xml.FT("DIV", ("c",), {"k": "<v>"})),
    fh.Div(xml.FT("!-- c", (), {}), fh.P("d")),
    fh.Div([fh.P("list"), "<i>"], fh.Label("l", _for="x")),
]


@pytest.mark.parametrize("tree", MARKED, ids=range(len(MARKED)))
def test_ids_written_with_the_tags_are_those_mark_bids_writes(tree):
    assert marked_xml(tree) == mark_bids(xml.to_xml(tree))
