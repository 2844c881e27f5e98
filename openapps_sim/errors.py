"""Errors a user can act on: each names where the problem is and what is allowed."""

from __future__ import annotations


class OpenAppsError(Exception):
    """Base class for every error this package raises on purpose."""


class ConfigError(OpenAppsError):
    """Bad user input: a variation pack, an override, a spec, a task or agent name.

    The message always carries the source (file or flag), the key path and what is allowed,
    for example ``variations/german.yaml: todo.items[2].done: expected true or false, got 'yes'``.
    """

    def __init__(self, source: str, path: str, problem: str, allowed: str | None = None):
        self.source = source
        self.path = path
        self.problem = problem
        self.allowed = allowed
        where = f"{source}: {path}" if path else source
        text = f"{where}: {problem}"
        if allowed:
            text += f"; allowed: {allowed}"
        super().__init__(text)

    def __reduce__(self):
        # rebuilt from its parts, so it crosses process boundaries (worker pools, Ray) intact
        return (type(self), (self.source, self.path, self.problem, self.allowed))


class InfrastructureError(OpenAppsError):
    """Something an episode needs failed (a model server, the browser): not the agent's doing.

    ``permanent`` errors (a rejected API key, an unknown model, a prompt over the context
    length) would fail every episode alike, so a sweep stops at the first one instead of
    retrying each episode. ``openapps`` exits with :data:`EXIT_INFRASTRUCTURE` on these.
    """

    permanent: bool = False


class SweepStopped(InfrastructureError):
    """A permanent infrastructure error stopped a sweep (the message says which and why)."""

    permanent = True


EXIT_INFRASTRUCTURE = 3  # the exit code of `openapps run` / `openapps sweep` on an InfrastructureError


class BrowserNotFound(OpenAppsError):
    """No Chromium could be found or launched."""


def unknown_name(source: str, key: str, name: str, choices) -> ConfigError:
    """The error for a name that is not one of the known ones (pack, task, agent...)."""
    listed = ", ".join(sorted(choices)) or "(none)"
    return ConfigError(source, key, f"unknown name {name!r}", listed)


# Lines of Playwright's call log that only say what it was doing, not why the action failed.
_ROUTINE_LOG = (
    "attempting ",
    "retrying ",
    "waiting for element to be visible",
    "element is visible, enabled and stable",
    "scrolling into view",
    "done scrolling",
    "locator resolved to",
    "performing ",
    "navigated to",
)
_WAITING_MS = ("waiting ",)


def short_action_error(text: str, limit: int = 300) -> str:
    """One line saying what failed, from an action's error (BrowserGym's ``last_action_error``).

    Playwright's errors carry a call log of dozens of lines after their first; the line kept
    from it is the last one that says why (``<div id="o"> intercepts pointer events``,
    ``element is not visible``), else what it waited for. The full text stays in the records.
    """
    text = str(text or "").strip()
    if not text:
        return ""
    head, _, log = text.partition("\nCall log:")
    first = head.strip().splitlines()[0].strip() if head.strip() else ""
    why = ""
    if log:
        lines = [ln.strip().lstrip("-").strip() for ln in log.splitlines() if ln.strip().lstrip("-").strip()]
        telling = [
            ln
            for ln in lines
            if not ln.startswith(_ROUTINE_LOG)
            and not (ln.startswith(_WAITING_MS) and ln.rstrip("ms").split()[-1].isdigit())
        ]
        reasons = [ln for ln in telling if not ln.startswith("waiting for ")]
        why = (reasons or telling or [""])[-1]
    line = f"{first.rstrip('.')} ({why})" if why else first
    return line if len(line) <= limit else line[: limit - 1] + "…"
