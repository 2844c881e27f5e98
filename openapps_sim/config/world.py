"""The world spec: which world an episode runs in, as one typed value.

A :class:`WorldSpec` is the variation (a pack expression such as ``dark_theme+german``), the
seed, the goal language and the overrides (``app.key=value``). It is made and checked once,
where the user gives it (``gym.make``'s ``task_kwargs``, ``openapps run``, a sweep spec, the
MCP ``reset`` tool), and passed down as it is: the env, the task and the world read its fields
and never parse or check them again.

The language follows the variation unless the user says otherwise: ``auto`` (the default) is
the world's own language (the packs' ``shell.lang``), so ``variation="german"`` gives German
pages *and* a German goal; ``language="en"`` asks for an English goal in that German world.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from openapps_sim.config.catalog import composed_json
from openapps_sim.config.limits import check_seed
from openapps_sim.config.packs import is_generated, list_packs, split_expression, unknown_pack
from openapps_sim.errors import ConfigError, Problems, did_you_mean

AUTO = "auto"  # the language of the world (its packs' shell.lang)
ENGLISH = "en"
KEYS = ("variation", "seed", "language", "overrides")  # the task kwargs a world spec is made of


@dataclass(frozen=True)
class WorldSpec:
    """One world: ``variation`` (a canonical pack expression), ``seed`` (a whole number; None:
    not chosen yet — an env draws one at reset), ``language`` (a goal language, or ``auto``) and
    ``overrides``. Make one with :meth:`make`, which checks every field."""

    variation: str = "default"
    seed: int | None = None
    language: str = AUTO
    overrides: tuple[str, ...] = ()

    @classmethod
    def make(
        cls,
        source: str,
        variation: Any = "default",
        seed: Any = None,
        language: Any = AUTO,
        overrides: Any = (),
        languages: Iterable[str] | None = None,
    ) -> WorldSpec:
        """A checked spec; each bad value is a :class:`ConfigError` naming ``source``, the key and
        what is allowed, all of them raised together. ``languages``: the goal languages there are
        (the caller knows them: the phrasing files are the task layer's); None when the goal
        language plays no part (the server's world)."""
        problems = Problems()
        spec = cls(
            variation=problems.check(check_variation, variation, source),
            seed=None if seed is None else problems.check(check_seed, seed, source),
            language=problems.check(check_language, language, source, languages),
            overrides=problems.check(check_overrides, overrides, source),
        )
        problems.raise_any()
        return spec

    def updated(self, source: str, given: Mapping[str, Any], languages: Iterable[str] | None = None) -> WorldSpec:
        """This spec with the keys of :data:`KEYS` that ``given`` holds, checked."""
        fields = {k: getattr(self, k) for k in KEYS}
        fields.update({k: given[k] for k in KEYS if k in given})
        return WorldSpec.make(source, languages=languages, **fields)

    def seeded(self, seed: int) -> WorldSpec:
        """This spec with its seed chosen (``seed`` is already a checked whole number)."""
        return dataclasses.replace(self, seed=seed)

    def config(self) -> dict:
        """The composed, validated configuration of this world: one dict per variation and
        overrides, shared by the episodes of a process (read it, never change it)."""
        return _config(self.variation, self.overrides)

    def world_language(self) -> str:
        """The language the world is in: its packs' ``shell.lang`` (English when unset)."""
        return _shell_lang(self.variation, self.overrides)

    def goal_language(self) -> str:
        """The language asked for, ``auto`` resolved to :meth:`world_language`."""
        return self.world_language() if self.language == AUTO else self.language


def split_kwargs(kwargs: Mapping[str, Any]) -> tuple[dict, dict]:
    """``kwargs`` split into the world spec's keys and the others."""
    return {k: v for k, v in kwargs.items() if k in KEYS}, {k: v for k, v in kwargs.items() if k not in KEYS}


# -- the checks, each run once where the user gives the value ------------------------------------
def check_variation(value: Any, source: str, key: str = "variation") -> str:
    """A pack expression, canonical (parts stripped, joined by ``+``; empty is ``default``); an
    unknown or empty pack name (``a++b``, ``+``) is an error listing the packs."""
    if value is None:
        return "default"
    if not isinstance(value, str):
        raise ConfigError(
            source, key, f"expected a string, got {value!r}", "pack names joined by '+', e.g. dark_theme+german"
        )
    if value.strip() and any(not part.strip() for part in value.split("+")):
        raise ConfigError(
            source, key, f"an empty pack name in {value!r}", "pack names joined by '+', e.g. dark_theme+german"
        )
    expression = canonical(value)
    problems = Problems()  # every unknown pack of the expression, at once
    for part in expression.split("+"):
        if not _known_part(part, os.environ.get("OPENAPPS_VARIATIONS", "")):
            problems.add(unknown_pack(source, key, part))
    problems.raise_any()
    return expression


def canonical(expression: str | None) -> str:
    """A pack expression written one way: parts stripped, joined by ``+``; empty is ``default``."""
    return "+".join(p.strip() for p in split_expression(expression))


@lru_cache(maxsize=512)
def _known_part(part: str, search: str) -> bool:
    """Whether ``part`` names a pack: a pack on the search path, a generated one, or a file
    (cached per search path: a world is reset with the same few expressions again and again)."""
    if part.endswith(".yaml") or "/" in part or os.sep in part:
        return Path(part).exists()
    return is_generated(part) or part in list_packs()


def check_language(value: Any, source: str, languages: Iterable[str] | None, key: str = "language") -> str:
    """``auto`` or one of ``languages`` (any string when ``languages`` is None)."""
    known = None if languages is None else [*languages, AUTO]
    if not isinstance(value, str):
        raise ConfigError(
            source, key, f"expected a string, got {value!r}", ", ".join(known or [AUTO, "a language code"])
        )
    if known is not None and value not in known:
        raise ConfigError(source, key, f"unknown language {value!r}{did_you_mean(value, known)}", ", ".join(known))
    return value


def check_overrides(value: Any, source: str, key: str = "overrides") -> tuple[str, ...]:
    """A list of ``app.key=value`` strings."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(o, str) for o in value):
        raise ConfigError(source, key, f"expected a list of strings, got {value!r}", "['app.key=value', ...]")
    return tuple(value)


@lru_cache(maxsize=32)
def _config(variation: str, overrides: tuple[str, ...]) -> dict:
    return json.loads(composed_json(variation, overrides))


@lru_cache(maxsize=256)
def _shell_lang(variation: str, overrides: tuple[str, ...]) -> str:
    shell = _config(variation, overrides).get("shell") or {}
    return str(shell.get("lang") or ENGLISH)
