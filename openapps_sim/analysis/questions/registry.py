"""Every question kind, by name: those of :mod:`.pagekinds` and :mod:`.statekinds`."""

from __future__ import annotations

from openapps_sim.analysis.questions import pagekinds, statekinds
from openapps_sim.analysis.questions.kinds import KINDS, Kind

MODULES = (pagekinds, statekinds)  # the modules whose ``@kind`` classes fill KINDS


def all_kinds() -> dict[str, Kind]:
    return dict(KINDS)
