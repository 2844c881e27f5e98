"""Variation packs: YAML files that change any subset of any apps' appearance and content.

A pack is either ``<name>.yaml`` (top-level keys: ``description`` and sections such as
``theme``, ``shell``, ``todo``) or a folder ``<name>/`` holding ``pack.yaml`` (the description
and any sections) plus one ``<section>.yaml`` per section it changes. Packs compose left to
right: ``dark_theme+german`` applies ``dark_theme`` and then ``german``. Command-line overrides
(``todo.title="Super Todo"``) come last.

Names are looked up in the packs shipped with the package, then in the folders listed in the
``OPENAPPS_VARIATIONS`` environment variable; a part of an expression that is a path to a
``.yaml`` file or a pack folder is read directly; ``random-<seed>`` names a generated pack
(see :mod:`openapps_sim.config.sampler`).
"""

from __future__ import annotations

import os
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from openapps_sim.config.schema import Record
from openapps_sim.config.yamlfile import display_path, load_yaml, read_yaml
from openapps_sim.errors import ConfigError, Problems, unknown_key, unknown_name

PACK_NAME = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")
GENERATED = re.compile(r"^random-(\d+)(?:-(\d+))?$")  # a generated pack's name (config.sampler)
RESERVED_KEYS = {"description", "extends"}
PACK_LISTING = "openapps variations (MCP: list_variations)"  # where the full list of packs is


def unknown_pack(source: str, key: str, name: str) -> ConfigError:
    """The error for a pack name that names no pack: the closest names, and where the list is."""
    return unknown_name(source, key, name, list_packs(), ["random-<seed>"], PACK_LISTING, "packs")


@dataclass(frozen=True)
class Pack:
    name: str
    description: str
    sections: tuple[tuple[str, str, object], ...]  # (source file, section name, raw value)
    extends: tuple[str | tuple[str, tuple[str, ...]], ...] = ()  # applied first: a name, or (name, apps)
    source: str = ""  # the file that names ``extends``, for messages


GLOBAL_SECTIONS = frozenset({"theme", "shell", "interruptions"})
EXTENDS_ALLOWED = "a pack name, or a list of pack names and {pack: NAME, apps: [APP, ...]} mappings"


def _scoped(entry: dict, file: str, key: str) -> tuple[str, tuple[str, ...]]:
    """``{pack: NAME, apps: [APP, ...]}``: the pack applied to those apps only."""
    unknown = set(entry) - {"pack", "apps"}
    if unknown:
        raise unknown_key(file, f"{key}.{sorted(unknown)[0]}", sorted(unknown)[0], ["pack", "apps"], keep_order=True)
    name, apps = entry.get("pack"), entry.get("apps")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(file, f"{key}.pack", f"expected a pack name, got {name!r}")
    if not isinstance(apps, list) or not apps or not all(isinstance(a, str) and a.strip() for a in apps):
        raise ConfigError(file, f"{key}.apps", f"expected a non-empty list of app names, got {apps!r}")
    apps = [a.strip() for a in apps]
    shared = sorted(set(apps) & GLOBAL_SECTIONS)
    if shared:
        raise ConfigError(file, f"{key}.apps", f"{shared[0]!r} is a section of every app, not an app", "app names")
    return name.strip(), tuple(apps)


def _extends_of(data: dict, file: str) -> tuple[str | tuple[str, tuple[str, ...]], ...]:
    value = data.get("extends")
    if value is None:
        return ()
    if isinstance(value, dict):  # a scoped entry is an item of the list
        raise ConfigError(file, "extends", f"expected {EXTENDS_ALLOWED}, got {value!r}")
    entries = value if isinstance(value, list) else [value]
    out: list[str | tuple[str, tuple[str, ...]]] = []
    for i, entry in enumerate(entries):
        key = f"extends[{i}]" if isinstance(value, list) else "extends"
        if isinstance(entry, dict):
            out.append(_scoped(entry, file, key))
        elif isinstance(entry, str) and entry.strip():
            out.append(entry.strip())
        else:
            raise ConfigError(file, "extends", f"expected {EXTENDS_ALLOWED}, got {value!r}")
    return tuple(out)


def only_apps(sections: tuple, apps: tuple[str, ...], source: str) -> list[tuple[str, str, object]]:
    """A pack's sections applied to ``apps`` only: their own sections, with the pack's global
    ``theme`` laid over each app's theme; the other global sections (``shell``,
    ``interruptions``) and the other apps' sections are left out. Every app named gets a
    section, so a name that is no app is reported (``source`` names the ``extends`` entry)."""
    out = [(source, app, {}) for app in apps]
    for file, section, value in sections:
        if section in apps:
            out.append((file, section, value))
        elif section == "theme":
            out.extend((file, app, {"theme": value}) for app in apps)
    return out


