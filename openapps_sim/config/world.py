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
from openapps_sim.config.limits import Seed
from openapps_sim.config.packs import is_generated, list_packs, split_expression, unknown_pack
from openapps_sim.config.schema import Field, Nullable, Partial, Record
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
        given = {"variation": variation, "seed": seed, "language": language, "overrides": overrides}
        return cls(**world_record(None if languages is None else tuple(languages)).check(given, source, ""))

    def updated(self, source: str, given: Mapping[str, Any], languages: Iterable[str] | None = None) -> WorldSpec:
        """This spec with the keys of :data:`KEYS` that ``given`` holds, those checked (the others
        were when this spec was made)."""
        record = world_record(None if languages is None else tuple(languages))
        return dataclasses.replace(self, **Partial(record).check({k: given[k] for k in KEYS if k in given}, source, ""))

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
class Variation(Field):
    """A pack expression, in the schema language: :func:`check_variation`."""

    type_name = "pack names joined by '+', e.g. dark_theme+german"

    def check(self, value, source, path):
        return check_variation(value, source, path)


class Language(Field):
    """A goal language, in the schema language: :func:`check_language` over ``languages``."""

    def __init__(self, languages: Iterable[str] | None, default: Any = AUTO, doc: str = ""):
        super().__init__(default, doc)
        self.languages = languages

    def describe(self) -> str:
        return ", ".join([*(self.languages or ["a language code"]), AUTO])

    def check(self, value, source, path):
        return check_language(value, source, self.languages, path)


class Overrides(Field):
    """A list of ``app.key=value`` strings (a tuple once checked)."""

    type_name = "a list of app.key=value strings"

    def check(self, value, source, path):
        if not isinstance(value, (list, tuple)) or not all(isinstance(o, str) for o in value):
            raise ConfigError(source, path, f"expected a list of strings, got {value!r}", "['app.key=value', ...]")
        return tuple(value)


@lru_cache(maxsize=8)
def world_record(languages: tuple[str, ...] | None) -> Record:
    """A world spec's keys (:data:`KEYS`) declared in the schema language; ``languages``: the goal
    languages there are (None: any)."""
    return Record(
        variation=Variation("default", "pack names joined by '+'"),
        seed=Nullable(Seed(None, "the task seed; null: drawn at reset")),
        language=Language(languages, AUTO, "the goal's language; auto: the world's own"),
        overrides=Overrides((), "app.key=value strings applied after the packs"),
    )


def check_variation(value: Any, source: str, key: str = "variation") -> str:
    """A pack expression, :func:`canonical`; an unknown or empty pack name (``a++b``, ``+``) is an
    error listing the packs."""
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
    """A pack expression written one way, so that every spelling of one composition is one world
    (one episode id, one label): each part stripped (a file path normalised), ``default`` (the
    base, an empty pack) dropped beside other packs, a pack named twice in a row applied once
    (applying a pack again changes nothing), joined by ``+``; empty is ``default``. The order
    and the other repeats stay: packs compose left to right, a later one overriding an earlier
    one and interruption packs adding theirs in order, so ``a+b`` is not ``b+a`` and ``a+b+a``
    is not ``b+a``."""
    parts: list[str] = []
    for raw in split_expression(expression):
        part = _part_spelling(raw.strip())
        if part != "default" and (not parts or parts[-1] != part):
            parts.append(part)
    return "+".join(parts) or "default"


def _part_spelling(part: str) -> str:
    """A pack file's path written one way (``./packs/x.yaml`` is ``packs/x.yaml``, ``pk/`` is
    ``./pk``: still a path, not a name); a name as it is."""
    if not _is_path(part):
        return part
    path = os.path.normpath(part)
    return path if _is_path(path) else os.curdir + os.sep + path


def _is_path(part: str) -> bool:
    return part.endswith(".yaml") or "/" in part or os.sep in part


@lru_cache(maxsize=512)
def _known_part(part: str, search: str) -> bool:
    """Whether ``part`` names a pack: a pack on the search path, a generated one, or a file
    (cached per search path: a world is reset with the same few expressions again and again)."""
    if _is_path(part):
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


@lru_cache(maxsize=32)
def _config(variation: str, overrides: tuple[str, ...]) -> dict:
    return json.loads(composed_json(variation, overrides))


@lru_cache(maxsize=256)
def _shell_lang(variation: str, overrides: tuple[str, ...]) -> str:
    shell = _config(variation, overrides).get("shell") or {}
    return str(shell.get("lang") or ENGLISH)
