"""Reading BrowserGym observations: element ids, the accessibility tree as text."""

from __future__ import annotations

from browsergym.utils.obs import flatten_axtree_to_str


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
                name = strings[attrs[k]]
                if name == "data-testid":
                    testid = strings[attrs[k + 1]]
                elif name == "bid":
                    bid = strings[attrs[k + 1]]
            if testid is not None and bid is not None:
                out.setdefault(testid, bid)
    return out


def page_testids(obs: dict) -> set[str]:
    return set(testid_bids(obs))


def axtree_text(obs: dict, **kwargs) -> str:
    """The accessibility tree as indented text with ``[bid]`` marks, as agents read it."""
    tree = obs.get("axtree_object") or {"nodes": []}
    if not tree.get("nodes"):
        return ""
    kwargs.setdefault("extra_properties", obs.get("extra_element_properties"))
    return flatten_axtree_to_str(tree, **kwargs)
