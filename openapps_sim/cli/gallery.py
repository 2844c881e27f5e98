"""``openapps gallery``: every app under every pack, screenshotted side by side."""

from __future__ import annotations

import html
from pathlib import Path

from openapps_sim.config.catalog import compose, discover_apps
from openapps_sim.config.packs import list_packs, resolve_pack, split_expression
from openapps_sim.envs.client import ServerHandle

PHONE_VIEWPORT = {"width": 390, "height": 844}


def build_gallery(
    out: Path,
    packs: list[str] | None = None,
    apps: list[str] | None = None,
    width: int = 1280,
    height: int = 800,
    seed: int = 0,
) -> Path:
    from openapps_sim.envs.browser import launch_browser

    out = Path(out)
    (out / "shots").mkdir(parents=True, exist_ok=True)
    packs = packs or sorted(list_packs(), key=lambda p: (p != "default", p))
    app_specs = discover_apps()
    app_names = apps or list(app_specs)
    server = ServerHandle().start()
    browser = launch_browser()
    rows = []
    desktop = {"width": width, "height": height}
    try:
        context = browser.new_context(viewport=desktop)
        page = context.new_page()
        for pack in packs:
            description = " + ".join(resolve_pack(part).description for part in split_expression(pack))
            server.reset(pack, seed)
            # A phone layout is shown on a phone-sized screen, as an agent on a phone would see it.
            phone = compose(pack).get("theme", {}).get("layout") == "mobile"
            page.set_viewport_size(PHONE_VIEWPORT if phone else desktop)
            if phone:
                description += f" (shown at {PHONE_VIEWPORT['width']}x{PHONE_VIEWPORT['height']})"
            cells = []
            for app in app_names:
                path = f"{app_specs[app].url_prefix}/"
                page.goto(server.url + path)
                page.wait_for_load_state("load")
                shot = out / "shots" / f"{pack}__{app}.jpg"
                page.screenshot(path=str(shot), type="jpeg", quality=70)
                cells.append((app, shot.relative_to(out)))
            rows.append((pack, description, cells))
        context.close()
    finally:
        browser.close()
        server.stop()
    index = out / "index.html"
    index.write_text(_page(rows, app_names), encoding="utf-8")
    return index


def _page(rows, app_names) -> str:
    head = "".join(f"<th>{html.escape(a)}</th>" for a in app_names)
    body = []
    for pack, description, cells in rows:
        tds = "".join(
            f'<td><a href="{html.escape(str(p))}"><img loading="lazy" src="{html.escape(str(p))}" alt="{html.escape(pack)} / {html.escape(app)}"></a></td>'
            for app, p in cells
        )
        body.append(f'<tr><th class="pack">{html.escape(pack)}<div>{html.escape(description)}</div></th>{tds}</tr>')
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OpenApps-Sim gallery</title>
<style>
body{{font-family:system-ui,sans-serif;margin:16px;background:#fafafa;color:#222}}
table{{border-collapse:collapse}} th,td{{border:1px solid #ddd;padding:6px;vertical-align:top;background:#fff}}
thead th{{position:sticky;top:0;background:#eef;z-index:2}}
th.pack{{text-align:left;min-width:170px;max-width:170px;font-size:14px;position:sticky;left:0;z-index:1}}
th.pack div{{font-weight:normal;color:#666;font-size:12px;margin-top:4px}}
img{{width:240px;height:150px;object-fit:cover;object-position:top;display:block;border:1px solid #ccc}}
</style></head><body>
<h1>OpenApps-Sim gallery</h1>
<p>{len(rows)} packs &times; {len(app_names)} pages. Thumbnails show the top of each page; click one for the
full screenshot. Packs compose: any
combination such as <code>dark_theme+german</code> is a valid version too, and <code>random-&lt;seed&gt;</code> names
generated ones.</p>
<table><thead><tr><th>pack</th>{head}</tr></thead><tbody>
{"".join(body)}
</tbody></table></body></html>
"""
