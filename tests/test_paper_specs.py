"""The shipped specs of the OpenApps paper's remaining experiments (issue 25, point 7): Table 7
(resolution x appearance), Fig. 9 (temperature), Table 8 (versions combined across apps) and
Table 10 (popular fonts, palettes and languages). Each loads with the paper's conditions and a
slice of each runs on the text backend (the temperature spec against a real HTTP server on
127.0.0.1 that speaks both model APIs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from openapps_sim.config.packs import list_packs
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep
from tests.fake_llm_server import FakeLLMServer

CONFIGS = Path(__file__).resolve().parents[1] / "agents" / "configs"


def test_table_7_is_resolution_by_appearance_with_the_content_fixed():
    spec = load_spec("resolution")
    assert spec.variations == ["default", "black_and_white", "challenging_font", "dark_theme"]
    assert spec.viewports == ["1920x1080", "1280x720", "480x320"]
    assert spec.tasks == load_spec("paper").tasks, "the paper's fifteen families"


def test_fig_9_sweeps_the_temperature_of_two_llm_agents_from_their_configs():
    spec = load_spec("temperature")
    assert [a.get("config") for a in spec.agents] == ["claude-sonnet", "kimi-vl-a3b"]
    assert spec.temperatures == [0.0, 0.25, 0.5, 0.75, 1.0] and len(spec.tasks) == 3
    temps = {dict(e.agent_options)["temperature"] for e in spec.episodes()}
    assert temps == set(spec.temperatures) and "temperature" in spec.axes()


def test_table_8_mixes_versions_across_apps():
    spec = load_spec("mixed_versions")
    assert {"default", "dark_theme", "german"} < set(spec.variations)
    assert {"mix_dark_default", "mix_english_german", "mix_dark_german"} < set(spec.variations)
    assert len(spec.tasks) * len(spec.seeds) == 12, "the paper's twelve tasks"


def test_table_10_has_popular_fonts_palettes_and_languages():
    spec = load_spec("popular")
    assert spec.tasks == ["todo.add_item"] and len(spec.seeds) == 3
    assert {"font_inter", "font_roboto", "font_open_sans", "french", "german", "spanish"} < set(spec.variations)
    assert sum(v.startswith("palette_colorhunt_") for v in spec.variations) == 3
    assert set(spec.variations) <= set(list_packs())


@pytest.mark.parametrize("name", ["resolution", "mixed_versions", "popular"])
def test_a_slice_runs_with_the_oracle_on_the_text_backend(tmp_path, name):
    spec = load_spec(name, {"agents": ["oracle"], "seeds": [0], "backends": ["text"]})
    out = tmp_path / name
    limit = 8 if name == "resolution" else None
    summary = run_sweep(spec, out, workers=1, progress=False, limit=limit)
    records = read_results(out / "results.jsonl")
    assert summary["errors"] == 0 and records and all(r["success"] for r in records), name
    if name != "resolution":
        assert {r["variation"] for r in records} == set(spec.variations)


def _fake_config(tmp_path: Path, name: str, server: FakeLLMServer) -> str:
    """The shipped config with only where it connects changed (and the tree alone: the text
    backend draws no pixels)."""
    cfg = yaml.safe_load((CONFIGS / f"{name}.yaml").read_text())
    base = server.url + ("/v1" if cfg["agent"] == "openai" else "")
    cfg.update(base_url=base, obs_mode="axtree", retries=0)
    cfg.update(api_key_env="FAKE_MODEL_KEY", require_api_key=False)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path)


def test_the_temperature_slice_reaches_the_model_at_each_temperature(tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_MODEL_KEY", "not-a-secret")
    shipped = load_spec("temperature")
    with FakeLLMServer() as server:
        agents = [{"name": a["name"], "config": _fake_config(tmp_path, a["config"], server)} for a in shipped.agents]
        spec = load_spec(
            "temperature", {"agents": agents, "tasks": ["todo.add_item"], "seeds": [0], "backends": ["text"]}
        )
        out = tmp_path / "out"
        summary = run_sweep(spec, out, workers=1, progress=False)
        sent = sorted({(r["path"], r["body"].get("temperature")) for r in server.requests})
    records = read_results(out / "results.jsonl")
    assert summary["errors"] == 0 and len(records) == 2 * 5
    assert sorted((r["agent"], r["temperature"]) for r in records) == sorted(
        (a["name"], t) for a in agents for t in shipped.temperatures
    )
    assert len({p for p, _ in sent}) == 2, "both APIs: Anthropic messages and OpenAI chat completions"
    for path in {p for p, _ in sent}:
        assert {t for p, t in sent if p == path} == set(shipped.temperatures), (path, json.dumps(sent))
