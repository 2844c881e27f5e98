"""What a model is told when it writes an ``app.yaml`` (``openapps apps new``, docs/apps/spec.md):
the format, derived from the schema of :mod:`.format` (every key with its kind and what it does),
the rules the schema cannot say (:mod:`.checks` enforces them), and one shipped app as an example."""

from __future__ import annotations

from openapps_sim.apps.described.checks import APP_FILE
from openapps_sim.apps.described.format import DESCRIPTION
from openapps_sim.apps.described.spec import library_dir
from openapps_sim.apps.described.words import LANG_DIR

from openapps_sim.config.schema import Field, ListOf, MapOf, Record

EXAMPLE_APP = "radio"  # the library app shown whole: small, with a filter, actions and settings

RULES = """\
Rules the keys above do not say:
- A collection's `title` names one of its text fields (required); `subtitle`, `badge`, `price`,
  `image`, `filter`, `tabs`, `sort`, `columns` and `actions` name its own fields: `filter`,
  `tabs` and `actions.status` a choice field, `actions.toggle` and `actions.star` boolean
  fields, `actions.quantity` a number field, `price` a money or number field.
- Field values: text, longtext, icon: strings; date: "YYYY-MM-DD"; time: "HH:MM"; number and
  money: numbers; rating: a whole number up to `max`; boolean: true or false; choice: one of its
  `choices` (quote words YAML reads as booleans: "on", "off", "yes", "no"); ref (`to:` another
  collection): the title of a record of that collection.
- Every record gives its collection's title field; names are lowercase identifiers
  ([a-z][a-z0-9_]*); field names are never id, q, filter, sort, msg, back, nor start with dapp_.
- A flow `creates` a collection; its `fields` are fields of that collection, and must include
  every field of it that is required or has no default, unless `set` gives it; `start` names a
  collection that one of those fields is a ref to; `adjust.ref` is such a ref field and
  `adjust.field` a number or money field of the collection it points to.
- A total the app works out (an order's) is never asked: `set` computes it, e.g. `total: {{sum:
  basket, each: [quantity, unit_price], where: {{restaurant: restaurant}}, plus: [tip,
  restaurant.delivery_fee]}}` (`each`: number or money fields of `sum`'s records, multiplied;
  `where`: its field -> the created record's field; `plus`: a number, a field or ref.field).
- `strings` (optional) translate by key: title, description, <collection>,
  <collection>.<field>, <collection>.<field>.<choice>, flow.<name>, flow.<name>.confirm,
  setting.<name>, setting.<name>.<choice>; languages: {languages}.
- Give the main collection realistic records: a few under `records`, and `count` + `generate`
  (or `variants`) for at least 20 in all; generated titles need `unique: true`.
- The app must derive at least 8 task families: each action (create, edit, delete, toggle, star,
  status, quantity), a filter or tabs (count; with a price also total and average), a flow and
  settings each add some.
"""


def guide() -> str:
    """The format as a model is told it, with the shipped app :data:`EXAMPLE_APP` whole."""
    example = (library_dir() / EXAMPLE_APP / APP_FILE).read_text(encoding="utf-8")
    lines = ["The format of app.yaml (key: kind; what it is):", *_keys(DESCRIPTION, "")]
    languages = ", ".join(sorted(p.stem for p in LANG_DIR.glob("*.yaml")))
    lines += ["", RULES.format(languages=languages), "An example (a shipped app):", "```yaml", example.strip(), "```"]
    return "\n".join(lines)


def _keys(record: Record, indent: str) -> list[str]:
    out = []
    for key, field in record.fields.items():
        inner = _inner(field)
        kind = _kind(field, inner)
        need = ", required" if field.required else ""
        out.append(f"{indent}{key}: {kind}{need}; {field.doc}".rstrip("; "))
        if inner is not None:
            out += _keys(inner, indent + "  ")
    return out


def _inner(field: Field) -> Record | None:
    """The record a key holds, or holds a mapping or list of."""
    for candidate in (field, getattr(field, "value", None), getattr(field, "item", None)):
        if isinstance(candidate, Record):
            return candidate
    return None


def _kind(field: Field, inner: Record | None) -> str:
    if inner is None:
        return field.describe()
    if isinstance(field, MapOf):
        return "a mapping of names to mappings with these keys"
    if isinstance(field, ListOf):
        return "a list of mappings with these keys"
    return "a mapping with these keys"
