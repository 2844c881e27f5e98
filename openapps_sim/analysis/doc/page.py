"""The HTML page of the report, drawn from the section blocks with FastHTML components (no
string building): tables, figures, folds, the table of contents and the page itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fasthtml.common import (
    H1,
    H2,
    H3,
    A,
    B,
    Body,
    Code,
    Details,
    Div,
    Figcaption,
    Head,
    Html,
    Li,
    Main,
    Meta,
    Nav,
    Pre,
    Section,
    Span,
    Style,
    Summary,
    Tbody,
    Td,
    Th,
    Thead,
    Title,
    Tr,
    Ul,
    to_xml,
)
from fasthtml.common import Figure as HFigure
from fasthtml.common import P as HP
from fasthtml.common import Table as HTable

from openapps_sim.analysis.doc import blocks as b
from openapps_sim.analysis.doc.style import CSS


def inline(text: str) -> list[Any]:
    """Text with Markdown's ``**bold**`` and ```code``` spans as <b> and <code> components."""
    out: list[Any] = []
    for i, part in enumerate(str(text).split("`")):
        if i % 2:
            out.append(Code(part))
            continue
        out += [B(p) if j % 2 else p for j, p in enumerate(part.split("**")) if p]
    return out


def cell(value: Any, align: str, head: bool = False) -> Any:
    tag = Th if head else Td
    if not isinstance(value, b.Cell):
        return tag(str(value), cls=align)
    style = ""
    if value.bg:
        style = f"background:{value.bg};color:{value.fg or 'inherit'}"
    content = value.html if value.html is not None else value.text
    kw: dict[str, Any] = {"cls": f"{align} {value.cls}".strip()}
    if style:
        kw["style"] = style
    if value.title:
        kw["title"] = value.title
    return tag(content, **kw)


def table(t: b.Table) -> Any:
    align = t.aligned()
    head = Thead(Tr(*[Th(h, cls=a) for h, a in zip(t.headers, align, strict=True)]))
    body = Tbody(*[Tr(*[cell(v, a) for v, a in zip(row, align, strict=True)]) for row in t.rows])
    out = [HP(t.caption)] if t.caption else []
    return Div(*out, Div(HTable(head, body, cls=t.cls), cls="scroll"))


def figure(f: b.Figure) -> Any:
    return HFigure(f.chart, Figcaption(*inline(f.caption)))


def block(x: Any) -> Any:
    if isinstance(x, b.P):
        return HP(*inline(x.text), cls=x.cls or None)
    if isinstance(x, b.Bullets):
        return Ul(*[Li(*inline(t)) for t in x.items])
    if isinstance(x, b.Heading):
        return H3(x.text)
    if isinstance(x, b.Table):
        return table(x)
    if isinstance(x, b.Figure):
        return figure(x)
    if isinstance(x, b.Figures):
        return Div(
            *[figure(f) for f in x.figures], cls="charts2" if len(x.figures) > 1 and not x.stacked else "charts1"
        )
    if isinstance(x, b.Fold):
        summary = (
            x.summary.html if isinstance(x.summary, b.Cell) and x.summary.html is not None else b.text_of(x.summary)
        )
        kw: dict[str, Any] = {"open": True} if x.open else {}
        if x.id:
            kw["id"] = x.id
        return Details(Summary(summary), Div(*[block(i) for i in x.blocks], cls="body"), **kw)
    if isinstance(x, b.Html):
        return x.node
    if isinstance(x, b.Code):
        return Pre(x.text)
    if isinstance(x, b.MdOnly):
        return ""
    raise TypeError(f"unknown report block {type(x).__name__}")


def render_page(
    title: str, subtitle: str, cards: list[tuple[str, str]], preface: list[Any], sections: list[b.Section]
) -> str:
    """The whole self-contained page: inline CSS, no script, nothing loaded from anywhere."""
    shown = [s for s in sections if s.blocks]
    toc = Nav(*[A(s.title, href=f"#{s.anchor}") for s in shown], cls="toc")
    main = Main(
        H1(title),
        HP(subtitle, cls="sub"),
        Div(*[Div(Div(k, cls="k"), Div(v, cls="v"), cls="card") for k, v in cards], cls="cards"),
        *[block(x) for x in preface],
        toc,
        *[Section(H2(s.title), *[block(x) for x in s.blocks], id=s.anchor) for s in shown],
    )
    return document(title, CSS, main, head=[Meta(name="viewport", content="width=device-width,initial-scale=1")])


def document(title: str, css: str, *body: Any, head: Sequence[Any] = ()) -> str:
    """A whole self-contained HTML page: UTF-8, ``head`` (after the charset), the title and the
    inline ``css``, then ``body``; nothing loaded from anywhere."""
    return to_xml(Html(Head(Meta(charset="utf-8"), *head, Title(title), Style(css)), Body(*body), lang="en"))


def note(text: str) -> Any:
    return Div(text, cls="note")


def howto(items: list[str]) -> Any:
    return Div(H3("How to read this"), Ul(*[Li(*inline(t)) for t in items]), cls="howto")


def badge(text: str, kind: str) -> Any:
    """A small coloured label (``kind``: ok, bad, warn or info)."""
    return Span(text, cls=f"badge b-{kind}")


def swatch(name: str, colour: str) -> Any:
    return Span(Span(cls="swatch", style=f"background:{colour}"), name)
