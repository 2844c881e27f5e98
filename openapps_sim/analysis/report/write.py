"""Writing ``report.md`` and ``report.html`` for a results folder."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from openapps_sim.analysis.report.analysis import analyse
from openapps_sim.analysis.report.build import build, paper_only, summary
from openapps_sim.analysis.report.load import load_manifest, load_results
from openapps_sim.errors import ConfigError


def write_report(
    results_dir: Path | str,
    *,
    axes: Iterable[str] | None = None,
    top: int = 15,
    max_trajectories: int = 40,
    screenshot_width: int = 960,
    screenshot_budget_bytes: int = 16_000_000,
    n_boot: int = 2000,
    seed: int = 0,
    min_repeats: int = 2,
    paper: bool = False,
    summary_only: bool = False,
) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` into ``results_dir``; return their paths.

    ``axes`` names extra swept columns to break down by (the manifest's ``axes`` are added).
    At most ``max_trajectories`` episodes appear in the trajectory viewer, with screenshots
    downscaled to ``screenshot_width`` pixels and embedded until ``screenshot_budget_bytes``.
    Loops are blocks repeated at least ``min_repeats`` times (2, as the OpenApps paper counts).
    With ``paper`` the paper's views are also written alone to ``paper.md``. With
    ``summary_only`` only ``summary.md`` and ``summary.html`` are written (the headline,
    robustness, per variation, where it breaks, failures, manifest), and their paths returned.
    """
    results_dir = Path(results_dir)
    df = load_results(results_dir)
    manifest = load_manifest(results_dir)
    if min_repeats < 2:
        raise ConfigError("openapps report", "--loop-repeats", f"must be at least 2, got {min_repeats}", "2, 3, ...")
    a = analyse(df, manifest, axes, n_boot=n_boot, seed=seed, min_repeats=min_repeats)
    if summary_only:
        short = summary(a, str(results_dir))
        md_path, html_path = results_dir / "summary.md", results_dir / "summary.html"
        md_path.write_text(short.markdown(), encoding="utf-8")
        html_path.write_text(short.html(), encoding="utf-8")
        return md_path, html_path
    md_path = results_dir / "report.md"
    html_path = results_dir / "report.html"
    md_path.write_text(build(a, None, top).markdown(), encoding="utf-8")
    full = build(a, results_dir, top, max_trajectories, screenshot_width, screenshot_budget_bytes)
    html_path.write_text(full.html(), encoding="utf-8")
    if paper:
        (results_dir / "paper.md").write_text(paper_only(a).markdown(), encoding="utf-8")
    return md_path, html_path
