"""Reading the page of an observation the way solve scripts and the oracle do: by ``data-testid``
(stable in every variation), mapped to BrowserGym's ``bid``s. Pure functions of the observation
dict; no browser code."""

from __future__ import annotations


def _string(strings: list[str], index: int) -> str:
    """An entry of a DOM snapshot's string table; Chromium writes -1 for an empty value (read
    as ``strings[-1]``, an empty ``value=""`` became the table's last string)."""
    return strings[index] if index >= 0 else ""


def testid_bids(obs: dict) -> dict[str, str]:
    """Map every ``data-testid`` on the page to the element's BrowserGym ``bid``.

    Read from the DOM snapshot in the observation (``obs_mode`` "both" or "axtree").
    """
    dom = obs.get("dom_object") or {}
    strings = dom.get("strings") or []
    out: dict[str, str] = {}
    for doc in dom.get("documents", []):
        for attrs in doc["nodes"].get("attributes", []):
            testid = bid = None
            for k in range(0, len(attrs) - 1, 2):
                name = _string(strings, attrs[k])
                if name == "data-testid":
                    testid = _string(strings, attrs[k + 1])
                elif name == "bid":
                    bid = _string(strings, attrs[k + 1])
            if testid is not None and bid is not None:
                out.setdefault(testid, bid)
    return out


def bid_testids(obs: dict) -> dict[str, str]:
    """Map every element's ``bid`` to its ``data-testid`` (elements without one left out); unlike
    :func:`testid_bids`, every element of a repeated test id (the rows of a list) is kept."""
    dom = obs.get("dom_object") or {}
    strings = dom.get("strings") or []
    out: dict[str, str] = {}
    for doc in dom.get("documents", []):
        for attrs in doc["nodes"].get("attributes", []):
            names = {_string(strings, attrs[k]): _string(strings, attrs[k + 1]) for k in range(0, len(attrs) - 1, 2)}
            if names.get("bid") is not None and names.get("data-testid") is not None:
                out.setdefault(names["bid"], names["data-testid"])
    return out


def page_testids(obs: dict) -> set[str]:
    return set(testid_bids(obs))


def testid_text_parts(obs: dict) -> dict[str, list[str]]:
    """The text nodes inside every element with a ``data-testid`` (as served: a textarea's
    content keeps its newlines), by test id, in document order."""
    dom = obs.get("dom_object") or {}
    strings = dom.get("strings") or []
    out: dict[str, list[str]] = {}
    for doc in dom.get("documents", []):
        nodes = doc["nodes"]
        parents, types, values = nodes.get("parentIndex", []), nodes.get("nodeType", []), nodes.get("nodeValue", [])
        owner: list[str | None] = []  # the test id of each node, or None
        for attrs in nodes.get("attributes", []):
            names = {_string(strings, attrs[k]): _string(strings, attrs[k + 1]) for k in range(0, len(attrs) - 1, 2)}
            owner.append(names.get("data-testid"))
            if owner[-1] is not None:
                out.setdefault(owner[-1], [])
        for i, kind in enumerate(types):
            if kind != 3 or i >= len(values) or values[i] < 0:  # text nodes only
                continue
            j = parents[i] if i < len(parents) else -1
            while j >= 0:
                if j < len(owner) and owner[j] is not None:
                    out[owner[j]].append(_string(strings, values[i]))
                j = parents[j] if j < len(parents) else -1
    return out


def testid_texts(obs: dict) -> dict[str, str]:
    """The text an element with a ``data-testid`` shows (its text nodes joined, whitespace
    folded), by test id, in document order: what a solve script reads off the page."""
    return {k: " ".join(" ".join(parts).split()) for k, parts in testid_text_parts(obs).items()}


def testid_attributes(obs: dict) -> dict[str, dict[str, str]]:
    """The HTML attributes of every element with a ``data-testid`` (a field's ``value`` as the
    page was served, its ``class`` ...), by test id, in document order."""
    dom = obs.get("dom_object") or {}
    strings = dom.get("strings") or []
    out: dict[str, dict[str, str]] = {}
    for doc in dom.get("documents", []):
        for attrs in doc["nodes"].get("attributes", []):
            names = {_string(strings, attrs[k]): _string(strings, attrs[k + 1]) for k in range(0, len(attrs) - 1, 2)}
            if "data-testid" in names:
                out.setdefault(names["data-testid"], names)
    return out


def testid_classes(obs: dict) -> dict[str, set[str]]:
    """The CSS classes of every element with a ``data-testid``, by test id, in document order."""
    return {k: set(v.get("class", "").split()) for k, v in testid_attributes(obs).items()}


def select_options(obs: dict, bid: str) -> list[tuple[str, str]]:
    """``(value, label)`` of every option of the ``<select>`` with BrowserGym id ``bid``, in
    document order: the value as the page holds it (its text when it has no ``value``), the
    label as shown (text, white space folded). Empty when there is no such select."""
    dom = obs.get("dom_object") or {}
    strings = dom.get("strings") or []
    for doc in dom.get("documents", []):
        nodes = doc["nodes"]
        names = [_string(strings, i).lower() for i in nodes.get("nodeName", [])]
        parents, values = nodes.get("parentIndex", []), nodes.get("nodeValue", [])
        attrs = [
            {_string(strings, a[k]): _string(strings, a[k + 1]) for k in range(0, len(a) - 1, 2)}
            for a in nodes.get("attributes", [])
        ]
        select = next((i for i, a in enumerate(attrs) if a.get("bid") == str(bid) and names[i] == "select"), None)
        if select is None:
            continue
        texts: dict[int, list[str]] = {}
        for i, parent in enumerate(parents):
            if names[i] == "#text" and i < len(values) and values[i] >= 0:
                texts.setdefault(parent, []).append(_string(strings, values[i]))
        out = []
        for i, name in enumerate(names):
            if name == "option" and _inside(parents, i, select):
                label = " ".join(" ".join(texts.get(i, [])).split())
                out.append((attrs[i]["value"] if "value" in attrs[i] else label, label))
        return out
    return []


def _inside(parents: list[int], node: int, ancestor: int) -> bool:
    j = parents[node] if node < len(parents) else -1
    while j >= 0:
        if j == ancestor:
            return True
        j = parents[j] if j < len(parents) else -1
    return False
