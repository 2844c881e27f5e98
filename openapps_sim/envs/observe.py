"""Reading BrowserGym observations: the accessibility tree as text (element ids by test id come
from :mod:`openapps_sim.taskkit.observation`)."""

from __future__ import annotations

from browsergym.utils.obs import flatten_axtree_to_str

from openapps_sim.taskkit.observation import bid_testids, page_testids, testid_bids

__all__ = ["axtree_text", "bid_testids", "page_testids", "testid_bids"]


def axtree_text(obs: dict, **kwargs) -> str:
    """The accessibility tree as indented text with ``[bid]`` marks, as agents read it."""
    tree = obs.get("axtree_object") or {"nodes": []}
    if not tree.get("nodes"):
        return ""
    kwargs.setdefault("extra_properties", obs.get("extra_element_properties"))
    return flatten_axtree_to_str(tree, **kwargs)
