"""Todo's configuration section."""

from __future__ import annotations

from openapps_sim.config.schema import Bool, ListOf, Record, Str

STRINGS = Record(
    heading=Str("My tasks"),
    add_placeholder=Str("What needs to be done?"),
    add_button=Str("Add"),
    edit=Str("Edit"),
    save=Str("Save"),
    cancel=Str("Cancel"),
    delete=Str("Delete"),
    mark_done=Str("Mark done"),
    mark_undone=Str("Mark not done"),
    clear_completed=Str("Clear completed"),
    empty=Str("Nothing to do. Enjoy your day!"),
    filter_all=Str("All"),
    filter_active=Str("Active"),
    filter_done=Str("Done"),
    remaining=Str("{n} left"),
    done_label=Str("done"),
)

SCHEMA = Record(
    strings=STRINGS,
    items=ListOf(Record(title=Str(), done=Bool(False), notes=Str("")), default=[], unique="title"),
    show_filters=Bool(True, doc="show the All / Active / Done filter links"),
    strike_done=Bool(True, doc="strike through the titles of done items", vary=True),
)
