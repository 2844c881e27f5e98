"""Training data export: a real sweep in, Parquet out, loaded by pandas and by Hugging Face
``datasets`` with one row per recorded step."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from openapps_sim.analysis.export import COLUMNS, export_dataset, parse_splits, split_of
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep

from .sweep_helpers import write_spec


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("export")
    tasks, variations = ["todo.add_item", "todo.remove_item"], ["default", "dark_theme+german"]
    spec = write_spec(tmp, name="export", tasks=tasks, variations=variations, record_screenshots=True)
    out = tmp / "run"
    run_sweep(load_spec(spec), out, workers=1, progress=False)
    return out


@pytest.mark.browser
def test_export_round_trip(sweep_dir: Path, tmp_path: Path):
    records = read_results(sweep_dir / "results.jsonl")
    steps = sum(r["steps"] for r in records)
    assert len(records) == 4 and steps > 0
    summary = export_dataset([sweep_dir], tmp_path / "ds", splits=parse_splits(["test=german"]))
    assert summary["rows"] == {
        "test": sum(r["steps"] for r in records if "german" in r["variation"]),
        "train": sum(r["steps"] for r in records if "german" not in r["variation"]),
    }
    train = pd.read_parquet(tmp_path / "ds" / "data" / "train-00000.parquet")
    assert list(train.columns) == list(COLUMNS)
    assert set(train["variation"]) == {"default"} and train["done"].sum() == 2
    # every step points to the screenshot of the page the action was taken on, copied into the dataset
    assert train["screenshot"].notna().all()
    assert all((tmp_path / "ds" / p).is_file() for p in train["screenshot"])
    first = train[train["step"] == 0].iloc[0]
    assert first["goal"] and first["action"] and first["episode_success"]
    card = (tmp_path / "ds" / "README.md").read_text()
    assert "split: test" in card and "| test | 2 |" in card

    datasets = pytest.importorskip("datasets")
    ds = datasets.load_dataset(
        "parquet",
        data_files={s: str(tmp_path / "ds" / "data" / f"{s}-*.parquet") for s in ("train", "test")},
        cache_dir=str(tmp_path / "hf-cache"),
    )
    assert ds["train"].num_rows + ds["test"].num_rows == steps
    assert ds["test"][0]["packs"] == ["dark_theme", "german"]


@pytest.mark.browser
def test_export_with_image_bytes_and_the_command_line(sweep_dir: Path, tmp_path: Path):
    out = tmp_path / "bytes"
    done = subprocess.run(
        [sys.executable, "-m", "openapps_sim.cli", "export", str(sweep_dir), "--out", str(out), "--images", "bytes"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "train: 4 episodes" in done.stdout
    df = pd.read_parquet(out / "data" / "train-00000.parquet")
    assert df["screenshot"].map(lambda b: bytes(b[:8]) == b"\x89PNG\r\n\x1a\n").all()
    assert not (out / "screenshots").exists()


def test_splits_match_the_expression_or_any_pack():
    rules = parse_splits(["test=german,random-*", "val=dark_theme+large_text"])
    assert split_of("dark_theme+german", rules, "train") == "test"
    assert split_of("random-3", rules, "train") == "test"
    assert split_of("dark_theme+large_text", rules, "train") == "val"
    assert split_of("dark_theme", rules, "train") == "train"


@pytest.mark.parametrize("bad", ["test", "=german", "test=", "te st=german"])
def test_bad_split_rules_are_one_clear_error(bad):
    with pytest.raises(ConfigError, match="--split"):
        parse_splits([bad])


def test_export_refuses_folders_without_results_and_non_empty_outputs(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="results.jsonl: not found"):
        export_dataset([tmp_path / "empty"], tmp_path / "ds")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "results.jsonl").write_text(json.dumps({"episode_id": "e", "error": "boom"}) + "\n")
    with pytest.raises(ConfigError, match="not empty"):
        export_dataset([tmp_path / "run"], tmp_path / "full")
    with pytest.raises(ConfigError, match="no step to export"):
        export_dataset([tmp_path / "run"], tmp_path / "ds2")
