"""The admin API answers a malformed request with HTTP 400 and one sentence naming the endpoint
and the key (never a 500 with a traceback), against the real server process."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlparse

import pytest

from openapps_sim.protocol import SECRET_HEADER


def raw(server, method: str, path: str, body: bytes | None) -> tuple[int, dict]:
    u = urlparse(server.url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    try:
        conn.request(
            method, path, body=body, headers={SECRET_HEADER: server.secret, "content-type": "application/json"}
        )
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")
    finally:
        conn.close()


@pytest.mark.parametrize(
    "method, path, body, words",
    [
        ("POST", "/_admin/reset", {"seed": "abc"}, ["POST /_admin/reset: seed: expected a whole number, got 'abc'"]),
        ("POST", "/_admin/reset", {"seed": 1.5}, ["seed: expected a whole number"]),
        (
            "POST",
            "/_admin/reset",
            {"variation": "darktheme"},
            ["unknown name 'darktheme' (did you mean dark_theme?)", "allowed:"],
        ),
        ("POST", "/_admin/reset", {"variation": 7}, ["variation: expected a string"]),
        ("POST", "/_admin/reset", {"overrides": "todo.x=1"}, ["overrides: expected a list of strings"]),
        ("PUT", "/_admin/state", {"todo": {}}, ["PUT /_admin/state: state: missing or not an object"]),
        ("PUT", "/_admin/state", {"state": {"todo": {}}}, ["missing app state"]),
        ("POST", "/_admin/step", {"step": "two"}, ["step: expected a whole number"]),
        ("PUT", "/_admin/seal", {"key": "short"}, ["PUT /_admin/seal: key: expected a string of 16 or more"]),
        (
            "PUT",
            "/_admin/interruptions",
            {"keys": "c1"},
            ["PUT /_admin/interruptions: keys: expected a list of strings"],
        ),
        ("PUT", "/_admin/interruptions", {"apps": [1]}, ["apps: expected a list of strings"]),
        ("GET", "/_admin/events?since=x", None, ["since: expected a whole number, got 'x'"]),
        ("POST", "/_admin/reset", b"{not json", ["/_admin/reset:", "JSON"]),
        ("POST", "/_admin/reset", b"[1, 2]", ["/_admin/reset:", "object"]),
        ("POST", "/_admin/tool", {"app": "todo", "tool": "add_item", "args": {}}, ["title: missing argument"]),
        ("POST", "/_admin/tool", {"app": "todo", "tool": "read", "args": []}, ["args: expected an object"]),
    ],
)
def test_malformed_admin_requests_are_400_with_a_message(server, method, path, body, words):
    server.reset("default", 0)
    payload = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    status, answer = raw(server, method, path, payload)
    assert status == 400, (status, answer)
    for w in words:
        assert w in answer["error"], answer
    assert server.health()["server_errors"] == 0  # nothing counted as a server fault
    assert raw(server, "GET", "/_admin/health", None)[0] == 200  # and it keeps serving


def test_a_good_reset_still_works(server):
    status, answer = raw(server, "POST", "/_admin/reset", json.dumps({"seed": "3", "variation": "dark_theme"}).encode())
    assert status == 200 and answer["seed"] == 3 and answer["variation"] == "dark_theme"
    server.reset("default", 0)
