"""The progress line of a sweep: episodes done, success so far, errors, elapsed time and ETA."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, already: int = 0, stream=None, enabled: bool = True):
        self.total, self.done, self.success, self.errors = total, already, 0, 0
        self.counted = 0
        self.t0 = time.time()
        self.stream = stream = stream or sys.stderr  # the one of now, not of when this module was imported
        self.enabled = enabled
        self.tty = getattr(stream, "isatty", lambda: False)()
        self._last = 0.0

    def update(self, record: dict) -> None:
        self.done += 1
        self.counted += 1
        if record.get("error"):
            self.errors += 1
        elif record.get("success"):
            self.success += 1
        self.render()

    def render(self, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.time()
        if not final and not self.tty and now - self._last < 5 and self.done < self.total:
            return
        self._last = now
        width = 28
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(width * frac) + "-" * (width - int(width * frac))
        scored = self.counted - self.errors
        rate = f"{100 * self.success / scored:.0f}%" if scored else "-"
        elapsed = now - self.t0
        eta = (elapsed / self.counted) * (self.total - self.done) if self.counted else 0
        text = (
            f"[{bar}] {self.done}/{self.total} episodes  success {rate}  errors {self.errors}  "
            f"elapsed {_fmt(elapsed)}  ETA {_fmt(eta)}"
        )
        end = "\n" if (final or not self.tty) else ""
        self.stream.write(("\r" if self.tty else "") + text + end)
        self.stream.flush()


def _fmt(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s"
