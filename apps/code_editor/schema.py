"""Code editor's configuration section."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.config.schema import Bool, Int, ListOf, Record, Str
from openapps_sim.config.texts import texts

STRINGS = texts(Path(__file__).with_name("strings.yaml"))

FILE = Record(path=Str(doc="path inside the project, e.g. src/app.py"), content=Str("", max_len=200000))

SCHEMA = Record(
    strings=STRINGS,
    project=Str("project", doc="the project's name, shown at the root of the tree"),
    folders=ListOf(Str(), default=[], doc="folders, including empty ones (parents of files are added)"),
    files=ListOf(FILE, default=[], doc="files with their contents", unique="path"),
    show_line_numbers=Bool(True, doc="draw line numbers beside the editor (only when lines do not wrap)", vary=True),
    wrap_lines=Bool(False, doc="wrap long lines in the editor instead of scrolling sideways", vary=True),
    folders_first=Bool(True, doc="list folders before files in the tree and in folder views", vary=True),
    tab_size=Int(4, lo=1, hi=8, doc="width of a tab character in the editor"),
    min_editor_lines=Int(16, lo=4, hi=80, doc="the editor is at least this many lines tall"),
    show_readme=Bool(True, doc="show a folder's README.md below its listing", vary=True),
)
