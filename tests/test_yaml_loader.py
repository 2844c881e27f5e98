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
