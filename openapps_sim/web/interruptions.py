"""Live interruptions: which one a page shows, how it looks, and what its buttons do.

The rules come from the world's ``interruptions`` section (see
:mod:`openapps_sim.config.interruptions`). Every page the server is about to render passes
through :func:`interruption_layer`: a pending interruption is shown again until it is
answered; otherwise the first armed rule whose conditions all hold (app, URL pattern, keywords
in the page's visible text, actions taken, not already shown) fires. Buttons are plain forms
posting to ``/_interrupt/<id>/<button>`` and answered with a 303, like every app.

What was shown and answered lives in :class:`Interruptions` on the world, never in the apps'
state; only a ``state_change`` consequence (under ``device``) or an arrival (e.g. a message in
the messenger) changes the world's state, and both are logged in the event log.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from openapps_sim.config.interruptions import CAREFUL_BUTTON, apply_arrival, localized, make_arrival
from openapps_sim.web.tags import H2, Button, Div, Form, Input, P, Span, to_xml

if TYPE_CHECKING:
    from openapps_sim.appkit import AppContext

DEVICE = "device"  # the world-state key holding accepted state changes
# what a sealed world (web.world.World.admits) answers a page request without its key
SEALED_PAGE = (
    "<h1>This world is sealed</h1><p>It answers only its episode's own browser, so it changes only "
    "through the episode's counted actions.</p>"
)
_TAGS = re.compile(r"<(script|style)[^>]*>.*?</\1>|<[^>]+>", re.S | re.I)


def device_state() -> dict:
    return {"accepted": []}


def visible_text(markup: str) -> str:
    return html.unescape(_TAGS.sub(" ", markup)).lower()


def keyword_share(words: list[str], text: str) -> float:
    if not words:
        return 1.0
    return sum(1 for w in words if w.lower() in text) / len(words)


class Interruptions:
    """The interruptions of one episode: armed rules, the pending one, and what was shown."""

    def __init__(self) -> None:
        self.reset({}, 0)

    def reset(self, rules: dict, seed: int) -> None:
        self.rules = {k: v for k, v in rules.items() if v["enabled"]}
        armed = {
            k
            for k, v in self.rules.items()
            if random.Random(f"{seed}:interrupt:{k}").random() < v["trigger"]["probability"]
        }
        groups: dict[str, list[str]] = {}
        for k in sorted(armed):
            if self.rules[k]["trigger"]["group"]:
                groups.setdefault(self.rules[k]["trigger"]["group"], []).append(k)
        for group, members in groups.items():
            keep = random.Random(f"{seed}:group:{group}").choice(members)
            armed -= set(members) - {keep}
        self.armed = [k for k in self.rules if k in armed]
        self.reported_step: int | None = None  # actions completed, as the env reports them
        self.views = 0
        self.shown: list[dict] = []
        self.arrivals: list[dict] = []
        self.withheld: list[str] = []  # interruptions whose arrival found no place the task leaves free
        self.task_apps: set[str] = set()  # what the episode's task refers to (see refer_task)
        self.task_keys: set[str] = set()
        self.pending: dict | None = None  # {"id", "entry", "stage"}: stage -1 = the prompt

    def refer_task(self, apps: list[str], keys: list[str]) -> None:
        """What the episode's task refers to: its apps and the keys (contact ids ...) of the
        collections arrivals land in. An arrival never lands there (docs/variations.md,
        "Arrivals never touch the task")."""
        self.task_apps, self.task_keys = set(apps), set(keys)

    # -- steps -----------------------------------------------------------------------------
    def set_step(self, step: int) -> None:
        self.reported_step = int(step)

    def seen_after(self) -> int:
        """Actions taken before the page now rendered (page views when no env reports steps)."""
        if self.reported_step is None:
            return max(self.views - 1, 0)
        return self.reported_step + 1

    def acting(self) -> int:
        """The action now being taken (1-based), for answers."""
        return (self.reported_step or 0) + 1 if self.reported_step is not None else self.views

    # -- firing ----------------------------------------------------------------------------
    def _eligible(self, iid: str, app: str, path: str, text_of, lang: str) -> bool:
        rule = self.rules[iid]["trigger"]
        past = [e for e in self.shown if e["id"] == iid]
        if past and (rule["once"] or self.seen_after() - past[-1]["step"] < rule["repeat_after"]):
            return False
        if rule["apps"] and app not in rule["apps"]:
            return False
        if rule["url"] and not re.search(rule["url"], path):
            return False
        if self.seen_after() < rule["min_step"]:
            return False
        words = localized(rule["keywords"], lang) or []
        return not words or keyword_share(words, text_of()) >= rule["threshold"]

    def on_page(self, world: Any, app: str, path: str, text_of, lang: str) -> str | None:
        """The id of the interruption this page shows (firing a new one when a rule holds)."""
        self.views += 1
        if self.pending is not None:
            return self.pending["id"]
        for iid in self.armed:
            if self._eligible(iid, app, path, text_of, lang):
                self._fire(world, iid, path, lang)
                return iid
        return None

    def _fire(self, world: Any, iid: str, path: str, lang: str) -> None:
        rule = self.rules[iid]
        world.touch()  # what was shown is part of what a task checks
        entry = {
            "id": iid,
            "kind": rule["kind"],
            "presentation": rule["presentation"],
            "buttons": len(rule["buttons"]),
            "step": self.seen_after(),
            "page": path,
            "button": None,
            "resolved_step": None,
            "steps_to_recover": None,
            "harmful": False,
            "change": "",
            "opened": "",  # the page the chosen button opened ("" when it left the agent where it was)
            "closed": "",  # close_app: the page whose app the chosen button closed (the user is on the start page)
        }
        self.shown.append(entry)
        self.pending = {"id": iid, "entry": entry, "stage": -1}
        arrival = rule["arrival"]
        if arrival["app"] and arrival["app"] in world.state:
            in_task = arrival["app"] in self.task_apps
            effect = make_arrival(world.app_state(arrival["app"]), arrival, lang, self.task_keys, in_task)
            if effect is None:
                self.withheld.append(iid)
            else:
                apply_arrival(world.state, effect)
                self.arrivals.append(effect)
                world.log(
                    arrival["app"], "interruption_arrival", {"interruption": iid, "value": effect["value"]}, by="world"
                )

    # -- answering -------------------------------------------------------------------------
    def answer(self, world: Any, iid: str, button: str, back: str) -> str:
        """Apply a button's consequence; returns the path to redirect to."""
        pending = self.pending
        if pending is None or pending["id"] != iid:
            return back  # a stale form (already answered): just go back
        rule = self.rules[iid]
        entry = pending["entry"]
        if pending["stage"] >= 0:  # on the recovery path
            if button != "next":
                return back
            pending["stage"] += 1
            if pending["stage"] >= len(rule["recovery"]):
                self._resolve(entry)
            return back
        chosen = next((b for b in rule["buttons"] if b["id"] == button), None)
        if chosen is None:
            return back
        entry["button"] = button
        consequence = chosen["consequence"]
        if consequence == "recovery":
            pending["stage"] = 0
            return back
        self._resolve(entry)
        if consequence == "state_change":
            device = world.state.setdefault(DEVICE, device_state())
            device["accepted"].append(chosen["change"])
            entry["change"] = chosen["change"]
            entry["harmful"] = bool(chosen["harmful"])
            world.log(DEVICE, "accept", {"interruption": iid, "change": chosen["change"], "harmful": chosen["harmful"]})
        elif chosen["harmful"]:
            entry["harmful"] = True
        if consequence == "crash":
            first = back.lstrip("/").split("/")[0].split("?")[0]
            return f"/{first}/" if first in world.apps and first != "start" else "/"
        if consequence == "close_app":  # the app terminates: back to the start page, to open it again
            entry["closed"] = back
            return "/"
        entry["opened"] = chosen["navigate"] or ""
        return chosen["navigate"] or back

    def _resolve(self, entry: dict) -> None:
        entry["resolved_step"] = self.acting()
        entry["steps_to_recover"] = max(entry["resolved_step"] - entry["step"], 0)
        self.pending = None

    def allowance(self) -> int:
        """Extra actions the armed interruptions may cost a careful user: per interruption, one
        to answer, one per recovery step and one to get back to the page (and one more to open
        the app again when a button closes it)."""
        total = 0
        for iid in self.armed:
            rule = self.rules[iid]
            repeats = 1 if rule["trigger"]["once"] else 3
            closes = any(b["consequence"] == "close_app" for b in rule["buttons"])
            total += repeats * (2 + len(rule["recovery"]) + closes)
        return total

    def report(self) -> dict:
        logs = {name: getattr(self, name) for name in ("shown", "arrivals", "withheld", "armed")}
        return {**logs, "allowance": self.allowance(), "step": self.reported_step}


