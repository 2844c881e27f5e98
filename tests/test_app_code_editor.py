"""The code editor through a real browser: every operation changes the state and logs its event."""

from __future__ import annotations

import pytest
from openapps_sim.apps.code_editor import normalise
from openapps_sim.apps.code_editor.model import normalise_content, path_id

from openapps_sim.config.catalog import drawn

from .app_pages import assert_clean

pytestmark = pytest.mark.browser


def tid(testid: str) -> str:
    return f'[data-testid="{testid}"]'


def ce(server) -> dict:
    return drawn(server.snapshot()[1]["code_editor"])


def ops(server) -> list[tuple[str, dict]]:
    return [(e["op"], e["args"]) for e in server.events if e["app"] == "code_editor"]


def open_file(page, world, path: str) -> dict:
    """Open the file at ``path`` from the editor's tree: the editor's state before."""
    before = ce(world)
    page.goto(world.url + "/code_editor/")
    page.click(tid(f"code_editor-file-{path_id(path)}"))
    return before


def test_open_edit_and_save(page, world):
    before = open_file(page, world, "src/app.py")
    editor = page.locator(tid("code_editor-editor"))
    assert editor.input_value() == before["files"]["src/app.py"]
    # Browsing is not a change.
    assert ce(world) == before and ops(world) == []
    new = before["files"]["src/app.py"] + "# reviewed\n"
    editor.fill(new)
    page.click(tid("code_editor-save"))
    page.wait_for_selector(tid("code_editor-flash"))
    after = ce(world)
    assert after["files"]["src/app.py"] == new
    assert {k: v for k, v in after["files"].items() if k != "src/app.py"} == {
        k: v for k, v in before["files"].items() if k != "src/app.py"
    }
    assert ops(world) == [("save_file", {"path": "src/app.py", "lines": new.count("\n"), "chars": len(new)})]
    # Saving unchanged content is not a change either.
    page.click(tid("code_editor-save"))
    page.wait_for_selector(tid("code_editor-flash"))
    assert len(ops(world)) == 1
    assert_clean(page)


def test_create_file_and_folder(page, world):
    page.goto(world.url + "/code_editor/")
    page.click(tid("code_editor-new-file"))
    page.fill(tid("code_editor-field-name"), "helpers.py")
    page.select_option(tid("code_editor-field-parent"), "src/utils")
    page.click(tid("code_editor-create"))
    page.wait_for_selector(tid("code_editor-editor"))
    assert ce(world)["files"]["src/utils/helpers.py"] == ""
    assert page.locator(tid(f"code_editor-file-{path_id('src/utils/helpers.py')}")).count() == 1

    page.click(tid("code_editor-new-folder"))
    page.fill(tid("code_editor-field-name"), "fixtures")
    page.select_option(tid("code_editor-field-parent"), "tests")
    page.click(tid("code_editor-create"))
    page.wait_for_selector(tid(f"code_editor-folder-{path_id('tests/fixtures')}"))
    assert "tests/fixtures" in ce(world)["folders"]
    assert ops(world) == [
        ("create_file", {"path": "src/utils/helpers.py"}),
        ("create_folder", {"path": "tests/fixtures"}),
    ]

    # A bad name or an existing one is refused with a message and changes nothing.
    before = ce(world)
    for name in ("a/b.py", "app.py"):
        page.goto(world.url + "/code_editor/new?kind=file&parent=src")
        page.fill(tid("code_editor-field-name"), name)
        page.click(tid("code_editor-create"))
        page.wait_for_selector(tid("code_editor-error"))
    assert ce(world) == before and len(ops(world)) == 2
    assert_clean(page)


def test_rename_file_and_move_folder(page, world):
    before = open_file(page, world, "src/models.py")
    page.click(tid(f"code_editor-rename-{path_id('src/models.py')}"))
    assert page.locator(tid("code_editor-field-name")).input_value() == "models.py"
    page.fill(tid("code_editor-field-name"), "recipe.py")
    page.click(tid("code_editor-confirm-rename"))
    page.wait_for_selector(tid("code_editor-editor"))
    state = ce(world)
    assert "src/models.py" not in state["files"]
    assert state["files"]["src/recipe.py"] == before["files"]["src/models.py"]

    # Renaming a folder into another folder moves everything below it.
    page.goto(world.url + "/code_editor/?folder=src")
    page.click(tid(f"code_editor-rename-{path_id('src/utils')}"))
    page.fill(tid("code_editor-field-name"), "helpers")
    page.select_option(tid("code_editor-field-parent"), "/")
    page.click(tid("code_editor-confirm-rename"))
    page.wait_for_selector(tid(f"code_editor-folder-{path_id('helpers')}"))
    state = ce(world)
    assert "src/utils" not in state["folders"] and "helpers" in state["folders"]
    assert state["files"]["helpers/io.py"] == before["files"]["src/utils/io.py"]
    assert not any(p.startswith("src/utils") for p in state["files"])
    assert ops(world) == [
        ("rename", {"path": "src/models.py", "new_path": "src/recipe.py", "kind": "file"}),
        ("rename", {"path": "src/utils", "new_path": "helpers", "kind": "folder"}),
    ]
    assert_clean(page)


def test_delete_file_and_folder_with_contents(page, world):
    before = open_file(page, world, "docs/api.md")
    page.click(tid(f"code_editor-delete-{path_id('docs/api.md')}"))
    page.wait_for_selector(tid("code_editor-flash"))
    assert "docs/api.md" not in ce(world)["files"]

    page.click(tid(f"code_editor-folder-{path_id('src')}"))
    page.click(tid(f"code_editor-delete-{path_id('src')}"))
    # The confirmation page changes nothing until confirmed.
    page.wait_for_selector(tid("code_editor-confirm-delete"))
    assert "src" in ce(world)["folders"]
    page.click(tid("code_editor-confirm-delete"))
    page.wait_for_selector(tid("code_editor-flash"))
    state = ce(world)
    assert not any(p == "src" or p.startswith("src/") for p in list(state["files"]) + state["folders"])
    gone = sorted(p for p in before["files"] if p.startswith("src/"))
    events = ops(world)
    assert events[0] == ("delete_file", {"path": "docs/api.md"})
    assert events[1][0] == "delete_folder" and events[1][1]["path"] == "src"
    assert sorted(events[1][1]["files"]) == gone
    assert len(events) == 2
    assert_clean(page)


def test_markup_in_files_stays_text(page, world):
    world.app_state("code_editor")  # drawn, to change
    state = world.snapshot()[1]
    tricky = "\n<b>bold?</b>\n</textarea><script>window.__pwned = 1</script>\n  indented  \r\n"
    state["code_editor"]["files"]["docs/<img src=x onerror=alert(1)>.md"] = tricky
    world.set_state(state)
    page.goto(world.url + "/code_editor/?folder=docs")
    name = "docs/<img src=x onerror=alert(1)>.md"
    page.click(tid(f"code_editor-open-{path_id(name)}"))
    editor = page.locator(tid("code_editor-editor"))
    # The textarea shows the exact text, leading newline included; nothing ran.
    assert editor.input_value() == tricky.replace("\r\n", "\n")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src=x]").count() == 0
    page.click(tid("code_editor-save"))
    page.wait_for_selector(tid("code_editor-flash"))
    saved = ce(world)["files"][name]
    assert normalise_content(saved) == normalise_content(tricky)
    assert normalise(ce(world)) == normalise(state["code_editor"])
    assert_clean(page)
