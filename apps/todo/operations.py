"""Todo's operations: each state change with its log entry, called by the route handlers and,
as app tools, by agents (``todo.add_item(title='Buy milk')``)."""

from __future__ import annotations

from openapps_sim.apps.todo import model

from openapps_sim.appkit import AppContext, OperationError, known_item, operation, remove_known


def _item(ctx: AppContext, item_id: str) -> dict:
    return known_item(ctx, "items", item_id, "item")


@operation
def add_item(ctx: AppContext, title: str) -> dict:
    """Add an open item with this title to the todo list; returns the item."""
    title = title.strip()
    if not title:
        raise OperationError("todo.add_item", "title", "is empty", "a non-empty title")
    item = model.add_item(ctx.state, title)
    ctx.log(id=item["id"], title=title)
    return item


@operation
def toggle_item(ctx: AppContext, id: str) -> dict:
    """Mark the item with this id done if it is open, open if it is done; returns the item."""
    item = _item(ctx, id)
    model.set_done(item, not item["done"])
    ctx.log(id=item["id"], title=item["title"], done=item["done"])
    return item


@operation
def edit_item(ctx: AppContext, id: str, title: str) -> dict:
    """Give the item with this id a new title; returns the item."""
    item = _item(ctx, id)
    title = title.strip()
    if not title:
        raise OperationError("todo.edit_item", "title", "is empty", "a non-empty title")
    if title != item["title"]:
        old = model.rename(item, title)
        ctx.log(id=item["id"], old=old, title=title)
    return item


@operation
def delete_item(ctx: AppContext, id: str) -> dict:
    """Delete the item with this id; returns it."""
    return remove_known(ctx, "items", id, "item", ("title",))


@operation
def clear_completed(ctx: AppContext) -> list:
    """Delete every done item; returns the deleted items."""
    done = model.clear_completed(ctx.state)
    if done:
        ctx.log(ids=[i["id"] for i in done], titles=[i["title"] for i in done])
    return done
