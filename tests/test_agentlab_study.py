"""A real AgentLab ``Study`` over openapps tasks (docs/agents.md, "AgentLab").

``make test`` installs AgentLab (the ``agentlab-study`` extra, pinned), so these run on every CI
run; where AgentLab or Ray is missing they fail saying why, never skip (on 97af659 they skipped
everywhere, so nothing checked that joblib and Ray studies work). AgentLab's own
``GenericAgent`` talks to the fake OpenAI-compatible server on 127.0.0.1
(tests/fake_llm_server.py) through the ``openai`` SDK's ``OPENAI_BASE_URL``, which the joblib and
Ray workers inherit from this process.
"""

from __future__ import annotations

import importlib

import pytest

from tests.fake_llm_server import FakeLLMServer

INSTALL = 'pip install -e ".[agentlab-study]" (make test does it)'


def _require_agentlab() -> None:
    """Fails (never skips) the test when what the study needs is not installed."""
    for module in ("agentlab", "ray"):
        try:
            importlib.import_module(module)
        except ImportError as e:
            pytest.fail(f"{module} is not installed ({e}); the AgentLab study test needs it: {INSTALL}", pytrace=False)


TASKS = ["todo.add_item", "start.navigate_to_app"]
REPLY = "<think>I look at the page first.</think>\n<action>noop()</action>"


def _offline_nltk() -> None:
    """``browsergym.webarena`` (imported by AgentLab's ``study`` module) calls
    ``nltk.download("punkt_tab")`` at import, which fetches NLTK's index from the internet even
    when the data is present; this machine is offline, and no openapps code uses NLTK."""
    import nltk

    nltk.download = lambda *args, **kwargs: True


def _agent_args():
    from agentlab.agents.generic_agent import GenericAgentArgs
    from agentlab.agents.generic_agent.agent_configs import FLAGS_GPT_4o
    from agentlab.llm.chat_api import OpenAIModelArgs

    flags = FLAGS_GPT_4o.copy()
    flags.obs.use_screenshot = False
    flags.max_prompt_tokens = None  # no token limit, so no tiktoken (it downloads its encodings)
    model = OpenAIModelArgs(model_name="gpt-4o-mini", max_total_tokens=None, max_input_tokens=None, max_new_tokens=200)
    return GenericAgentArgs(chat_model_args=model, flags=flags)


def test_the_study_keeps_the_openapps_env_args(tmp_path):
    """AgentLab 0.4's ``Study`` rebuilt every env args that is not its own ``EnvArgs`` as a plain
    one, losing the class whose unpickling imports ``openapps_sim`` in a worker."""
    _require_agentlab()
    _offline_nltk()
    from agentlab.experiments.study import Study

    from openapps_sim.envs.agentlab import OpenAppsEnvArgs, benchmark

    study = Study([_agent_args()], benchmark(TASKS, seeds=[0]), dir=tmp_path)
    assert [type(e.env_args) for e in study.exp_args_list] == [OpenAppsEnvArgs] * len(TASKS)


@pytest.mark.parametrize("backend", ["joblib", "ray"])
def test_an_agentlab_study_runs_openapps_tasks_in_parallel_workers(tmp_path, monkeypatch, backend):
    _require_agentlab()
    _offline_nltk()
    from agentlab.analyze import inspect_results
    from agentlab.experiments.study import Study

    from openapps_sim.envs.agentlab import benchmark

    with FakeLLMServer(default=REPLY) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url + "/v1")
        monkeypatch.setenv("OPENAI_API_KEY", "not-a-key")
        monkeypatch.setenv("AGENTLAB_EXP_ROOT", str(tmp_path))
        study = Study([_agent_args()], benchmark(TASKS, seeds=[0]), dir=tmp_path / backend)
        study.override_max_steps(2)
        # AgentLab's Ray backend cancels an episode after max_steps x avg_step_timeout (2 x 60 s):
        # on a loaded 2-core machine starting the Ray workers and Chromium alone took longer
        study.avg_step_timeout = 600
        study.run(n_jobs=2, parallel_backend=backend, n_relaunch=1)
        result = inspect_results.load_result_df(study.dir, progress_fn=None, set_index=False)
    assert len(result) == len(TASKS)
    errors = [str(e) for e in result["err_msg"] if e is not None and str(e) != "nan"]
    assert errors == []
    assert sorted(result["env.task_name"]) == sorted("openapps." + t for t in TASKS)
    assert list(result["n_steps"]) == [2, 2]
    assert len(llm.requests) >= 2 * len(TASKS)  # the agent asked the model at every step
