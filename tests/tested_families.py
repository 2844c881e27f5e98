"""What the per-family and per-app test matrices run: every family and app but those of the
described apps, of which three reference apps stand for all (banking, recipes, hotels). Every
family of every described app is CI's sweep (experiments/oracle_apps_ci.yaml: the oracle under
default, a language and an interruption pack) and the full matrices oracle_apps_1 and _2."""

from __future__ import annotations

from functools import cache

from openapps_sim.config.catalog import discover_apps
from openapps_sim.taskkit import TaskFamily, all_families

REFERENCE_DESCRIBED = ("banking", "recipes", "hotels")


@cache
def tested_apps() -> tuple[str, ...]:
    """The apps' names: every hand-built app and the three reference described apps."""
    apps = discover_apps()
    return tuple(n for n, s in apps.items() if getattr(s, "source", "") != "described" or n in REFERENCE_DESCRIBED)


def tested_families() -> dict[str, TaskFamily]:
    """The families of :func:`tested_apps` (cross-app and start-page families included)."""
    apps = discover_apps()
    keep = set(tested_apps())
    return {f: fam for f, fam in all_families().items() if f.split(".")[0] not in apps or f.split(".")[0] in keep}


def apps_share(turn: int, slices: int) -> list[str]:
    """Every tested app and the ``turn``-th of ``slices`` shares of the other described apps
    (a matrix that turns ``turn`` over its rows sees every app in one of them)."""
    tested = set(tested_apps())
    others = [a for a in discover_apps() if a not in tested]
    return [a for a in discover_apps() if a in tested] + others[turn % slices :: slices]
