"""What `openapps run` prints about a failed action (issue 26, point 5) and what an agent is
handed at reset (issue 23, point 7: only privileged agents see the task's parameters)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openapps_sim.agent import Agent
from openapps_sim.cli.main import main
from openapps_sim.errors import short_action_error

from .sweep_agents import ScriptedAgent

CLICK_LOG = """TimeoutError: Locator.click: Timeout 3000ms exceeded.
Call log:
waiting for get_by_test_id("todo-add")
  -   locator resolved to <button data-testid="todo-add">Add</button>
  - attempting click action
  -   waiting for element to be visible, enabled and stable
  -   element is visible, enabled and stable
  -   scrolling into view if needed
  -   done scrolling
  -   <div class="cookie-wall">…</div> intercepts pointer events
  - retrying click action, attempt #1
  -   waiting 20ms
"""


def test_a_playwright_error_is_one_line_saying_why():
    assert short_action_error(CLICK_LOG) == (
        'TimeoutError: Locator.click: Timeout 3000ms exceeded (<div class="cookie-wall">…</div> intercepts '
        "pointer events)"
    )
    hidden = CLICK_LOG.replace('<div class="cookie-wall">…</div> intercepts pointer events', "element is not visible")
    assert short_action_error(hidden).endswith("(element is not visible)")
    never = 'TimeoutError: Locator.fill: Timeout 3000ms exceeded.\nCall log:\n  - waiting for get_by_test_id("x")\n'
    assert (
        short_action_error(never)
        == 'TimeoutError: Locator.fill: Timeout 3000ms exceeded (waiting for get_by_test_id("x"))'
    )
    assert short_action_error('ValueError: Could not find element with bid "99"') == (
        'ValueError: Could not find element with bid "99"'
    )
    assert len(short_action_error("x" * 5000)) == 300 and short_action_error("") == ""


class FillALink(ScriptedAgent):
    """Fills a link (Playwright refuses with a call log), then says it is done."""

    name = "fill_a_link"

    def move(self, n: int, obs: dict) -> str:
        if n == 1:
            from openapps_sim.envs.observe import axtree_text

            bid = re.search(r"\[(\w+)\] link", axtree_text(obs)).group(1)
            return f"fill('{bid}', 'x')"
        return "send_msg_to_user('done')"


class Peeker(Agent):
    """Records the task_info the runner hands it."""

    name = "peeker"
    seen: list = []

    def reset(self, goal: str, task_info: dict | None = None, seed: int = 0) -> None:
        type(self).seen.append(task_info)

    def act(self, obs: dict) -> str:
        return "send_msg_to_user('done')"


class PrivilegedPeeker(Peeker):
    name = "privileged_peeker"
    privileged = True
    seen: list = []


@pytest.mark.browser
def test_a_failed_action_prints_one_line_and_the_call_log_only_with_verbose(tmp_path: Path, capsys):
    run = ["run", "--agent", f"{__name__}:FillALink", "--task", "todo.add_item", "--max-steps", "2"]
    assert main([*run, "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    step = next(line for line in out.splitlines() if line.startswith("  1. fill("))
    assert "   ! " in step and "Call log" not in out, out
    assert len(out.splitlines()) < 12, out
    assert main([*run, "--verbose"]) == 1
    assert "Call log" in capsys.readouterr().out
    # the trajectory viewer's step card shows the short line too
    from openapps_sim.analysis.report.write import write_report

    _, html = write_report(tmp_path)
    page = html.read_text()
    card = re.search(r'<div class="err"[^>]*>([^<]*)</div>', page)
    assert card and "Call log" not in card.group(1) and card.group(1).strip(), card


@pytest.mark.browser
def test_only_privileged_agents_are_handed_the_task_parameters():
    Peeker.seen.clear()
    PrivilegedPeeker.seen.clear()
    for agent in ("Peeker", "PrivilegedPeeker"):
        main(["run", "--agent", f"{__name__}:{agent}", "--task", "todo.add_item", "--seed", "1"])
    assert Peeker.seen == [{}]
    (info,) = PrivilegedPeeker.seen
    assert info["params"] and "Buy oat milk" in str(info["params"])
