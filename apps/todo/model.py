"""Todo's state and its changes: pure functions over the app's state dict (``{"items": [...],
"next_id": n}``), used by the route handlers and by the task families' ``apply``."""

from __future__ import annotations

from openapps_sim.appkit import ItemKey, by_id
from openapps_sim.config.normalise import norm_text

# the natural key of the items of each list in the normalised state (for reward explanations)
ITEM_KEYS = {"items": ItemKey("title", "todo")}


def initial_state(config: dict, rng) -> dict:
    items = [
        {"id": f"t{i + 1}", "title": it["title"], "done": it["done"], "notes": it["notes"]}
        for i, it in enumerate(config["items"])
    ]
    return {"items": items, "next_id": len(items) + 1}


def normalise(state: dict) -> dict:
    """Items compared as a multiset of (title, done, notes): ids and order do not matter."""
    items = sorted((norm_text(i["title"]), bool(i["done"]), norm_text(i.get("notes", ""))) for i in state["items"])
    return {"items": [{"title": t, "done": d, "notes": n} for t, d, n in items]}


def find_item(todo: dict, item_id: str) -> dict | None:
    return by_id(todo["items"], item_id)


def add_item(todo: dict, title: str) -> dict:
    """Append a new, open item and return it."""
    item = {"id": f"t{todo['next_id']}", "title": title, "done": False, "notes": ""}
    todo["next_id"] += 1
    todo["items"].append(item)
    return item


def set_done(item: dict, done: bool) -> None:
    item["done"] = done


def rename(item: dict, title: str) -> str:
    """Give the item a new title; returns the old one."""
    old, item["title"] = item["title"], title
    return old


def clear_completed(todo: dict) -> list[dict]:
    """Remove every done item; returns the removed ones."""
    done = [i for i in todo["items"] if i["done"]]
    todo["items"] = [i for i in todo["items"] if not i["done"]]
    return done


def showcase(state: dict, config: dict) -> list:
    """Pages worth a look beyond the list: the edit form of the first item."""
    from openapps_sim.appkit import Showcase

    return [Showcase("edit form", f"/?edit={state['items'][0]['id']}")] if state["items"] else []
