"""The format of a described app: what ``app.yaml`` may say, in the project's schema language.

:data:`DESCRIPTION` checks the shape of the file (every key, every type, at once);
:mod:`.checks` then checks what the shape cannot (a ``title`` that names no field, a reference to
no collection). docs/apps/spec.md documents every key with a worked example.
"""

from __future__ import annotations

from openapps_sim.config.categories import CATEGORIES
from openapps_sim.config.schema import Any_, Bool, Color, Enum, Float, Int, ListOf, MapOf, Record, Str
from openapps_sim.errors import ConfigError

# field type -> the type of its value in the state (and of its argument in an app tool)
FIELD_TYPES = {
    "text": "str",
    "longtext": "str",
    "number": "float",
    "money": "float",
    "date": "str",
    "time": "str",
    "boolean": "bool",
    "choice": "str",
    "rating": "int",
    "ref": "str",
    "icon": "str",
}


class Word(Str):
    """A text value, where YAML's reading of an unquoted on, off, yes or no as true or false
    is told plainly: quote it."""

    def check(self, value, source, path):
        if isinstance(value, bool):
            raise ConfigError(source, path, YAML_BOOL.format(value=value), "the word quoted: 'on', 'off', 'yes', 'no'")
        return super().check(value, source, path)


YAML_BOOL = "YAML reads an unquoted on, off, yes, no, true or false as {value}; quote the word"

FIELD = Record(
    {
        "type": Enum(list(FIELD_TYPES), doc="what the field holds"),
        "label": Str("", doc="its label in English (default: the field's name, capitalised)"),
        "choices": ListOf(Word(), default=[], doc="choice: the values allowed (each may be translated)"),
        "to": Str("", doc="ref: the collection whose record this field names"),
        "default": Any_(None, doc="the value of a new record that does not give one"),
        "currency": Str("$", doc="money: the sign written before the amount"),
        "unit": Str("", doc="number: the unit written after the value (kg, km, min)"),
        "grouping": Bool(True, doc="number: thousands separators (false for a year or a code: 1989, not 1,989)"),
        "max": Int(5, lo=1, hi=10, doc="rating: the most stars"),
        "required": Bool(False, doc="a new record must give it (the title field always must)"),
    }
)

GENERATOR = Record(
    {
        "pool": ListOf(Any_(), default=[], doc="values to draw from"),
        "combine": ListOf(ListOf(Str()), default=[], doc="pools whose draws are joined by sep (first + last name)"),
        "sep": Str(" ", doc="what joins the draws of combine"),
        "unique": Bool(False, doc="no two generated records get the same value"),
        "range": ListOf(Float(), default=[], doc="number, money, rating: [low, high]"),
        "step": Float(1.0, doc="number, money: the values are multiples of this"),
        "dates": ListOf(Str(), default=[], doc="date: [first, last] as YYYY-MM-DD"),
        "chance": Float(0.5, lo=0.0, hi=1.0, doc="boolean: how often it is true"),
        "times": ListOf(
            Any_(),
            default=[],
            doc="number, money: computed, not drawn: terms multiplied, as a flow's computed value "
            "(distance times the class's rate per km)",
        ),
        "plus": ListOf(Any_(), default=[], doc="with times: terms added once (a base fare)"),
    }
)

ACTIONS = Record(
    {
        "create": Bool(False, doc="a New button and form"),
        "edit": ListOf(Str(), default=[], doc="the fields an Edit form changes"),
        "delete": Bool(False, doc="a Delete button on each record"),
        "toggle": ListOf(Str(), default=[], doc="boolean fields switched on and off with one button each"),
        "star": Str("", doc="a boolean field shown as a star (favourite, pinned)"),
        "status": Str("", doc="a choice field set with one button per value"),
        "quantity": Str("", doc="a number field changed with - and + buttons"),
    }
)

