"""Messenger's pages: the conversation list, contact search, the chat and the forward page."""

from __future__ import annotations

from openapps_sim.apps.messenger import model
from openapps_sim.apps.messenger.model import ME
from openapps_sim.apps.messenger.schema import MONTHS

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import app_search, not_found_page, post_button
from openapps_sim.web.components import search_form as _search_form
from openapps_sim.web.tags import H1, H2, A, Button, Div, Form, Li, P, Span, Textarea, Ul


def initials(name: str) -> str:
    words = name.split()
    if not words:
        return "?"
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).upper()
    word = words[0]
    return word[:2] if not word.isascii() else word[:1].upper()


def avatar(ctx: AppContext, c: dict, big: bool = False):
    if not ctx.config["show_avatars"]:
        return None
    shade = sum(map(ord, c["id"])) % 5
    return Span(initials(c["name"]), cls=f"avatar av{shade}" + (" big" if big else ""), aria_hidden="true")


def sender_name(ctx: AppContext, sender: str) -> str:
    if sender == ME:
        return ctx.t("you")
    c = model.contact(ctx.state, sender)
    return c["name"] if c else sender


def day_label(ctx: AppContext, time: str) -> str:
    when = model.parse_time(time).date()
    today = model.parse_time(ctx.config["now"]).date()
    if when == today:
        return ctx.t("today")
    if (today - when).days == 1:
        return ctx.t("yesterday")
    months = ctx.strings.get("months") or MONTHS
    return ctx.t("date_format", day=when.day, month=months[(when.month - 1) % len(months)], year=when.year)


def short_time(ctx: AppContext, time: str) -> str:
    """ "18:05" for today, else the day label."""
    when = model.parse_time(time)
    if when.date() == model.parse_time(ctx.config["now"]).date():
        return when.strftime("%H:%M")
    return day_label(ctx, time)


def not_found(ctx: AppContext):
    return not_found_page(ctx, ctx.t("not_found"), H1(ctx.t("heading")), title=ctx.config["title"])


# -- views -----------------------------------------------------------------------------------
def search_form(ctx: AppContext, q: str | None):
    return app_search(ctx, q or "", cls="msgr-search")


def conversation_list(ctx: AppContext, active: str | None):
    state = ctx.state
    rows = []
    for cid in model.conversation_order(state):
        c = model.contact(state, cid)
        msgs = state["conversations"][cid]
        preview = None
        if ctx.config["show_previews"] and msgs:
            last = msgs[-1]
            text = last["text"] if last["sender"] != ME else ctx.t("you_prefix", text=last["text"])
            preview = Span(text, cls="preview", data_testid=f"messenger-preview-{cid}")
        rows.append(
            Li(
                A(
                    avatar(ctx, c),
                    Span(
                        Span(
                            Span(c["name"], cls="name"),
                            Span(short_time(ctx, msgs[-1]["time"]), cls="time") if msgs else None,
                            cls="top",
                        ),
                        preview,
                        cls="meta",
                    ),
                    href=ctx.url(f"/chat/{cid}#latest"),
                    cls="active" if cid == active else None,
                    aria_current="page" if cid == active else None,
                    data_testid=f"messenger-conv-{cid}",
                )
            )
        )
    head = Div(
        H2(ctx.t("conversations")),
        A(ctx.t("new_chat"), href=ctx.url("/?q="), cls="button secondary", data_testid="messenger-new-chat"),
        cls="side-head",
    )
    if not rows:
        return Div(head, P(ctx.t("no_conversations"), cls="muted", data_testid="messenger-no-conversations"))
    return Div(head, Ul(*rows, cls="plain conv-list", data_testid="messenger-conversations"))


def contact_results(ctx: AppContext, q: str):
    found = model.search_contacts(ctx.state, q)
    title = ctx.t("results", q=q) if q.strip() else ctx.t("all_contacts")
    head = Div(
        H2(title, data_testid="messenger-results-heading"),
        A(ctx.t("clear_search"), href=ctx.url("/"), cls="button secondary", data_testid="messenger-search-clear"),
        cls="side-head",
    )
    if not found:
        return Div(head, P(ctx.t("no_results", q=q), cls="muted", data_testid="messenger-no-results"))
    rows = []
    for c in found:
        has = c["id"] in ctx.state["conversations"]
        hint = ctx.t("open_conversation") if has else ctx.t("start_conversation")
        rows.append(
            Li(
                A(
                    avatar(ctx, c),
                    Span(
                        Span(Span(c["name"], cls="name"), cls="top"),
                        Span(c["about"], cls="about") if c["about"] else None,
                        Span(hint, cls="preview"),
                        cls="meta",
                    ),
                    href=ctx.url(f"/chat/{c['id']}#latest"),
                    aria_label=f"{c['name']}: {hint}",
                    data_testid=f"messenger-contact-{c['id']}",
                )
            )
        )
    return Div(head, Ul(*rows, cls="plain conv-list", data_testid="messenger-results"))


def sidebar(ctx: AppContext, q: str | None, active: str | None):
    listing = contact_results(ctx, q) if q is not None else conversation_list(ctx, active)
    return Div(search_form(ctx, q), listing, cls="card msgr-side")


