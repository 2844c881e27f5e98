"""The app contract: importing the apps (for schemas, states and task families) loads no web code;
the server imports each app's route module by name; launcher icons come from the apps."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from openapps_sim.appkit import AppRoutes, AppSpec
from openapps_sim.config.catalog import discover_apps
from openapps_sim.config.schema import Record

CHECK = r"""
import json, sys
import openapps_sim
from openapps_sim.config.catalog import compose, discover_apps, initial_state_json
from openapps_sim.taskkit import all_families, evaluate, instantiate

discover_apps()
config = compose("default")
state = json.loads(initial_state_json("default", (), 0))
scored = 0
for fam in all_families().values():
    inst = instantiate(fam, state, config, seed=0)
    result = evaluate(fam, inst, inst.expected, answer=inst.expected_answer, url="http://x" + (inst.expected_path or "/"),
                      reported_infeasible=inst.infeasible is not None)
    # ordered goals are also checked against the event log, which a pure evaluation does not have
    assert result.success or (inst.ordered and [d.path for d in result.diff] == ["order"]), (fam.id, result)
    scored += 1
web = sorted(m for m in sys.modules if m.split(".")[0] in ("fasthtml", "starlette", "uvicorn"))
app_web = sorted(
    m for m in sys.modules
    if m.startswith("openapps_sim.apps.") and m.rsplit(".", 1)[-1] in ("routes", "views")
)
print(json.dumps({"scored": scored, "web": web, "app_web": app_web}))
"""


def test_apps_and_task_evaluation_import_no_web_code():
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["scored"] > 20
    assert found["web"] == [], "importing the apps or scoring a task loaded web modules"
    assert found["app_web"] == [], "importing the apps or scoring a task loaded their routes or views"


def test_routes_are_found_by_module_path_or_given_as_a_registry_or_a_function():
    def routes(r: AppRoutes) -> None:
        @r.get("/")
        def index(ctx, params):
            return "hello"

    registry = AppRoutes()
    registry.get("/")(lambda ctx, params: "hello")
    given_all = (routes, registry, "openapps_sim.apps.todo.routes", "openapps_sim.apps.todo.routes:routes")
    for given in given_all:
        spec = AppSpec("demo", Record(), discover_apps()["todo"].content, lambda c, r: {}, given)
        for _ in range(2):  # a server built twice gets the same routes; the module's registry is left as it was
            r = AppRoutes()
            spec.register_routes(r)
            assert [(x.method, x.path) for x in r.routes][0] == ("GET", "/")
            assert len({(x.method, x.path) for x in r.routes}) == len(r.routes)
    assert len(registry.routes) == 1


def test_home_app_is_served_at_the_root_and_every_other_app_under_its_name():
    apps = discover_apps()
    homes = [name for name, spec in apps.items() if spec.home]
    assert homes == ["start"]
    assert apps["start"].url_prefix == "" and apps["todo"].url_prefix == "/todo"


def test_start_page_tiles_draw_each_apps_own_icon():
    from starlette.testclient import TestClient

    from openapps_sim.web.server import build_app
    from openapps_sim.web.world import World

    world = World()
    world.reset("default", 0, [])
    html = TestClient(build_app(world)).get("/").text
    for name, spec in discover_apps().items():
        if spec.home:
            continue
        assert spec.icon_svg, f"{name} declares no icon"
        tile = re.search(rf'<a [^>]*data-testid="launch-{name}".*?</a>', html, re.S)
        assert tile and f'd="{spec.icon_svg}"' in tile.group(0), name
