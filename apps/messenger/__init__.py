"""Messenger: conversations with contacts — read, send, forward, search contacts, start chats.

Contacts never reply: the state changes only through the user's own actions, so a task's
expected state is exactly the user's messages (see docs/apps/messenger.md).
"""

from __future__ import annotations

from pathlib import Path

from fasthtml.common import H1, H2, A, Button, Div, Form, Input, Li, P, Span, Textarea, Ul

from openapps_sim.appkit import AppContext, AppRoutes, AppSpec, ItemKey
from openapps_sim.config.schema import Bool, ListOf, Record, Str

from . import logic
from .logic import ME, Timestamp

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

STRINGS = Record(
    heading=Str("Messages"),
    search_placeholder=Str("Search contacts"),
    search_button=Str("Search"),
    clear_search=Str("Clear"),
    conversations=Str("Conversations"),
    new_chat=Str("New message"),
    all_contacts=Str("All contacts"),
    results=Str("Contacts matching “{q}”"),
    no_results=Str("No contact matches “{q}”."),
    no_conversations=Str("No conversations yet. Search a contact to start one."),
    select_conversation=Str("Pick a conversation, or search a contact to start a new one."),
    compose_placeholder=Str("Write a message…"),
    send=Str("Send"),
    forward=Str("Forward"),
    forward_heading=Str("Forward message"),
    forward_to=Str("Send it to"),
    forward_button=Str("Send"),
    forward_label=Str("Forward to {name}"),
    forward_filter=Str("Filter contacts"),
    forward_filter_button=Str("Filter"),
    forwarded_from=Str("Forwarded from {name}"),
    you=Str("You"),
    you_prefix=Str("You: {text}"),
    new_conversation=Str("This is the beginning of your conversation with {name}."),
    no_messages=Str("No messages yet. Say hello!"),
    back=Str("All conversations"),
    cancel=Str("Cancel"),
    open_conversation=Str("Open conversation"),
    start_conversation=Str("Start a conversation"),
    not_found=Str("This conversation or message does not exist."),
    today=Str("Today"),
    yesterday=Str("Yesterday"),
    date_format=Str("{day} {month}", doc="how dates are written; {day}, {month} (a name from months), {year}"),
    months=ListOf(Str(), default=MONTHS, doc="the twelve month names used in dates"),
)

CONTACT = Record(
    id=Str(doc="stable id used in URLs and data-testids, e.g. c7"),
    name=Str(),
    about=Str("", doc="a short line under the name (relation, job, status)"),
)
MESSAGE = Record(
    sender=Str(doc="'me' or the contact's id"),
    text=Str(),
    time=Timestamp(),
)

SCHEMA = Record(
    strings=STRINGS,
    now=Timestamp(
        "2024-05-14T18:30", doc="the app's clock: 'today' in dates; new messages come one minute apart after it"
    ),
    contacts=ListOf(CONTACT, default=[], unique="name"),
    conversations=ListOf(
        Record(contact=Str(doc="a contact id"), messages=ListOf(MESSAGE, default=[])),
        default=[],
        doc="the message history per contact (messages are put in time order)",
    ),
    extra_messages=ListOf(
        Record(contact=Str(), sender=Str(), text=Str(), time=Timestamp()),
        default=[],
        doc="messages added to the conversations above (for packs that add a few without repeating the history)",
    ),
    show_previews=Bool(True, doc="show the last message under each conversation in the list", vary=True),
    show_avatars=Bool(True, doc="show the initials avatars", vary=True),
)

