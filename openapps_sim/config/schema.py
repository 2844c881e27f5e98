"""A small schema language for app configuration.

Every app declares the shape of its configuration section with these classes. A variation pack
is validated against them before it is applied, so a typo in a pack (``todo.titel``) or a wrong
type (``font_size: big``) is reported with the file, the key path and what is allowed.

Merging is part of the schema too: a :class:`Record` merges key by key, while lists and
scalars are replaced as a whole (a pack that gives ``todo.items`` gives the whole list).

The base :class:`Field` and the scalar fields live in :mod:`openapps_sim.config.fields` and are
importable from here; this module holds the containers (lists, mappings, records, partial
records) and the helpers over whole records.
"""

from __future__ import annotations

from typing import Any

from openapps_sim.config.fields import (  # noqa: F401 - the scalar fields, importable from here
    MISSING,
    Any_,
    Bool,
    Color,
    Date,
    Enum,
    Field,
    Float,
    Int,
    LanguageTag,
    Nullable,
    Number,
    Str,
    Time,
    copy_default,
    join_path,
)
from openapps_sim.config.normalise import norm_text
from openapps_sim.errors import ConfigError, Problems, did_you_mean, unknown_key, unknown_name

ID_KEYS = ("id", "path")  # the fields that identify a list item, in order of preference


class ListOf(Field):
    """A list. Given a list, a pack replaces it whole; given a mapping from item ids to partial
    items, it patches those items in place (a language pack translates by id, so every item of
    the base stays, in its order). The id is the item's ``id`` (or ``path``) field, or ``key``.
    ``unique`` names a field of the items that no two items may share (compared as free text:
    case and surrounding spaces do not count), for lists whose items tasks name by that field."""

    def __init__(
        self,
        item: Field,
        default: Any = MISSING,
        doc: str = "",
        max_items: int = 5000,
        key: str | None = None,
        unique: str | None = None,
    ):
        super().__init__(default, doc)
        self.item = item
        self.max_items = max_items
        fields = item.fields if isinstance(item, Record) else {}
        self.key = key or next((k for k in ID_KEYS if k in fields), None)
        self.unique = unique

    def describe(self) -> str:
        return f"a list of {self.item.describe()}"

    def check(self, value, source, path):
        self.expect(value, list, "a list", source, path)
        if len(value) > self.max_items:
            raise self.fail(value, source, path, f"more than {self.max_items} items")
        out = [self.item.check(v, source, f"{path}[{i}]") for i, v in enumerate(value)]
        if self.unique:
            self._check_unique(out, source, path)
        return out

    def _check_unique(self, items: list, source: str, path: str) -> None:
        seen: dict[str, int] = {}
        for i, item in enumerate(items):
            key = norm_text(item.get(self.unique, "")) if isinstance(item, dict) else norm_text(item)
            if not key:
                continue  # an item without that field (a saved place named by its place id)
            if key in seen:
                raise ConfigError(
                    source,
                    f"{path}[{i}].{self.unique}",
                    f"{item[self.unique]!r} is the same {self.unique} as {path}[{seen[key]}]; "
                    f"tasks name these items by their {self.unique}",
                    f"a {self.unique} no other item of {path} has",
                )
            seen[key] = i

    def merge(self, base, override, source, path):
        if isinstance(override, dict) and self.key and isinstance(base, list):
            return self._patch(base, override, source, path)
        return self.check(override, source, path)

    def _patch(self, base: list, override: dict, source: str, path: str) -> list:
        where = {str(item.get(self.key)): i for i, item in enumerate(base) if isinstance(item, dict)}
        out = list(base)
        for raw_id, patch in override.items():
            item_id, sub = str(raw_id), join_path(path, str(raw_id))
            if item_id not in where:
                known = sorted(where)
                shown = ", ".join(known[:12]) + (f", ... ({len(known)} in all)" if len(known) > 12 else "")
                problem = f"no item with {self.key} {item_id!r} to change{did_you_mean(item_id, known)}"
                raise ConfigError(source, sub, problem, shown or "(none)")
            self.expect(patch, dict, "a mapping of the item's fields", source, sub)
            if self.key in patch and str(patch[self.key]) != item_id:
                raise ConfigError(source, join_path(sub, self.key), f"differs from the item's {self.key} {item_id!r}")
            out[where[item_id]] = self.item.merge(base[where[item_id]], patch, source, sub)
        if self.unique:
            self._check_unique(out, source, path)
        return out


class OneOrList(Field):
    """One value of ``item`` or a list of them (a sweep's axis): a list of checked values, each
    once, in the order given. An empty list is an error saying what is ``allowed`` (by default
    what ``item`` is)."""

    def __init__(self, item: Field, default: Any = MISSING, doc: str = "", allowed: str | None = None):
        super().__init__(default, doc)
        self.item, self.allowed = item, allowed

    def describe(self) -> str:
        return f"{self.item.describe()}, or a list of them"

    def check(self, value, source, path):
        if not isinstance(value, list):
            return [self.item.check(value, source, path)]
        if not value:
            raise ConfigError(source, path, "the list is empty", self.allowed or self.describe())
        problems = Problems()
        checked = [problems.check(self.item.check, v, source, f"{path}[{i}]") for i, v in enumerate(value)]
        problems.raise_any()
        out: list = []
        for v in checked:
            if v not in out:
                out.append(v)
        return out


class MapOf(Field):
    """A mapping from string keys (free-form, or one of ``keys``) to values of one type."""

    def __init__(self, value: Field, default: Any = MISSING, doc: str = "", keys: tuple[str, ...] = ()):
        super().__init__(default, doc)
        self.value = value
        self.keys = keys

    def describe(self) -> str:
        return f"a mapping of names to {self.value.describe()}"

    def check(self, value, source, path):
        self.expect(value, dict, "a mapping", source, path)
        return {
            self._key(k, source, path): self.value.check(v, source, join_path(path, str(k))) for k, v in value.items()
        }

    def _key(self, key: object, source: str, path: str) -> str:
        if self.keys and str(key) not in self.keys:
            raise unknown_name(source, join_path(path, str(key)), str(key), self.keys, what="key", keep_order=True)
        return str(key)

    def merge(self, base, override, source, path):
        self.expect(override, dict, "a mapping", source, path)
        out = dict(base or {})
        for k, v in override.items():
            key = self._key(k, source, path)
            sub = join_path(path, key)
            out[key] = self.value.merge(out[key], v, source, sub) if key in out else self.value.check(v, source, sub)
        return out


class Record(Field):
    """A mapping with known keys. Unknown keys are an error that lists the allowed ones: an
    "unknown ``what``" (a key of a pack section, an agent's option, a sweep spec's key), the
    allowed ones in the declared order (sorted when ``keep_order`` is False)."""

    def __init__(
        self,
        fields: dict[str, Field] | None = None,
        default: Any = MISSING,
        doc: str = "",
        what: str = "key",
        keep_order: bool = True,
        **kw: Field,
    ):
        super().__init__(default, doc)
        self.fields: dict[str, Field] = dict(fields or {}, **kw)
        self.what, self.keep_order = what, keep_order
        if default is MISSING and all(not f.required for f in self.fields.values()):
            # A record whose every field has a default may be left out entirely.
            self.default = {k: copy_default(f.default) for k, f in self.fields.items()}

    def describe(self) -> str:
        return "a mapping with keys " + ", ".join(self.fields)

    def unknown(self, key, source, path) -> ConfigError:
        """The error for a key this record does not have (with the closest keys it has)."""
        return unknown_key(source, join_path(path, str(key)), key, self.fields, self.what, self.keep_order)

    def check(self, value, source, path):
        self.expect(value, dict, "a mapping", source, path)
        out = {}
        problems = Problems()  # every key's problems at once, in the order given
        for key, val in value.items():
            if key not in self.fields:
                problems.add(self.unknown(key, source, path))
                continue
            out[key] = problems.check(self.fields[key].check, val, source, join_path(path, key))
        for key, field in self.fields.items():
            if key not in out:
                if field.required:
                    problems.add(ConfigError(source, join_path(path, key), "missing required key", field.describe()))
                out[key] = copy_default(field.default)
        problems.raise_any()
        return out

    def merge(self, base, override, source, path):
        if override is None:
            return base
        self.expect(override, dict, "a mapping", source, path)
        out = dict(base)
        problems = Problems()
        for key, val in override.items():
            if key not in self.fields:
                problems.add(self.unknown(key, source, path))
                continue
            field = self.fields[key]
            sub = join_path(path, key)
            if key in out:
                out[key] = problems.check(field.merge, out[key], val, source, sub)
            else:
                out[key] = problems.check(field.check, val, source, sub)
        problems.raise_any()
        return out

    def field_at(self, dotted: str, source: str) -> Field:
        """The field at a dotted path, for command-line overrides."""
        node: Field = self
        walked = ""
        for part in dotted.split("."):
            if isinstance(node, Partial):
                node = node.record
            if isinstance(node, Record):
                if part not in node.fields:
                    raise node.unknown(part, source, walked)
                node = node.fields[part]
            elif isinstance(node, MapOf):
                node = node.value
            else:
                raise ConfigError(source, join_path(walked, part), f"{walked} is {node.describe()} and has no keys")
            walked = join_path(walked, part)
        return node


class Partial(Field):
    """Some keys of a :class:`Record`, checked like the record's but without defaults filled
    in: an overlay applied on top of a complete value (see :func:`overlay`)."""

    def __init__(self, record: Record, doc: str = ""):
        super().__init__({}, doc)
        self.record = record

    def describe(self) -> str:
        return "some keys of " + self.record.describe()

    def check(self, value, source, path):
        return self.merge({}, value, source, path)

    def merge(self, base, override, source, path):
        if override is None:
            return base
        self.expect(override, dict, "a mapping", source, path)
        out = dict(base or {})
        problems = Problems()
        for key, val in override.items():
            if key not in self.record.fields:
                problems.add(self.record.unknown(key, source, path))
                continue
            field = self.record.fields[key]
            sub = join_path(path, key)
            if isinstance(field, Record):
                out[key] = problems.check(Partial(field).merge, out.get(key), val, source, sub)
            else:
                out[key] = problems.check(field.check, val, source, sub)
        problems.raise_any()
        return out


def overlay(base: dict, partial: dict) -> dict:
    """``base`` with the keys of ``partial`` (a :class:`Partial` value) laid over it."""
    out = dict(base)
    for key, val in partial.items():
        out[key] = overlay(out[key], val) if isinstance(val, dict) and isinstance(out.get(key), dict) else val
    return out


def defaults(record: Record) -> dict:
    """The configuration made only of declared defaults (nested records included)."""
    out = {}
    for key, field in record.fields.items():
        if isinstance(field, Record) and field.required:
            out[key] = defaults(field)
        elif not field.required:
            out[key] = copy_default(field.default)
    return out
