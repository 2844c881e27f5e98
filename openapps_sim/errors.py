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


class BrowserNotFound(OpenAppsError):
    """No Chromium could be found or launched."""


def unknown_name(source: str, key: str, name: str, choices) -> ConfigError:
    """The error for a name that is not one of the known ones (pack, task, agent...)."""
    listed = ", ".join(sorted(choices)) or "(none)"
    return ConfigError(source, key, f"unknown name {name!r}", listed)
