"""AgentLab and BrowserGym experiments: env args and a benchmark that work in fresh workers.

BrowserGym's ``EnvArgs.make_env`` calls ``gym.make("browsergym/" + task_name)`` and imports
only its own benchmark packages first, so a fresh joblib or Ray worker of AgentLab's ``Study``
that never imported ``openapps_sim`` fails with ``NameNotFound``. :class:`OpenAppsEnvArgs` is
that ``EnvArgs`` with one difference: it lives here, so unpickling it in a worker imports
``openapps_sim`` (which registers the ids), and its ``make_env`` registers them again for
good measure.

AgentLab (0.4) keeps its own ``EnvArgs`` (``agentlab.experiments.loop``) and its ``Study``
rebuilds every env args that is not one of those as a plain one (``EnvArgs(**asdict(ea))``),
which drops this class and brings the ``NameNotFound`` back in the workers. So where AgentLab
is installed, :class:`OpenAppsEnvArgs` subclasses AgentLab's ``EnvArgs`` and the study keeps it.

    from openapps_sim.envs.agentlab import benchmark
    study = Study([agent_args], benchmark(["todo.add_item"], seeds=range(5)))

Needs ``browsergym-experiments`` (``pip install "openapps-sim[agentlab]"`` or AgentLab itself).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

try:
    from browsergym.experiments.benchmark.base import Benchmark, HighLevelActionSetArgs
    from browsergym.experiments.loop import EnvArgs
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "openapps_sim.envs.agentlab needs browsergym-experiments: pip install 'openapps-sim[agentlab]'"
    ) from e

try:  # AgentLab's own EnvArgs, which its Study keeps as they are (see the module's doc)
    from agentlab.experiments.loop import EnvArgs as _BaseEnvArgs
except ImportError:  # BrowserGym without AgentLab
    _BaseEnvArgs = EnvArgs

from openapps_sim.config.limits import MAX_STEPS, check_count, check_seed
from openapps_sim.envs.registration import ENV_PREFIX, register_all

TASK_PREFIX = ENV_PREFIX.split("/", 1)[1]  # "openapps."


@dataclass
class OpenAppsEnvArgs(_BaseEnvArgs):
    """BrowserGym's (or, where installed, AgentLab's) ``EnvArgs`` for an OpenApps task
    (``task_name="openapps.<family>"``)."""

    def make_env(self, *args, **kwargs):
        register_all()
        return super().make_env(*args, **kwargs)


def env_args(
    task: str,
    seed: int | None = None,
    variation: str = "default",
    max_steps: int | None = None,
    viewport: dict | None = None,
    **task_kwargs,
) -> OpenAppsEnvArgs:
    """Env args for one instance: family ``task`` (``"todo.add_item"``), seed and variation."""
    from openapps_sim.taskkit import get_family

    family = get_family(task)
    if max_steps is not None:
        max_steps = check_count(max_steps, "env_args", "max_steps", MAX_STEPS)
    if seed is not None:
        seed = check_seed(seed, "env_args", "seed")
    return OpenAppsEnvArgs(
        task_name=TASK_PREFIX + task,
        task_seed=seed,
        max_steps=max_steps or family.max_steps,
        viewport=viewport,
        task_kwargs={"variation": variation, **task_kwargs},
    )


def benchmark(
    tasks: Iterable[str] | None = None,
    seeds: Iterable[int] = (0, 1, 2),
    variation: str = "default",
    name: str = "openapps",
) -> Benchmark:
    """A BrowserGym ``Benchmark`` of ``tasks`` (default: every family) × ``seeds``."""
    from openapps_sim.taskkit import all_families

    tasks = list(tasks) if tasks is not None else sorted(all_families())
    return Benchmark(
        name=name,
        high_level_action_set_args=HighLevelActionSetArgs(subsets=("chat", "infeas", "bid", "nav", "tab")),
        is_multi_tab=False,
        supports_parallel_seeds=True,
        backends=[],
        env_args_list=[env_args(t, s, variation) for t in tasks for s in seeds],
    )
