"""The three kinds of failure an episode can end in, told apart where they happen.

* **infrastructure** -- the browser or the app server died (no agent action caused it): the
  episode is retried once on a restarted worker, then recorded with ``error`` and
  ``error_kind: infrastructure``; left out of every agent metric, counted, run again on --resume.
  Only what the environment did is infrastructure: whatever an agent returns (any string of
  any length or content, any other type) is checked as its action and, when it cannot be one,
  is its invalid action; an exception raised while checking or running it, with the browser
  and the server still answering, is its failed step. Both are counted in its success rate.
* **model service** -- the agent's model API still failed after its own retries (an
  :class:`~openapps_sim.errors.InfrastructureError` raised by ``agent.act`` or ``agent.reset``):
  tried once more without restarting the browser and server (they are fine), then recorded with
  ``error_kind: model_service``; left out of every agent metric, counted, run again on
  --resume. A permanent one (a rejected key, an unknown model) stops the sweep instead.
* **the agent's own exception** -- any other exception of ``agent.act`` / ``agent.reset`` (the
  oracle's ``OracleError`` included): the episode ends there as a failed episode of that agent
  (``agent_error``), counted in its success rate and never run again. So does a hang in the
  agent's turn, or its worker's death there (the memory it ate): the sweep's watchdog tells the
  agent's time from the environment's by the worker's heartbeat (:mod:`.heartbeat`,
  :mod:`.executors`).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from openapps_sim.errors import ConfigError, InfrastructureError
from openapps_sim.sweeps.record import MODEL_SERVICE


def call_agent(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, tuple[str, str] | None]:
    """``(fn(...), None)``, or ``(None, (error, traceback))`` when the agent itself raised.

    A :class:`ConfigError` (the user's mistake) and a failure of the agent's model service
    (an :class:`InfrastructureError`, marked ``error_kind = model_service`` for the runner)
    propagate: neither is the agent's doing."""
    try:
        return fn(*args, **kwargs), None
    except ConfigError:
        raise
    except InfrastructureError as exc:
        exc.error_kind = MODEL_SERVICE
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the agent's own failure, recorded as such
        said = str(exc) or ("out of memory" if isinstance(exc, MemoryError) else "")
        return None, (f"{type(exc).__name__}: {said}"[:2000], traceback.format_exc()[-4000:])


def page_url(env) -> str:
    try:
        return env.unwrapped.page.url
    except Exception:  # noqa: BLE001 - a closed page has no URL to report
        return ""


def infrastructure_fault(env) -> str | None:
    """Why the environment itself is broken (a dead browser or a broken world), else None.

    Asked after ``env.step`` raised: when both still answer, the exception was caused by the
    agent's action and is the agent's failure, never an infrastructure error. The text backend
    has no browser: only its world is asked.
    """
    u = env.unwrapped
    if u.backend != "text":
        try:
            if u.browser is None or not u.browser.is_connected():
                return "the browser is gone"
            u.browser.new_context().close()  # a round trip to the browser process itself
        except Exception as exc:  # noqa: BLE001 - any failure here means the browser is unusable
            return f"the browser does not answer ({type(exc).__name__})"
    try:
        u.task.evaluate_now(None, page_url(env))  # reads the whole state of the world
    except Exception as exc:  # noqa: BLE001
        return f"the world does not answer ({type(exc).__name__})"
    return None
