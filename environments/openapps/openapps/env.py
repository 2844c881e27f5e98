"""The environment: the world plays the user.

Each rollout resets its own world to the task's instance (a
:class:`~openapps_sim.service.rollout.ChatRollout`) and opens the exchange with the first
observation; every reply of the model is read for one action (``<action>...</action>``, as the
project's LLM agents answer; docs/agents.md), the action is checked and run, and the next
observation is the next user turn, until the task ends the episode or its step budget is
spent (or the agent's own caps, ``--env.agent.max-turns``, end the exchange first). The reward,
``openapps_reward``, is the environment's own full-state evaluation after the last step:
answers (``send_msg_to_user``), infeasibility reports and declarations count as the gym env
counts them. The world is freed when the rollout ends, whatever ended it.
"""

from __future__ import annotations

import verifiers.v1 as vf
from openapps_sim.agents.reply import extract_action

from openapps_sim.service.rollout import ChatRollout, Instance

from .taskset import OpenAppsTask


class OpenAppsEnvConfig(vf.EnvConfig):
    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())
    """The one seat. Its harness defaults to this package's in-process chat loop
    (:class:`~openapps.harness.OpenAppsHarness`), which runs no program, so the local
    subprocess runtime only gives it an empty working folder."""


def rollout_of(task: OpenAppsTask) -> ChatRollout:
    d = task.data
    inst = Instance(d.family, d.variation, d.seed, d.language)
    return ChatRollout(inst, backend=d.backend, interface=d.interface, termination=d.termination)


class OpenAppsEnv(vf.Env[OpenAppsEnvConfig]):
    async def run(self, task: OpenAppsTask, agents: vf.Agents) -> None:
        async with rollout_of(task) as rollout:
            observation = await rollout.start()
            async with agents.agent.interaction(task) as interaction:
                segment = await interaction.turn(observation)
                invalid = 0
                while not segment.terminated:
                    step = await rollout.step(extract_action(segment.last_reply))
                    invalid += step.category != "valid"
                    if step.done:
                        break
                    segment = await interaction.turn(step.observation)
                # recorded before the exchange closes, so that verifiers' log of the rollout
                # ("rollout done: ... reward=") and its scoring see it
                record(interaction.trace, await rollout.result(), invalid, rollout.max_steps)


def record(trace: vf.Trace, result: dict, invalid: int, max_steps: int) -> None:
    """The rollout's full-state reward, its metrics and what explains them, on its trace."""
    trace.record_reward("openapps_reward", result["reward"])
    trace.record_metrics(
        {
            "success": float(result["success"]),
            "partial_reward": result["partial_reward"],
            "steps": float(result["steps"]),
            "invalid_actions": float(invalid),
        }
    )
    trace.info["openapps"] = {
        "instance": trace.task.data.name,
        "ended": result["ended"],
        "max_steps": max_steps,
        "explanation": result["explanation"],
    }