CSS = """
.msgr{display:grid;grid-template-columns:minmax(230px,320px) minmax(0,1fr);gap:var(--pad);align-items:start}
.layout-mobile .msgr{grid-template-columns:minmax(0,1fr)}
.layout-mobile .msgr.open .msgr-side{display:none}
.msgr .back{display:none}
.layout-mobile .msgr .back{display:inline-block}
.msgr-side h2,.msgr-chat h2{font-size:1.1em;margin:0}
.msgr-search{display:flex;gap:var(--gap);margin-bottom:var(--gap)}
.msgr-search input{flex:1 1 auto;min-width:0}
.side-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:var(--gap);margin:var(--gap) 0}
.side-head .button{white-space:nowrap;flex:none}
.side-head h2{min-width:0;overflow-wrap:break-word}
.conv-list li{border-bottom:var(--bw) solid var(--border)}
.conv-list li:last-child{border-bottom:0}
.conv-list a{display:flex;gap:var(--gap);align-items:center;padding:var(--gap);text-decoration:none;color:var(--text);
 border-radius:var(--radius)}
.conv-list a:hover{background:var(--background)}
.conv-list a.active{background:var(--background);box-shadow:inset 3px 0 0 var(--primary)}
[dir=rtl] .conv-list a.active{box-shadow:inset -3px 0 0 var(--primary)}
.conv-list .meta{flex:1 1 auto;min-width:0}
.conv-list .top{display:flex;justify-content:space-between;gap:var(--gap);align-items:baseline}
.conv-list .name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.conv-list .time{flex:none;color:var(--muted);font-size:.8em}
.conv-list .preview,.conv-list .about{display:block;color:var(--muted);font-size:.9em;white-space:nowrap;overflow:hidden;
 text-overflow:ellipsis}
.avatar{flex:none;width:40px;height:40px;border-radius:50%;display:inline-flex;align-items:center;justify-content:center;
 font-weight:700;font-size:.85em;letter-spacing:0;line-height:1}
.avatar.big{width:48px;height:48px;font-size:1em}
.av0{background:var(--primary);color:var(--on-primary)}
.av1{background:var(--success);color:#fff}
.av2{background:var(--accent);color:#000}
.av3{background:var(--danger);color:#fff}
.av4{background:var(--muted);color:var(--surface)}
.chat-head{display:flex;gap:var(--gap);align-items:center;border-bottom:var(--bw) solid var(--border);
 padding-bottom:var(--gap);margin-bottom:var(--pad)}
.msgs{display:flex;flex-direction:column;gap:var(--gap);margin-bottom:var(--pad)}
.day{align-self:center;font-size:.8em;color:var(--muted);border:var(--bw) solid var(--border);border-radius:999px;
 padding:0 var(--gap)}
.msg{max-width:78%;align-self:flex-start;padding:var(--gap) var(--pad);border-radius:var(--radius);
 border:var(--bw) solid var(--border);background:var(--background);color:var(--text)}
.msg.mine{align-self:flex-end;background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.msg .sender{display:block;font-weight:700;font-size:.8em}
.msg .fwd{display:block;font-size:.8em;font-style:italic;opacity:.85}
.msg .text{white-space:pre-wrap;overflow-wrap:break-word}
.msg .foot{display:flex;gap:var(--pad);justify-content:flex-end;align-items:center;font-size:.78em;opacity:.85;margin-top:4px}
.msg .foot a{color:inherit}
.compose{display:flex;gap:var(--gap);align-items:flex-end}
.compose textarea{flex:1 1 auto;resize:vertical;min-height:2.6em}
.fwd-quote{border-inline-start:4px solid var(--primary);padding-inline-start:var(--pad);unicode-bidi:plaintext;white-space:pre-wrap;overflow-wrap:break-word}
.fwd-list li{display:flex;gap:var(--gap);align-items:center;padding:var(--gap) 0;border-bottom:var(--bw) solid var(--border)}
.fwd-list li:last-child{border-bottom:0}
.fwd-list .meta{flex:1 1 auto;min-width:0}
.fwd-list .name{display:block;font-weight:600}
.fwd-list .about{display:block;color:var(--muted);font-size:.9em}
.layout-mobile .compose,.layout-mobile .msgr-search{flex-direction:row}
"""


# -- helpers ---------------------------------------------------------------------------------
def initial_state(config: dict, rng) -> dict:
    """Built from the config only: no randomness, and contacts never reply."""
    return logic.build_state(config)


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
    c = logic.contact(ctx.state, sender)
    return c["name"] if c else sender


def day_label(ctx: AppContext, time: str) -> str:
    when = logic.parse_time(time).date()
    today = logic.parse_time(ctx.config["now"]).date()
    if when == today:
        return ctx.t("today")
    if (today - when).days == 1:
        return ctx.t("yesterday")
    months = ctx.strings.get("months") or MONTHS
    return ctx.t("date_format", day=when.day, month=months[(when.month - 1) % len(months)], year=when.year)


def short_time(ctx: AppContext, time: str) -> str:
    """ "18:05" for today, else the day label."""
    when = logic.parse_time(time)
    if when.date() == logic.parse_time(ctx.config["now"]).date():
        return when.strftime("%H:%M")
    return day_label(ctx, time)


def not_found(ctx: AppContext):
    return ctx.page(
        H1(ctx.t("heading")),
        Div(
            P(ctx.t("not_found"), data_testid="messenger-not-found"),
            A(ctx.t("back"), href=ctx.url("/"), cls="button secondary", data_testid="messenger-back"),
            cls="card stack",
        ),
        title=ctx.config["title"],
        status=404,
    )