def is_generated(name: str) -> bool:
    """Whether ``name`` names a generated pack (``random-<seed>``, ``random-<seed>-<i>``)."""
    return bool(GENERATED.match(name))


def builtin_dir() -> Path:
    return Path(str(resources.files("openapps_sim.variations")))


def search_dirs() -> list[Path]:
    dirs = [builtin_dir()]
    for extra in os.environ.get("OPENAPPS_VARIATIONS", "").split(os.pathsep):
        if extra:
            dirs.append(Path(extra))
    return dirs


def list_packs(dirs: list[Path] | None = None) -> dict[str, Path]:
    """Every named pack on the search path, or in ``dirs`` (later folders do not shadow earlier
    ones)."""
    found: dict[str, Path] = {}
    for d in search_dirs() if dirs is None else dirs:
        if not d.is_dir():
            continue
        for entry in sorted(d.iterdir()):
            name = entry.stem if entry.suffix == ".yaml" else entry.name
            is_pack = (entry.suffix == ".yaml" and entry.is_file()) or (entry / "pack.yaml").is_file()
            if is_pack and PACK_NAME.match(name) and name not in found:
                found[name] = entry
    return found


def pack_description(name: str) -> str:
    """A named pack's description, read from its head alone (``pack.yaml`` of a folder pack), so
    that listing packs never parses their content (a language pack is hundreds of KB of YAML)."""
    path = list_packs().get(name)
    if path is None:
        raise unknown_pack("--variation", "variation", name)
    if path.is_dir() and not (path / "pack.yaml").is_file():
        raise _missing_pack_yaml(path)
    head = read_yaml(path / "pack.yaml" if path.is_dir() else path)
    return str(head.get("description", "")) if isinstance(head, dict) else ""


def declared_language(path: Path, key: str = "lang") -> str | None:
    """The language a pack declares with its own ``shell.lang`` (in ``pack.yaml`` for a folder),
    not one it inherits through ``extends``; None for packs that set no language. With
    ``key="content_lang"``: its own ``shell.content_lang`` (None when it leaves it to ``lang``)."""
    path = Path(path)
    head = read_yaml(path / "pack.yaml" if path.is_dir() else path)
    shell = head.get("shell") if isinstance(head, dict) else None
    lang = shell.get(key) if isinstance(shell, dict) else None
    return str(lang) if lang else None


def language_packs(dirs: list[Path] | None = None) -> dict[str, str]:
    """Every named pack that translates the world (on the search path, or in ``dirs``): pack
    name -> language code (``shell.lang``).

    Languages are discovered here, never listed in code: a new folder with ``shell: {lang: it}``
    in its ``pack.yaml`` is a language pack. English is the base content, so packs declaring
    ``en`` (such as ``default``) are left out, and so are packs that translate only the
    interface (``shell.content_lang: en`` next to ``shell.lang``, as ``arabic`` does): their items
    and task content stay English, so they bring no goal or content language of their own.
    """
    found = {}
    for name, path in list_packs(dirs).items():
        lang = declared_language(path)
        if lang and lang != "en" and declared_language(path, "content_lang") in (None, lang):
            found[name] = lang
    return found


@lru_cache(maxsize=512)
def _load_pack_file(path_str: str, mtime: float) -> Pack:
    path = Path(path_str)
    head_file = path / "pack.yaml" if path.is_dir() else path
    source = display_path(head_file)
    head = read_yaml(head_file) or {}
    if not isinstance(head, dict):
        raise ConfigError(source, "", "expected a mapping of sections at the top level")
    description = str(head.get("description", ""))
    extends = _extends_of(head, source)
    sections = [(source, k, v) for k, v in head.items() if k not in RESERVED_KEYS]
    if path.is_dir():
        for part in sorted(path.glob("*.yaml")):
            if part.name == "pack.yaml":
                continue
            value = read_yaml(part)
            if value is not None:
                sections.append((display_path(part), part.stem, value))
    name = path.name if path.is_dir() else path.stem
    return Pack(name=name, description=description, sections=tuple(sections), extends=extends, source=source)


def _missing_pack_yaml(folder: Path) -> ConfigError:
    return ConfigError(
        display_path(folder),
        "pack.yaml",
        "this pack folder has no pack.yaml, so it is not a pack",
        "a pack.yaml holding at least 'description: ...' (and any sections)",
    )


