"""Packs, phrasings, content and specs are read with libyaml's parser where PyYAML has it; it
must read every YAML file of the tree exactly as PyYAML's own parser does."""

from __future__ import annotations

import yaml

from openapps_sim.config.packs import read_yaml

from .test_layers import ROOT


def test_every_yaml_file_reads_as_pyyamls_own_parser_reads_it():
    folders = ("variations", "tasks", "experiments", "agents", "apps")
    files = [p for folder in folders for p in sorted((ROOT / folder).rglob("*.y*ml"))]
    assert len(files) > 100
    for path in files:
        assert read_yaml(path) == yaml.safe_load(path.read_text(encoding="utf-8")), path


def test_aliases_are_allowed_up_to_the_bound_and_counted_as_written_out():
    import pytest

    from openapps_sim.config.yamlfile import load_yaml
    from openapps_sim.errors import ConfigError

    assert load_yaml("a: &s x\nb: [*s, *s]\nc: &m {k: 1}\nd: {<<: *m, j: 2}", "t.yaml") == {
        "a": "x",
        "b": ["x", "x"],
        "c": {"k": 1},
        "d": {"k": 1, "j": 2},
    }
    fine = "a: &s x\nb: [" + ",".join(["*s"] * 10_000) + "]"
    assert len(load_yaml(fine, "t.yaml")["b"]) == 10_000
    with pytest.raises(ConfigError, match=r"^t.yaml: refused: its aliases repeat 10001 nodes; allowed: UTF-8"):
        load_yaml(fine[:-1] + ",*s]", "t.yaml")  # one alias more