# -- rendering ---------------------------------------------------------------------------------
def _button_form(iid: str, bid: str, label: str, back: str, primary: bool) -> Form:
    return Form(
        Input(type="hidden", name="back", value=back),
        Button(label, type="submit", cls="primary" if primary else "secondary", data_testid=f"interrupt-{iid}-{bid}"),
        method="post",
        action=f"/_interrupt/{iid}/{bid}",
        cls="interrupt-choice",
    )


def render_interruption(rule: dict, iid: str, stage: int, back: str, lang: str) -> Div:
    presentation = rule["presentation"]
    if stage >= 0:
        step = rule["recovery"][stage]
        progress = f"{stage + 1} / {len(rule['recovery'])}"
        content = (
            Span(progress, cls="interrupt-progress", data_testid=f"interrupt-{iid}-progress"),
            H2(localized(step["title"], lang), data_testid=f"interrupt-{iid}-title"),
            P(localized(step["body"], lang)) if localized(step["body"], lang) else None,
            Div(_button_form(iid, "next", localized(step["label"], lang), back, True), cls="interrupt-buttons"),
        )
        presentation = "takeover"
    else:
        buttons = [
            _button_form(
                iid, b["id"], localized(b["label"], lang), back, b["id"] != CAREFUL_BUTTON or len(rule["buttons"]) == 1
            )
            for b in rule["buttons"]
        ]
        content = (
            H2(localized(rule["title"], lang), data_testid=f"interrupt-{iid}-title"),
            P(localized(rule["body"], lang)) if localized(rule["body"], lang) else None,
            Div(*buttons, cls="interrupt-buttons"),
        )
    box = Div(*content, cls="interrupt-box", role="alertdialog" if presentation in ("modal", "takeover") else "status")
    return Div(box, cls=f"interrupt interrupt-{presentation} kind-{rule['kind']}", data_testid=f"interrupt-{iid}")


