"""The oracle's script vocabulary: :class:`Step`, built by :class:`UI` (page steps addressed by
``data-testid``) and :class:`API` (app tools, reads and answers of an API-only solution)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    """One oracle step, addressed by ``data-testid`` (never by visible text)."""

    kind: str  # click | fill | select | press | goto | answer | infeasible | noop | tool
    testid: str = ""  # for a tool step: "<app>.<tool>"
    value: str = ""  # for a tool step: its named arguments as a JSON object


class _Replies:
    """The steps every script may end with: an answer to the user, or the report that the goal
    cannot be done in this world (``report_infeasible``)."""

    @staticmethod
    def answer(text: str) -> Step:
        return Step("answer", "", str(text))

    @staticmethod
    def report_infeasible(reason: str) -> Step:
        """Tell the user the goal cannot be done in this world (``report_infeasible``)."""
        return Step("infeasible", "", str(reason))


class UI(_Replies):
    """Builders of oracle steps. Generators ``yield`` them and receive the next observation."""

    @staticmethod
    def click(testid: str) -> Step:
        return Step("click", testid)

    @staticmethod
    def fill(testid: str, text: str) -> Step:
        return Step("fill", testid, str(text))

    @staticmethod
    def select(testid: str, value: str) -> Step:
        return Step("select", testid, str(value))

    @staticmethod
    def press(testid: str, key: str) -> Step:
        return Step("press", testid, key)

    @staticmethod
    def goto(path: str) -> Step:
        return Step("goto", "", path)

    @staticmethod
    def open_app(name: str) -> Iterator[Step]:
        """Go to the start page and open an app through its launcher tile (returns the app's
        first observation, for scripts that branch on it)."""
        yield Step("click", "nav-home")
        obs = yield Step("click", f"launch-{name}")
        return obs

    @staticmethod
    def through(script: Iterator[Step]) -> Iterator[Step]:
        """Run another script's steps (``yield from``), returning the observation after its last
        step (for a script that goes on to read the page another one ends on)."""
        obs: Any = None
        try:
            step = next(script)
            while True:
                obs = yield step
                step = script.send(obs)
        except StopIteration:
            return obs

    @classmethod
    def open_and_click(cls, name: str, testids: list[str]) -> Iterator[Step]:
        """Open an app (:meth:`open_app`), then click each of ``testids`` in order."""
        yield from cls.open_app(name)
        for testid in testids:
            yield cls.click(testid)


class API(_Replies):
    """Builders of the steps of an API-only solution (``solve_api``): the apps' own operations
    (app tools), reads of an app's data, and answers. Each ``yield`` returns the next
    observation; :meth:`result` reads the tool's result from it."""

    @staticmethod
    def call(app: str, tool: str, **args: Any) -> Step:
        return Step("tool", f"{app}.{tool}", json.dumps(args, ensure_ascii=False))

    @staticmethod
    def read(app: str) -> Step:
        return Step("tool", f"{app}.read", "{}")

    @staticmethod
    def plan(ops: list) -> Iterator[Step]:
        """Each operation of a plan (``progress.Op``) called as an app tool, in order."""
        for op in ops:
            yield API.call(op.app, op.op, **dict(op.args))

    @staticmethod
    def result(obs: dict) -> Any:
        text = (obs or {}).get("tool_result") or ""
        return json.loads(text) if text else None
