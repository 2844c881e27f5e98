"""The pool generated packs draw from: which language, description and extra packs a
``random-<seed>`` name may build on.

By default the pool is the packs shipped with the package (``variations/``): whatever else is on
``OPENAPPS_VARIATIONS`` never changes what a generated name means, so ``random-0-10`` is one world
on every machine. A user who wants private packs in generated versions names a pool file
explicitly with ``OPENAPPS_VARIATION_POOL``:

.. code-block:: yaml

    description: our office packs
    languages: [german, french]       # default: every shipped language pack
    descriptions: [long_descriptions] # default: the shipped description packs
    extras: [office]                  # packs added one time in three (default: none)

Each pool has an id, its name and a digest of its lists (``shipped-1a2b3c4d``), which every
results record of a generated version carries (``variation_pool``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from openapps_sim.config.packs import (
    builtin_dir,
    display_path,
    is_generated,
    language_packs,
    list_packs,
    read_yaml,
    split_expression,
)
from openapps_sim.errors import ConfigError, unknown_key

POOL_ENV = "OPENAPPS_VARIATION_POOL"
DESCRIPTION_PACKS = ("long_descriptions", "misleading_descriptions", "adversarial_descriptions")
POOL_KEYS = ("description", "languages", "descriptions", "extras")


@dataclass(frozen=True)
class Pool:
    name: str
    languages: tuple[str, ...]
    descriptions: tuple[str, ...]
    extras: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """The pool's name and a digest of what it holds: a changed list is another pool."""
        lists = [self.languages, self.descriptions, self.extras]
        return f"{self.name}-{hashlib.sha1(json.dumps(lists).encode()).hexdigest()[:8]}"


@lru_cache(maxsize=1)
def shipped_pool() -> Pool:
    """The packs shipped with the package: their language packs and description packs."""
    shipped = [builtin_dir()]  # never a folder on OPENAPPS_VARIATIONS, not even to read it
    languages = sorted(language_packs(shipped))
    return Pool("shipped", tuple(languages), tuple(d for d in DESCRIPTION_PACKS if d in list_packs(shipped)))


def active_pool() -> Pool:
    """The pool named by ``OPENAPPS_VARIATION_POOL``, else the shipped packs."""
    path = os.environ.get(POOL_ENV, "").strip()
    if not path:
        return shipped_pool()
    file = Path(path)
    if not file.is_file():
        raise ConfigError(POOL_ENV, "", f"pool file {path!r} does not exist", "a YAML file (docs/variations.md)")
    return _load_pool(str(file.resolve()), file.stat().st_mtime)


@lru_cache(maxsize=8)
def _load_pool(path: str, mtime: float) -> Pool:
    source = display_path(Path(path))
    data = read_yaml(Path(path)) or {}
    if not isinstance(data, dict):
        raise ConfigError(source, "", "expected a mapping of pack lists", ", ".join(POOL_KEYS))
    unknown = sorted(set(data) - set(POOL_KEYS))
    if unknown:
        raise unknown_key(source, unknown[0], unknown[0], POOL_KEYS, keep_order=True)
    shipped = shipped_pool()
    known, languages = list_packs(), language_packs()
    lists = {}
    for key, default, allowed in (
        ("languages", shipped.languages, languages),
        ("descriptions", shipped.descriptions, known),
        ("extras", (), known),
    ):
        value = data.get(key, list(default))
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(source, key, f"expected a list of pack names, got {value!r}", ", ".join(sorted(allowed)))
        for name in value:
            if name not in allowed:
                what = "a language pack" if key == "languages" else "a pack on the search path"
                raise ConfigError(source, key, f"{name!r} is not {what}", ", ".join(sorted(allowed)))
        lists[key] = tuple(value)
    return Pool(Path(path).stem, lists["languages"], lists["descriptions"], lists["extras"])


def pool_of(expression: str | None) -> str | None:
    """The id of the pool a variation expression's generated parts were drawn from; None when
    it names no generated pack."""
    if not any(is_generated(part.strip()) for part in split_expression(expression)):
        return None
    return active_pool().id
