"""Code editor: a project's file tree, with files to open, edit and save, and files and folders
to create, rename, move and delete.

Paths are the identity of files and folders (``src/utils/io.py``); data-testids carry
:func:`model.path_id` of the path. The open file or folder, the tree filter and flash messages
live in the URL; the state holds only the project name, the folder list and the file contents.
"""

from __future__ import annotations

from openapps_sim.apps.code_editor.model import normalise

from openapps_sim.appkit import AppSpec

APP = AppSpec.from_package(__name__, category="Tools", order=60, icon_svg="M9 7l-5 5 5 5M15 7l5 5-5 5M13 5l-2 14")

__all__ = ["APP", "normalise"]
