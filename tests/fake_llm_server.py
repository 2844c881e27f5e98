"""A real HTTP server that speaks the OpenAI chat-completions and Anthropic messages APIs.

It answers with canned replies in order (a string, or a function of the request body that
returns a string), records every request (path, headers, body), and can be told to fail the
next requests with an HTTP status::

    with FakeLLMServer(["Action: click('12')"]) as server:
        agent = OpenAIAgent(model="m", base_url=server.url + "/v1", require_api_key=False)
        ...
        server.requests[0]["body"]["messages"]
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Reply = str | Callable[[dict], str]


class FakeLLMServer:
    def __init__(self, replies: list[Reply] | None = None, default: Reply | None = None) -> None:
        self.replies: list[Reply] = list(replies or [])
        self.default = default
        self.requests: list[dict] = []
        self.failures: list[tuple[int, str, dict]] = []  # (status, body, headers) for the next requests
        self.delay_next: float = 0.0
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- control --------------------------------------------------------------------------------
    def fail_next(self, status: int, times: int = 1, body: str | None = None, headers: dict | None = None) -> None:
        payload = body or json.dumps({"error": {"message": f"fake failure {status}", "type": "server_error"}})
        for _ in range(times):
            self.failures.append((status, payload, dict(headers or {})))

    def add(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeLLMServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError):
                    body = {"_raw": raw.decode("utf-8", "replace")}
                record = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
                with server._lock:
                    server.requests.append(record)
                    failure = server.failures.pop(0) if server.failures else None
                if failure:
                    status, payload, headers = failure
                    self._send(status, payload.encode(), headers)
                    return
                if self.path.rstrip("/").endswith("/chat/completions"):
                    text = server._next_reply(body)
                    self._json(200, server.openai_response(text, body))
                elif self.path.rstrip("/").endswith("/messages"):
                    text = server._next_reply(body)
                    self._json(200, server.anthropic_response(text, body))
                else:
                    self._json(404, {"error": {"message": f"no route {self.path}"}})

            def _json(self, status: int, data: dict) -> None:
                self._send(status, json.dumps(data).encode(), {"Content-Type": "application/json"})

            def _send(self, status: int, payload: bytes, headers: dict) -> None:
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- answers --------------------------------------------------------------------------------
    def _next_reply(self, body: dict) -> str:
        with self._lock:
            reply = self.replies.pop(0) if self.replies else self.default
        if reply is None:
            return "Action: send_msg_to_user('no more canned replies')"
        return reply(body) if callable(reply) else reply

    @staticmethod
    def openai_response(text: str, body: dict) -> dict:
        prompt = len(json.dumps(body.get("messages", []))) // 4
        completion = max(1, len(text) // 4)
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }

    @staticmethod
    def anthropic_response(text: str, body: dict) -> dict:
        prompt = len(json.dumps(body.get("messages", []))) // 4
        completion = max(1, len(text) // 4)
        return {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": prompt, "output_tokens": completion},
        }


# -- reading requests (for reply functions and assertions) ------------------------------------------


def request_texts(body: dict) -> list[str]:
    """Every text part of an OpenAI or Anthropic request body (system included)."""
    out: list[str] = []
    if isinstance(body.get("system"), str):
        out.append(body["system"])
    for msg in body.get("messages", []):
        content = msg.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out.extend(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return out


def request_images(body: dict) -> list[bytes]:
    """Every image of a request body, decoded from base64 (OpenAI data URLs or Anthropic sources)."""
    import base64

    out: list[bytes] = []
    for msg in body.get("messages", []):
        content = msg.get("content")
        if not isinstance(content, list):
            continue
        for p in content:
            if not isinstance(p, dict):
                continue
            if p.get("type") == "image_url":
                url = p["image_url"]["url"]
                out.append(base64.b64decode(url.split(",", 1)[1]))
            elif p.get("type") == "image":
                out.append(base64.b64decode(p["source"]["data"]))
    return out
