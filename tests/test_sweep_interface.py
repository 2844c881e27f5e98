"""The sweep axis ``interface`` (gui | api | mixed): one spec runs the same tasks through the
pages and through the apps' own tools, every record says which, and the report breaks results
down by it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from openapps_sim.config.world import WorldSpec
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.spec import load_spec
from openapps_sim.sweeps.store import read_results
from openapps_sim.sweeps.sweep import run_sweep


def write_spec(tmp_path: Path, **data) -> Path:
    base = {"name": "t", "agents": ["oracle"], "tasks": ["todo.add_item"], "variations": ["default"], "seeds": 1}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(base | data))
    return path


@pytest.mark.parametrize(
    "bad, needle",
    [
        ({"interface": "voice"}, "interface: unknown interface 'voice'; allowed: gui, api, mixed"),
        ({"interface": []}, "interface: the list is empty"),
        ({"interface": ["gui", "api"], "agents": ["random"]}, "agent 'random' cannot act through 'api'; allowed: gui"),
    ],
)
def test_bad_interfaces_name_the_file_and_key(tmp_path, bad, needle):
    with pytest.raises(ConfigError) as err:
        load_spec(write_spec(tmp_path, **bad))
    assert "spec.yaml" in str(err.value) and needle in str(err.value)


def test_interface_is_an_axis_and_keeps_old_episode_ids(tmp_path):
    gui_only = load_spec(write_spec(tmp_path))
    both = load_spec(write_spec(tmp_path, interface=["gui", "api", "mixed"]))
    assert "interface" in both.axes() and "interface" not in gui_only.axes()
    assert len(both.episodes()) == 3
    # a gui episode keeps the id it had before the axis existed (old results still resume)
    assert gui_only.episodes()[0].episode_id in {e.episode_id for e in both.episodes()}
    assert len({e.episode_id for e in both.episodes()}) == 3


def test_gui_and_api_oracle_solve_the_same_tasks_and_the_report_splits_them(tmp_path):
    """On the text backend (the GUI's pages without a browser; parity: test_text_parity)."""
    from openapps_sim.analysis.metrics.axes import varied_axes
    from openapps_sim.analysis.report.load import load_results

    spec = load_spec(
        write_spec(
            tmp_path,
            tasks=["todo.add_item", "shop.checkout", "calendar.event_time", "start.navigate_to_app"],
            interface=["gui", "api"],
            backends=["text"],
        )
    )
    out = tmp_path / "out"
    run_sweep(spec, out, workers=1, progress=False)
    records = {(r["task"], r["interface"]): r for r in read_results(out / "results.jsonl")}
    assert len(records) == 8 and all(r["error"] is None for r in records.values())
    for task in ("todo.add_item", "shop.checkout", "calendar.event_time"):
        gui, api = records[(task, "gui")], records[(task, "api")]
        assert gui["success"] and api["success"], (gui["state_diff"], api["state_diff"])
        # through the app tools only: no page was opened and the same app events were logged
        assert all("(" in a and "." in a.split("(")[0] for a in api["actions"] if not a.startswith("send_msg"))
        assert [(o["app"], o["op"]) for o in gui["ops"]] == [(o["app"], o["op"]) for o in api["ops"]]
    # navigation needs the pages: the oracle says so under api, and that episode fails
    nav = records[("start.navigate_to_app", "api")]
    assert not nav["success"] and nav["actions"][0].startswith("report_infeasible(")
    df = load_results(out)
    assert "interface" in varied_axes(df)


def test_records_from_before_the_interface_axis_read_as_gui(tmp_path):
    """A sweep resumed across versions mixes records without ``interface`` (written before the
    axis) with ``gui`` ones: they are one version, not two (the report counted 22 versions of
    11 packs on the oracle's interruption matrix)."""
    import json

    from openapps_sim.analysis.metrics.axes import varied_axes
    from openapps_sim.analysis.report.load import load_results
    from openapps_sim.sweeps.record import EpisodeSpec, new_record

    lines = []
    for seed in range(4):
        record = new_record(EpisodeSpec(agent="oracle", task="todo.add_item", world=WorldSpec(seed=seed)), "r", 1)
        record.update(reward=1.0, success=True, task_apps=["todo"])
        if seed % 2:
            del record["interface"]  # as written before the axis existed
        lines.append(json.dumps(record))
    (tmp_path / "results.jsonl").write_text("\n".join(lines) + "\n")
    assert {r["interface"] for r in read_results(tmp_path / "results.jsonl")} == {"gui"}
    assert "interface" not in varied_axes(load_results(tmp_path))
