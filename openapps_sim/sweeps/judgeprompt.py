"""What a model-based judge (``openapps judge``, docs/judge.md) is shown of a recorded episode,
and how its reply is read.

The judge sees what the agent saw and did, as the trajectory records it
(:mod:`openapps_sim.sweeps.steplog`): the goal, then per step the page's URL and observation
text, the agent's reasoning, its action and the action's error; and the essential states
(milestones, :mod:`openapps_sim.taskkit.progress`) of the task by name. It never sees what only
the full-state check knows (rewards, the state difference, the app event log, the task's
parameters): those are the truth it is calibrated against.

The prompt is bounded (:func:`build_prompt`): observations share what the bound leaves after
the fixed parts, each cut with a marker, and when even the steps' own lines do not fit, steps
from the middle are left out with a marker naming them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

SYSTEM = (
    "You judge whether a web agent completed a task. The agent worked in a set of small web apps "
    "(todo, calendar, messenger, maps, online shop, code editor) to reach the user's goal. You are "
    "shown the goal and the agent's trajectory: for every step the page it saw (URL and accessibility "
    "tree, possibly cut), its reasoning, the action it took and the action's error if it failed. A task "
    "is completed only when everything the goal asks for was done, nothing else was changed, and a "
    "question was answered correctly to the user (send_msg_to_user). A task that cannot be done is "
    "completed by reporting that (report_infeasible) and changing nothing.\n"
    "You also rate the task's essential states, the milestones named in the request: for each, whether "
    "the trajectory reached it at some step.\n"
    "Reply with one JSON object and nothing else:\n"
    '{"success": true or false, "milestones": {"<milestone name>": true or false, ...}, '
    '"reason": "one or two sentences"}'
)

REASK = (
    "Your reply could not be read ({problem}). Answer again with only the JSON object: "
    '{{"success": true or false, "milestones": {{{names}}}, "reason": "..."}}'
)

STEP_FIELD_CHARS = {"reasoning": 300, "action": 500, "error": 300}
"""Each step's reasoning, action and error are cut to these many characters."""
MIN_OBSERVATION_CHARS = 200
"""A page with less room than this is left out (with a marker) instead of cut."""
MIN_PROMPT_CHARS = 4000
"""The smallest bound :func:`build_prompt` accepts (``--max-prompt-chars``)."""

LEFT_OUT = "[page text left out to fit the prompt]"
STEPS_MARKER_ROOM = 120  # room kept for the "[... steps i to j left out ...]" line
_TRUE = {"true", "yes", "y", "success", "successful", "succeeded", "reached", "done", "completed", "1"}
_FALSE = {"false", "no", "n", "failure", "failed", "fail", "not reached", "unreached", "not done", "0"}


@dataclass
class Prompt:
    text: str  # the user message (the system prompt is :data:`SYSTEM`)
    steps: int  # steps in the trajectory
    steps_left_out: int = 0  # steps from the middle left out to fit the bound
    observations_cut: int = 0  # steps whose page text was cut (or left out) to fit the bound

    @property
    def truncated(self) -> bool:
        return bool(self.steps_left_out or self.observations_cut)


