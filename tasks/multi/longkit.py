"""The pieces long-horizon families are made of (tasks/multi/long.py, long_more.py).

A long family's parameters hold ``pieces``: one dict per small change (``{"kind": "event_add",
"title": ..., "date": ..., "time": ...}``). Each kind says once its operation (the plan, so the
expected state, W-LCS and the API solution follow), its page script (each piece opens its app
from the start page, as a user returning to it would) and its check on the world state (one
sub-goal per piece, so partial reward and the milestones measure how far an agent got).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from openapps_sim.apps.code_editor.model import path_id
from openapps_sim.apps.messenger import model as logic
from openapps_sim.tasks.calendar.decisions import add_event_steps
from openapps_sim.tasks.calendar.edits import day_text, open_event
from openapps_sim.tasks.messenger.edits import open_chat
from openapps_sim.tasks.picks import add_this_product, add_to_cart_op, find_product, open_place

from openapps_sim.config.normalise import norm_text
from openapps_sim.taskkit import Subgoal, TaskFamily
from openapps_sim.taskkit.progress import Op

CE = "code_editor"


@dataclass(frozen=True)
class Kind:
    op: Callable[[dict], Op]
    script: Callable[[dict, object], Iterator]
    check: Callable[[dict], Callable[[dict], bool]]  # piece -> predicate on the raw state
    label: Callable[[dict], str]


def _todo_add(p, ui):
    yield from ui.open_app("todo")
    yield ui.fill("todo-new-title", p["title"])
    yield ui.click("todo-add")


def _todo_has(p):
    return lambda s: any(norm_text(i["title"]) == norm_text(p["title"]) for i in s["todo"]["items"])


def _todo_flag(p):
    return lambda s: any(i["id"] == p["id"] and i["done"] == p["done"] for i in s["todo"]["items"])


def _event_has(p):
    def check(s):
        return any(
            norm_text(e["title"]) == norm_text(p["title"]) and e["date"] == p["date"] and e.get("time") == p["time"]
            for e in s["calendar"]["events"]
        )

    return check


def _event_delete(p, ui):
    yield from open_event(ui, p["id"], p["date"])
    yield ui.click(f"calendar-delete-{p['id']}")


def _message(p, ui):
    yield from open_chat(ui, p["contact_id"])
    yield ui.fill("messenger-compose", p["text"])
    yield ui.click("messenger-send")


def _sent(p):
    def check(s):
        msgs = s["messenger"]["conversations"].get(p["contact_id"]) or []
        return any(m["sender"] == logic.ME and norm_text(m["text"]) == norm_text(p["text"]) for m in msgs)

    return check


def _cart_add(p, ui):
    yield from find_product(ui, p["product_id"], search=p["name"])
    yield from add_this_product(ui, p["options"], 1)


def _in_cart(p):
    return lambda s: any(
        ln["product_id"] == p["product_id"] and ln["options"] == p["options"] for ln in s["shop"]["cart"]
    )


def _place_save(p, ui):
    yield from open_place(ui, p["name"], p["place_id"])
    yield ui.click(f"maps-save-{p['place_id']}")


def _create(kind: str):
    def script(p, ui):
        yield from ui.open_app(CE)
        yield ui.click(f"code_editor-new-{kind}")
        yield ui.fill("code_editor-field-name", p["name"])
        yield ui.select("code_editor-field-parent", p["parent"])
        yield ui.click("code_editor-create")

    return script


def _file_move(p, ui):
    pid = path_id(p["path"])
    yield from ui.open_app(CE)
    yield ui.click(f"code_editor-file-{pid}")
    yield ui.click(f"code_editor-rename-{pid}")
    yield ui.select("code_editor-field-parent", p["parent"])
    yield ui.click("code_editor-confirm-rename")


def _file_delete(p, ui):
    pid = path_id(p["path"])
    yield from ui.open_app(CE)
    yield ui.click(f"code_editor-file-{pid}")
    yield ui.click(f"code_editor-delete-{pid}")


def _click(app: str, testid: str):
    def script(p, ui):
        yield from ui.open_app(app)
        yield ui.click(testid.format(**p))

    return script


def _gone(app: str, key: str, field: str = "id"):
    return lambda p: lambda s: all(x[field] != p[field] for x in s[app][key])


KINDS: dict[str, Kind] = {
    "todo_add": Kind(
        lambda p: Op.of("todo", "add_item", title=p["title"]), _todo_add, _todo_has, lambda p: f"todo '{p['title']}'"
    ),
    "todo_toggle": Kind(
        lambda p: Op.of("todo", "toggle_item", id=p["id"]),
        _click("todo", "todo-toggle-{id}"),
        _todo_flag,
        lambda p: f"todo '{p['title']}' {'done' if p['done'] else 'open'}",
    ),
    "todo_delete": Kind(
        lambda p: Op.of("todo", "delete_item", id=p["id"]),
        _click("todo", "todo-delete-{id}"),
        _gone("todo", "items"),
        lambda p: f"todo '{p['title']}' deleted",
    ),
    "event_add": Kind(
        lambda p: Op.of("calendar", "create_event", title=p["title"], date=p["date"], time=p["time"]),
        lambda p, ui: add_event_steps(ui, p["title"], p["date"], p["time"]),
        _event_has,
        lambda p: f"event '{p['title']}' on {p['date']}",
    ),
    "event_delete": Kind(
        lambda p: Op.of("calendar", "delete_event", id=p["id"]),
        _event_delete,
        _gone("calendar", "events"),
        lambda p: f"event '{p['title']}' deleted",
    ),
    "message": Kind(
        lambda p: Op.of("messenger", "send_message", contact=p["contact_id"], text=p["text"]),
        _message,
        _sent,
        lambda p: f"message to {p['contact']}",
    ),
    "cart_add": Kind(
        lambda p: add_to_cart_op(p["product_id"], p["options"], 1),
        _cart_add,
        _in_cart,
        lambda p: f"{p['label']} in the cart",
    ),
    "place_save": Kind(
        lambda p: Op.of("maps", "save_place", place=p["place_id"]),
        _place_save,
        lambda p: lambda s: any(x.get("place") == p["place_id"] for x in s["maps"]["saved"]),
        lambda p: f"place '{p['name']}' saved",
    ),
    "saved_remove": Kind(
        lambda p: Op.of("maps", "remove_saved", id=p["id"]),
        _click("maps", "maps-remove-{id}"),
        _gone("maps", "saved"),
        lambda p: f"saved place '{p['name']}' removed",
    ),
    "folder_create": Kind(
        lambda p: Op.of(CE, "create_folder", path=p["path"]),
        _create("folder"),
        lambda p: lambda s: p["path"] in s[CE]["folders"],
        lambda p: f"folder {p['path']}",
    ),
    "file_create": Kind(
        lambda p: Op.of(CE, "create_file", path=p["path"]),
        _create("file"),
        lambda p: lambda s: p["path"] in s[CE]["files"],
        lambda p: f"file {p['path']}",
    ),
    "file_move": Kind(
        lambda p: Op.of(CE, "rename", path=p["path"], new_path=p["new_path"]),
        _file_move,
        lambda p: lambda s: p["new_path"] in s[CE]["files"] and p["path"] not in s[CE]["files"],
        lambda p: f"{p['path']} moved to {p['parent']}",
    ),
    "file_delete": Kind(
        lambda p: Op.of(CE, "delete_file", path=p["path"]),
        _file_delete,
        lambda p: lambda s: p["path"] not in s[CE]["files"],
        lambda p: f"{p['path']} deleted",
    ),
}


def piece(kind: str, **fields) -> dict:
    if kind not in KINDS:
        raise KeyError(f"unknown piece kind {kind!r}")
    return {"kind": kind, **fields}


class LongFamily(TaskFamily):
    """A long-horizon goal made of pieces (see the module docstring). Subclasses write ``draw``
    (the parameters, with ``pieces``) and, when they change the start state, ``prepare``; the
    goal's lists (events with their days, contacts, titles) come from :meth:`lists`."""

    structure = "sequential"
    category = "multi-app"

    def draw(self, state: dict, config: dict, rng) -> dict:
        raise NotImplementedError

    def sample(self, state, config, rng):
        params = self.draw(state, config, rng)
        assert params["pieces"], f"{self.id}: no pieces"
        return params

    def prepare(self, state, params):
        """Items the goal ticks off start open (``reopen``: todo ids)."""
        for item in state["todo"]["items"] if params.get("reopen") else []:
            if item["id"] in params["reopen"]:
                item["done"] = False

    def plan(self, params, initial):
        return [KINDS[p["kind"]].op(p) for p in params["pieces"]]

    def solve(self, params, ui):
        for p in params["pieces"]:
            yield from KINDS[p["kind"]].script(p, ui)

    def subgoals(self, params, initial=None, expected=None):
        return [
            Subgoal(f"{i + 1}. {KINDS[p['kind']].label(p)}", KINDS[p["kind"]].check(p))
            for i, p in enumerate(params["pieces"])
        ]

    def goal_values(self, params, language):
        return dict(super().goal_values(params, language), **self.lists(params["pieces"], language))

    def lists(self, pieces: list[dict], language: str) -> dict:
        """Lists the goal templates name, written in ``language``: ``events`` ('title' (day,
        time); ...), ``todos``, ``contacts``, ``products``, ``places``, ``files`` (by kind)."""
        of = lambda *kinds: [p for p in pieces if p["kind"] in kinds]  # noqa: E731
        quoted = lambda ps, key: ", ".join(f"'{p[key]}'" for p in ps)  # noqa: E731
        return {
            "events": "; ".join(
                f"'{p['title']}' ({day_text(p['date'], language)}, {p['time']})" for p in of("event_add")
            ),
            "old_events": "; ".join(f"'{p['title']}' ({day_text(p['date'], language)})" for p in of("event_delete")),
            "todos": quoted(of("todo_add", "todo_toggle", "todo_delete"), "title"),
            "contacts": ", ".join(dict.fromkeys(p["contact"] for p in of("message"))),
            "products": "; ".join(p["label"] for p in of("cart_add")),
            "places": quoted(of("place_save", "saved_remove"), "name"),
            "files": ", ".join(p["path"] for p in of("file_move", "file_create", "file_delete")),
            "sends": "; ".join(f"{p['contact']}: '{p['text']}'" for p in of("message")),
            "message": next((p["text"] for p in of("message")), ""),
        }
