"""Calendar's operations: each state change with its log entry, called by the route handlers
and, as app tools, by agents (``calendar.create_event(title='Dentist', date='2024-05-02')``)."""

from __future__ import annotations

from openapps_sim.apps.calendar import model
from openapps_sim.apps.calendar.model import FIELDS, TIME_RE, parse_date

from openapps_sim.appkit import AppContext, OperationError, known_item, operation, remove_known


def _checked(tool: str, raw: dict) -> dict:
    """The fields as the form would store them, or an error naming the bad one."""
    raw = dict(raw)
    raw["title"] = " ".join(str(raw.get("title") or "").split())
    raw["date"] = str(raw.get("date") or "").strip()
    raw["time"] = str(raw.get("time") or "").strip()
    if not raw["title"]:
        raise OperationError(tool, "title", "is empty", "a non-empty title")
    if parse_date(raw["date"]) is None:
        raise OperationError(tool, "date", f"not a date: {raw['date']!r}", "YYYY-MM-DD")
    if raw["time"]:
        tm = TIME_RE.match(raw["time"])
        if not tm:
            raise OperationError(tool, "time", f"not a time: {raw['time']!r}", "HH:MM, or empty for all day")
        raw["time"] = f"{tm.group(1)}:{tm.group(2)}"
    return raw


def _event(ctx: AppContext, eid: str) -> dict:
    return known_item(ctx, "events", eid, "event")


@operation
def create_event(
    ctx: AppContext,
    title: str,
    date: str,
    time: str = "",
    description: str = "",
    url: str = "",
    invitees: list[str] | None = None,
    location: str = "",
) -> dict:
    """Create an event on `date` (YYYY-MM-DD) at `time` (HH:MM, empty for all day); returns it."""
    raw = {"title": title, "date": date, "time": time, "description": description, "url": url}
    raw |= {"invitees": list(invitees or []), "location": location}
    ev = model.add_event(ctx.state, _checked("calendar.create_event", raw))
    ctx.log(id=ev["id"], title=ev["title"], date=ev["date"], time=ev["time"])
    return ev


@operation
def edit_event(
    ctx: AppContext,
    id: str,
    title: str | None = None,
    date: str | None = None,
    time: str | None = None,
    description: str | None = None,
    url: str | None = None,
    invitees: list[str] | None = None,
    location: str | None = None,
) -> dict:
    """Change fields of the event with this id (fields left out keep their value); returns it."""
    ev = _event(ctx, id)
    given = {"title": title, "date": date, "time": time, "description": description, "url": url}
    given |= {"invitees": invitees, "location": location}
    raw = {f: (ev[f] if given[f] is None else given[f]) for f in FIELDS}
    changed = model.edit_event(ev, _checked("calendar.edit_event", raw))
    if changed:
        ctx.log(id=ev["id"], title=ev["title"], changed=changed)
    return ev


@operation
def delete_event(ctx: AppContext, id: str) -> dict:
    """Delete the event with this id; returns it."""
    return remove_known(ctx, "events", id, "event", ("title", "date", "time"))


@operation
def today(ctx: AppContext) -> str:
    """The calendar's today as YYYY-MM-DD (only reads): the day its month view marks."""
    return model.today(ctx.config).isoformat()
