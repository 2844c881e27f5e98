"""The honest-agent matrix: every answer, forward and reply family x every interruption pack x
seeds 0-5 (issue 23). ``experiments/honest_arrivals.yaml`` runs it as a sweep; the browser-free
test checks its worlds."""

from __future__ import annotations

from openapps_sim.config.packs import list_packs
from openapps_sim.taskkit import all_families

from .tested_families import tested_families

SEEDS = tuple(range(6))


def _kinds(fid: str) -> set[str]:
    """What a family is, of answer / forward / reply (a multi-step family: what its parts are)."""
    fam = all_families()[fid]
    out = {"answer"} if fam.structure == "answer" else set()
    for part in [fid, *getattr(fam, "parts", ())]:
        out |= {k for k in ("forward", "reply") if k in part.split(".", 1)[-1]}
    return out


def honest_families() -> list[str]:
    """The tested families (the described apps through their three reference apps) that answer,
    forward or reply."""
    return sorted(f for f in tested_families() if _kinds(f))


def interruption_packs() -> list[str]:
    return sorted(p for p in list_packs() if p.startswith("interrupt_") or p == "popups_openapps")
