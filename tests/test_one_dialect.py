"""One way to declare and check options (issue 39, point 4): a sweep spec's keys, an agent's
options, a world spec's keys and a pack's fields are all fields of the schema language
(openapps_sim.config.schema), so a rule written once (a finite number, a seed, a choice) holds
for every input, and every problem of an input is reported at once."""

from __future__ import annotations

import pytest
from openapps_sim.agents.config import make_agent

from openapps_sim.agent import load_agent_class, registered_agents
from openapps_sim.config.schema import Field, Float, Record
from openapps_sim.errors import ConfigError
from openapps_sim.sweeps.spec import load_spec


def test_every_input_is_declared_in_the_schema_language():
    from openapps_sim.config.world import world_record
    from openapps_sim.sweeps.spec import spec_record

    assert isinstance(spec_record(), Record) and isinstance(world_record(None), Record)
    for name in registered_agents():
        options = getattr(load_agent_class(name), "OPTIONS", {})
        assert all(isinstance(field, Field) for field in options.values()), name


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")], ids=repr)
def test_a_number_is_finite_in_a_pack_and_in_an_agent_option_alike(value):
    with pytest.raises(ConfigError, match="theme.size: expected a number, got"):
        Float().check(value, "p.yaml", "theme.size")
    with pytest.raises(ConfigError, match="cfg.yaml: temperature: expected a number, got"):
        make_agent("openai", {"model": "m", "require_api_key": False, "temperature": value}, "cfg.yaml")


def test_a_sample_entry_reports_each_of_its_problems_by_key(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("agents: [oracle]\ntasks: [todo.add_item]\nvariations: [{sample: {n: 0, seed: '3', m: 1}}]\n")
    with pytest.raises(ConfigError) as err:
        load_spec(spec)
    lines = str(err.value).splitlines()
    assert any("variations[0].sample.n: expected a whole number from 1 to 10000, got 0" in x for x in lines), lines
    assert any("variations[0].sample.seed: expected a whole number, got '3'" in x for x in lines), lines
    assert any("variations[0].sample.m: unknown key; allowed: n, seed" in x for x in lines), lines


def test_a_spec_axis_takes_one_value_or_a_list_each_value_once(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "agents: [oracle]\ntasks: [todo.add_item]\nbackends: text\ntemperatures: [0.5, 0.5, 1]\n"
        "viewports: [1280x720, 1280x720]\nlanguages: [en, en]\n"
    )
    loaded = load_spec(spec)
    assert loaded.backends == ["text"] and loaded.temperatures == [0.5, 1]
    assert loaded.viewports == ["1280x720"] and loaded.languages == ["en"]