def no_pack_yaml(name: str) -> None:
    """A folder named like the pack but without ``pack.yaml`` gets its own error."""
    for d in search_dirs():
        folder = d / name
        if folder.is_dir() and not (folder / "pack.yaml").is_file():
            raise _missing_pack_yaml(folder)


def load_pack_path(path: Path) -> Pack:
    path = Path(path)
    if path.is_dir() and not (path / "pack.yaml").is_file():
        raise _missing_pack_yaml(path)
    stamp = max(
        (p.stat().st_mtime for p in ([path] + list(path.glob("*.yaml")) if path.is_dir() else [path])), default=0
    )
    return _load_pack_file(str(path), stamp)


PACK_KINDS = ("appearance", "language", "content", "interruptions")


def pack_kind(pack: Pack) -> str:
    """What a pack changes, for people browsing packs: ``interruptions`` (it interrupts),
    ``language`` (it sets ``shell.lang``), ``appearance`` (only ``theme`` / ``shell``), else
    ``content`` (app data and descriptions)."""
    names = {section for _, section, _ in pack.sections}
    if "interruptions" in names:
        return "interruptions"
    if any(section == "shell" and isinstance(raw, dict) and "lang" in raw for _, section, raw in pack.sections):
        return "language"
    if names <= {"theme", "shell"}:  # default.yaml, with no section, is the standard look
        return "appearance"
    return "content"


def split_expression(expression: str | None) -> list[str]:
    if not expression:
        return ["default"]
    parts = [p for p in re.split(r"\+", expression) if p.strip()]
    return parts or ["default"]


def parse_override(text: str, source: str = "--set") -> tuple[str, object]:
    if "=" not in text:
        raise ConfigError(source, text, 'expected KEY=VALUE, for example todo.title="Super Todo"')
    key, raw = text.split("=", 1)
    key = key.strip()
    try:
        value = load_yaml(raw, source) if raw.strip() else ""
    except ConfigError as e:
        if e.problem.startswith("refused"):
            raise
        value = raw
    if value is None and raw.strip() not in ("null", "~", "Null", "NULL"):
        value = raw.strip()  # e.g. a colour: YAML reads "#ff0000" as a comment
    return key, value


def placeholders(text: str, source: str = "", path: str = "") -> set[str]:
    """The ``{name}`` placeholders of a format string (``{{`` and ``}}`` are literal braces)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as e:
        raise ConfigError(source, path, f"{e} in {text!r} (write {{{{ and }}}} for literal braces)") from None


def _formatted(path: str, default: str) -> bool:
    """Whether the app fills ``default`` in with ``str.format``: every UI string (under a
    ``strings`` record) and every other default that has placeholders (``price_format``)."""
    return ".strings." in f".{path}." or bool(placeholders(default))


def check_placeholders(default: object, value: object, source: str, path: str) -> None:
    """A pack's strings must use exactly the placeholders of the default strings they replace:
    a renamed ``{count}`` for ``{n}`` would make every page that shows it fail."""
    if isinstance(default, dict) and isinstance(value, dict):
        for key, sub in value.items():
            if key in default:
                check_placeholders(default[key], sub, source, f"{path}.{key}")
    elif isinstance(default, str) and isinstance(value, str) and _formatted(path, default):
        want, got = placeholders(default, "default strings", path), placeholders(value, source, path)
        if got != want:
            allowed = ", ".join("{" + n + "}" for n in sorted(want)) or "no placeholders"
            wrong = sorted(got - want)
            problem = (
                f"unknown placeholder {', '.join('{' + n + '}' for n in wrong)}"
                if wrong
                else f"placeholder {', '.join('{' + n + '}' for n in sorted(want - got))} left out"
            )
            raise ConfigError(source, path, f"{problem} in {value!r} (the default is {default!r})", allowed)


def apply_packs(schema: Record, base: dict, packs: list[Pack], overrides: list[str] = ()) -> dict:
    config = dict(base)
    problems = Problems()  # every section's problems of every pack, at once
    for pack in packs:
        for source, section, value in pack.sections:
            if section not in schema.fields:
                problems.add(unknown_key(source, section, section, ["description", *schema.fields], "section", True))
                continue
            with problems.guard():
                config[section] = schema.fields[section].merge(config[section], value, source, section)
                check_placeholders(base.get(section), value, source, section)
    problems.raise_any()
    for text in overrides:
        key, value = parse_override(text)
        schema.field_at(key, "--set")  # names the bad key with what is allowed
        nested: object = value
        for part in reversed(key.split(".")[1:]):
            nested = {part: nested}
        section = key.split(".")[0]
        config[section] = schema.fields[section].merge(config[section], nested, "--set", section)
        check_placeholders(base.get(section), nested, "--set", section)
    return config
