"""The oracle solves every family derived from the shipped described apps on the text backend,
through the pages and through the app tools under default; doing nothing scores 0
(docs/apps/spec.md). Every family under a language and an interruption pack is CI's sweep
(experiments/oracle_apps_ci.yaml), every pack x 3 seeds the shipped oracle_apps_1 and _2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from openapps_sim.taskkit import all_families, evaluate, instantiate
from openapps_sim.web.world import World

ROOT = Path(__file__).resolve().parent.parent
APPS = ("banking", "recipes", "hotels")
DERIVED = sorted(f for f in all_families() if f.split(".")[0] in APPS)
# through the pages and through the app tools
SPECS = {
    "pages": "interface: gui\nvariations: [default]\n",
    "tools": "interface: api\nvariations: [default]\n",
}
HEAD = 'agents: [oracle]\ntasks: ["banking.*", "recipes.*", "hotels.*"]\nbackends: [text]\nseeds: [0]\nworkers: 2\n'


def test_every_described_app_has_its_families():
    for app in APPS:
        kinds = {f.split(".")[1].split("_")[0] for f in DERIVED if f.startswith(f"{app}.")}
        assert len([f for f in DERIVED if f.startswith(f"{app}.")]) >= 8, app
        assert {"create", "lookup", "delete"} & kinds, (app, kinds)
    assert {
        "banking.transfer",
        "banking.total_transaction",
        "hotels.book",
        "recipes.change_ingredient_quantity",
        "recipes.set_recipe_stage",
    } <= set(DERIVED)


def test_doing_nothing_scores_zero():
    world = World()
    for pack in ("default", "german"):
        world.reset(pack, 0)
        for fid in DERIVED:
            fam = all_families()[fid]
            inst = instantiate(fam, world.state, world.config, 0, pack, "auto")
            assert evaluate(fam, inst, inst.initial).reward == 0, (fid, pack)


def test_the_oracle_solves_every_derived_family(tmp_path):
    for name, axes in SPECS.items():
        spec = tmp_path / f"{name}.yaml"
        spec.write_text(f"name: described_{name}\n{HEAD}{axes}", encoding="utf-8")
        out = tmp_path / name
        run = [
            sys.executable,
            "-m",
            "openapps_sim.cli",
            "sweep",
            str(spec),
            "--out",
            str(out),
            "--quiet",
            "--no-report",
        ]
        subprocess.run(run, cwd=ROOT, check=True, timeout=900)
        check = [sys.executable, ".ci/all_solved.py", str(out / "results.jsonl"), str(spec)]
        done = subprocess.run(check, cwd=ROOT, capture_output=True, text=True, timeout=120)
        n = len(DERIVED)
        assert done.returncode == 0 and f"{n} / {n} episodes solved" in done.stdout, done.stdout
