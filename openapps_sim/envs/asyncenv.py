"""Environments used from asyncio: ``await env.reset(...)``, ``await env.step(action)``.

An env's calls block (a page rendered, parsed and laid out; a browser driven), so an
:class:`AsyncEnv` runs each one in a thread pool and the event loop keeps running meanwhile:
other sessions, a model client awaiting its replies, a server's sockets. One env's calls run
one at a time (each awaits the last); envs of one process run in the pool's threads side by
side. The text backend (``backend="text"``) is the one to use from many coroutines: a
Chromium env is bound to the thread that made it (Playwright), which a pool cannot promise.

Close an env when done (``await env.close()``, or ``async with``); one that is dropped unclosed
frees its world all the same (the app server keeps worlds by weak reference).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from openapps_sim.envs.registration import make_env

_POOL: ThreadPoolExecutor | None = None
T = TypeVar("T")


def env_pool() -> ThreadPoolExecutor:
    """The process's pool for env calls (made at first use; 32 threads: a thread waiting on a
    browser or a model holds no CPU, so more threads than cores keep the envs busy)."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=32, thread_name_prefix="openapps-env")
    return _POOL


class AsyncEnv:
    """An env (a gymnasium env, e.g. of :func:`~openapps_sim.envs.registration.make_env`) whose
    ``reset``, ``step`` and ``close`` are coroutines run in ``pool`` (default :func:`env_pool`)."""

    def __init__(self, env, pool: ThreadPoolExecutor | None = None):
        self.env = env
        self.pool = pool or env_pool()

    async def _call(self, fn, *args, **kwargs) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args, **kwargs))

    async def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        return await self._call(self.env.reset, seed=seed, options=options)

    async def step(self, action: str) -> tuple[dict, float, bool, bool, dict]:
        return await self._call(self.env.step, action)

    async def close(self) -> None:
        env, self.env = self.env, None
        if env is not None:
            await self._call(env.close)

    async def __aenter__(self) -> AsyncEnv:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    @property
    def unwrapped(self):
        return self.env.unwrapped


async def make_async_env(family: str, backend: str = "text", pool: ThreadPoolExecutor | None = None, **kwargs):
    """:func:`~openapps_sim.envs.registration.make_env` made in the pool (making an env may start
    the process's app server), as an :class:`AsyncEnv`."""
    env = AsyncEnv(None, pool)
    env.env = await env._call(make_env, family, backend=backend, **kwargs)
    return env


def run_coroutine(factory: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run(factory())`` on a thread of its own, its result or its exception: a thread
    that used Playwright's sync API (a Chromium env) keeps Playwright's event loop set, where
    ``asyncio.run`` refuses to start, so blocking callers never run a loop on their own thread."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(factory())
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=target, name="openapps-run-coroutine")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
