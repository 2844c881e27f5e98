"""Reading the page of an observation the way solve scripts and the oracle do: by ``data-testid``
(stable in every variation), mapped to BrowserGym's ``bid``s. Pure functions of the observation
dict; no browser code."""

from __future__ import annotations


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
