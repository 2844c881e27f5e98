"""What the judge's tests share: an agent config file pointing at a FakeLLMServer, and a refused
``openapps judge``."""

from __future__ import annotations

from pathlib import Path

from openapps_sim.cli.main import main

from .fake_llm_server import FakeLLMServer


def agent_config(folder: Path, server: FakeLLMServer, api: str = "openai", model: str = "judge-model") -> Path:
    """An agent config file (``--agent-config``) in ``folder`` for the ``api`` agent on ``server``,
    with no API key, no retries and no backoff."""
    base = f"{server.url}/v1" if api == "openai" else server.url
    path = folder / f"{api}-{model}.yaml"
    path.write_text(
        f"agent: {api}\nmodel: {model}\nbase_url: {base}\nrequire_api_key: false\nretries: 0\nbackoff: 0\n",
        encoding="utf-8",
    )
    return path


def judge_error(args: list[str], capsys) -> str:
    """The one-sentence error of ``openapps judge ARGS``, which must exit with 2 and no traceback."""
    code = main(["judge", *args])
    _, err = capsys.readouterr()
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err
