"""Errors a user can act on: each names where the problem is and what is allowed.

An unknown name (a task id, a pack, an agent, an option, a key) is :func:`unknown_name` or
:func:`unknown_key`: "did you mean" the few closest allowed names, and the allowed names in full
only when they are few (a long list is named by its listing command). An input with several
problems reports them all at once: :class:`Problems` collects them, :class:`ConfigErrors` carries
them, one line each.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


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

    def each(self) -> list[ConfigError]:
        """The problems this error reports, one per line: itself."""
        return [self]


class ConfigErrors(ConfigError):
    """Several problems of one input (a spec, a config, a pack, a tool call's arguments), each a
    :class:`ConfigError`, reported together: its text is one line per problem (the first
    :data:`MAX_SHOWN`, then how many more). ``source``, ``path``, ``problem`` and ``allowed`` are
    the first problem's. Make one with :meth:`Problems.raise_any`."""

    MAX_SHOWN = 20

    def __init__(self, errors: Iterable[ConfigError]):
        self.errors = [one for e in errors for one in e.each()]
        first = self.errors[0]
        self.source, self.path, self.problem, self.allowed = first.source, first.path, first.problem, first.allowed
        lines = [str(e) for e in self.errors[: self.MAX_SHOWN]]
        if len(self.errors) > self.MAX_SHOWN:
            lines.append(f"{first.source}: ... and {len(self.errors) - self.MAX_SHOWN} more problems")
        OpenAppsError.__init__(self, "\n".join(lines))

    def __reduce__(self):
        return (type(self), (self.errors,))

    def each(self) -> list[ConfigError]:
        return list(self.errors)


class Problems:
    """The problems of one input, collected so that one run reports every one of them::

        problems = Problems()
        seeds = problems.check(check_seeds, raw["seeds"], source, default=[0])
        with problems.guard():
            check_language(raw["language"], source)
        problems.raise_any()  # nothing, one ConfigError, or a ConfigErrors of them all

    A check that failed gives its ``default``, so the checks after it still run; a problem
    found twice is reported once.
    """

    def __init__(self) -> None:
        self.found: list[ConfigError] = []
        self.seen: set[str] = set()

    def add(self, error: ConfigError) -> None:
        for one in error.each():
            if str(one) not in self.seen:
                self.seen.add(str(one))
                self.found.append(one)

    def check(self, fn: Callable[..., T], *args: Any, default: Any = None, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, or ``default`` with its problems kept."""
        try:
            return fn(*args, **kwargs)
        except ConfigError as e:
            self.add(e)
            return default

    @contextmanager
    def guard(self) -> Iterator[None]:
        """Keep the problems of the block (the block stops at the first) and go on after it."""
        try:
            yield
        except ConfigError as e:
            self.add(e)

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_any(self) -> None:
        """Raise what was found: one problem as itself, several as one :class:`ConfigErrors`."""
        if len(self.found) == 1:
            raise self.found[0]
        if self.found:
            raise ConfigErrors(self.found)


def problems_to_json(error: ConfigError) -> list[dict]:
    """``error``'s problems as plain mappings, for a JSON message between processes (a sweep's
    workers); :func:`error_from_json` makes the error again, every problem in it."""
    return [{"source": e.source, "path": e.path, "problem": e.problem, "allowed": e.allowed} for e in error.each()]


def error_from_json(parts: list[dict]) -> ConfigError:
    """The error :func:`problems_to_json` wrote: one ConfigError, or a ConfigErrors of several."""
    errors = [ConfigError(p["source"], p["path"], p["problem"], p["allowed"]) for p in parts]
    return errors[0] if len(errors) == 1 else ConfigErrors(errors)


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


# a list of allowed names this long or shorter is shown whole; a longer one is named by the
# command that lists it (``openapps tasks``), after the few names closest to the one given
LIST_IN_FULL = 12
SUGGESTIONS = 3  # at most this many "did you mean" names
CLOSE_ENOUGH = 0.6  # difflib's similarity ratio a suggestion needs


def close_names(name: object, choices: Iterable[object], n: int = SUGGESTIONS) -> list[str]:
    """The few ``choices`` closest to ``name``, closest first, equally close ones in alphabetical
    order (difflib's similarity ratio, case ignored)."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(str(name).casefold())
    scored: dict[str, float] = {}
    for choice in map(str, choices):
        matcher.set_seq1(choice.casefold())
        if matcher.real_quick_ratio() >= CLOSE_ENOUGH and matcher.quick_ratio() >= CLOSE_ENOUGH:
            if (ratio := matcher.ratio()) >= CLOSE_ENOUGH:
                scored[choice] = ratio
    return sorted(scored, key=lambda c: (-scored[c], c))[:n]


def did_you_mean(name: object, choices: Iterable[object]) -> str:
    """`` (did you mean a or b?)`` for the names of ``choices`` close to ``name``, else ``""``."""
    close = close_names(name, choices)
    if not close:
        return ""
    listed = close[0] if len(close) == 1 else ", ".join(close[:-1]) + " or " + close[-1]
    return f" (did you mean {listed}?)"


def allowed_names(
    choices: Iterable[object],
    forms: Iterable[str] = (),
    listing: str | None = None,
    noun: str = "names",
    keep_order: bool = False,
) -> str:
    """What is allowed, for an error: the ``choices`` sorted (unless ``keep_order``; the ``forms``
    such as ``random-<seed>`` after them), or, when there are more than :data:`LIST_IN_FULL` and a
    ``listing`` command shows them, their count and that command."""
    names, forms = list(dict.fromkeys(str(c) for c in choices)), list(forms)
    names = names if keep_order else sorted(names)
    if listing and len(names) > LIST_IN_FULL:
        return f"one of {len(names)} {noun}{''.join(f' or {f}' for f in forms)}; {listing} lists them"
    return ", ".join([*names, *forms]) or "(none)"


def unknown_name(
    source: str,
    key: str,
    name: str,
    choices: Iterable[object],
    forms: Iterable[str] = (),
    listing: str | None = None,
    noun: str = "names",
    what: str = "name",
    keep_order: bool = False,
) -> ConfigError:
    """The error for a name that is not one of ``choices`` (a task, a pack, an agent, a backend...):
    ``unknown <what> 'x' (did you mean y?)``, and what is allowed (see :func:`allowed_names`)."""
    choices = list(choices)
    allowed = allowed_names(choices, forms, listing, noun, keep_order)
    return ConfigError(source, key, f"unknown {what} {name!r}{did_you_mean(name, choices)}", allowed)


def unknown_key(
    source: str, path: str, key: object, choices: Iterable[object], what: str = "key", keep_order: bool = False
) -> ConfigError:
    """The error for a key (an option, a field) that ``path`` names and is not one of ``choices``:
    ``unknown <what> (did you mean y?)``, the keys in full (sorted, unless ``keep_order``)."""
    choices = [str(c) for c in choices]
    allowed = ", ".join(choices if keep_order else sorted(choices)) or "(none)"
    return ConfigError(source, path, f"unknown {what}{did_you_mean(key, choices)}", allowed)


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
