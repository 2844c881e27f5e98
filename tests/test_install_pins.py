"""The versions `make test` installs by name (Makefile, dev/agentlab-test-requirements.txt) are
the ones pyproject.toml's extras declare: the fast install and `pip install ".[agentlab-study]"`
cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent


def _extras() -> dict[str, list[str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def _spec(requirements: list[str], name: str) -> str:
    """The version part of ``name``'s requirement (extras like ``[default]`` dropped)."""
    found = [r for r in requirements if re.match(rf"{re.escape(name)}(\[[^\]]*\])?\s*[=<>~!]", r)]
    assert len(found) == 1, f"{name}: expected one requirement, found {found}"
    return re.sub(rf"^{re.escape(name)}(\[[^\]]*\])?\s*", "", found[0]).strip()


def _quoted_makefile_requirements() -> list[str]:
    text = (ROOT / "Makefile").read_text()
    return re.findall(r'"([A-Za-z0-9_.-]+(?:\[[^\]]*\])?[=<>~!][^"]*)"', text) + re.findall(
        r"\s([A-Za-z0-9_.-]+==[0-9][^\s\\]*)", text
    )


def test_the_makefiles_named_installs_match_the_extras():
    extras, make = _extras(), _quoted_makefile_requirements()
    assert _spec(make, "ray") == _spec(extras["ray"], "ray") == _spec(extras["agentlab-study"], "ray")
    assert _spec(make, "agentlab") == _spec(extras["agentlab-study"], "agentlab")


def test_the_agentlab_test_requirements_match_the_extras():
    lines = (ROOT / "dev" / "agentlab-test-requirements.txt").read_text().splitlines()
    reqs = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    extras = _extras()
    assert _spec(reqs, "litellm") == _spec(extras["agentlab-study"], "litellm")
    assert _spec(reqs, "ray") == _spec(extras["ray"], "ray")


def test_the_openenv_test_install_matches_the_extra():
    """`make test` installs openenv-core --no-deps at the `openenv` extra's range, and its
    dependencies from dev/openenv-test-requirements.txt: the project's own MCP bound, no openai
    (AgentLab's openai<2 shares the .venv)."""
    extras, make = _extras(), _quoted_makefile_requirements()
    assert _spec(make, "openenv-core") == _spec(extras["openenv"], "openenv-core")
    lines = (ROOT / "dev" / "openenv-test-requirements.txt").read_text().splitlines()
    reqs = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert _spec(reqs, "mcp") == _spec(deps, "mcp")
    assert not [r for r in reqs if re.match(r"openai\b", r)], reqs
