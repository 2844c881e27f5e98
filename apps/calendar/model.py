"""Calendar's state and its changes: pure functions over the app's state dict (``{"events": [...],
"next_id": n}``), used by the route handlers and by the task families' ``apply``."""

from __future__ import annotations

import re
from datetime import date

from openapps_sim.appkit import ItemKey, by_id
from openapps_sim.config.normalise import norm_text

FIELDS = ("title", "date", "time", "description", "url", "invitees", "location")

MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d(\.\d+)?)?$")


# -- data -------------------------------------------------------------------------------------
YEARS = (1900, 2199)  # the range the calendar shows and accepts (keeps month arithmetic in range)

# the natural key of the items of each list in the normalised state (for reward explanations)
ITEM_KEYS = {"events": ItemKey("title", "event"), "events[].invitees": ItemKey((), "invitee")}


def parse_date(text: object) -> date | None:
    raw = str(text or "").strip()
    if not re.match(r"^\d{4}-\d{2}-\d{2}$", raw):
        return None
    try:
        d = date.fromisoformat(raw)
    except ValueError:
        return None
    return d if YEARS[0] <= d.year <= YEARS[1] else None


def today(config: dict) -> date:
    """The calendar's fixed today (``today`` in its config), never the wall clock."""
    return parse_date(config.get("today")) or date(2026, 1, 1)


def parse_month(text: object) -> tuple[int, int] | None:
    m = MONTH_RE.match(str(text or "").strip())
    if not m:
        return None
    y, mo = int(m.group(1)), int(m.group(2))
    return (y, mo) if 1 <= mo <= 12 and YEARS[0] <= y <= YEARS[1] else None


def clean_text(value: object) -> str:
    return str(value or "").replace("\r\n", "\n").replace("\r", "\n").strip()


def split_invitees(text: object) -> list[str]:
    """Invitee names from the comma-separated form field (also ';', new lines and CJK commas)."""
    parts = re.split(r"[,;\n，、；]", str(text or ""))
    return [" ".join(p.split()) for p in parts if p.strip()]


def make_event(eid: str, raw: dict) -> dict:
    return {
        "id": eid,
        "title": " ".join(str(raw["title"]).split()),
        "date": str(raw["date"]),
        "time": str(raw.get("time") or ""),
        "description": clean_text(raw.get("description")),
        "url": clean_text(raw.get("url")),
        "invitees": [" ".join(str(n).split()) for n in raw.get("invitees") or [] if str(n).strip()],
        "location": clean_text(raw.get("location")),
    }


def initial_state(config: dict, rng) -> dict:
    events = [make_event(f"e{i + 1}", ev) for i, ev in enumerate(config["events"])]
    overrides = config.get("descriptions") or {}
    for ev in events:
        if ev["id"] in overrides:
            ev["description"] = clean_text(overrides[ev["id"]].replace("{description}", ev["description"]))
    return {"events": events, "next_id": len(events) + 1}


def normalise(state: dict) -> dict:
    """Events compared as a multiset: ids and order do not matter, free text is folded."""
    rows = sorted(
        (
            norm_text(e["title"]),
            e["date"],
            e.get("time") or "",
            norm_text(e.get("description", "")),
            norm_text(e.get("url", "")),
            tuple(sorted(norm_text(n) for n in e.get("invitees", []) if norm_text(n))),
            norm_text(e.get("location", "")),
        )
        for e in state["events"]
    )
    return {
        "events": [
            {"title": t, "date": d, "time": tm, "description": ds, "url": u, "invitees": list(inv), "location": loc}
            for t, d, tm, ds, u, inv, loc in rows
        ]
    }


def event_sort_key(ev: dict) -> tuple:
    num = int(ev["id"][1:]) if ev["id"][1:].isdigit() else 0
    return (ev["date"], ev.get("time") or "", ev["title"].casefold(), num)


def find_event(cal: dict, eid: str) -> dict | None:
    return by_id(cal["events"], eid)


def add_event(cal: dict, raw: dict) -> dict:
    """A new event from ``raw`` fields (cleaned as the form's are), with the next id; returns it."""
    ev = make_event(f"e{cal['next_id']}", raw)
    cal["next_id"] += 1
    cal["events"].append(ev)
    return ev


def edit_event(ev: dict, raw: dict) -> dict:
    """Give the event the fields of ``raw`` (cleaned); returns ``{field: {"old", "new"}}`` of what changed."""
    new = make_event(ev["id"], raw)
    changed = {f: {"old": ev[f], "new": new[f]} for f in FIELDS if ev[f] != new[f]}
    for f in changed:
        ev[f] = new[f]
    return changed


def duplicate_fields(ev: dict, **changes: object) -> dict:
    """The fields of ``ev`` (no id) for a new event, with ``changes`` applied."""
    raw = {k: (list(v) if isinstance(v, list) else v) for k, v in ev.items() if k != "id"}
    raw.update(changes)
    return raw


def showcase(state: dict, config: dict) -> list:
    """Pages worth a look beyond the month: the new-event form and the first event."""
    from openapps_sim.appkit import Showcase

    pages = [Showcase("new event form", "/new")]
    if state["events"]:
        pages.append(Showcase("event", f"/event/{state['events'][0]['id']}"))
    return pages
