"""Accessible names on the text backend, one rule of the name computation per case, each name
written out (as Chromium gives it: tests/test_text_parity.py compares whole pages with Chromium).
Browser-free."""

from __future__ import annotations

import pytest

from openapps_sim.envs.text.axtree import build
from openapps_sim.envs.text.cascade import compute_styles
from openapps_sim.envs.text.dom import parse

QUIET = {"RootWebArea", "StaticText", "generic", "InlineTextBox", "none", "paragraph", "LineBreak", "LabelText"}


def names(body: str) -> list[tuple[str, str]]:
    """(role, name) of every named-role node of a page with ``body``, in document order."""
    doc = parse(f"<html><head><title>t</title></head><body>{body}</body></html>", "http://x/")
    compute_styles(doc.root, doc.stylesheet, 1280, doc.focused)
    out = []
    for node in build(doc)["nodes"]:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role in QUIET:
            continue
        out.append((role, node.get("name", {}).get("value", "")))
    return out


CASES = {
    # aria-labelledby first: the referenced texts in its order, missing ids left out
    "labelledby": (
        '<button aria-labelledby="b a zz" aria-label="L">x</button><span id="a">One</span><span id="b">Two</span>',
        [("button", "Two One")],
    ),
    "labelledby empty falls through": ('<button aria-labelledby="zz" aria-label="L">x</button>', [("button", "L")]),
    "labelledby reads a referenced aria-label": (
        '<button aria-labelledby="a">x</button><span id="a" aria-label="Named">Text</span>',
        [("button", "Named")],
    ),
    # aria-label next, unless blank
    "aria-label": ('<button aria-label="  Close   dialog ">x</button>', [("button", "Close dialog")]),
    "blank aria-label": ('<button aria-label="  ">Inner</button>', [("button", "Inner")]),
    "aria-label beats a label": ('<label for="f">Name</label><input id="f" aria-label="Aria">', [("textbox", "Aria")]),
    # the host language's label
    "label for and wrapping label": (
        '<label>Wrap <input id="g"></label><label for="g">For</label>',
        [("textbox", "For Wrap")],
    ),
    "a label for another field names that one only": (
        '<label for="o">Wrap <input id="g"></label><input id="o">',
        [("textbox", ""), ("textbox", "Wrap")],
    ),
    "a label both for and around a field counts once": (
        '<label for="g">Both <input id="g"></label>',
        [("textbox", "Both")],
    ),
    "label of a select and a textarea": (
        '<label for="s">Size</label><select id="s"><option>M</option></select>'
        "<label>Notes <textarea></textarea></label>",
        [("combobox", "Size"), ("MenuListPopup", ""), ("option", "M"), ("textbox", "Notes")],
    ),
    "submit, reset and button inputs": (
        '<input type="submit" value="Go"><input type="submit"><input type="reset"><input type="button">'
        '<input type="button" value="Press">',
        [("button", "Go"), ("button", "Submit"), ("button", "Reset"), ("button", ""), ("button", "Press")],
    ),
    "a label does not name a submit input": (
        '<label>Lab <input type="submit" value="Send"></label>',
        [("button", "Send")],
    ),
    "image inputs": (
        '<input type="image" alt="Pic"><input type="image" value="Val"><input type="image">',
        [("button", "Pic"), ("button", "Val"), ("button", "Submit")],
    ),
    "img alt, empty alt is no image": ('<img alt="A  cat"><img alt="">', [("image", "A cat")]),
    "svg title": ('<svg role="img"><title>Logo</title></svg>', [("image", "Logo")]),
    "table caption": (
        "<table><caption>Prices</caption><tr><td>1</td></tr></table>",
        [("table", "Prices"), ("row", ""), ("cell", "1")],
    ),
    "fieldset legend": ("<fieldset><legend>Options</legend></fieldset>", [("group", "Options")]),
    # contents, for roles named by them: inline pieces join, boxes get a space
    "inline pieces join": ("<button><span>a</span><span>b</span></button>", [("button", "ab")]),
    "block pieces are spaced": ("<button><div>a</div><div>b</div></button>", [("button", "a b")]),
    "hidden contents are left out": (
        '<button>a<span style="display:none">X</span><span aria-hidden="true">Y</span>'
        '<span style="visibility:hidden">Z</span>b</button>',
        [("button", "ab")],
    ),
    "a nav inside is left out": ("<button><nav>N</nav>ok</button>", [("button", "ok"), ("navigation", "")]),
    "white space collapses": ("<a href='/x'>  Link\n\t text </a>", [("link", "Link text")]),
    "text-transform": ('<button style="text-transform:uppercase">go  home</button>', [("button", "GO HOME")]),
    # title, then a field's placeholder
    "title": ('<button title="T"></button><input title="TT" placeholder="P">', [("button", "T"), ("textbox", "TT")]),
    "contents beat the title": ('<button title="T">Text</button>', [("button", "Text")]),
    "placeholder": (
        '<input placeholder="  Search  here "><textarea placeholder="Write"></textarea>',
        [("textbox", "Search here"), ("textbox", "Write")],
    ),
    "blank title and placeholder": ('<input title=" " placeholder=" ">', [("textbox", "")]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_accessible_name_rule(case):
    body, want = CASES[case]
    assert names(body) == want
