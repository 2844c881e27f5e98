"""Results grouped by app category (docs/metrics.md, "By app category"): a hand-made results
folder in, success and the deviation within and across versions per agent and app category out
(``openapps report --by app_category`` and the report's section), and the export's
``app_category`` column. Every expected number is worked out by hand in the comments."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from openapps_sim.analysis.export import COLUMNS, export_dataset
from openapps_sim.analysis.metrics.appcategories import app_category, by_app_category
from openapps_sim.analysis.report.load import load_results
from openapps_sim.cli.main import main

from .test_report import record

# task -> (task_apps, rewards under default for seeds 0 and 1, rewards under dark_theme)
EPISODES = {
    "banking.transfer": (["banking"], (1, 1), (1, 0)),
    "todo.add_item": (["todo"], (1, 0), (1, 0)),
    "calendar.add_event": (["calendar"], (1, 1), (1, 1)),
    "multi.pay_and_plan": (["banking", "calendar"], (0, 0), (0, 0)),
    "gone.lookup_thing": (["gone"], (1, 1), (1, 1)),
}


def _results(root: Path) -> Path:
    recs = []
    for task, (apps, default, dark) in EPISODES.items():
        for variation, rewards in (("default", default), ("dark_theme", dark)):
            for seed, reward in enumerate(rewards):
                rec = record("alpha", variation, seed, bool(reward), task=task, task_apps=apps)
                rec["episode_id"] = f"{task}-{variation}-{seed}"
                recs.append(rec)
    root.mkdir(parents=True)
    (root / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return root


def test_an_episode_is_in_the_category_of_its_apps():
    cats = {"start": "", "todo": "Productivity", "banking": "Finance", "calendar": "Productivity"}
    assert app_category(["banking"], "banking.transfer", cats) == "Finance"
    assert app_category(["calendar", "banking", "todo"], "multi.x", cats) == "Finance + Productivity"
    assert app_category(None, "todo.add_item", cats) == "Productivity"  # the task id's app
    assert app_category(["start"], "start.open_app", cats) == "(start page)"
    assert app_category(["start", "todo"], "start.open_todo", cats) == "Productivity"
    assert app_category(["gone"], "gone.lookup_thing", cats) == "(unknown)"


def test_success_and_deviations_per_app_category(tmp_path):
    frame = by_app_category(load_results(_results(tmp_path / "r")), n_boot=50)
    got = {
        r["app_category"]: (
            r["n"],
            r["success_rate"],
            r["within_std"],
            r["across_std"],
            r["within_mad"],
            r["across_mad"],
        )
        for _, r in frame.iterrows()
    }
    assert list(got) == ["(unknown)", "Finance", "Finance + Productivity", "Productivity"]
    # Finance: default {1, 1} (std 0, MAD 0), dark {1, 0} (std 0.5, MAD 0.5): within 0.25 and 0.25;
    # pooled {1, 1, 1, 0}: mean 0.75, std sqrt(0.1875) = 0.4330127, MAD (3 * 0.25 + 0.75) / 4 = 0.375
    assert got["Finance"] == pytest.approx((4, 0.75, 0.25, 0.4330127, 0.25, 0.375))
    # Productivity: todo {1, 0} in both versions (within 0.5, across 0.5), calendar all 1 (0, 0);
    # averaged over its two tasks: 0.25 each; 6 of 8 episodes solved
    assert got["Productivity"] == pytest.approx((8, 0.75, 0.25, 0.25, 0.25, 0.25))
    assert got["Finance + Productivity"] == pytest.approx((4, 0.0, 0.0, 0.0, 0.0, 0.0))
    assert got["(unknown)"] == pytest.approx((4, 1.0, 0.0, 0.0, 0.0, 0.0))


def test_openapps_report_by_app_category(tmp_path, capsys):
    folder = _results(tmp_path / "r")
    assert main(["report", str(folder), "--by", "app_category"]) == 0
    out = capsys.readouterr().out
    table = out.split("By app category:\n")[1].split("\n\nreport:")[0].splitlines()
    assert table[0].split() == [
        *("Agent", "App", "category", "Episodes", "Success", "[95%", "CI]", "Within", "std", "Across", "std"),
        *("Across/within", "std", "Within", "MAD", "Across", "MAD"),
    ]
    finance = next(line for line in table if " Finance " in line)
    assert finance.split()[:3] == ["alpha", "Finance", "4"] and "75.0%" in finance
    assert finance.split()[-5:] == ["0.250", "0.433", "1.73×", "0.250", "0.375"]
    report = (folder / "report.md").read_text(encoding="utf-8")
    assert "## By app category" in report and "| alpha | Finance + Productivity | 4 | 0.0%" in report


def test_the_export_has_an_app_category_column(tmp_path):
    folder = _results(tmp_path / "r")
    traj = {"steps": [{"action": "click('8')", "category": "valid", "reward": 1.0}]}
    (folder / "trajectories").mkdir()
    for task in EPISODES:
        for variation in ("default", "dark_theme"):
            for seed in (0, 1):
                (folder / "trajectories" / f"{task}-{variation}-{seed}.json").write_text(json.dumps(traj))
    export_dataset([folder], tmp_path / "ds", images="none")
    df = pd.read_parquet(tmp_path / "ds" / "data" / "train-00000.parquet")
    assert list(COLUMNS).index("app_category") == list(COLUMNS).index("task_apps") + 1
    got = dict(zip(df["task"], df["app_category"], strict=True))
    assert got == {
        "banking.transfer": "Finance",
        "todo.add_item": "Productivity",
        "calendar.add_event": "Productivity",
        "multi.pay_and_plan": "Finance + Productivity",
        "gone.lookup_thing": "(unknown)",
    }
