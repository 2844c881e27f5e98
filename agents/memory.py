"""What an LLM agent remembers of its episode, and how the prompt recalls it.

Every step keeps the model's own reasoning, its action (in the model's coordinate space),
the page it was taken on and the error it caused. The prompt shows the last ``window``
steps in full and a one-line-per-step summary of the steps before them, so that at step 11
of a multi-app task the model can still tell which part is done (AgentLab's GenericAgent
keeps thoughts and actions the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

SUMMARY_LINES = 12  # dropped steps listed one per line; older ones are only counted


@dataclass
class Step:
    number: int
    url: str
    thought: str
    action: str  # as the model wrote it (its coordinate space)
    error: str | None = None  # None: not known yet; "": it ran without error
    executed: str = ""  # as the environment received it (page coordinates)
    note: str = ""  # e.g. "the answer held 2 actions"
    reply: str = ""  # the model's whole answer
    raw: str = ""  # the action as written, before mapping (UI-TARS)

    @property
    def status(self) -> str:
        if self.error is None:
            return "not known"
        return f"error: {first_line(self.error, 300)}" if self.error else "ok"


def first_line(text: str, limit: int) -> str:
    line = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def page_of(url: str) -> str:
    """A URL without its scheme and host (the prompt names the server once)."""
    parts = urlsplit(url or "")
    if not parts.scheme:
        return url or ""
    path = parts.path or "/"
    return path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


class Memory:
    """The steps of one episode."""

    def __init__(self, window: int = 10) -> None:
        self.window = window
        self.steps: list[Step] = []

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, index: int) -> Step:
        return self.steps[index]

    def add(self, **fields) -> Step:
        step = Step(number=len(self.steps) + 1, **fields)
        self.steps.append(step)
        return step

    def settle(self, error: str) -> None:
        """Record the outcome of the last step once the environment has run it."""
        if self.steps and self.steps[-1].error is None:
            self.steps[-1].error = error or ""

    @property
    def last(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def shown(self) -> list[Step]:
        return self.steps[-self.window :] if self.window else []

    def render(self) -> str:
        """The history part of the prompt."""
        if not self.steps:
            return "Previous steps: none yet, this is the first step."
        shown = self.shown()
        dropped = self.steps[: len(self.steps) - len(shown)]
        lines: list[str] = []
        if dropped:
            lines.append(f"Summary of steps 1-{dropped[-1].number} (the full record of the latest steps follows):")
            listed = dropped[-SUMMARY_LINES:]
            older = dropped[: len(dropped) - len(listed)]
            if older:
                errors = sum(1 for s in older if s.error)
                pages = sorted({page_of(s.url) for s in older})
                lines.append(
                    f"  steps 1-{older[-1].number}: {len(older)} actions, {errors} with errors, on pages "
                    + ", ".join(pages[:8])
                    + (" ..." if len(pages) > 8 else "")
                )
            for s in listed:
                lines.append(f"  {s.number}. {first_line(s.action, 120)} on {page_of(s.url)} -> {s.status}")
            if dropped[-1].thought:
                lines.append(f"  your thought at step {dropped[-1].number}: {first_line(dropped[-1].thought, 300)}")
            lines.append("")
        lines.append("Previous steps (oldest first):" if shown else "")
        for s in shown:
            lines.append(f"Step {s.number}, on {page_of(s.url)}:")
            if s.thought:
                lines.append(f"  Thought: {s.thought.strip()[:1500]}")
            lines.append(f"  Action: {s.action.strip()[:500]}")
            if s.note:
                lines.append(f"  Note: {s.note}")
            lines.append(f"  Result: {s.status}")
        return "\n".join(line for line in lines).rstrip()