COLLECTION = Record(
    {
        "label": Str(doc="what the collection is called in English, plural (Accounts)"),
        "item": Str("", doc="one record, as a lowercase identifier for operations (default: label without its s)"),
        "fields": MapOf(FIELD, doc="the fields of its records, in the order forms and detail pages show them"),
        "title": Str(doc="the field that names a record (its natural key)"),
        "subtitle": Str("", doc="a field shown under the title"),
        "badge": Str("", doc="a field shown as a badge"),
        "price": Str("", doc="a money or number field shown at the row's end"),
        "image": Str("", doc="an icon field shown before the title"),
        "layout": Enum(["list", "cards", "table"], "list", doc="how the records are laid out"),
        "columns": ListOf(
            Str(), default=[], doc="table: the fields of the columns (default: title, subtitle, badge, price)"
        ),
        "search": Bool(True, doc="a search box over the text fields"),
        "filter": Str("", doc="a choice field to filter by (links)"),
        "tabs": Str("", doc="a choice field whose values are tabs over the list"),
        "sort": ListOf(Str(), default=[], doc="fields the list can be sorted by"),
        "nav": Bool(True, doc="a tab for the collection in the app's navigation"),
        "actions": ACTIONS,
        "records": ListOf(
            MapOf(Any_()),
            default=[],
            doc="records every world has: field -> value (or a .csv/.yaml file beside app.yaml)",
        ),
        "count": Int(0, lo=0, hi=500, doc="how many records each world seed generates beyond records"),
        "generate": MapOf(GENERATOR, default={}, doc="field -> how generated records draw it"),
        "variants": ListOf(
            MapOf(Any_()),
            default=[],
            doc="partial records a generated record starts from (one drawn each): values that belong together; "
            "a text value with {} takes the field's generated draw; a mapping is the variant's own generator "
            "(country: Brazil, city: {pool: [Recife, Manaus]}, temperature: {range: [20, 33]})",
        ),
    }
)

ADJUST = Record(
    {
        "ref": Str(doc="a ref field of the created record: the record to change"),
        "field": Str(doc="a number or money field of that record"),
        "by": Any_(doc="the amount: a number or money field of the created record, or a number (by: 1)"),
        "sign": Int(-1, lo=-1, hi=1, doc="-1 subtracts, 1 adds"),
    }
)

FLOW = Record(
    {
        "label": Str(doc="the button that starts the flow, in English (Send money)"),
        "creates": Str(doc="the collection the confirmed flow adds a record to"),
        "fields": ListOf(Str(), doc="the fields of that record the flow's form asks for"),
        "set": MapOf(
            Any_(),
            default={},
            doc="fields of the record set without asking: a value ({n}: the record's number), or a "
            "computed number {sum, each, where, plus} (an order's total) or {times, plus} (hours × rate)",
        ),
        "adjust": ListOf(ADJUST, default=[], doc="numbers of referenced records the confirmed flow changes"),
        "start": Str("", doc="a collection whose detail pages offer the flow, for its ref field to them"),
        "confirm": Str("Confirm", doc="the button of the review step, in English"),
    }
)

SETTING = Record(
    {
        "type": Enum(["boolean", "choice"], doc="a toggle or a choice"),
        "label": Str(doc="its label in English"),
        "choices": ListOf(Word(), default=[], doc="choice: the values allowed"),
        "default": Any_(None, doc="its value in a new world (default: false, or the first choice)"),
    }
)

DESCRIPTION = Record(
    {
        "name": Str("", doc="the app's name: URL prefix, state key, task-id prefix (default: the folder's name)"),
        "title": Str(doc="the app's name on the start page and its top bar, in English"),
        "description": Str("", doc="one sentence on the start page, in English"),
        "category": Enum(list(CATEGORIES), doc="its Google Play category"),
        "icon": Str("", doc="the launcher icon: the d of a 24x24 SVG path, or a shared icon's name"),
        "accent": Color("#2f6fde", doc="the colour of the app's header band"),
        "order": Int(60, lo=0, hi=10000, doc="its place on the start page"),
        "home": Str("", doc="the collection of the first page (default: the first)"),
        "collections": MapOf(COLLECTION, doc="the kinds of records, in navigation order"),
        "flows": MapOf(FLOW, default={}, doc="two-step actions with a review page (a transfer, a booking, an order)"),
        "settings": MapOf(SETTING, default={}, doc="the settings page: toggles and choices"),
        "strings": MapOf(MapOf(Str()), default={}, doc="language tag -> text key -> translation (English is inline)"),
    }
)
