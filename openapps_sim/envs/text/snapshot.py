"""A DOM snapshot in the shape of Chromium's ``DOMSnapshot.captureSnapshot`` (the
observation's ``dom_object``), built from the parsed page: every element and text node with
its parent, name, value and attributes, and the live values of form controls. It has no
layout (``layout`` is empty): boxes need a layout engine."""

from __future__ import annotations

from openapps_sim.envs.text.dom import Document, Element, Text


def dom_snapshot(doc: Document) -> dict:
    strings: list[str] = []
    index: dict[str, int] = {}

    def sid(text: str) -> int:
        i = index.get(text)
        if i is None:
            i = index[text] = len(strings)
            strings.append(text)
        return i

    nodes = {
        "parentIndex": [-1],
        "nodeType": [9],
        "nodeName": [sid("#document")],
        "nodeValue": [-1],
        "backendNodeId": [0],
        "attributes": [[]],
        "textValue": {"index": [], "value": []},
        "inputValue": {"index": [], "value": []},
        "inputChecked": {"index": []},
        "optionSelected": {"index": []},
        "contentDocumentIndex": {"index": [], "value": []},
        "isClickable": {"index": []},
    }

    def add(node, parent: int) -> None:
        i = len(nodes["parentIndex"])
        nodes["parentIndex"].append(parent)
        if isinstance(node, Text):
            nodes["nodeType"].append(3)
            nodes["nodeName"].append(sid("#text"))
            nodes["nodeValue"].append(sid(node.data))
            nodes["backendNodeId"].append(-i)
            nodes["attributes"].append([])
            return
        el: Element = node
        nodes["nodeType"].append(1)
        nodes["nodeName"].append(sid(el.tag if el.svg else el.tag.upper()))
        nodes["nodeValue"].append(-1)
        nodes["backendNodeId"].append(el.index + 1)
        attrs = []
        for k, v in el.attrs.items():
            if k != "__implied":
                attrs += [sid(k), sid(v)]
        nodes["attributes"].append(attrs)
        if el.tag in ("input", "textarea") and el.value is not None:
            nodes["inputValue"]["index"].append(i)
            nodes["inputValue"]["value"].append(sid(el.value))
        if el.checked:
            nodes["inputChecked"]["index"].append(i)
        if el.selected:
            nodes["optionSelected"]["index"].append(i)
        if el.tag in ("a", "button", "input", "select", "textarea", "label", "summary"):
            nodes["isClickable"]["index"].append(i)
        for child in el.children:
            add(child, i)

    add(doc.root, 0)
    layout = {"nodeIndex": [], "bounds": [], "text": [], "stackingContexts": {"index": []}, "clientRects": []}
    document = {
        "documentURL": sid(doc.url),
        "title": sid(doc.title),
        "nodes": nodes,
        "layout": layout,
        "textBoxes": {"layoutIndex": [], "bounds": [], "start": [], "length": []},
        "scrollOffsetX": 0,
        "scrollOffsetY": 0,
    }
    return {"documents": [document], "strings": strings}