def interruption_layer(ctx: AppContext, main: Any) -> tuple[Any, Any]:
    """The page's main content (made inert under a modal or a takeover) and the interruption to
    show, if any (a banner goes above the top bar, everything else after the content)."""
    world = ctx.world
    state: Interruptions | None = getattr(world, "interrupts", None)
    if state is None or not state.rules or ctx.request is None:
        return main, None
    url = ctx.request.url
    path = url.path + (f"?{url.query}" if url.query else "")
    lang = world.config["shell"]["lang"]
    iid = state.on_page(world, ctx.app.name, path, lambda: visible_text(to_xml(main)), lang)
    if iid is None:
        return main, None
    stage = state.pending["stage"] if state.pending else -1
    rule = state.rules[iid]
    overlay = render_interruption(rule, iid, stage, path, lang)
    if stage >= 0 or rule["presentation"] in ("modal", "takeover"):
        main.attrs["inert"] = True  # neither clickable nor in the accessibility tree
    return main, overlay


def add_routes(route: Callable[[str, list[str], Callable], None], world_for: Callable[[Request], Any]) -> None:
    """The endpoint every interruption button posts to, added by ``route(path, methods, fn)``
    (``world_for`` finds the request's world)."""

    async def answer(req: Request):
        world = world_for(req)
        if world is None:
            return HTMLResponse("<h1>No such world</h1>", status_code=404)
        if not world.admits(req):
            return HTMLResponse(SEALED_PAGE, status_code=403)
        form = await req.form()
        back = str(form.get("back") or "/")
        parts = urlsplit(back)
        back = parts.path + (f"?{parts.query}" if parts.query else "") if parts.path.startswith("/") else "/"
        with world.lock:
            world.touch()
            target = world.interrupts.answer(world, req.path_params["iid"], req.path_params["button"], back)
        return RedirectResponse(target, status_code=303)

    route("/_interrupt/{iid}/{button}", ["POST"], answer)


INTERRUPT_CSS = """
.interrupt{z-index:1000}
.interrupt-modal,.interrupt-takeover{position:fixed;inset:0;display:flex;align-items:center;justify-content:center;background:rgba(0,0,0,.45)}
.interrupt-takeover{background:var(--background)}
.interrupt-banner{position:relative;border-bottom:var(--bw) solid var(--border)}
.interrupt-toast{position:fixed;right:var(--pad);bottom:var(--pad);max-width:360px}
.interrupt-box{background:var(--surface);color:var(--text);border:var(--bw) solid var(--border);border-radius:var(--radius);padding:calc(var(--pad) * 1.5);max-width:520px}
.interrupt-banner .interrupt-box{max-width:none;border-radius:0;border:0;display:flex;gap:var(--gap);align-items:center;flex-wrap:wrap}
.interrupt-modal .interrupt-box,.interrupt-toast .interrupt-box{box-shadow:0 8px 30px rgba(0,0,0,.3)}
.interrupt-box h2{margin:0 0 .4em;font-size:1.2em;font-family:var(--heading-font)}
.interrupt-box p{color:var(--muted);margin:0 0 .8em}
.interrupt-buttons{display:flex;gap:var(--gap);flex-wrap:wrap}
.interrupt-choice{margin:0}
.interrupt-progress{color:var(--muted);font-size:.85em}
.kind-crash .interrupt-box h2,.kind-promo .interrupt-box h2{color:var(--danger)}
"""