def _cut(text: Any, limit: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _head(goal: str, milestones: list[str], n_steps: int) -> str:
    lines = [f"Goal given to the agent: {goal}", ""]
    if milestones:
        lines += ["Essential states (milestones) to rate:"] + [f"- {m}" for m in milestones] + [""]
    else:
        lines += ["This task names no essential states: rate success only.", ""]
    lines += [f"The agent's trajectory ({n_steps} steps):", ""]
    return "\n".join(lines)


def _tail(steps: list[dict], milestones: list[str]) -> str:
    last = str(steps[-1].get("url") or "") if steps else ""
    names = ", ".join(f'"{m}": true or false' for m in milestones)
    return "\n".join(
        [
            f"After the last step the agent was on {last or 'the start page'} (that page's content is not recorded).",
            "",
            'Reply with one JSON object: {"success": true or false, "milestones": {' + names + '}, "reason": "..."}',
        ]
    )


def _step_lines(n: int, step: dict) -> str:
    """A step without its page text: URL, reasoning, action, error."""
    lines = [f"Step {n}", f"Page: {step.get('page_url') or ''}"]
    if step.get("reasoning"):
        lines.append(f"Reasoning: {_cut(step['reasoning'], STEP_FIELD_CHARS['reasoning'])}")
    lines.append(f"Action: {_cut(step.get('action'), STEP_FIELD_CHARS['action'])}")
    if step.get("error"):
        lines.append(f"Error: {_cut(step['error'], STEP_FIELD_CHARS['error'])}")
    return "\n".join(lines)


def _kept_steps(sizes: list[int], budget: int) -> tuple[list[int], int]:
    """Which steps (of ``sizes`` characters each) fit ``budget`` characters: from both ends
    inwards, the rest (the middle) left out. Returns the kept indices and the number left out."""
    front, back = [], []
    used = 0
    i, j = 0, len(sizes) - 1
    while i <= j:
        k = i if len(front) <= len(back) else j
        need = sizes[k]
        if used + need + (STEPS_MARKER_ROOM if i < j else 0) > budget:
            break
        used += need
        if k == i:
            front.append(i)
            i += 1
        else:
            back.insert(0, j)
            j -= 1
    return front + back, len(sizes) - len(front) - len(back)


def _allot(lengths: list[int], budget: int) -> list[int]:
    """Characters of page text per step: an even share of ``budget``, what a short page leaves
    going to the longer ones."""
    out = [0] * len(lengths)
    order = sorted(range(len(lengths)), key=lambda k: lengths[k])
    left = max(0, budget)
    for rank, k in enumerate(order):
        share = left // (len(order) - rank)
        out[k] = min(lengths[k], share)
        left -= out[k]
    return out


def _observation(text: str, allowed: int) -> tuple[str, bool]:
    """The page text within ``allowed`` characters (marker included), and whether it was cut."""
    if len(text) <= allowed:
        return text, False
    marker = "\n... [page text cut to fit the prompt: {} more characters not shown]"
    room = allowed - len(marker) - 8
    if room < MIN_OBSERVATION_CHARS:
        return LEFT_OUT, True
    return text[:room] + marker.format(len(text) - room), True


def build_prompt(goal: str, steps: list[dict], milestones: list[str], max_chars: int) -> Prompt:
    """The user message for one trajectory, at most ``max_chars`` characters with the system
    prompt (``max_chars`` >= :data:`MIN_PROMPT_CHARS`)."""
    head, tail = _head(goal, milestones, len(steps)), _tail(steps, milestones)
    headers = [_step_lines(n + 1, s) for n, s in enumerate(steps)]
    budget = max_chars - len(SYSTEM) - len(head) - len(tail) - 8
    wrapper = len("\nPage content:\n")
    reserve = len(LEFT_OUT) + wrapper  # every page gets at least room for its marker
    kept, left_out = _kept_steps([len(h) + 2 + reserve for h in headers], budget)
    used = sum(len(headers[k]) + 2 for k in kept) + (STEPS_MARKER_ROOM if left_out else 0)
    pages = [str(steps[k].get("observation") or "") for k in kept]
    allowance = _allot([max(0, len(p) + wrapper - reserve) for p in pages], budget - used - reserve * len(pages))
    blocks, cut = [], 0
    for pos, k in enumerate(kept):
        if pos and kept[pos - 1] != k - 1:
            blocks.append(f"[... steps {kept[pos - 1] + 2} to {k} left out to fit the prompt ({left_out} steps) ...]")
        block = headers[k]
        if pages[pos]:
            text, was_cut = _observation(pages[pos], allowance[pos] + reserve - wrapper)
            cut += was_cut
            block += "\nPage content:\n" + text
        blocks.append(block)
    text = head + "\n\n".join(blocks) + "\n\n" + tail
    return Prompt(text=text, steps=len(steps), steps_left_out=left_out, observations_cut=cut)


# -- the reply ---------------------------------------------------------------------------------


@dataclass
class Verdict:
    success: bool | None = None  # None: no readable verdict
    milestones: dict[str, bool | None] = field(default_factory=dict)  # None: not rated
    reason: str = ""
    problem: str = ""  # why the reply could not be read ("" when it could)

    @property
    def readable(self) -> bool:
        return self.success is not None


def _truth_value(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower().rstrip(".")
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return None


def _json_objects(text: str):
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            obj, _ = decoder.raw_decode(text, m.start())
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            yield obj


def parse_verdict(reply: str, milestones: list[str]) -> Verdict:
    """The verdict in a reply: the first JSON object with a readable ``success`` (code fences and
    text around it are ignored). A milestone the reply does not rate is None."""
    found = False
    for obj in _json_objects(reply or ""):
        found = True
        success = _truth_value(obj.get("success"))
        if success is None:
            continue
        rated = obj.get("milestones") if isinstance(obj.get("milestones"), dict) else {}
        by_name = {str(k).strip().lower(): v for k, v in rated.items()}
        return Verdict(
            success=success,
            milestones={m: _truth_value(by_name.get(m.lower())) for m in milestones},
            reason=_cut(obj.get("reason"), 1000),
        )
    problem = 'no "success": true or false in its JSON' if found else "no JSON object in it"
    return Verdict(milestones={m: None for m in milestones}, problem=problem)


def reask_text(problem: str, milestones: list[str]) -> str:
    names = ", ".join(f'"{m}": true or false' for m in milestones)
    return REASK.format(problem=problem, names=names)
