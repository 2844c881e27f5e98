"""openapps_sim.web.tags builds the same trees as FastHTML's own tag functions (pure logic)."""

from __future__ import annotations

import fasthtml.common as fh
import fasthtml.components as fhc
import fasthtml.svg as fsvg
import pytest
from fastcore import xml

import openapps_sim.web.svgtags as svgtags
import openapps_sim.web.tags as tags

CALLS = [
    ((), {}),
    (("text",), {}),
    (("a < b & c",), {"cls": "x y", "id": "i1"}),
    (("x", ("y", fh.Span("z")), None, 3), {"data_testid": "t", "aria_label": "l", "hidden": True}),
    (({"data-x": "1", "cls": "lost"}, "c"), {"title": "t", "style": "s", "disabled": False}),
    ((fh.Span("0"), fh.Span("1")), {"href": "/a?b=1&c=2", "_for": "f", "fr": "g"}),
    ((["list", 1],), {"cls": ["a", "b"], "style": {"color": "red"}, "value": 0, "name": "n"}),
    (("q",), {"id": "auto", "type": "text", "placeholder": 'say "hi"', "value": "it's"}),
    (("r",), {"_at_click": "go", "hx_get": "/x", "target_id": "tgt", "enctype": None}),
    ((fh.NotStr("<b>raw</b>"),), {"id": True}),
]


def _same(a, b) -> None:
    assert xml.to_xml(a) == xml.to_xml(b)
    if isinstance(a, xml.FT):
        assert (a.tag, a.attrs, a.void_, type(a)) == (b.tag, b.attrs, b.void_, type(b))


@pytest.mark.parametrize("name", fhc._all_)
def test_every_html_tag_builds_fasthtmls_tree(name):
    for args, kwargs in CALLS:
        try:
            theirs = getattr(fh, name)(*args, **kwargs)
            xml.to_xml(theirs)
        except TypeError:  # FastHTML refuses it (Script and Style take text only): so do we
            with pytest.raises(TypeError):
                xml.to_xml(getattr(tags, name)(*args, **kwargs))
            continue
        mine = getattr(tags, name)(*args, **kwargs)
        if "id" in kwargs and kwargs["id"] is True:  # FastHTML draws a random id
            assert mine.attrs["id"] and mine.tag == theirs.tag
            continue
        _same(mine, theirs)


def test_generator_children_and_plain_ft():
    _same(tags.Div(fh.Span(str(i)) for i in range(3)), fh.Div(fh.Span(str(i)) for i in range(3)))
    for tag in ("td", "input", "linearGradient"):
        _same(
            tags.ft(tag, "x", cls="c", scope="col", aria_hidden="true"),
            xml.ft(tag, "x", cls="c", scope="col", aria_hidden="true"),
        )
        _same(tags.ft(tag, void_=True, klass="k"), xml.ft(tag, void_=True, klass="k"))


def test_svg_tags_build_fasthtmls_tree():
    _same(
        svgtags.Svg(svgtags.G(svgtags.Title("t")), viewBox="0 0 1 1", cls="m"),
        fsvg.Svg(fsvg.G(fh.Title("t")), viewBox="0 0 1 1", cls="m"),
    )
    _same(svgtags.Svg(w=10, h=20), fsvg.Svg(w=10, h=20))
    _same(
        svgtags.Rect(3, 4, x=1, fill="red", transform="rotate(3)", data_x="1"),
        fsvg.Rect(3, 4, x=1, fill="red", transform="rotate(3)", data_x="1"),
    )
    _same(svgtags.Circle(2, 1, 1, stroke="k", opacity=0.5), fsvg.Circle(2, 1, 1, stroke="k", opacity=0.5))
    _same(svgtags.Line(0, 0, 5, 5, w=2), fsvg.Line(0, 0, 5, 5, w=2))
    _same(
        svgtags.Text("a<b", x=1, font_size=3, text_anchor="middle"),
        fsvg.Text("a<b", x=1, font_size=3, text_anchor="middle"),
    )
    _same(svgtags.Path(d="M0 0L1 1", fill="none"), fsvg.Path(d="M0 0L1 1", fill="none"))
    _same(svgtags.Polyline((0, 1), (2, 3)), fsvg.Polyline((0, 1), (2, 3)))
    _same(svgtags.LinearGradient(id="g"), fsvg.LinearGradient(id="g"))


def test_apps_and_the_shell_take_their_tags_from_here():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    files = [*(root / "apps").rglob("*.py"), *(root / "openapps_sim" / "web").glob("*.py")]
    slow = ("from fasthtml.common import", "from fasthtml.svg import", "from fastcore.xml import")
    offenders = [
        str(f.relative_to(root))
        for f in files
        if f.name not in ("tags.py", "svgtags.py", "server.py", "explore.py") and any(s in f.read_text() for s in slow)
    ]
    assert offenders == []
