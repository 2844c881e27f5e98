"""``openapps serve --explore``: a control page for people browsing app versions by hand.

It lists the packs grouped by kind with their descriptions, composes a version by picking one
pack per kind (appearance, language, content, interruptions) and a generated version, switches
the running world to it in place, and shows the same app page under two versions side by side
(two iframes on two worlds of their own).

The page lives outside the apps: it answers only on the host ``explore.localhost`` of a server
started with ``--explore``. Agents' servers never have it, and an episode's browser, kept to its
own origin ``w<N>.localhost`` by the origin guard, could not reach another host anyway; every
other host gets 404 for ``/_explore/``.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from fasthtml.common import (
    H1,
    H2,
    H3,
    A,
    Body,
    Button,
    Dd,
    Div,
    Dl,
    Dt,
    Fieldset,
    Form,
    Head,
    Html,
    Iframe,
    Input,
    Label,
    Legend,
    Li,
    Meta,
    Option,
    P,
    Section,
    Select,
    Strong,
    Style,
    Title,
    Ul,
    to_xml,
)
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from openapps_sim.config.catalog import compose, resolve_pack
from openapps_sim.config.limits import SEED_ALLOWED, check_seed, whole_from_text
from openapps_sim.config.packs import PACK_KINDS, is_generated, list_packs, pack_kind, split_expression
from openapps_sim.errors import ConfigError, did_you_mean

EXPLORE_HOST = "explore.localhost"
PATH = "/_explore/"
COMPARE_PATHS = ("/", "/todo/", "/calendar/", "/messenger/", "/maps/", "/shop/", "/shop/cart", "/code_editor/")

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1400px; padding: 1rem 1.5rem; color: #1d2330; }
h1 { margin: .2rem 0 1rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d9dde6; }
fieldset { display: inline-block; vertical-align: top; border: 1px solid #d9dde6; border-radius: 8px; margin: 0 .6rem .6rem 0; }
select, input { font: inherit; padding: .25rem; max-width: 22rem; }
button { font: inherit; padding: .35rem .9rem; border-radius: 6px; border: 1px solid #2f6fde; background: #2f6fde; color: #fff; }
.error { color: #a11; font-weight: 600; } .note { color: #6a4a00; background: #fff6dc; padding: .3rem .6rem; border-radius: 6px; }
.blank { height: 8rem; display: flex; align-items: center; justify-content: center; border: 1px dashed #d9dde6; border-radius: 8px; color: #5d6677; } .now { background: #eef3fc; padding: .6rem .9rem; border-radius: 8px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.pair iframe { width: 100%; height: 640px; border: 1px solid #d9dde6; border-radius: 8px; }
dl { display: grid; grid-template-columns: 14rem 1fr; gap: .2rem 1rem; } dt { font-weight: 600; } dd { margin: 0; }
"""


