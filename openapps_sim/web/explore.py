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
    Meta,
    Option,
    P,
    Section,
    Select,
    Strong,
    Style,
    Title,
    to_xml,
)
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from openapps_sim.config.packs import PACK_KINDS, list_packs, pack_kind, resolve_pack, split_expression
from openapps_sim.errors import ConfigError

EXPLORE_HOST = "explore.localhost"
PATH = "/_explore/"
COMPARE_PATHS = ("/", "/todo/", "/calendar/", "/messenger/", "/maps/", "/shop/", "/shop/cart", "/code_editor/")

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1400px; padding: 1rem 1.5rem; color: #1d2330; }
h1 { margin: .2rem 0 1rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d9dde6; }
fieldset { display: inline-block; vertical-align: top; border: 1px solid #d9dde6; border-radius: 8px; margin: 0 .6rem .6rem 0; }
select, input { font: inherit; padding: .25rem; max-width: 22rem; }
button { font: inherit; padding: .35rem .9rem; border-radius: 6px; border: 1px solid #2f6fde; background: #2f6fde; color: #fff; }
.error { color: #a11; font-weight: 600; } .now { background: #eef3fc; padding: .6rem .9rem; border-radius: 8px; }
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


def compose_expression(form: dict) -> str:
    """The pack expression of the picks: a generated version first, so that the packs picked by
    hand override what it drew."""
    parts = []
    generated = str(form.get("generated") or "").strip()
    if generated:
        if not generated.isdigit():
            raise ConfigError("explore", "generated", f"expected a whole number, got {generated!r}", "0, 1, 2 ...")
        parts.append(f"random-{generated}")
    parts += [str(form[k]) for k in PACK_KINDS if form.get(k) and form.get(k) != "default"]
    return "+".join(parts) or "default"


def _seed(value: object, key: str) -> int:
    text = str(value if value is not None else "0").strip() or "0"
    if not text.isdigit():
        raise ConfigError("explore", key, f"expected a whole number, got {text!r}", "0, 1, 2 ...")
    return int(text)


def _page(explorer: Explorer, req: Request, error: str = "") -> str:
    port = req.url.port
    world = explorer.worlds.default
    picked = {k: "" for k in PACK_KINDS}
    for part in split_expression(world.variation):
        if part in list_packs():
            picked[pack_kind(resolve_pack(part))] = part
    groups = explorer.packs_by_kind()
    q = req.query_params
    left, right = q.get("left", "default"), q.get("right", world.variation)
    path = q.get("path", "/todo/")
    path = path if path.startswith("/") else "/" + path
    seed = q.get("seed", "0")
    compare_error = ""
    try:
        explorer.show(explorer.left, left, _seed(seed, "seed"))
        explorer.show(explorer.right, right, _seed(seed, "seed"))
    except ConfigError as e:
        compare_error = str(e)

    def choose(kind: str):
        options = [Option("(none)", value="")] + [
            Option(name, value=name, title=desc, selected=(name == picked[kind])) for name, desc in groups[kind]
        ]
        return Fieldset(Legend(kind), Select(*options, name=kind, data_testid=f"explore-pick-{kind}"))

    def frame(world_id: str, label: str, expression: str):
        src = f"http://{world_id}.localhost:{port}{path}"
        return Div(
            P(Strong(label), f" {expression} ", A("open", href=src, target="_blank")),
            Iframe(src=src, title=f"{label}: {expression}", data_testid=f"explore-frame-{label}"),
        )

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
            P(error, cls="error", data_testid="explore-error") if error else None,
            Section(
                H2("Compose a version and switch to it"),
                Form(
                    *[choose(k) for k in PACK_KINDS],
                    Fieldset(
                        Legend("generated"),
                        Label("random-", Input(name="generated", inputmode="numeric", size="6", placeholder="seed")),
                    ),
                    Fieldset(Legend("world seed"), Input(name="seed", value=str(world.seed), size="6")),
                    Div(Button("Switch the running world", type="submit", data_testid="explore-switch")),
                    method="post",
                    action=PATH + "switch",
                ),
            ),
            Section(
                H2("Side by side"),
                Form(
                    Label("left ", Input(name="left", value=left, data_testid="explore-left")),
                    Label(" right ", Input(name="right", value=right, data_testid="explore-right")),
                    Label(
                        " page ",
                        Select(*[Option(p, value=p, selected=(p == path)) for p in COMPARE_PATHS], name="path"),
                    ),
                    Label(" seed ", Input(name="seed", value=seed, size="4")),
                    Button("Compare", type="submit", data_testid="explore-compare"),
                    method="get",
                    action=PATH,
                ),
                P(compare_error, cls="error") if compare_error else None,
                Div(frame(explorer.left, "left", left), frame(explorer.right, "right", right), cls="pair"),
            ),
            Section(
                H2("The packs"),
                *[
                    Div(H3(kind), Dl(*[x for name, desc in groups[kind] for x in (Dt(name), Dd(desc))]))
                    for kind in PACK_KINDS
                ],
                P("Compose packs with '+' (later ones win); random-<seed> is a generated version."),
            ),
        ),
    )
    return to_xml(doc)


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
        form = dict(await req.form())
        try:
            expression = compose_expression(form)
            worlds.default.reset(expression, _seed(form.get("seed"), "seed"))
        except ConfigError as e:
            return HTMLResponse(_page(explorer, req, str(e)), status_code=400)
        return RedirectResponse(PATH + "?" + urlencode({"right": expression}), status_code=303)

    return explorer
