"""What command line tests share: ``openapps`` run as a separate process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def openapps(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120):
    """``python -m openapps_sim.cli ARGS`` in ``cwd`` with ``env``; its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "openapps_sim.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )
