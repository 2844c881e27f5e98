"""What the shape of ``app.yaml`` cannot say: every name it uses names something it declares.

:func:`load` reads and checks one app folder and reports every problem at once (a
:class:`~openapps_sim.errors.ConfigErrors`, each naming the file, the key and what is allowed).
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from openapps_sim.apps.described import computed
from openapps_sim.apps.described.datafiles import inline_records
from openapps_sim.apps.described.format import COLLECTION, DESCRIPTION, FIELD, FIELD_TYPES, GENERATOR, YAML_BOOL

from openapps_sim.config.packs import display_path, read_yaml
from openapps_sim.config.textformats import is_language_tag
from openapps_sim.errors import ConfigError, Problems, unknown_name

APP_FILE = "app.yaml"
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
NUMERIC = ("number", "money", "rating")


def load(folder: Path) -> dict:
    """The checked description in ``folder/app.yaml`` (``name`` filled in from the folder)."""
    path = Path(folder) / APP_FILE
    source = display_path(path)
    if not path.is_file():
        raise ConfigError(source, "", "no app.yaml in this folder", "a folder holding app.yaml")
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "expected a mapping of the app's keys", ", ".join(DESCRIPTION.fields))
    problems = Problems()
    inline_records(raw, Path(folder), source, problems)
    desc = _shape(raw, source, problems)
    desc["name"] = desc["name"] or Path(folder).name
    with problems.guard():
        check_refs(desc, source)
    problems.raise_any()
    return desc


def _shape(raw: dict, source: str, problems: Problems) -> dict:
    """``raw`` checked against :data:`DESCRIPTION`, a part that fails left out (its problems
    kept), so that the cross-references of the rest are checked too."""
    collections = raw.pop("collections", None)
    desc = problems.check(DESCRIPTION.check, {**raw, "collections": {}}, source, "", default=None)
    if desc is None:  # a broken top-level key: check the others one by one
        desc = {}
        for key, field in DESCRIPTION.fields.items():
            value = raw.get(key, field.default) if key != "collections" else {}
            desc[key] = problems.check(field.check, value, source, key, default=field.default)
    desc["collections"] = {}
    if not isinstance(collections, dict):
        problems.add(ConfigError(source, "collections", "expected a mapping of collection names to collections"))
        return desc
    if not collections:
        problems.add(ConfigError(source, "collections", "an app needs at least one collection"))
    for name, coll in collections.items():
        desc["collections"][str(name)] = _collection_shape(coll, source, f"collections.{name}", problems)
    desc["collections"] = {k: v for k, v in desc["collections"].items() if v is not None}
    return desc


def _collection_shape(coll: object, source: str, at: str, problems: Problems) -> dict | None:
    if not isinstance(coll, dict):
        problems.add(ConfigError(source, at, "expected a mapping", ", ".join(COLLECTION.fields)))
        return None
    fields = coll.get("fields")
    if not isinstance(fields, dict):
        problems.add(ConfigError(source, f"{at}.fields", "expected a mapping of field names to fields"))
        fields = {}
    checked = {str(k): problems.check(FIELD.check, v, source, f"{at}.fields.{k}") for k, v in fields.items()}
    out = problems.check(COLLECTION.check, {**coll, "fields": {}}, source, at)
    if out is not None:
        out["fields"] = {k: v for k, v in checked.items() if v is not None}
    return out


def item_name(collection: str, spec: dict) -> str:
    """One record of ``collection``, as operations name it (``transactions`` -> ``transaction``)."""
    return spec["item"] or (collection[:-1] if collection.endswith("s") else collection)


def check_refs(desc: dict, source: str) -> None:
    """Every cross-reference of ``desc``, every problem at once."""
    problems = Problems()
    if not NAME.match(desc["name"]):
        problems.add(ConfigError(source, "name", f"{desc['name']!r} is no app name", "lowercase letters, digits, _"))
    colls = desc["collections"]
    if desc["home"] and desc["home"] not in colls:
        problems.add(unknown_name(source, "home", desc["home"], colls, what="collection"))
    for name, coll in colls.items():
        _check_collection(problems, source, name, coll, colls)
    for name, flow in desc["flows"].items():
        _check_flow(problems, source, name, flow, colls)
    for name, setting in desc["settings"].items():
        _check_setting(problems, source, f"settings.{name}", setting)
    _check_strings(problems, source, desc)
    problems.raise_any()


def _field_of(problems, source, key, name, fields, kinds=None):
    """Whether ``name`` is a field of ``fields`` (of one of ``kinds``); a problem if not."""
    allowed = [f for f, spec in fields.items() if kinds is None or spec["type"] in kinds]
    if name not in allowed:
        what = "field" if kinds is None else " or ".join(kinds) + " field"
        problems.add(unknown_name(source, key, name, allowed, what=what))
        return False
    return True


def _check_collection(problems: Problems, source: str, name: str, coll: dict, colls: dict) -> None:
    at, fields = f"collections.{name}", coll["fields"]
    if not NAME.match(name) or not NAME.match(item_name(name, coll)):
        problems.add(
            ConfigError(source, at, "collection and item names are identifiers", "lowercase letters, digits, _")
        )
    for fname, spec in fields.items():
        _check_field(problems, source, f"{at}.fields.{fname}", fname, spec, colls)
    _field_of(problems, source, f"{at}.title", coll["title"], fields, ("text",))
    for role, kinds in (("subtitle", None), ("badge", None), ("price", ("money", "number")), ("image", ("icon",))):
        if coll[role]:
            _field_of(problems, source, f"{at}.{role}", coll[role], fields, kinds)
    for role in ("filter", "tabs"):
        if coll[role]:
            _field_of(problems, source, f"{at}.{role}", coll[role], fields, ("choice",))
    for i, col in enumerate(coll["columns"]):
        _field_of(problems, source, f"{at}.columns[{i}]", col, fields)
    for i, col in enumerate(coll["sort"]):
        _field_of(problems, source, f"{at}.sort[{i}]", col, fields)
    acts = coll["actions"]
    for i, f in enumerate(acts["edit"]):
        _field_of(problems, source, f"{at}.actions.edit[{i}]", f, fields)
    for i, f in enumerate(acts["toggle"]):
        _field_of(problems, source, f"{at}.actions.toggle[{i}]", f, fields, ("boolean",))
    for role, kinds in (("star", ("boolean",)), ("status", ("choice",)), ("quantity", ("number",))):
        if acts[role]:
            _field_of(problems, source, f"{at}.actions.{role}", acts[role], fields, kinds)
    for i, record in enumerate(coll["records"]):
        _check_record(problems, source, f"{at}.records[{i}]", record, coll)
    for i, variant in enumerate(coll["variants"]):
        for key, value in variant.items():
            where = f"{at}.variants[{i}].{key}"
            if isinstance(value, dict) and fields.get(key, {}).get("type") == "ref":
                problems.add(ConfigError(source, where, "a ref is drawn from its collection", "a title of it"))
            elif _field_of(problems, source, where, key, fields) and fields[key]["type"] != "ref":
                if isinstance(value, dict):  # the variant's own generator: its cities, its temperatures
                    variant[key] = _variant_generator(problems, source, where, value, fields[key])
                elif not (isinstance(value, str) and "{}" in value):
                    with problems.guard():
                        check_value(fields[key], value, source, where)
    for fname, gen in coll["generate"].items():
        if _field_of(problems, source, f"{at}.generate.{fname}", fname, fields) and (gen["times"] or gen["plus"]):
            _check_computed_generator(problems, source, f"{at}.generate.{fname}", gen, fields[fname], colls, name)
    drawn = coll["title"] in coll["generate"] or any(coll["title"] in v for v in coll["variants"])
    if coll["count"] and coll["title"] in fields and not drawn:
        problems.add(
            ConfigError(
                source,
                f"{at}.generate",
                f"count is {coll['count']} but nothing draws the title",
                f"a generator for {coll['title']!r}",
            )
        )


def _variant_generator(problems: Problems, source: str, at: str, raw: dict, spec: dict) -> dict:
    """A variant's generator for one field, with its defaults: it draws as ``generate`` does; a
    computed one (``times``) belongs in ``generate``."""
    gen = problems.check(GENERATOR.check, raw, source, at)
    if gen is None:
        return raw
    if gen["times"] or gen["plus"]:
        problems.add(
            ConfigError(source, at, "a variant draws, it does not compute", "pool, combine, range, dates, chance")
        )
    for j, value in enumerate(gen["pool"]):
        with problems.guard():
            check_value(spec, value, source, f"{at}.pool[{j}]")
    return gen


def _check_computed_generator(
    problems: Problems, source: str, at: str, gen: dict, spec: dict, colls: dict, name: str
) -> None:
    """A generator that computes its number from the generated record (``times``, ``plus``) as a
    flow's computed value does: nothing else drawn, a number or money field."""
    drawn = [key for key in ("pool", "combine", "range", "dates") if gen[key]]
    if drawn:
        problems.add(ConfigError(source, at, f"computes (times) and draws ({', '.join(drawn)})", "one of them"))
    if spec["type"] not in computed.NUMBERS:
        problems.add(ConfigError(source, at, f"a {spec['type']} field is not computed", "a number or money field"))
    if not gen["times"]:
        problems.add(ConfigError(source, f"{at}.plus", "adds to nothing without times", "times: terms multiplied"))
    else:
        computed.check_rule(problems, source, at, {"times": gen["times"], "plus": gen["plus"]}, colls, name)


def _check_field(problems: Problems, source: str, at: str, name: str, spec: dict, colls: dict) -> None:
    reserved = name.startswith("dapp_") or name in ("id", "q", "filter", "sort", "msg", "back")
    if not NAME.match(name) or reserved or keyword.iskeyword(name):  # fields are app tools' keyword arguments
        problems.add(
            ConfigError(
                source,
                at,
                "field names are identifiers the pages and app tools do not use",
                "lowercase letters, digits, _; not a Python keyword (class, from, ...), id, q, filter, sort, msg,"
                " back or dapp_*",
            )
        )
    if spec["type"] == "choice" and not spec["choices"]:
        problems.add(ConfigError(source, f"{at}.choices", "a choice field needs its choices", "a list of values"))
    if spec["type"] == "ref" and spec["to"] not in colls:
        problems.add(unknown_name(source, f"{at}.to", spec["to"], colls, what="collection"))
    if spec["default"] is not None:
        with problems.guard():
            check_value(spec, spec["default"], source, f"{at}.default")


def check_value(spec: dict, value: object, source: str, at: str) -> object:
    """``value`` as a value of a field ``spec`` (a number for a money field ...), or the error."""
    kind = spec["type"]
    if kind in NUMERIC and isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value) if kind == "rating" else float(value)
    if kind == "boolean" and isinstance(value, bool):
        return value
    if kind == "choice" and value in spec["choices"]:
        return value
    if kind not in NUMERIC + ("boolean", "choice") and isinstance(value, str):
        return value
    allowed = ", ".join(spec["choices"]) if kind == "choice" else f"a {FIELD_TYPES[kind]} ({kind} field)"
    if isinstance(value, bool):  # `status: on` in YAML is true: the word needs quotes
        raise ConfigError(source, at, YAML_BOOL.format(value=value), allowed)
    raise ConfigError(source, at, f"{value!r} is no value of this field", allowed)


def _check_record(problems: Problems, source: str, at: str, record: dict, coll: dict) -> None:
    fields = coll["fields"]
    for key, value in record.items():
        if _field_of(problems, source, f"{at}.{key}", key, fields) and fields[key]["type"] != "ref":
            with problems.guard():
                check_value(fields[key], value, source, f"{at}.{key}")
    if coll["title"] not in record:
        problems.add(ConfigError(source, f"{at}.{coll['title']}", "a record needs its title field"))


def _check_flow(problems: Problems, source: str, name: str, flow: dict, colls: dict) -> None:
    at = f"flows.{name}"
    if flow["creates"] not in colls:
        problems.add(unknown_name(source, f"{at}.creates", flow["creates"], colls, what="collection"))
        return
    fields = colls[flow["creates"]]["fields"]
    for i, f in enumerate(flow["fields"]):
        _field_of(problems, source, f"{at}.fields[{i}]", f, fields)
    for f, value in flow["set"].items():
        if not _field_of(problems, source, f"{at}.set.{f}", f, fields) or not computed.is_rule(value):
            continue
        if f in flow["fields"]:
            problems.add(ConfigError(source, f"{at}.set.{f}", "the form asks for it too", "leave it out of fields"))
        if fields[f]["type"] not in computed.NUMBERS:
            problems.add(
                ConfigError(
                    source, f"{at}.set.{f}", f"a {fields[f]['type']} field is no sum", "a number or money field"
                )
            )
        flow["set"][f] = computed.check_rule(problems, source, f"{at}.set.{f}", value, colls, flow["creates"]) or value
    for i, adj in enumerate(flow["adjust"]):
        sub = f"{at}.adjust[{i}]"
        if _field_of(problems, source, f"{sub}.ref", adj["ref"], fields, ("ref",)):
            target = colls[fields[adj["ref"]]["to"]]["fields"] if fields[adj["ref"]]["to"] in colls else {}
            _field_of(problems, source, f"{sub}.field", adj["field"], target, ("money", "number"))
        if isinstance(adj["by"], bool) or not isinstance(adj["by"], (int, float, str)):
            allowed = [f for f, spec in fields.items() if spec["type"] in ("money", "number")]
            problems.add(
                ConfigError(source, f"{sub}.by", f"expected a field or a number, got {adj['by']!r}", ", ".join(allowed))
            )
        elif isinstance(adj["by"], str):
            _field_of(problems, source, f"{sub}.by", adj["by"], fields, ("money", "number"))
    if flow["start"] and flow["start"] not in colls:
        problems.add(unknown_name(source, f"{at}.start", flow["start"], colls, what="collection"))


def _check_setting(problems: Problems, source: str, at: str, setting: dict) -> None:
    if setting["type"] == "choice" and not setting["choices"]:
        problems.add(ConfigError(source, f"{at}.choices", "a choice setting needs its choices", "a list of values"))
    default = setting["default"]
    if default is not None and setting["type"] == "boolean" and not isinstance(default, bool):
        problems.add(ConfigError(source, f"{at}.default", f"{default!r} is no toggle value", "true, false"))
    if default is not None and setting["type"] == "choice" and default not in setting["choices"]:
        problems.add(ConfigError(source, f"{at}.default", f"{default!r} is no choice", ", ".join(setting["choices"])))


def text_keys(desc: dict) -> list[str]:
    """Every key a language's ``strings`` may translate (docs/apps/spec.md, "Languages")."""
    keys = ["title", "description"]
    for name, coll in desc["collections"].items():
        keys.append(name)
        for fname, spec in coll["fields"].items():
            keys.append(f"{name}.{fname}")
            keys += [f"{name}.{fname}.{c}" for c in spec["choices"]]
    for name in desc["flows"]:
        keys += [f"flow.{name}", f"flow.{name}.confirm"]
    for name, setting in desc["settings"].items():
        keys.append(f"setting.{name}")
        keys += [f"setting.{name}.{c}" for c in setting["choices"]]
    return keys


def _check_strings(problems: Problems, source: str, desc: dict) -> None:
    keys = text_keys(desc)
    known = set(keys)
    for lang, table in desc["strings"].items():
        if not is_language_tag(lang) or lang == "en":
            problems.add(
                ConfigError(
                    source,
                    f"strings.{lang}",
                    "is no language to translate into",
                    "a BCP 47 tag other than en (de, fr, zh)",
                )
            )
            continue
        for key in table:
            if key not in known:
                problems.add(unknown_name(source, f"strings.{lang}.{key}", key, keys, what="text key", keep_order=True))
