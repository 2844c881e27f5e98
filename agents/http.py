"""JSON over HTTP with the standard library: retries with back-off, errors that name the URL."""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from openapps_sim.agent import calling_model_service
from openapps_sim.errors import InfrastructureError

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}
# answers that will be the same for every request of a run: wrong key, no access, unknown model
PERMANENT_STATUS = {401, 403, 404}
# a 400 with one of these words: the prompt does not fit the model (every episode's will not)
_CONTEXT_WORDS = ("context length", "context_length", "maximum context", "context window", "too long", "max_model_len")


class LLMError(InfrastructureError):
    """A model server could not be used (unreachable, refused the request, bad answer)."""


class LLMUnreachable(LLMError):
    pass


class LLMTimeout(LLMError):
    pass


class LLMHTTPError(LLMError):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status
        self.permanent = status in PERMANENT_STATUS or (
            status == 400 and any(w in message.lower() for w in _CONTEXT_WORDS)
        )

    def __reduce__(self):  # picklable across sweep worker processes
        return (type(self), (str(self), self.status))


class LLMResponseError(LLMError):
    pass


@dataclass
class PostResult:
    data: dict
    attempts: int
    seconds: float


def post_json(
    url: str,
    body: dict,
    headers: dict[str, str],
    timeout: float = 60.0,
    retries: int = 3,
    backoff: float = 1.0,
    max_backoff: float = 30.0,
    sleep: Callable[[float], None] = time.sleep,
) -> PostResult:
    """POST ``body`` as JSON and return the decoded JSON answer.

    Retries up to ``retries`` times on HTTP 408/409/425/429/5xx, time-outs, dropped
    connections and 200 answers whose body is cut short or not JSON, waiting ``backoff * 2**attempt`` seconds (or the server's ``Retry-After``),
    at most ``max_backoff``. A refused connection or an unknown host fails at once with an
    error that names the URL; other HTTP errors fail at once with the server's message.
    """
    payload = json.dumps(body).encode("utf-8")
    all_headers = {"Content-Type": "application/json", "Accept": "application/json", **headers}
    start = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        request = urllib.request.Request(url, data=payload, headers=all_headers, method="POST")
        try:
            with calling_model_service():  # a sweep's watchdog counts this wait as the service's
                data = _post_once(request, url, timeout, attempt)
        except _Transient as failure:
            if attempt > retries:
                raise failure.error from None
            wait = min(max_backoff, backoff * (2 ** (attempt - 1)))
            with calling_model_service():
                sleep(min(max_backoff, failure.retry_after) if failure.retry_after is not None else wait)
            continue
        return PostResult(data, attempt, time.monotonic() - start)


class _Transient(Exception):
    """A failure that another attempt may not meet; ``error`` is raised once none is left."""

    def __init__(self, error: LLMError, retry_after: float | None = None):
        super().__init__(str(error))
        self.error, self.retry_after = error, retry_after


def _post_once(request: urllib.request.Request, url: str, timeout: float, attempt: int) -> dict:
    """One POST and its decoded JSON object; a failure worth retrying raised as :class:`_Transient`."""
    timed_out = LLMTimeout(f"{url} did not answer within {timeout:g} s ({attempt} attempts)")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            raw = resp.read()
    except urllib.error.HTTPError as e:
        tries = f" after {attempt} attempts" if attempt > 1 else ""
        error = LLMHTTPError(f"{url} answered HTTP {e.code}{tries}: {_error_detail(e)}", e.code)
        if e.code in RETRY_STATUS:
            raise _Transient(error, _retry_after(e)) from None
        raise error from None
    except urllib.error.URLError as e:
        reason = e.reason
        if _is_timeout(reason):
            raise _Transient(timed_out) from None
        error = LLMUnreachable(
            f"cannot reach the model server at {url} ({reason}); is it running and is base_url right?"
        )
        if isinstance(reason, (ConnectionResetError, ConnectionAbortedError)):
            raise _Transient(error) from None
        raise error from None
    except TimeoutError:
        raise _Transient(timed_out) from None
    except (http.client.RemoteDisconnected, ConnectionResetError, http.client.IncompleteRead) as e:
        raise _Transient(LLMUnreachable(f"the model server at {url} dropped the connection ({e})")) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        # a body cut short or mangled on the way is a transport failure: try again
        error = LLMResponseError(f"{url} answered with something that is not JSON ({attempt} attempts): {raw[:300]!r}")
        raise _Transient(error) from None
    if not isinstance(data, dict):
        raise LLMResponseError(f"{url} answered with JSON that is not an object: {str(data)[:300]}")
    return data


def _is_timeout(reason) -> bool:
    return isinstance(reason, (TimeoutError, socket.timeout)) or "timed out" in str(reason)


def _retry_after(e: urllib.error.HTTPError) -> float | None:
    value = e.headers.get("Retry-After") if e.headers else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _error_detail(e: urllib.error.HTTPError) -> str:
    try:
        raw = e.read().decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - the body is only used for the message
        raw = ""
    try:
        data = json.loads(raw)
        err = data.get("error", data) if isinstance(data, dict) else data
        if isinstance(err, dict):
            return str(err.get("message") or err)[:500]
        return str(err)[:500]
    except (json.JSONDecodeError, ValueError):
        return raw.strip()[:500] or e.reason
