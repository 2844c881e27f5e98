"""Several isolated worlds in one server process, chosen by the request's Host."""

from __future__ import annotations

import http.client
from urllib.parse import urlparse

import pytest

from openapps_sim.errors import ConfigError


def _get(server, host: str, path: str) -> tuple[int, str]:
    u = urlparse(server.url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host})
        resp = conn.getresponse()
        return resp.status, resp.read().decode()
    finally:
        conn.close()


def test_worlds_are_isolated_and_served_by_host(server):
    a, b = server.new_world(), server.new_world()
    try:
        a.reset("german", 1)
        b.reset("default", 1)
        port = urlparse(server.url).port
        assert a.url == f"http://{a.world_id}.localhost:{port}"
        status_a, page_a = _get(server, f"{a.world_id}.localhost:{port}", "/todo/")
        status_b, page_b = _get(server, f"{b.world_id}.localhost:{port}", "/todo/")
        assert status_a == status_b == 200
        assert a.config()["todo"]["title"] in page_a and a.config()["todo"]["title"] not in page_b
        a.set_state(dict(a.state(), todo={**a.state()["todo"], "items": []}))
        assert not a.state()["todo"]["items"] and b.state()["todo"]["items"]
        assert _get(server, f"w999.localhost:{port}", "/")[0] == 404
        assert _get(server, f"127.0.0.1:{port}", "/")[0] == 200  # the default world
    finally:
        a.close()
        b.close()
    with pytest.raises(ConfigError, match="no world"):
        a.state()
