"""The report of a real (small) sweep, opened in the project's headless Chromium: every section
renders, every link inside the page resolves, no console errors, no request leaves the file;
and what the runner now records per step (observation text, thumbnail, addressed element)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import PIL.Image
import pytest

from openapps_sim.analysis.report.write import write_report
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .sweep_helpers import write_spec


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("report_sweep")
    tasks, variations = ["todo.add_item", "calendar.remove_event"], ["default", "dark_theme"]
    spec = write_spec(root, name="report-browser", tasks=tasks, variations=variations, seeds=[1])
    out = root / "out"
    run_sweep(load_spec(spec), out, workers=1, progress=False)
    return out


def test_steps_record_observation_thumbnail_and_target(sweep_dir: Path):
    records = read_results(sweep_dir / "results.jsonl")
    assert len(records) == 4 and all(r["error"] is None for r in records)
    oracle = next(
        r for r in records if r["agent"] == "oracle" and r["variation"] == "default" and r["task"] == "todo.add_item"
    )
    assert oracle["success"] and len(oracle["step_changed"]) == oracle["steps"]
    traj = json.loads((sweep_dir / "trajectories" / f"{oracle['episode_id']}.json").read_text())
    assert (sweep_dir / traj["first_thumbnail"]).is_file()
    first = traj["steps"][0]
    assert "[" in first["observation"] and len(first["observation"]) <= 6100  # the tree the action was chosen on
    assert first["thumbnail"].endswith(".jpg") and (sweep_dir / first["thumbnail"]).is_file()
    with PIL.Image.open(sweep_dir / first["thumbnail"]) as thumb:  # Chromium's JPEG: the oracle reads no pixels
        assert thumb.format == "JPEG" and thumb.width == 360
    assert first["target"]["role"] and first["target"]["bid"]  # the element the click addressed
    assert any(e["op"] for s in traj["steps"] for e in s["events"])  # the step that added the item logged it
    assert traj["steps"][-1]["changed"]


def test_a_tree_reading_agent_gets_no_screenshot_taken_for_the_record_alone():
    """Thumbnails of a tree reader's steps come from the env's small JPEG, so the env captures
    no full screenshot for them; a pixel reader, or a sweep that records screenshots, gets both."""
    from openapps_sim.agents import load_agent_config, make_agent

    from openapps_sim.sweeps.episode import reset_options
    from openapps_sim.sweeps.record import EpisodeSpec

    tree, pixels = make_agent("oracle"), make_agent("uitars", load_agent_config("uitars-vllm"))
    spec, out = EpisodeSpec("oracle", "todo.add_item"), Path("out")
    assert reset_options(spec, tree, out)["obs_mode"] == "axtree"
    assert reset_options(spec, pixels, out)["obs_mode"] == "both"  # the step log reads the tree too
    assert reset_options(spec, pixels, None)["obs_mode"] == "screenshot"
    recording = EpisodeSpec("oracle", "todo.add_item", record_screenshots=True)
    assert reset_options(recording, tree, out)["obs_mode"] == "both"


def test_the_oracles_next_month_clicks_are_a_progressing_repeat(sweep_dir: Path):
    """The oracle's legitimate "next month" x4 (seed 1's event lies months ahead) was the only
    loop in the demo; it changes the page every time, so it is a progressing repeat, not stuck."""
    import pandas as pd

    from openapps_sim.analysis.metrics.behaviour import count_loops
    from openapps_sim.analysis.metrics.breaks import loop_kind_rates, loop_kinds
    from openapps_sim.analysis.metrics.table import prepare

    records = read_results(sweep_dir / "results.jsonl")
    oracle = [r for r in records if r["agent"] == "oracle" and r["task"] == "calendar.remove_event"]
    assert oracle and all(r["success"] for r in oracle)
    for r in oracle:
        assert count_loops(r["actions"], 2) >= 1
        assert loop_kinds(r["actions"], r["step_changed"], 2) == (0, count_loops(r["actions"], 2), 0)
    k = loop_kind_rates(prepare(pd.DataFrame(oracle), 2), ["agent"]).iloc[0]
    assert k["stuck_per_episode"] == 0 and k["progressing_per_episode"] >= 1
    # ... and the headline does not flag the oracle: its loop column counts stuck loops.
    from openapps_sim.analysis.report.analysis import headline_table

    table = headline_table(pd.DataFrame(records)).splitlines()
    column = table[0].index("Stuck loops/ep")
    oracle_row = next(line for line in table if line.startswith("oracle"))
    assert oracle_row[column:].split()[0] in ("0", "0.00"), table


def test_export_fills_the_observation_column(sweep_dir: Path, tmp_path: Path):
    import pandas as pd

    from openapps_sim.analysis.export import export_dataset

    export_dataset([sweep_dir], tmp_path / "ds")
    rows = pd.concat([pd.read_parquet(p) for p in (tmp_path / "ds").rglob("*.parquet")])
    assert len(rows) and (rows["observation"].str.len() > 0).all()


def test_report_of_one_run_folder(sweep_dir: Path, tmp_path: Path):
    """``openapps report`` accepts the folder ``openapps run --out`` writes (episode.json)."""
    rec = read_results(sweep_dir / "results.jsonl")[0]
    one = tmp_path / "one"
    (one / "trajectories").mkdir(parents=True)
    (one / "episode.json").write_text(json.dumps(rec))
    shutil.copy(sweep_dir / "trajectories" / f"{rec['episode_id']}.json", one / "trajectories")
    md, html = write_report(one)
    assert f"| {rec['agent']} | 1 |" in md.read_text() and f'id="ep-{rec["episode_id"]}"' in html.read_text()


@pytest.mark.browser
def test_report_renders_in_chromium(sweep_dir: Path):
    from openapps_sim.envs.browser import launch_browser

    write_report(sweep_dir, paper=True)
    assert "Loops per episode (Table 11)" in (sweep_dir / "paper.md").read_text()
    browser = launch_browser()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        requests: list[str] = []
        console: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: console.append(str(exc)))
        page.goto((sweep_dir / "report.html").resolve().as_uri())
        toc = page.locator("nav.toc a")
        assert toc.count() >= 10
        for i in range(toc.count()):
            target = toc.nth(i).get_attribute("href")
            section = page.locator(f"section{target}")
            assert section.count() == 1, target
            assert section.locator("h2").inner_text() == toc.nth(i).inner_text()
            assert section.locator("table, figure, details, p").count() >= 1, f"{target} is empty"
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
            assert href.startswith("#") and page.locator(f"[id='{href[1:]}']").count() == 1, href
        for name in (
            "Success per app version (Figure 4)",
            "Per task in the default version (Table 4)",
            "Loops, invalid actions and intent by variation (Tables 11–13)",
            "Where it breaks",
            "Stuck loops and progressing repeats",
            "Paired with the default version",
            "Trajectories",
        ):
            assert page.get_by_role("heading", name=name).count() == 1, name
        assert page.locator("svg.chart").count() >= 5
        episode = page.locator("#trajectories > details").first
        episode.locator("summary").click()
        assert episode.locator(".steps img").count() >= 2  # thumbnails, recorded by default
        assert episode.locator(".target").count() >= 1
        shots = Path("/tmp/report_shots")
        shots.mkdir(exist_ok=True)
        page.screenshot(path=str(shots / "test_report_full.png"), full_page=True)
        external = [u for u in requests if not (u.startswith("file:") or u.startswith("data:"))]
        assert external == [] and console == []
    finally:
        browser.close()
