"""What pack tests share: forgetting the composed packs, so a pack file written by a test is read."""

from __future__ import annotations

from openapps_sim.config import catalog, packs


def clear_pack_caches() -> None:
    """Empty the caches of composed configurations, initial states and pack files."""
    catalog.composed_json.cache_clear()
    catalog.initial_state_json.cache_clear()
    packs._load_pack_file.cache_clear()
