"""Multi-step, cross-app task families built from single-app ones.

A :class:`MultiStepFamily` chains parts (single-app families, each in a different app):
its instance samples every part, lets :meth:`MultiStepFamily.link` tie their parameters
together (e.g. the message text is the title of a calendar event the agent must look up),
its plan is the parts' plans in order (so its expected state, W-LCS gold and API solution
follow), and its oracle runs the parts' UI scripts in order. The
reward is 1 only when the whole world state equals the expected one; ``partial_reward`` is the
fraction of parts whose app already holds its expected state.
"""

from __future__ import annotations

import random
import re

from openapps_sim.taskkit import Subgoal, TaskFamily, get_family
from openapps_sim.taskkit import language as lang_data
from openapps_sim.taskkit.reward import normalise_world, normalised_expected


class MultiStepFamily(TaskFamily):
    parts: tuple[str, ...] = ()
    tier: int = 1
    extra_steps: int = 2

    # Parts are resolved lazily: families register while the tasks package is imported.
    @property
    def part_families(self) -> list[TaskFamily]:
        return [get_family(p, f"multistep {self.id}") for p in self.parts]

    @property
    def structure(self) -> str:  # type: ignore[override]
        """``sequential`` when parts depend on each other (``link`` ties them), else conjunctive."""
        return "sequential" if type(self).link is not MultiStepFamily.link else "conjunctive"

    category = "multi-app"

    @property
    def apps(self) -> tuple[str, ...]:  # type: ignore[override]
        apps = [a for f in self.part_families for a in f.apps]
        if len(set(apps)) != len(apps):
            raise ValueError(f"{self.id}: every part must use a different app, got {apps}")
        return tuple(apps)

    @property
    def max_steps(self) -> int:  # type: ignore[override]
        return sum(f.max_steps for f in self.part_families) + self.extra_steps

    def styles(self, language: str) -> dict[str, list[str]]:
        """The family's own templates if its language file has them, else the parts' clauses
        joined by the language's joiners (``{title}`` of part ``i`` becomes ``{p<i>_title}``)."""
        own = super().styles(language)
        if own:
            return own
        clauses = [lang_data.clause(p, language) for p in self.parts]
        if not all(clauses):
            return {}
        indexed = [
            re.sub(r"\{(\w+)\}", lambda m, i=i: "{p" + str(i) + "_" + m.group(1) + "}", c)
            for i, c in enumerate(clauses)
        ]
        return {
            style: [lang_data.join_clauses(j, indexed) for j in items]
            for style, items in lang_data.joiners(language).items()
        }

    def goal_values(self, params: dict, language: str) -> dict:
        values = super().goal_values(params, language)
        for i, (fam, p) in enumerate(zip(self.part_families, params["parts"], strict=True)):
            values.update({f"p{i}_{k}": v for k, v in fam.goal_values(p, language).items()})
        return values

    def link(self, parts: list[dict], state: dict, config: dict, rng: random.Random) -> None:
        """Tie the parts' parameters together (in place). Default: independent parts."""

    def sample(self, state, config, rng):
        parts = [f.sample(state, config, rng) for f in self.part_families]
        self.link(parts, state, config, rng)
        params: dict = {"parts": parts}
        for i, p in enumerate(parts):
            for k, v in p.items():
                if isinstance(v, (str, int, float)):
                    params[f"p{i}_{k}"] = v
        return params

    def prepare(self, state, params):
        for fam, p in zip(self.part_families, params["parts"], strict=True):
            fam.prepare(state, p)

    def plan(self, params, initial):
        """The parts' plans, part after part."""
        return [op for fam, p in zip(self.part_families, params["parts"], strict=True) for op in fam.plan(p, initial)]

    def solve(self, params, ui):
        for fam, p in zip(self.part_families, params["parts"], strict=True):
            yield from fam.solve(p, ui)

    def subgoals(self, params, initial, expected):
        want = normalised_expected(expected, base=initial)  # made once; scoring reads the same
        goals = []
        for fam in self.part_families:
            app = fam.apps[0]
            goals.append(
                Subgoal(
                    fam.id, lambda actual, app=app, target=want[app]: normalise_world({app: actual[app]})[app] == target
                )
            )
        return goals
