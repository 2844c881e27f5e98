"""The start page's category row and tiles, kept as HTML across visits and worlds
(``apps.start.views.launcher_body``): every world sees its own titles, descriptions, icons,
order and language, also after its config changed, and the kept HTML is what the page shell
writes of the same trees."""

from __future__ import annotations

import re

import pytest
from openapps_sim.apps.start import views

from openapps_sim.appkit import AppContext
from openapps_sim.config.world import WorldSpec
from openapps_sim.web.server import app_server
from openapps_sim.web.shell import render_page
from openapps_sim.web.tags import H1, Div, NotStr, P
from openapps_sim.web.world import World

STAR = "M12 3l2.7 5.8 6.3.7-4.7 4.3 1.3 6.2L12 17l-5.6 3 1.3-6.2L3 9.5l6.3-.7z"  # web.icons' "star"


def _world(variation: str = "default", overrides: tuple[str, ...] = ()) -> World:
    world = app_server().add(World(), served=False)
    world.reset(WorldSpec(variation=variation, seed=0, overrides=overrides))
    return world


def _start(world: World, target: str = "/") -> str:
    status, _, html = app_server().call(world, "GET", target)
    assert status == 200
    return html


def _tile_order(html: str) -> list[str]:
    return re.findall(r'data-testid="launch-([a-z_]+)"', html)


def test_two_worlds_whose_start_pages_differ_in_one_title_each_see_their_own():
    one, two = _world(), _world(overrides=("banking.title=Kassenhaus",))
    for _ in range(2):  # the second round is served from what the first kept
        assert ">Ledger Bank</span>" in _start(one) and "Kassenhaus" not in _start(one)
        assert ">Kassenhaus</span>" in _start(two) and "Ledger Bank" not in _start(two)
        assert "Kassenhaus" in _start(two, "/?q=kassen") and "Ledger Bank" not in _start(two, "/?q=ledger")


@pytest.mark.parametrize(
    "variation,overrides,all_apps,no_match",
    [
        # the start page speaks its world's language
        ("german", (), "Alle Apps", "Keine App passt zu deiner Suche."),
        # two worlds whose start pages differ only in a label each see their own
        ("default", ("start.strings.all_apps=Tout", "start.strings.no_match=Rien."), "Tout", "Rien."),
    ],
    ids=["language", "label"],
)
def test_a_world_beside_the_default_one_sees_its_own_labels(variation, overrides, all_apps, no_match):
    one, two = _world(), _world(variation, overrides)
    for _ in range(2):
        assert ">All apps</a>" in _start(one) and f">{all_apps}</a>" in _start(two)
        assert ">No app matches your search.</p>" in _start(one, "/?q=zzzz")
        assert f">{no_match}</p>" in _start(two, "/?q=zzzz")


def test_a_config_changed_in_the_world_shows_on_its_next_start_page():
    world = _world()
    before = _start(world)
    assert ">Ledger Bank</span>" in before and _tile_order(before)[0] != "weather"
    banking = world.config["banking"]
    banking["title"], banking["description"], banking["icon"] = "Geldhaus", "Nur ein Test.", "star"
    world.config["start"]["tile_order"] = "reverse"
    world.config["start"]["strings"]["all_apps"] = "Toutes les apps"
    world.config["weather"]["title"] = "Wetterfrosch"
    world.touch()
    after = _start(world)
    assert ">Geldhaus</span>" in after and "Ledger Bank" not in after
    assert 'data-testid="launch-desc-banking">Nur ein Test.</p>' in after
    assert f'<path d="{STAR}"/>' in after and ">Toutes les apps</a>" in after and ">Wetterfrosch</span>" in after
    assert _tile_order(after) == list(reversed(_tile_order(before)))
    assert _start(_world()) == before  # another world of that pack: as the first one was


def test_the_kept_html_is_what_the_shell_writes_of_the_trees():
    world = _world("arabic+mobile")
    ctx = AppContext(world, world.apps["start"], None, render_page)
    tiles = views.tiles_of(ctx)
    labels = views.Labels(ctx.t("all_apps"), ctx.t("categories"), ctx.t("no_match"))
    for query, category in (("", ""), ("bank", ""), ("", "Finance"), ("zzzz", ""), ("بنك", "")):
        shown = views.shown_tiles(tiles, query, category)
        trees = (
            views.category_row(tiles, category, query, labels),
            Div(*map(views.tile_link, shown), cls="launcher")
            if shown
            else P(labels.no_match, cls="muted", data_testid="launcher-empty"),
        )
        kept = NotStr(views.launcher_body(tiles, query, category, labels))
        assert ctx.page(H1("x"), kept).body == ctx.page(H1("x"), *trees).body, (query, category)
