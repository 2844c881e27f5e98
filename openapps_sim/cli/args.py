"""Argument types and listings shared by the ``openapps`` subcommands (so that a subcommand's
module never imports the command line's main module)."""

from __future__ import annotations

import argparse
import errno
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from openapps_sim.config.limits import SEED_ALLOWED, check_count, check_seed, whole_from_text
from openapps_sim.config.world import check_variation
from openapps_sim.errors import ConfigError, allowed_names, did_you_mean


class Parser(argparse.ArgumentParser):
    """argparse's parser whose refusal of a value outside an argument's choices (a subcommand, a
    --backend) says which allowed ones are close (``invalid choice: 'swep' (did you mean
    sweep?)``), like every other unknown name of the command line."""

    def _check_value(self, action: argparse.Action, value) -> None:
        if action.choices is not None and value not in action.choices:
            allowed = allowed_names(action.choices, listing=f"{self.prog} --help", noun="choices", keep_order=True)
            message = f"invalid choice: {value!r}{did_you_mean(value, action.choices)}; allowed: {allowed}"
            raise argparse.ArgumentError(action, message)


def add_command(
    sub: argparse._SubParsersAction,
    name: str,
    summary: str,
    description: str,
    func: Callable[[argparse.Namespace], int] | None = None,
) -> argparse.ArgumentParser:
    """The subcommand ``name``: ``summary`` is its line in ``openapps --help``, ``description``
    opens its own --help page, and ``func`` (when given) runs it."""
    s = sub.add_parser(name, help=summary, description=description)
    if func is not None:
        s.set_defaults(func=func)
    return s


@contextmanager
def listening_on(host: str, port: int) -> Iterator[None]:
    """Within: a port that cannot be listened on (taken, not allowed, not this machine's address)
    becomes a ConfigError on --port; any other OSError goes on."""
    try:
        yield
    except OSError as e:
        if e.errno not in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL):
            raise
        raise ConfigError(
            "--port", str(port), f"cannot listen on {host}:{port} ({e.strerror})", "a free port, or 0"
        ) from None


def port(text: str) -> int:
    """A TCP port for --port (0 picks a free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (0-65535; 0 picks a free one)")
    return value


def shipped_specs() -> list[str]:
    """The names of the sweep specs shipped with the package (``experiments/*.yaml``)."""
    import openapps_sim.experiments as experiments  # a plug-in folder, found at run time

    return sorted(p.stem for p in Path(experiments.__file__).parent.glob("*.yaml"))


def _typed(check, text: str, what: str):
    value = whole_from_text(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; allowed: {what}")
    try:
        return check(value)
    except ConfigError as e:  # its problem ends with ", got <the number>": said as it was typed
        raise argparse.ArgumentTypeError(
            f"{e.problem.rsplit(', got ', 1)[0]}, got {text!r}; allowed: {e.allowed}"
        ) from None


def seed(text: str) -> int:
    """A seed for --seed and --seeds: the one rule of :func:`~openapps_sim.config.limits.check_seed`."""
    return _typed(lambda v: check_seed(v, "", ""), text, SEED_ALLOWED)


def variation(text: str) -> str:
    """A pack expression for --variation and --variations, checked and written one way
    (:func:`~openapps_sim.config.world.canonical`: every spelling of a composition is one world)."""
    try:
        return check_variation(text, "", "")
    except ConfigError as e:
        raise argparse.ArgumentTypeError("; ".join(f"{p.problem}; allowed: {p.allowed}" for p in e.each())) from None


def count(high: int, low: int = 1):
    """An argument type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        return _typed(lambda v: check_count(v, "", "", high, low), text, f"{low}, {low + 1}, ... {high}")

    parse.__name__ = "count"  # argparse names the type in its messages
    return parse


def positive(text: str) -> int:
    """A whole number >= 1 with no upper bound (a limit, a character budget)."""
    value = whole_from_text(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def check_display(args: argparse.Namespace) -> None:
    """--headed needs a display: say how to get one instead of failing deep in the browser."""
    if getattr(args, "headed", False) and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise ConfigError(
            "--headed",
            "DISPLAY",
            "there is no display to show a browser on",
            "run under a virtual display: xvfb-run -a openapps ...",
        )


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help ends with its default, once: a help text that already says it
    (``(default: the spec's workers)``) is left as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if "(default" in (action.help or "") or action.required:
            return action.help
        return super()._get_help_string(action)
