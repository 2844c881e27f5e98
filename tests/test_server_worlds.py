"""Several isolated worlds served by one app server (a thread of this process), chosen by the
request's Host; a world kept in memory only (the text backend's) is not served at all."""

from __future__ import annotations

import http.client

from openapps_sim.web.server import AppServer


def _get(port: int, host: str, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host})
        resp = conn.getresponse()
        return resp.status, resp.read().decode()
    finally:
        conn.close()


def test_worlds_are_isolated_and_served_by_host():
    server = AppServer()
    a, b = server.add(), server.add()
    unserved = server.add(served=False)
    try:
        a.reset("german", 1)
        b.reset("default", 1)
        port = server.port
        assert a.url == f"http://{a.id}.localhost:{port}" and unserved.url == f"http://{unserved.id}.localhost"
        status_a, page_a = _get(port, f"{a.id}.localhost:{port}", "/todo/")
        status_b, page_b = _get(port, f"{b.id}.localhost:{port}", "/todo/")
        assert status_a == status_b == 200
        assert a.config["todo"]["title"] in page_a and a.config["todo"]["title"] not in page_b
        a.set_state(dict(a.state, todo={**a.app_state("todo"), "items": []}))
        assert not a.app_state("todo")["items"] and b.app_state("todo")["items"]
        assert _get(port, f"w999.localhost:{port}", "/")[0] == 404
        assert _get(port, f"127.0.0.1:{port}", "/")[0] == 404  # no default world: only worlds' own origins
        assert _get(port, f"{unserved.id}.localhost:{port}", "/todo/")[0] == 404
        assert server.call(unserved, "GET", "/todo/")[0] == 200  # in memory, to its holder
        server.drop(a)
        assert _get(port, f"{a.id}.localhost:{port}", "/todo/")[0] == 404  # dropped: served no more
        del b
        assert _get(port, f"w2.localhost:{port}", "/todo/")[0] == 404  # held by no one: gone
    finally:
        server.stop()
