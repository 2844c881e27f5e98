"""The report reads at a glance (issue 40, point 8): the headline fits a 1280-px screen (quiet
columns said once under it, intervals under their values), Figure 4's rates say next to the
number what they are over all tasks where it leaves unsolved tasks out, the manifest names the
backend (no browser for a browser-free run), and ``openapps report DIR --summary`` writes a
short report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openapps_sim.analysis.report.write import write_report
from openapps_sim.cli.main import main

from .test_report import make_results_dir, md_rows, md_section, record


def never_solved(agent: str = "alpha") -> list[dict]:
    """A second task ``agent`` fails in every version and seed."""
    return [
        record(agent, var, s, False, task="todo.toggle_item", episode_id=f"{agent}-toggle-{var}-{s}")
        for var in ("default", "dark_theme")
        for s in range(3)
    ]


def test_figure4_says_next_to_each_number_what_it_is_over_all_tasks(tmp_path: Path):
    md = write_report(make_results_dir(tmp_path / "run", never_solved()))[0].read_text(encoding="utf-8")
    fig4 = md_rows(md_section(md, "Success per app version (Figure 4)"))
    assert fig4["alpha"] == ["alpha", "100.0% (50.0% of all 2)", "33.3% (16.7% of all 2)", "1 of 2"]
    assert fig4["beta"] == ["beta", "66.7%", "66.7%", "1 of 1"]
    headline = md_section(md, "Headline")
    assert (
        "- alpha: average task success over all 2 tasks ranges from 16.7% (dark_theme) to 50.0% (default) "
        "across 2 versions; Figure 4 leaves out the 1 task(s) it never solved and reads 33.3% to 100.0%."
    ) in headline
    assert "- beta: average task success is 66.7% in each of its 2 versions." in headline


def test_the_headline_says_a_quiet_column_once_instead(tmp_path: Path):
    md = write_report(make_results_dir(tmp_path / "run"))[0].read_text(encoding="utf-8")
    headline = md_section(md, "Headline")
    header = next(line for line in headline.splitlines() if line.startswith("| Agent"))
    assert "Tokens (USD)" not in header and "Agent exceptions" not in header
    assert "Not scored (infra / model)" in header  # beta has an infrastructure error: a real column
    assert (
        "The same for every agent, so not a column: no tokens recorded (no agent called a model); no agent exception."
    ) in headline


@pytest.mark.browser
def test_the_headline_fits_a_1280px_screen_with_every_column(tmp_path: Path, browser):
    # the test session's browser: a Playwright of its own would meet the one an earlier browser
    # test of this process left on this thread
    tokens = {"prompt_tokens": 1_234_567, "completion_tokens": 8_765, "total_tokens": 1_243_332}
    crashed = record("beta", "default", 7, False, agent_error="RuntimeError: boom", tokens=tokens)
    run = make_results_dir(tmp_path / "run", [crashed])
    lines = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()[:-1]]
    with (run / "results.jsonl").open("w") as out:  # every agent called a model: a token column
        for rec in lines:
            out.write(json.dumps({**rec, "tokens": tokens, "cost_usd": 12.34}) + "\n")
    html = write_report(run)[1]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(html.as_uri())
        header = page.eval_on_selector_all("#headline table th", "ths => ths.map(t => t.textContent)")
        box = page.eval_on_selector("#headline .scroll", "d => [d.scrollWidth, d.clientWidth]")
        wide = page.evaluate("document.documentElement.scrollWidth")
    finally:
        context.close()
    assert len(header) == 13 and "Tokens (USD)" in header and "Agent exceptions" in header, header
    assert box[0] <= box[1] and wide <= 1280, (box, wide)  # nothing to scroll to


def test_the_manifest_names_the_backend(tmp_path: Path):
    text_run = make_results_dir(tmp_path / "text", [])
    lines = [json.loads(line) for line in (text_run / "results.jsonl").read_text().splitlines()[:-1]]
    (text_run / "results.jsonl").write_text("".join(json.dumps({**r, "backend": "text"}) + "\n" for r in lines))
    rows = md_rows(md_section(write_report(text_run)[0].read_text(encoding="utf-8"), "Run manifest"))
    assert rows["Backend"] == ["Backend", "text (no browser: the same accessibility tree, no screenshots)"]
    assert "Browser" not in rows  # the manifest names Chromium, but no episode had a browser

    browser_run = make_results_dir(tmp_path / "chromium", [])
    rows = md_rows(md_section(write_report(browser_run)[0].read_text(encoding="utf-8"), "Run manifest"))
    assert rows["Backend"] == ["Backend", "chromium (a real browser)"]
    assert rows["Browser"] == ["Browser", "Chromium 120.0.6099.224"]


def test_a_text_sweeps_manifest_names_no_browser():
    from openapps_sim.sweeps.spec import load_spec
    from openapps_sim.sweeps.sweep import manifest_for

    manifest = manifest_for(load_spec("demo"), 1, "local")
    assert (manifest["backends"], manifest["browser"], manifest["browser_binary"]) == (["text"], None, None)


def test_summary_mode_writes_a_short_report(tmp_path: Path, capsys):
    run = make_results_dir(tmp_path / "run", never_solved())
    assert main(["report", str(run), "--summary"]) == 0
    assert "summary.md" in capsys.readouterr().out
    md = (run / "summary.md").read_text(encoding="utf-8")
    titles = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    assert titles[0] == "How to read this" and titles[1] == "Headline", titles
    assert "Run manifest" in titles and "Success per app version (Figure 4)" not in titles, titles
    assert "Trajectories" not in titles and "Per task in the default version (Table 4)" not in titles, titles
    assert f"`openapps report {run}` writes the full report" in md
    assert (run / "summary.html").is_file() and not (run / "report.md").exists()
