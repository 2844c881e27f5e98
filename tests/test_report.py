"""The report: a hand-made results folder in, report.md and a self-contained report.html out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from openapps_sim.analysis.doc.fmt import fmt_pct, fmt_rate_ci, fmt_ratio, fmt_std
from openapps_sim.analysis.metrics.axes import version_columns
from openapps_sim.analysis.metrics.reliability import reliability_summary
from openapps_sim.analysis.metrics.stats import success_rate
from openapps_sim.analysis.report.analysis import headline_table
from openapps_sim.analysis.report.load import load_results
from openapps_sim.analysis.report.write import write_report

EPISODE_WITH_SHOTS = "alpha-dark-0"


def record(agent: str, variation: str, seed: int, success: bool, **kw) -> dict:
    rec = {
        "v": 1,
        "episode_id": f"{agent}-{variation.split('_')[0]}-{seed}",
        "run_id": "run1",
        "agent": agent,
        "agent_config": None,
        "task": "todo.add_item",
        "task_apps": ["todo"],
        "variation": variation,
        "seed": seed,
        "viewport": "1280x720",
        "language": "en",
        "goal": "Add 'Buy oat milk' to my todo list",
        "reward": float(success),
        "partial_reward": float(success),
        "success": success,
        "steps": 3,
        "actions": ["click('8')", "fill('15', 'Buy oat milk')", "click('16')"],
        "invalid": {},
        "loops": 0,
        "apps_visited": ["start", "todo"],
        "error": None,
        "duration_s": 2.0,
        "tokens": {},
    }
    rec.update(kw)
    return rec


def make_results_dir(root: Path, extra: list[dict] | None = None, torn: bool = True) -> Path:
    """alpha: default 3/3, dark_theme 1/3 (one looping, one calendar detour, one invalid).
    beta: 2/3 in both. One infrastructure error for beta. A torn last line."""
    recs = [record("alpha", "default", s, True) for s in range(3)]
    recs += [
        record(
            "alpha",
            "dark_theme",
            0,
            False,
            actions=["click('47')"] * 4,
            steps=4,
            invalid={"bad_arguments": 1},
        ),
        record("alpha", "dark_theme", 1, True),
        record("alpha", "dark_theme", 2, False, apps_visited=["start", "calendar", "todo"]),
    ]
    for var in ("default", "dark_theme"):
        recs += [record("beta", var, s, s < 2) for s in range(3)]
    recs.append(record("beta", "dark_theme", 3, True, error="TargetClosedError: browser closed"))
    recs += extra or []
    root.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r) for r in recs]
    text = "\n".join(lines) + "\n" + ('{"episode_id": "torn", "agent": "al' if torn else "")
    (root / "results.jsonl").write_text(text, encoding="utf-8")
    manifest = {
        "package": "openapps-sim",
        "version": "0.1.0",
        "git_commit": "0123456789abcdef0123456789abcdef01234567",
        "spec_source": "experiments/smoke.yaml",
        "spec": {"name": "smoke", "agents": ["alpha", "beta"], "seeds": 3},
        "spec_hash": "feedc0ffee123456",
        "seeds": [0, 1, 2],
        "agents": [
            {"name": "alpha", "label": None, "config": {"model": "m1"}},
            {"name": "beta", "label": None, "config": None},
        ],
        "browser": "Chromium 120.0.6099.224",
        "viewports": ["1280x720"],
        "axes": ["agent", "variation", "seed"],
        "episodes_planned": 12,
    }
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    # One trajectory with a tiny screenshot per step and a first screenshot.
    shots = root / "screenshots" / EPISODE_WITH_SHOTS
    shots.mkdir(parents=True)
    for n, colour in enumerate([(240, 240, 240), (30, 30, 40), (0, 114, 178)]):
        Image.new("RGB", (16, 10), colour).save(shots / f"{n:03d}.png")
    traj = {
        "episode_id": EPISODE_WITH_SHOTS,
        "goal": "Add 'Buy oat milk' to my todo list",
        "first_screenshot": f"screenshots/{EPISODE_WITH_SHOTS}/000.png",
        "steps": [
            {
                "action": "click('47')",
                "category": "valid",
                "error": "",
                "reward": 0.0,
                "url": "http://127.0.0.1:8000/todo/",
                "screenshot": f"screenshots/{EPISODE_WITH_SHOTS}/001.png",
            },
            {
                "action": "click(bid)",
                "category": "bad_arguments",
                "error": "invalid action (bad_arguments): bid",
                "reward": 0.0,
                "url": "http://127.0.0.1:8000/todo/",
                "screenshot": None,
            },
            {
                "action": "click('47')",
                "category": "valid",
                "error": "",
                "reward": 0.0,
                "url": "http://127.0.0.1:8000/todo/?tab=done",
                "screenshot": f"screenshots/{EPISODE_WITH_SHOTS}/002.png",
            },
        ],
        "reward": 0.0,
        "explanation": "todo: the item 'Buy oat milk' is missing",
    }
    (root / "trajectories").mkdir()
    (root / "trajectories" / f"{EPISODE_WITH_SHOTS}.json").write_text(json.dumps(traj), encoding="utf-8")
    return root


@pytest.fixture()
def results_dir(tmp_path: Path) -> Path:
    return make_results_dir(tmp_path / "run")


@pytest.fixture(scope="module")
def reported(tmp_path_factory) -> tuple[Path, Path, Path]:
    """One report for the module's tests that only read it (a report takes seconds):
    (results folder, what write_report returned)."""
    results_dir = make_results_dir(tmp_path_factory.mktemp("report") / "run")
    return results_dir, *write_report(results_dir)


@pytest.fixture()
def written(reported) -> tuple[Path, str, str]:
    results_dir, md, html = reported
    return results_dir, md.read_text(encoding="utf-8"), html.read_text(encoding="utf-8")


def md_section(md: str, title: str) -> str:
    start = md.index(f"## {title}\n")
    rest = md[start + 1 :]
    end = rest.find("\n## ")
    return rest if end < 0 else rest[:end]


def md_rows(section: str) -> dict[str, list[str]]:
    """Data rows of the first table in a markdown section, keyed by the first cell."""
    rows = {}
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("| :") and not line.startswith("| ---"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows.setdefault(cells[0], cells)
    return rows


def test_files_exist(reported):
    results_dir, md, html = reported
    assert md == results_dir / "report.md" and md.stat().st_size > 0
    assert html == results_dir / "report.html" and html.stat().st_size > 0


def test_html_is_self_contained(written):
    _, _, html = written
    refs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", html, flags=re.I)
    assert refs, "expected at least the table of contents links and embedded screenshots"
    for ref in refs:
        assert ref.startswith("#") or ref.startswith("data:"), f"external or file reference: {ref[:80]}"
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, flags=re.I)
    assert "<script" not in html.lower()
    assert "<link" not in html.lower()
    assert "@import" not in html and "url(" not in html
    assert "<svg" in html  # the charts are inline SVG


def test_html_names_agents_variations_and_run(written):
    _, _, html = written
    for text in (
        "alpha",
        "beta",
        "default",
        "dark_theme",
        "todo.add_item",
        "feedc0ffee123456",
        "0123456789",
        "Chromium 120",
    ):
        assert text in html
    assert "How to read this" in html
    # The trajectory viewer: goal, actions, the invalid action's category and embedded screenshots.
    assert "Add 'Buy oat milk' to my todo list" in html or "Add &#x27;Buy oat milk&#x27; to my todo list" in html
    assert "click(bid)" in html and "bad arguments" in html
    # Each step shows the page it acted on: the first page, step 1's result, the same page again
    # (the invalid step 2 changed nothing), then the final page.
    assert html.count("data:image/jpeg;base64,") == 4
    assert "/todo/?tab=done" in html  # URLs are shown as paths
    # alpha lost seed 0 in dark_theme: the flip links to that episode's trajectory, which is shown
    assert 'href="#ep-alpha-dark-0"' in html and 'id="ep-alpha-dark-0"' in html


def test_markdown_headline_matches_metrics(written):
    results_dir, md, _ = written
    df = load_results(results_dir)
    summary = reliability_summary(df, ["agent"], version_columns(df))
    rows = md_rows(md_section(md, "Headline"))
    assert set(rows) >= {"alpha", "beta"}
    for _, r in summary.iterrows():
        cells = rows[r["agent"]]
        assert cells[1] == str(int(r["n"]))
        assert cells[2] == fmt_rate_ci(r["success_rate"], r["ci_low"], r["ci_high"])
        assert cells[3].split(" [")[0] == fmt_std(r["within_std"])  # then its interval over tasks
        assert cells[4].split(" [")[0] == fmt_std(r["across_std"])
        assert cells[5].split(" [")[0] == fmt_ratio(r["std_ratio"])
        assert cells[8] == fmt_pct(r["intent_rate"])
    # And by hand: alpha 4/6 successes; within std (0 + sqrt(2)/3) / 2 = 0.236; across sqrt(2)/3 = 0.471;
    # one of six episodes opened the calendar; 1 loop in 6 episodes; 1 invalid action in 6 episodes.
    alpha = rows["alpha"]
    assert alpha[1] == "6" and alpha[2].startswith("66.7% [")
    assert alpha[3].startswith("0.236 [") and alpha[4].startswith("0.471 [") and alpha[5].startswith("2.00× [")
    assert alpha[6] == "0.17" and alpha[7] == "0.17" and alpha[8] == "16.7%"
    assert rows["beta"][1] == "6" and rows["beta"][-1] == "1 / 0"  # the error is counted apart (infra / model)
    # no agent exception: said once under the table, not a column of zeros (issue 40 point 8)
    assert "Agent exceptions" not in rows["Agent"] and "no agent exception" in md_section(md, "Headline")
    assert rows["beta"][5].startswith("1.00× [")


def test_markdown_sections_match_metrics(written):
    results_dir, md, _ = written
    df = load_results(results_dir)
    per_var = md_section(md, "Per variation")
    sr = success_rate(df, ["agent", "variation"], ci=True)
    for _, r in sr.iterrows():
        line = f"| {r['agent']} | {r['variation']} | {int(r['n'])} | {fmt_rate_ci(r['success_rate'], r['ci_low'], r['ci_high'])} |"
        assert line in per_var
    fl = md_section(md, "Largest fluctuations across versions")
    assert "| alpha | todo.add_item | 100% (default) | 33% (dark_theme) | 67% |" in fl
    assert "| beta |" not in fl  # the same rate in both versions: not a fluctuation
    assert "1 of 2 agent x task pairs had the same success rate in every version" in fl
    beh = md_rows(md_section(md, "Loops and invalid actions by variation"))
    assert beh["alpha"][:4] == ["alpha", "default", "3", "0.00"]
    assert "| alpha | dark_theme | 3 | 0.33 | 33% | 0.00 | 0.50 | 0.33 |" in md
    assert "No axis other than the variation varied" in md
    assert (
        "## Failures: infrastructure, model service, agent exceptions" in md
        and "TargetClosedError: browser closed" in md
    )
    assert "| Spec hash | feedc0ffee123456 |" in md
    assert "skipped a truncated last line" in md


def test_varied_viewport_gets_a_breakdown(tmp_path: Path):
    extra = [record("alpha", "default", s, s == 0, viewport="480x320", episode_id=f"small-{s}") for s in range(3)]
    d = make_results_dir(tmp_path / "vp", extra)
    md, html = write_report(d)
    text = md.read_text(encoding="utf-8")
    section = md_section(text, "Breakdown by varied axis")
    assert "### Viewport" in section
    assert "| 480x320 | 33.3% [" in section and "(n=3)" in section
    # A version is now variation x viewport: said so in the note.
    assert "one combination of variation, viewport" in text
    assert "success rate per viewport" in html.read_text(encoding="utf-8")
    # The axis crossed with the variation (the paper's Table 7): one heat cell per viewport x variation.
    grid = md_section(text, "Axis × variation (Table 7, Figure 9)")
    assert "### Viewport × variation: alpha" in grid and "| 480x320 | 33% | – |" in grid


def test_load_results_skips_torn_and_damaged_lines_with_notes(results_dir: Path, tmp_path: Path):
    df = load_results(results_dir)
    assert len(df) == 13 and "torn" not in set(df["episode_id"])
    assert any("truncated" in n for n in df.attrs["notes"])
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.jsonl").write_text(
        json.dumps(record("a", "default", 0, True)) + "\n{oops\n" + json.dumps(record("a", "default", 1, True)) + "\n"
    )
    df = load_results(bad)  # the same rule as --resume: skipped with a note, never a crash
    assert len(df) == 2 and any("line 2" in n for n in df.attrs["notes"])
    with pytest.raises(FileNotFoundError):
        load_results(tmp_path / "nowhere")


def test_headline_table_for_the_terminal(results_dir: Path):
    text = headline_table(load_results(results_dir))
    lines = text.splitlines()
    assert lines[0].split()[0] == "Agent"
    alpha = next(line for line in lines if line.startswith("alpha"))
    assert "66.7% [" in alpha and "0.236" in alpha and "0.471" in alpha
    assert len({len(line) for line in lines[:2]}) == 1  # header and rule are aligned
    # every std and ratio of the headline carries its bootstrap interval over tasks
    assert re.search(r"0\.236 \[\d\.\d{3}, \d\.\d{3}\]", alpha), alpha
    assert re.search(r"0\.471 \[\d\.\d{3}, \d\.\d{3}\]", alpha), alpha


def test_minimal_folder_without_manifest_or_trajectories(tmp_path: Path):
    d = tmp_path / "min"
    d.mkdir()
    (d / "results.jsonl").write_text(
        "\n".join(json.dumps(record("solo", "default", s, s == 1)) for s in range(2)) + "\n"
    )
    md, html = write_report(d)
    text = md.read_text(encoding="utf-8")
    assert "| solo | 2 | 50.0% [" in text
    assert "No manifest.json" in text
    assert "Trajectories" not in html.read_text(encoding="utf-8")


def test_only_errors(tmp_path: Path):
    d = tmp_path / "err"
    d.mkdir()
    (d / "results.jsonl").write_text(json.dumps(record("solo", "default", 0, False, error="crash")) + "\n")
    md, _ = write_report(d)
    assert "No scored episodes" in md.read_text(encoding="utf-8")
    assert "no scored episodes" in headline_table(load_results(d))


@pytest.mark.browser
def test_html_renders_offline_in_chromium(written, tmp_path: Path):
    from openapps_sim.envs.browser import launch_browser

    results_dir, _, _ = written
    browser = launch_browser()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto((results_dir / "report.html").resolve().as_uri())
        assert page.title().startswith("Reliability report")
        assert page.locator("svg.chart").count() >= 4
        assert page.locator("#trajectories > details").count() == 1  # (plus the "why this reward" inside)
        page.locator("#trajectories > details > summary").first.click()
        assert page.locator("#trajectories img").count() == 4
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        external = [u for u in requests if not (u.startswith("file:") or u.startswith("data:"))]
        assert external == []
    finally:
        browser.close()


def test_loop_threshold_is_a_report_option(results_dir: Path):
    from openapps_sim.errors import ConfigError

    with pytest.raises(ConfigError, match="--loop-repeats: must be at least 2, got 1"):
        write_report(results_dir, min_repeats=1)
    md, _ = write_report(results_dir, min_repeats=5, paper=True)
    # click('47') x4 is a loop at the paper's 2 repeats (the default), not at 5
    assert "| alpha | dark_theme | 3 | 0.00 |" in md.read_text(encoding="utf-8")
    assert "blocks repeated at least 5 times" in (results_dir / "paper.md").read_text(encoding="utf-8")