# -- views -----------------------------------------------------------------------------------
def search_form(ctx: AppContext, q: str | None):
    return Form(
        Input(
            type="search",
            name="q",
            value=q or "",
            placeholder=ctx.t("search_placeholder"),
            aria_label=ctx.t("search_placeholder"),
            autocomplete="off",
            data_testid="messenger-search",
        ),
        Button(ctx.t("search_button"), type="submit", data_testid="messenger-search-submit"),
        method="get",
        action=ctx.url("/"),
        role="search",
        cls="msgr-search",
    )


def conversation_list(ctx: AppContext, active: str | None):
    state = ctx.state
    rows = []
    for cid in logic.conversation_order(state):
        c = logic.contact(state, cid)
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
    found = logic.search_contacts(ctx.state, q)
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
            Span(logic.parse_time(m["time"]).strftime("%H:%M"), cls="time"),
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
    shown = logic.search_contacts(state, q) if q.strip() else state["contacts"]
    rows = [
        Li(
            avatar(ctx, c),
            Span(
                Span(c["name"], cls="name"),
                Span(c["about"], cls="about") if c["about"] else None,
                cls="meta",
            ),
            Form(
                Input(type="hidden", name="to", value=c["id"]),
                Button(
                    ctx.t("forward_button"),
                    type="submit",
                    aria_label=ctx.t("forward_label", name=c["name"]),
                    data_testid=f"messenger-forward-to-{c['id']}",
                ),
                method="post",
                action=ctx.url(f"/forward/{mid}"),
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
            Form(
                Input(
                    type="search",
                    name="q",
                    value=q,
                    placeholder=ctx.t("forward_filter"),
                    aria_label=ctx.t("forward_filter"),
                    autocomplete="off",
                    data_testid="messenger-forward-search",
                ),
                Button(ctx.t("forward_filter_button"), type="submit", data_testid="messenger-forward-search-submit"),
                method="get",
                action=ctx.url(f"/forward/{mid}"),
                role="search",
                cls="msgr-search",
            ),
            Ul(*rows, cls="plain fwd-list", data_testid="messenger-forward-list")
            if rows
            else P(ctx.t("no_results", q=q), cls="muted", data_testid="messenger-no-results"),
            cls="card",
        ),
        title=ctx.t("forward_heading"),
    )


# -- routes ----------------------------------------------------------------------------------
def routes(r: AppRoutes) -> None:
    @r.get("/")
    def index(ctx: AppContext, params: dict):
        q = params.get("q")
        return layout(ctx, str(q) if q is not None else None, None)

    @r.get("/chat/{cid}")
    def chat(ctx: AppContext, params: dict):
        c = logic.contact(ctx.state, params["cid"])
        if c is None:
            return not_found(ctx)
        q = params.get("q")
        return layout(ctx, str(q) if q is not None else None, c)

    @r.post("/send/{cid}")
    def send(ctx: AppContext, params: dict):
        cid = params["cid"]
        text = str(params.get("text", "")).strip()
        if logic.contact(ctx.state, cid) is None:
            return not_found(ctx)
        if text:
            msg, created = logic.add_message(ctx.state, cid, text)
            if created:
                ctx.log("start_conversation", contact=cid)
            ctx.log("send", contact=cid, id=msg["id"], text=text)
        return ctx.redirect(f"/chat/{cid}#latest")

    @r.get("/forward/{mid}")
    def forward_form(ctx: AppContext, params: dict):
        found = logic.find_message(ctx.state, params["mid"])
        if found is None:
            return not_found(ctx)
        source, m = found
        return forward_page(ctx, params["mid"], source, m, str(params.get("q", "")))

    @r.post("/forward/{mid}")
    def forward(ctx: AppContext, params: dict):
        mid, to = params["mid"], str(params.get("to", ""))
        done = logic.forward(ctx.state, mid, to)
        if done is None:
            return not_found(ctx)
        msg, created = done
        if created:
            ctx.log("start_conversation", contact=to)
        ctx.log("forward", id=mid, to=to, new_id=msg["id"], text=msg["text"], forwarded_from=msg["forwarded_from"])
        return ctx.redirect(f"/chat/{to}#latest")


APP = AppSpec(
    name="messenger",
    schema=SCHEMA,
    content=Path(__file__).with_name("content.yaml"),
    initial_state=initial_state,
    routes=routes,
    normalise=logic.normalise,
    order=30,
    css=CSS,
    item_keys={"contacts": ItemKey("name", "contact"), "conversations.*": ItemKey((), "message")},
)