class Explorer:
    """The control page's state: the world people browse (``w0``) and two worlds to compare."""

    def __init__(self, worlds) -> None:
        self.worlds = worlds
        self.left = worlds.create()
        self.right = worlds.create()
        self.versions = {self.left: ("default", 0), self.right: ("default", 0)}

    def packs_by_kind(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {k: [] for k in PACK_KINDS}
        for name in sorted(list_packs()):
            pack = resolve_pack(name)
            out[pack_kind(pack)].append((name, pack.description))
        return out

    def show(self, world_id: str, expression: str, seed: int) -> None:
        if self.versions.get(world_id) != (expression, seed):
            self.worlds.get(world_id).reset(expression, seed)
            self.versions[world_id] = (expression, seed)


def _joined(text: str) -> str:
    return "+".join(p for p in re.split(r"[+\s]+", text) if p) or "default"


def form_seed(value: object, label: str) -> int:
    """A seed typed in a form (empty: 0), read as the command line reads ``--seed``: one rule
    (``config.limits.whole_from_text``, then ``check_seed``)."""
    text = str(value if value is not None else "0").strip() or "0"
    number = whole_from_text(text)
    if number is None:
        raise ConfigError(label, "", f"{text!r} is not a whole number", SEED_ALLOWED)
    return check_seed(number, label, "")


def _generated(form: dict) -> str:
    text = str(form.get("generated") or "").strip()
    if text and not (text.isascii() and text.isdigit()):
        raise ConfigError("generated", "", f"expected a whole number, got {text!r}", "0, 1, 2 ... or nothing")
    return f"random-{text}" if text else ""


def compose_expression(form: dict) -> str:
    """The pack expression of the picks: a generated version first, so that the packs picked by
    hand override what it drew, then one pack per kind in the order of ``PACK_KINDS``."""
    parts = [_generated(form)]
    parts += [str(form[k]) for k in PACK_KINDS if form.get(k) and form.get(k) != "default"]
    return "+".join(p for p in parts if p) or "default"


def check_expression(expression: str, label: str) -> None:
    """Raise a ConfigError worded for the page (``left: no pack named 'darktheme' ...``) when
    ``expression`` names a pack that does not exist or composes into an invalid world."""
    known = list_packs()
    for part in split_expression(expression):
        part = part.strip()
        if part in known or is_generated(part):
            continue
        if "/" in part or part.endswith(".yaml"):
            resolve_pack(part, label, part)  # a file: its own errors name the file
            continue
        raise ConfigError(
            label,
            "",
            f"no pack named {part!r}{did_you_mean(part, known)}",
            "the packs listed under 'The packs' below, joined with '+', or random-<seed>",
        )
    try:
        compose(expression)
    except ConfigError as e:
        raise ConfigError(label, "", f"{expression!r} does not compose: {e}") from None


def _replaced(earlier: object, later: object, path: str):
    """The key paths where ``later`` replaces what ``earlier`` set (mappings merge key by key;
    lists and scalars are replaced whole)."""
    if isinstance(earlier, dict) and isinstance(later, dict):
        for key in later:
            if key in earlier:
                yield from _replaced(earlier[key], later[key], f"{path}.{key}" if path else str(key))
    elif earlier != later:
        yield path


def _sections(name: str) -> dict:
    out: dict = {}
    for _, section, raw in resolve_pack(name).sections:
        out.setdefault(section, {})
        if isinstance(raw, dict):
            out[section].update(raw)
    return out


def order_notes(expression: str) -> list[str]:
    """What a later pack of ``expression`` replaces of a language pack before it, in one sentence
    each: ``mandarin+dense`` shows dense's English events, since the later pack wins."""
    parts = [p for p in split_expression(expression) if p in list_packs()]
    kinds = {p: pack_kind(resolve_pack(p)) for p in parts}
    notes = []
    for i, lang in enumerate(parts):
        if kinds[lang] != "language":
            continue
        for later in parts[i + 1 :]:
            if kinds[later] not in ("content", "language"):
                continue
            paths = sorted(set(_replaced(_sections(lang), _sections(later), "")) - {"shell.lang"})
            data = [p for p in paths if ".strings" not in p and not p.startswith(("shell", "theme"))]
            if not data:
                continue
            shown = ", ".join(data[:5]) + (f" and {len(data) - 5} more" if len(data) > 5 else "")
            notes.append(
                f"{later} comes after {lang}, so its own {shown} replace {lang}'s translated ones "
                f"(packs apply left to right and the later one wins); for {lang}'s data, "
                f"compare '{later}+{lang}' under Side by side."
            )
    return notes


def _side(explorer: Explorer, world_id: str, label: str, expression: str, seed: int | None, errors: list) -> bool:
    """Show ``expression`` in the side's world; False (and the error added) when it cannot."""
    try:
        check_expression(expression, f"{label} version")
    except ConfigError as e:
        errors.append(str(e))
        return False
    if seed is None:
        return False
    explorer.show(world_id, expression, seed)
    return True


def _page(explorer: Explorer, req: Request, errors: tuple[str, ...] = (), form: dict | None = None) -> str:
    port = req.url.port
    world = explorer.worlds.default
    picked = {k: "" for k in PACK_KINDS}
    if form is not None:  # a refused switch keeps what was picked and typed
        picked.update({k: str(form.get(k) or "") for k in PACK_KINDS})
    else:
        for part in split_expression(world.variation):
            if part in list_packs():
                picked[pack_kind(resolve_pack(part))] = part
    typed = form or {"generated": "", "seed": str(world.seed)}
    groups = explorer.packs_by_kind()
    apps_url = f"http://127.0.0.1:{port}/"
    doc = Html(
        Head(Meta(charset="utf-8"), Title("Explore app versions · OpenApps-Sim"), Style(CSS)),
        Body(
            H1("Explore app versions"),
            P(
                "Now serving ",
                Strong(world.variation, data_testid="explore-current"),
                f", seed {world.seed}, at ",
                A(apps_url, href=apps_url, target="_blank"),
                cls="now",
            ),
            *[P(n, cls="note", data_testid="explore-order-note") for n in order_notes(world.variation)],
            Ul(*[Li(e) for e in errors], cls="error", data_testid="explore-error") if errors else None,
            _switch_section(groups, picked, typed),
            _compare_section(explorer, req, world),
            _packs_section(groups),
        ),
    )
    return to_xml(doc)


def _choose(kind: str, groups: dict, picked: dict):
    options = [Option("(none)", value="")] + [
        Option(name, value=name, title=desc, selected=(name == picked[kind])) for name, desc in groups[kind]
    ]
    return Fieldset(Legend(kind), Select(*options, name=kind, data_testid=f"explore-pick-{kind}"))


def _switch_section(groups: dict, picked: dict, typed: dict):
    """The form that composes a version from one pack of each kind and switches ``w0`` to it."""
    return Section(
        H2("Compose a version and switch to it"),
        P(
            "The picks apply in this order: the generated version, then "
            + ", ".join(PACK_KINDS)
            + ". Where two packs set the same thing the later one wins, so a content pack "
            "(dense, sparse ...) brings its own English items over a language's translated "
            "ones. Type an expression under Side by side to choose the order yourself.",
            cls="muted",
        ),
        Form(
            *[_choose(k, groups, picked) for k in PACK_KINDS],
            Fieldset(
                Legend("generated"),
                Label(
                    "random-",
                    Input(
                        name="generated",
                        value=str(typed.get("generated") or ""),
                        inputmode="numeric",
                        size="6",
                        placeholder="seed",
                    ),
                ),
            ),
            Fieldset(Legend("world seed"), Input(name="seed", value=str(typed.get("seed") or ""), size="6")),
            Div(Button("Switch the running world", type="submit", data_testid="explore-switch")),
            method="post",
            action=PATH + "switch",
        ),
    )


def _frame(shown: bool, src: str, label: str, expression: str):
    if not shown:
        return Div(
            P(Strong(label), f" {expression} "),
            P("Not shown: fix the error above.", cls="blank", data_testid=f"explore-blank-{label}"),
        )
    return Div(
        P(Strong(label), f" {expression} ", A("open", href=src, target="_blank")),
        *[P(n, cls="note") for n in order_notes(expression)],
        Iframe(src=src, title=f"{label}: {expression}", data_testid=f"explore-frame-{label}"),
    )


def _compare_section(explorer: Explorer, req: Request, world):
    """Two versions of one page side by side, each in its own world (``explorer.left``/``right``)."""
    q = req.query_params
    # a '+' typed into the address bar arrives as a space: both join packs
    left, right = (_joined(q.get(k, d)) for k, d in (("left", "default"), ("right", world.variation)))
    path = q.get("path", "/todo/")
    path = path if path.startswith("/") else "/" + path
    seed_text = q.get("seed", "0")
    compare_errors: list[str] = []
    try:
        seed = form_seed(seed_text, "seed")
    except ConfigError as e:
        compare_errors.append(f"{e} (neither page is shown until it is)")
        seed = None
    shown = {
        "left": _side(explorer, explorer.left, "left", left, seed, compare_errors),
        "right": _side(explorer, explorer.right, "right", right, seed, compare_errors),
    }
    frames = [
        _frame(shown[label], f"http://{world_id}.localhost:{req.url.port}{path}", label, expression)
        for world_id, label, expression in ((explorer.left, "left", left), (explorer.right, "right", right))
    ]
    return Section(
        H2("Side by side"),
        Form(
            Label("left ", Input(name="left", value=left, data_testid="explore-left")),
            Label(" right ", Input(name="right", value=right, data_testid="explore-right")),
            Label(
                " page ",
                Select(*[Option(p, value=p, selected=(p == path)) for p in COMPARE_PATHS], name="path"),
            ),
            Label(" seed ", Input(name="seed", value=seed_text, size="4")),
            Button("Compare", type="submit", data_testid="explore-compare"),
            method="get",
            action=PATH,
        ),
        Ul(*[Li(e) for e in compare_errors], cls="error", data_testid="explore-compare-error")
        if compare_errors
        else None,
        Div(*frames, cls="pair"),
    )


def _packs_section(groups: dict):
    return Section(
        H2("The packs"),
        *[Div(H3(kind), Dl(*[x for name, desc in groups[kind] for x in (Dt(name), Dd(desc))])) for kind in PACK_KINDS],
        P("Compose packs with '+' (later ones win); random-<seed> is a generated version."),
    )


def add_routes(app, worlds) -> Explorer:
    """The control page's routes, answering on ``explore.localhost`` only."""
    explorer = Explorer(worlds)

    def here(req: Request) -> bool:
        return req.headers.get("host", "").rsplit(":", 1)[0].lower() == EXPLORE_HOST

    @app.route(PATH, methods=["GET"])
    async def page(req: Request):
        if not here(req):
            return Response("not found", status_code=404)
        return HTMLResponse(_page(explorer, req))

    @app.route(PATH + "switch", methods=["POST"])
    async def switch(req: Request):
        if not here(req):
            return Response("not found", status_code=404)
        form = {k: str(v) for k, v in (await req.form()).items()}
        errors = []
        for check in (lambda: compose_expression(form), lambda: form_seed(form.get("seed"), "world seed")):
            try:
                check()
            except ConfigError as e:
                errors.append(str(e))
        if not errors:
            expression = compose_expression(form)
            try:
                check_expression(expression, "picks")
                worlds.default.reset(expression, form_seed(form.get("seed"), "world seed"))
            except ConfigError as e:
                errors.append(str(e))
        if errors:
            return HTMLResponse(_page(explorer, req, tuple(errors), form), status_code=400)
        return RedirectResponse(PATH + "?" + urlencode({"right": expression}), status_code=303)

    return explorer