def message_bubble(ctx: AppContext, m: dict, is_last: bool):
    mid = m["id"]
    mine = m["sender"] == ME
    fwd = m.get("forwarded_from")
    return Div(
        Span(sender_name(ctx, m["sender"]), cls="sender"),
        Span(ctx.t("forwarded_from", name=sender_name(ctx, fwd)), cls="fwd") if fwd else None,
        Div(m["text"], cls="text", dir="auto", data_testid=f"messenger-text-{mid}"),
        Div(
            Span(model.parse_time(m["time"]).strftime("%H:%M"), cls="time"),
            A(
                ctx.t("forward"),
                href=ctx.url(f"/forward/{mid}"),
                aria_label=f"{ctx.t('forward')}: {m['text'][:60]}",
                data_testid=f"messenger-forward-{mid}",
            ),
            cls="foot",
        ),
        cls="msg mine" if mine else "msg theirs",
        id="latest" if is_last else None,
        data_testid=f"messenger-msg-{mid}",
    )


def chat_panel(ctx: AppContext, c: dict):
    cid = c["id"]
    msgs = ctx.state["conversations"].get(cid, [])
    items = []
    day = None
    for i, m in enumerate(msgs):
        label = day_label(ctx, m["time"])
        if label != day:
            items.append(Span(label, cls="day"))
            day = label
        items.append(message_bubble(ctx, m, i == len(msgs) - 1))
    if not msgs:
        items.append(
            P(
                ctx.t("new_conversation", name=c["name"]),
                " ",
                ctx.t("no_messages"),
                cls="muted",
                data_testid="messenger-empty-chat",
            )
        )
    return Div(
        A(ctx.t("back"), href=ctx.url("/"), cls="back", data_testid="messenger-back"),
        Div(
            avatar(ctx, c, big=True),
            Div(
                H2(c["name"], data_testid="messenger-chat-name"),
                Span(c["about"], cls="muted") if c["about"] else None,
            ),
            cls="chat-head",
        ),
        Div(*items, cls="msgs", data_testid="messenger-messages"),
        Form(
            Textarea(
                "",
                name="text",
                rows="2",
                required=True,
                placeholder=ctx.t("compose_placeholder"),
                aria_label=ctx.t("compose_placeholder"),
                data_testid="messenger-compose",
                id="compose",
            ),
            Button(ctx.t("send"), type="submit", data_testid="messenger-send"),
            method="post",
            action=ctx.url(f"/send/{cid}"),
            cls="compose",
        ),
        cls="card msgr-chat",
        data_testid=f"messenger-chat-{cid}",
    )


def layout(ctx: AppContext, q: str | None, c: dict | None):
    main = (
        chat_panel(ctx, c)
        if c
        else Div(P(ctx.t("select_conversation"), cls="muted"), cls="card", data_testid="messenger-placeholder")
    )
    return ctx.page(
        H1(ctx.t("heading"), data_testid="messenger-heading"),
        Div(sidebar(ctx, q, c["id"] if c else None), main, cls="msgr" + (" open" if c else "")),
        title=ctx.config["title"] if not c else f"{c['name']} · {ctx.config['title']}",
    )


def forward_page(ctx: AppContext, mid: str, source: str, m: dict, q: str):
    state = ctx.state
    shown = model.search_contacts(state, q) if q.strip() else state["contacts"]
    rows = [
        Li(
            avatar(ctx, c),
            Span(
                Span(c["name"], cls="name"),
                Span(c["about"], cls="about") if c["about"] else None,
                cls="meta",
            ),
            post_button(
                ctx.t("forward_button"),
                ctx.url(f"/forward/{mid}"),
                f"messenger-forward-to-{c['id']}",
                hidden={"to": c["id"]},
                aria_label=ctx.t("forward_label", name=c["name"]),
            ),
        )
        for c in shown
    ]
    fwd = m.get("forwarded_from")
    return ctx.page(
        H1(ctx.t("forward_heading"), data_testid="messenger-forward-heading"),
        Div(
            Span(sender_name(ctx, m["sender"]), cls="muted"),
            Span(" · " + ctx.t("forwarded_from", name=sender_name(ctx, fwd)), cls="muted") if fwd else None,
            Div(m["text"], cls="fwd-quote", data_testid="messenger-forward-quote"),
            cls="card stack",
        ),
        Div(
            Div(
                H2(ctx.t("forward_to")),
                A(
                    ctx.t("cancel"),
                    href=ctx.url(f"/chat/{source}#latest"),
                    cls="button secondary",
                    data_testid="messenger-forward-cancel",
                ),
                cls="side-head",
            ),
            _search_form(
                ctx.url(f"/forward/{mid}"),
                q,
                ctx.t("forward_filter"),
                "messenger-forward-search",
                ctx.t("forward_filter_button"),
                cls="msgr-search",
            ),
            Ul(*rows, cls="plain fwd-list", data_testid="messenger-forward-list")
            if rows
            else P(ctx.t("no_results", q=q), cls="muted", data_testid="messenger-no-results"),
            cls="card",
        ),
        title=ctx.t("forward_heading"),
    )
