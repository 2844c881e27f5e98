"""Argument types and listings shared by the ``openapps`` subcommands (so that a subcommand's
module never imports the command line's main module)."""

from __future__ import annotations

import argparse
from pathlib import Path


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


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return value


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value
