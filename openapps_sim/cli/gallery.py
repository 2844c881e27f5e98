"""``openapps gallery``: every app under every pack, screenshotted side by side: each app's first
screen and the pages its ``showcase`` names (a form, a detail page, a filled cart)."""

from __future__ import annotations

from pathlib import Path

from fasthtml.common import (
    H1,
    A,
    Code,
    Div,
    Img,
    P,
    Span,
    Table,
    Tbody,
    Td,
    Th,
    Thead,
    Tr,
)

from openapps_sim.analysis.doc.page import document
from openapps_sim.config.catalog import compose, discover_apps, resolve_pack
from openapps_sim.config.packs import list_packs, split_expression
from openapps_sim.web.server import app_server

PHONE_VIEWPORT = {"width": 390, "height": 844}


def _pages(app_specs: dict, app_names: list[str], state: dict, config: dict) -> list[tuple[str, str, str, tuple]]:
    """(app, label, path, tools) of every page to show: each app's first screen, then the pages
    its ``showcase`` names (a form, a detail page, a filled cart)."""
    out = []
    for app in app_names:
        spec = app_specs[app]
        out.append((app, "", f"{spec.url_prefix}/", ()))
        for page in spec.showcase(state[app], config[app]) if spec.showcase else []:
            out.append((app, page.label, spec.url_prefix + page.path, page.tools))
    return out


def build_gallery(
    out: Path,
    packs: list[str] | None = None,
    apps: list[str] | None = None,
    width: int = 1280,
    height: int = 800,
    seed: int = 0,
) -> Path:
    from openapps_sim.envs.browser import launch_browser  # Playwright, only once screenshots are taken

    out = Path(out)
    (out / "shots").mkdir(parents=True, exist_ok=True)
    packs = packs or sorted(list_packs(), key=lambda p: (p != "default", p))
    app_specs = discover_apps()
    app_names = apps or list(app_specs)
    world = app_server().add()
    browser = launch_browser()
    rows = []
    columns: list[tuple[str, str]] = []
    desktop = {"width": width, "height": height}
    try:
        context = browser.new_context(viewport=desktop)
        page = context.new_page()
        for pack in packs:
            description = " + ".join(resolve_pack(part).description for part in split_expression(pack))
            world.reset(pack, seed)
            # A phone layout is shown on a phone-sized screen, as an agent on a phone would see it.
            phone = compose(pack).get("theme", {}).get("layout") == "mobile"
            page.set_viewport_size(PHONE_VIEWPORT if phone else desktop)
            if phone:
                description += f" (shown at {PHONE_VIEWPORT['width']}x{PHONE_VIEWPORT['height']})"
            cells = {}
            for app, label, path, tools in _pages(app_specs, app_names, world.draw_all(), world.config):
                for name, args in tools:  # the app's own operations set the page up (a filled cart)
                    world.call_tool(app, name, args)
                page.goto(world.url + path)
                page.wait_for_load_state("load")
                shot = out / "shots" / f"{pack}__{app}{'__' + label.replace(' ', '_') if label else ''}.jpg"
                page.screenshot(path=str(shot), type="jpeg", quality=70)
                cells[(app, label)] = shot.relative_to(out)
                if (app, label) not in columns:
                    columns.append((app, label))
                if tools:
                    world.reset(pack, seed)
            rows.append((pack, description, cells))
        context.close()
    finally:
        browser.close()
        app_server().drop(world)
    index = out / "index.html"
    index.write_text(_page(rows, columns), encoding="utf-8")
    return index


CSS = """
body{font-family:system-ui,sans-serif;margin:16px;background:#fafafa;color:#222}
table{border-collapse:collapse} th,td{border:1px solid #ddd;padding:6px;vertical-align:top;background:#fff}
thead th{position:sticky;top:0;background:#eef;z-index:2;font-size:13px}
thead th span{display:block;font-weight:normal;color:#555}
th.pack{text-align:left;min-width:170px;max-width:170px;font-size:14px;position:sticky;left:0;z-index:1}
th.pack div{font-weight:normal;color:#666;font-size:12px;margin-top:4px}
img{width:240px;height:150px;object-fit:cover;object-position:top;display:block;border:1px solid #ccc}
"""


def _page(rows: list, columns: list[tuple[str, str]]) -> str:
    def cell(pack: str, cells: dict, key: tuple[str, str]):
        shot = cells.get(key)
        if shot is None:
            return Td("-")
        alt = f"{pack} / {key[0]}" + (f" / {key[1]}" if key[1] else "")
        return Td(A(Img(loading="lazy", src=str(shot), alt=alt), href=str(shot)))

    head = Tr(Th("pack"), *[Th(app, Span(label or "first screen")) for app, label in columns])
    body = [
        Tr(Th(pack, Div(description), cls="pack"), *[cell(pack, cells, key) for key in columns])
        for pack, description, cells in rows
    ]
    intro = P(
        f"{len(rows)} packs × {len(columns)} pages: each app's first screen, then the pages it names "
        "worth a look (a form, a detail page, a filled cart). Thumbnails show the top of each page; "
        "click one for the full screenshot. Packs compose: any combination such as ",
        Code("dark_theme+german"),
        " is a valid version too, and ",
        Code("random-<seed>"),
        " names generated ones.",
    )
    return document("OpenApps-Sim gallery", CSS, H1("OpenApps-Sim gallery"), intro, Table(Thead(head), Tbody(*body)))
