"""The oracle: replays each family's solution through the same action strings agents use.

It reads the instance parameters from ``task_info`` (it is privileged) and runs the family's
``solve`` script, turning each step addressed by ``data-testid`` into a BrowserGym bid action
found in the current observation. It never matches visible text, so it works under every
language and look.

Live interruptions (``interrupt-<id>-<button>`` test ids) are handled the way a careful user
would before the script goes on: finish a recovery path (``next``), decline an offer
(``dismiss``), or press the only button there is; when that leaves another page (an app that
crashed and restarted, a notification that opened another app), go back to where it was.
"""

from __future__ import annotations

import json

from openapps_sim.agent import Agent
from openapps_sim.envs.apptools import tool_action
from openapps_sim.taskkit import API, UI, Step, get_family
from openapps_sim.taskkit.observation import testid_bids

# step kinds that are one BrowserGym action of the step's value alone, or of the element and the value
VALUE_ACTIONS = {"answer": "send_msg_to_user", "infeasible": "report_infeasible"}
ELEMENT_ACTIONS = {"fill": "fill", "select": "select_option", "press": "press"}


class OracleError(RuntimeError):
    pass


def _quote(text: str) -> str:
    return repr(str(text))


class OracleAgent(Agent):
    """Runs each task family's own solution script (privileged: it reads the task parameters);
    proves every task instance in every app version is solvable. Under the api interface it runs
    the family's API solution (app tools only); under mixed, the API solution where the family
    has one, else the page script."""

    name = "oracle"
    obs_mode = "axtree"
    action_space = "all"
    privileged = True
    interfaces = ("gui", "api", "mixed")

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        if not task_info or "family" not in task_info:
            raise OracleError("the oracle needs the task's parameters (task_info from env.reset)")
        self.family = get_family(task_info["family"])
        self.via_api = self.interface in ("api", "mixed") and self.family.api_solvable
        self.no_api = self.interface == "api" and not self.via_api
        if self.no_api:  # nothing but page actions would solve it: say so, as a user would
            self.script = iter(())
        elif self.via_api:
            self.script = self.family.solve_api(task_info["params"], API)
        else:
            self.script = self.family.solve(task_info["params"], UI)
        # under termination "agent" the episode ends only when the oracle declares it is done
        self.must_declare = task_info.get("termination") == "agent"
        self.started = False
        self.finished = False
        self.steps = 0
        self.resume_url: str | None = None  # the page an interruption took the oracle away from

    def _next_step(self, obs: dict) -> Step | None:
        try:
            if not self.started:
                self.started = True
                return next(self.script)
            return self.script.send(obs)
        except StopIteration:
            return None

    def act(self, obs: dict) -> str:
        if self.finished:
            return "noop()"
        if self.no_api:
            self.finished = True
            return f"report_infeasible({_quote(self.family.id + ' has no API solution (solve_api)')})"
        careful = None if self.via_api else self.handle_interruption(obs)
        if careful is not None:
            return careful
        step = self._next_step(obs)
        if step is None:
            self.finished = True
            if self.must_declare:  # the script is done: say so (an answer or a report ended it already)
                self.steps += 1
                return f"send_msg_to_user({_quote('Done.')})"
            return "noop()"
        self.steps += 1
        return self.to_action(step, obs)

    def handle_interruption(self, obs: dict) -> str | None:
        """The careful answer to an interruption on the page, or the way back after one."""
        buttons: dict[str, str] = {}
        for testid, bid in testid_bids(obs).items():
            parts = testid.split("-")
            if len(parts) == 3 and parts[0] == "interrupt" and parts[2] not in ("title", "progress"):
                buttons[parts[2]] = bid
        if buttons:
            if self.resume_url is None:
                self.resume_url = obs["url"]
            choice = next((b for b in ("next", "dismiss") if b in buttons), sorted(buttons)[0])
            self.steps += 1
            return f"click({_quote(buttons[choice])})"
        if self.resume_url is not None:
            target, self.resume_url = self.resume_url, None
            if target != obs["url"]:
                self.steps += 1
                return f"goto({_quote(target)})"
        return None

    @staticmethod
    def to_action(step: Step, obs: dict) -> str:
        if step.kind == "goto":
            base = obs["url"].split("/", 3)
            return f"goto({_quote('/'.join(base[:3]) + step.value)})"
        if step.kind in VALUE_ACTIONS:
            return f"{VALUE_ACTIONS[step.kind]}({_quote(step.value)})"
        if step.kind == "noop":
            return "noop()"
        if step.kind == "tool":
            app, tool = step.testid.split(".", 1)
            return tool_action(app, tool, json.loads(step.value))
        bids = testid_bids(obs)
        if step.testid not in bids:
            near = sorted(t for t in bids if t.split("-")[0] == step.testid.split("-")[0])[:15]
            raise OracleError(f"no element with data-testid {step.testid!r} on {obs['url']} (similar: {near})")
        bid = bids[step.testid]
        if step.kind == "click":
            return f"click({_quote(bid)})"
        if step.kind in ELEMENT_ACTIONS:
            return f"{ELEMENT_ACTIONS[step.kind]}({_quote(bid)}, {_quote(step.value)})"
        raise OracleError(f"unknown step kind {step.kind!r}")
