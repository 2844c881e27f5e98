"""A DOM snapshot in the shape of Chromium's ``DOMSnapshot.captureSnapshot`` (the
observation's ``dom_object``), built from the parsed page: every element and text node with
its parent, name, value and attributes, and the live values of form controls. It has no
layout (``layout`` is empty): boxes need a layout engine."""

from __future__ import annotations

from openapps_sim.envs.text.dom import Document, Element, Text

_CLICKABLE = ("a", "button", "input", "select", "textarea", "label", "summary")


def dom_snapshot(doc: Document) -> dict:
    index: dict[str, int] = {}  # the string table: each string's number, in order of first use
    add = index.setdefault  # add(text, len(index)): the number of ``text``, new ones numbered next

    parents, types, names, values, backend, attributes = [-1], [9], [add("#document", 0)], [-1], [0], [[]]
    input_value: dict = {"index": [], "value": []}
    checked, selected, clickable = [], [], []
    text_name = -1  # numbered at the first text node (the table's order is that of first use)
    stack: list = [(doc.root, 0)]
    while stack:  # document order: a node, then its children
        node, parent = stack.pop()
        i = len(parents)
        parents.append(parent)
        if type(node) is Text:
            types.append(3)
            if text_name < 0:
                text_name = add("#text", len(index))
            names.append(text_name)
            values.append(add(node.data, len(index)))
            backend.append(-i)
            attributes.append([])
            continue
        el: Element = node
        tag = el.tag
        types.append(1)
        names.append(add(tag if el.svg else tag.upper(), len(index)))
        values.append(-1)
        backend.append(el.index + 1)
        attributes.append(
            [x for k, v in el.attrs.items() if k != "__implied" for x in (add(k, len(index)), add(v, len(index)))]
        )
        if tag in ("input", "textarea") and el.value is not None:
            input_value["index"].append(i)
            input_value["value"].append(add(el.value, len(index)))
        if el.checked:
            checked.append(i)
        if el.selected:
            selected.append(i)
        if tag in _CLICKABLE:
            clickable.append(i)
        stack.extend([(child, i) for child in reversed(el.children)])
    nodes = {
        "parentIndex": parents,
        "nodeType": types,
        "nodeName": names,
        "nodeValue": values,
        "backendNodeId": backend,
        "attributes": attributes,
        "textValue": {"index": [], "value": []},
        "inputValue": input_value,
        "inputChecked": {"index": checked},
        "optionSelected": {"index": selected},
        "contentDocumentIndex": {"index": [], "value": []},
        "isClickable": {"index": clickable},
    }
    document = _document(nodes, add(doc.url, len(index)), add(doc.title, len(index)))
    return {"documents": [document], "strings": list(index)}


def _document(nodes: dict, url: int, title: int) -> dict:
    """One document of the snapshot: its nodes, and the empty layout of a page never laid out."""
    return {
        "documentURL": url,
        "title": title,
        "nodes": nodes,
        "layout": {"nodeIndex": [], "bounds": [], "text": [], "stackingContexts": {"index": []}, "clientRects": []},
        "textBoxes": {"layoutIndex": [], "bounds": [], "start": [], "length": []},
        "scrollOffsetX": 0,
        "scrollOffsetY": 0,
    }
