"""An app's interface texts as data.

Every visible string of an app is a key of its ``strings`` record, and a language pack
translates them by key. The English texts are data, not code: ``strings.yaml`` beside the app's
schema maps each key, in the order the record lists them, to its text, or to
``{text: ..., doc: ...}`` where a note tells a translator what the placeholders stand for.
:func:`texts` turns that file into the record.
"""

from __future__ import annotations

from pathlib import Path

from openapps_sim.config.packs import display_path, read_yaml
from openapps_sim.config.schema import Field, Record, Str
from openapps_sim.errors import ConfigError


def texts(path: Path, **typed: Field) -> Record:
    """The ``strings`` record of the texts in ``path``: a plain string field per key. ``typed``
    gives the keys that are more than free text their own field, made without a default (a
    list of exactly twelve month names, a checked date format); the file still gives their
    default, checked by that field, and their note."""
    source = display_path(path)
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise ConfigError(source, "", "expected a mapping from text keys to texts")
    fields: dict[str, Field] = {}
    for key, entry in raw.items():
        text, doc = (entry.get("text"), entry.get("doc", "")) if isinstance(entry, dict) else (entry, "")
        field = typed.pop(key) if key in typed else Str()
        field.default = field.check(text, source, key)
        field.doc = doc
        fields[key] = field
    if typed:
        raise ConfigError(source, next(iter(typed)), "no text for this key", ", ".join(fields))
    return Record(fields)
