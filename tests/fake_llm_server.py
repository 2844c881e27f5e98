"""A real HTTP server that speaks the OpenAI chat-completions and Anthropic messages APIs.

By default it is a stand-in *model*: :class:`PromptReader` (and :class:`UITarsReader` for the
UI-TARS conversation) answers by reading the prompt it is sent — the goal, the element ids,
its own earlier thoughts and the last error — never from a script of canned steps. Tests of
parsing and accounting can still queue literal replies (a string, or a function of the request
body). It records every request (path, headers, body), and can be told to fail the next
requests with an HTTP status, a non-JSON or a truncated 200 body::

    with FakeLLMServer(["Action: click('12')"]) as server:
        agent = OpenAIAgent(model="m", base_url=server.url + "/v1", require_api_key=False)
        ...
        server.requests[0]["body"]["messages"]
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Reply = str | Callable[[dict], str]


class FakeLLMServer:
    def __init__(self, replies: list[Reply] | None = None, default: Reply | None = None) -> None:
        self.replies: list[Reply] = list(replies or [])
        self.default = default if default is not None else PromptReader()
        self.requests: list[dict] = []
        self.failures: list[tuple[int, str, dict]] = []  # (status, body, headers) for the next requests
        self.delay_next: float = 0.0
        self._lock = threading.Lock()
        self._local = threading.local()  # the request each handler thread is answering
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- control --------------------------------------------------------------------------------
    def fail_next(self, status: int, times: int = 1, body: str | None = None, headers: dict | None = None) -> None:
        payload = body or json.dumps({"error": {"message": f"fake failure {status}", "type": "server_error"}})
        for _ in range(times):
            self.failures.append((status, payload, dict(headers or {})))

    def truncate_next(self, times: int = 1) -> None:
        """The next answers are HTTP 200 with a body cut short (the connection drops)."""
        for _ in range(times):
            self.failures.append((200, '{"choices": [{"message": {"content": "Act', {"_truncate": True}))

    def request_headers(self) -> dict:
        """The headers (lower-case names) of the request being answered, for a reply function:
        each request is answered on a thread of its own."""
        return dict(getattr(self._local, "headers", {}))

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
                    if headers.pop("_truncate", None):  # promise more bytes than sent, then hang up
                        self.send_response(status)
                        self.send_header("Content-Length", str(len(payload) + 100))
                        self.end_headers()
                        self.wfile.write(payload.encode())
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    self._send(status, payload.encode(), headers)
                    return
                api = next(
                    (a for a in ("chat/completions", "messages") if self.path.rstrip("/").endswith("/" + a)), None
                )
                if api:
                    server._local.headers = record["headers"]
                    self._json(200, server.response(api, server._next_reply(body), body))
                else:
                    self._json(404, {"error": {"message": f"no route {self.path}"}})

            def do_GET(self) -> None:  # noqa: N802 - the /v1/models health check
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
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
        return reply(body) if callable(reply) else reply

    @staticmethod
    def response(api: str, text: str, body: dict) -> dict:
        """``text`` as the answer of ``api``: ``chat/completions`` (OpenAI) or ``messages`` (Anthropic)."""
        prompt, completion = _token_counts(text, body)
        if api == "messages":
            return {
                "id": "msg_fake",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", ""),
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": prompt, "output_tokens": completion},
            }
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 1700000000,  # required by the OpenAI schema (openai-python, verifiers)
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }


def _token_counts(text: str, body: dict) -> tuple[int, int]:
    """Rough token counts of the request's messages and of the answer: four characters a token."""
    return len(json.dumps(body.get("messages", []))) // 4, max(1, len(text) // 4)


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


# -- a stand-in model that reads the prompt -------------------------------------------------------


def _last_user_text(body: dict) -> str:
    """The text of the request's observation message (the first user message of the turn)."""
    for msg in body.get("messages", []):
        if msg.get("role") != "user":
            continue
        content = msg.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


@dataclass
class Reading:
    """What the model read in one prompt."""

    goal: str
    page: str  # path of the current page
    tree: str
    steps: list[dict]  # {"number", "page", "thought", "action", "result"} of the previous steps
    last_error: str  # the "Your last action ... failed" line, "" when there is none


_STEP = re.compile(
    r"^Step (\d+), on (\S*):\n(?:  Thought: (.*)\n)?  Action: (.*)\n(?:  Note: .*\n)?  Result: (.*)$", re.M
)


def read_prompt(text: str) -> Reading:
    goal = re.search(r"^Task: (.*)$", text, re.M)
    page = re.search(r"^Current page: (\S*)", text, re.M)
    tree = text.split("Accessibility tree of the page:\n", 1)[1] if "Accessibility tree of the page:" in text else ""
    error = re.search(r"^Your last action \(step \d+\) failed: (.*)$", text, re.M)
    steps = [
        {"number": int(m[1]), "page": m[2], "thought": m[3] or "", "action": m[4], "result": m[5]}
        for m in _STEP.finditer(text)
    ]
    url = page.group(1) if page else ""
    return Reading(
        goal=goal.group(1) if goal else "",
        page="/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/",
        tree=tree,
        steps=steps,
        last_error=error.group(1) if error else "",
    )


def goal_parts(goal: str) -> list[tuple[str, dict]]:
    """The sub-goals this model knows, in the order the goal names them."""
    parts = []
    m = re.search(r"(?:send|Send) '(.+?)' to (.+?) in the messenger", goal)
    m = m or re.search(r"write to (?P<c>.+?): '(?P<t>.+?)'", goal)
    m = m or re.search(r"Message (?P<c>.+?) with the text '(?P<t>.+?)'", goal)
    if m:
        text, contact = (m.group(1), m.group(2)) if "c" not in m.groupdict() else (m.group("t"), m.group("c"))
        parts.append((m.start(), ("message", {"contact": contact, "text": text})))
    for t in re.finditer(r"'([^']+)'", goal):
        rest = goal[t.end() : t.end() + 40].lower()
        before = goal[max(0, t.start() - 30) : t.start()].lower()
        if "todo" in rest or "to-do" in rest or "todo item" in before:
            parts.append((t.start(), ("todo", {"title": t.group(1)})))
    return [p for _, p in sorted(parts, key=lambda x: x[0])]


def find_bid(tree: str, role: str, name_pattern: str) -> str | None:
    m = re.search(rf"\[(\w+)\] {role} ['\"]{name_pattern}", tree)
    return m.group(1) if m else None


class PromptReader:
    """Answers a web-agent prompt by reading it, as a model would.

    It finds the goal (``Task:``), the current page and the bids it needs in the tree, and its
    progress in its *own previous thoughts* (it writes ``progress: todo=done ...`` in each
    thought and reads it back: without thoughts in the history it would redo finished parts).
    With ``clumsy`` it makes one mistake per episode (a bid that is not on the page) and goes on
    only once the prompt reports that step's error; without errors in the prompt it repeats it.
    """

    def __init__(self, clumsy: bool = False) -> None:
        self.clumsy = clumsy
        self.prompts: list[Reading] = []

    def __call__(self, body: dict) -> str:
        reading = read_prompt(_last_user_text(body))
        self.prompts.append(reading)
        return self.answer(reading)

    def answer(self, r: Reading) -> str:
        parts = goal_parts(r.goal)
        if not parts:
            return (
                "<think>I cannot tell what the task asks.</think>\n<action>report_infeasible('unclear task')</action>"
            )
        done = set()
        last = r.steps[-1] if r.steps else None
        if last:
            m = re.search(r"progress: done=\[([^\]]*)\]", last["thought"])
            done = {d for d in (m.group(1).split(",") if m else []) if d}
            finishing = re.search(r"finishing (\w+)", last["thought"])
            if finishing and last["result"] == "ok":
                done.add(finishing.group(1))
        mistake_seen = any("no element with bid '999999'" in s["result"] for s in r.steps)
        todo = [(kind, p) for kind, p in parts if kind not in done]
        progress = f"progress: done=[{','.join(sorted(done))}]"
        if not todo:
            return f"<think>{progress}. Everything the task asks is done.</think>\n<action>send_msg_to_user('done')</action>"
        kind, p = todo[0]
        if self.clumsy and not mistake_seen:
            return f"<think>{progress}. Let me try element 999999.</think>\n<action>click('999999')</action>"
        seen = f" The last action failed ({r.last_error[:60]}); trying again properly." if r.last_error else ""
        action, finishing = self._step(kind, p, r, last)
        fin = f" finishing {kind}" if finishing else ""
        return f"<think>{progress}.{seen} Working on {kind}:{fin} {action}</think>\n<action>{action}</action>"

    def _step(self, kind: str, p: dict, r: Reading, last: dict | None) -> tuple[str, bool]:
        app = "todo" if kind == "todo" else "messenger"
        if not r.page.startswith(f"/{app}/"):
            if r.page != "/":
                return f"click('{find_bid(r.tree, 'link', 'Home')}')", False
            return f"click('{find_bid(r.tree, 'link', app.capitalize())}')", False
        last_ok = last is not None and last["result"] == "ok"
        if kind == "todo":
            box = find_bid(r.tree, "textbox", "")
            fill = f"fill('{box}', {p['title']!r})"
            if last_ok and last["action"] == fill:
                return f"click('{find_bid(r.tree, 'button', 'Add')}')", True
            return fill, False
        box = find_bid(r.tree, "textbox", "Write a message")
        if box is None or not find_bid(r.tree, "heading", re.escape(p["contact"]) + "['\"]"):
            link = find_bid(r.tree, "link", re.escape(p["contact"]))
            return f"click('{link}')", False
        fill = f"fill('{box}', {p['text']!r})"
        if last_ok and last["action"] == fill:
            return f"click('{find_bid(r.tree, 'button', 'Send')}')", True
        return fill, False


class UITarsReader:
    """A stand-in UI-TARS-1.5: reads the instruction, its own earlier answers and the errors
    in the conversation; sees where things are through ``eyes()`` ({testid: (fx, fy)} as
    fractions of the screen, what a vision model would locate) and answers in the frame of
    the image it was sent (smart_resize of the PNG's own size), so a wrong mapping misses.

    Its first answer clicks outside the image; it goes on only when the conversation reports
    that failure *in its own numbers and frame* (model space)."""

    def __init__(self, eyes: Callable[[], dict]) -> None:
        self.eyes = eyes
        self.frames: list[tuple[int, int]] = []
        self.errors: list[str] = []

    def __call__(self, body: dict) -> str:
        import io

        from openapps_sim.agents.uitars import smart_resize
        from PIL import Image

        texts = request_texts(body)
        goal = texts[0].split("## User Instruction\n", 1)[1].strip()
        mine = [m["content"] for m in body["messages"] if m["role"] == "assistant"]
        stage = int(re.search(r"stage=(\d+)", mine[-1]).group(1)) if mine else -1
        failures = [t for t in texts if t.startswith("That action failed")]
        self.errors = failures
        width, height = Image.open(io.BytesIO(request_images(body)[-1])).size
        mh, mw = smart_resize(height, width)
        self.frames.append((mw, mh))
        screen = self.eyes()

        def box(testid: str) -> str:
            fx, fy = screen[testid]
            return f"<|box_start|>({round(fx * mw)},{round(fy * mh)})<|box_end|>"

        if stage == -1:
            return f"Thought: stage=0 probing.\nAction: click(start_box='({mw + 40},{mh // 2})')"
        if stage == 0:
            wanted = f"point ({mw + 40}, {mh // 2}) is outside the {mw}x{mh} screenshot"
            if not failures or wanted not in failures[-1]:
                return f"Thought: stage=0 the error did not speak my frame.\nAction: click(start_box='({mw + 40},{mh // 2})')"
            return f"Thought: stage=1 open the todo app.\nAction: click(start_box='{box('launch-todo')}')"
        if stage == 1:
            return f"Thought: stage=2 click the text field.\nAction: click(start_box='{box('todo-new-title')}')"
        title = re.search(r"'([^']+)'", goal).group(1)
        return f"Thought: stage=3 type and submit.\nAction: type(content='{title}\\n')"


class ConversationReader:
    """:class:`PromptReader` for a conversation that grows by one turn per step (the verifiers
    environment's, docs/training.md): each user message is one observation (``Task:``,
    ``Current page:``, the tree, ``Your last action failed: ...``), each assistant message one
    earlier answer. It rebuilds the one prompt :class:`PromptReader` reads (the earlier steps
    from its own answers, each step's result from the observation after it) and answers as it
    would. ``spoil`` maps a text of the goal to another: the model then pursues a wrong goal
    (fills in the wrong title, declares it done), for tests that need reward 0."""

    def __init__(self, spoil: dict[str, str] | None = None) -> None:
        self.reader = PromptReader()
        self.spoil = dict(spoil or {})

    def __call__(self, body: dict) -> str:
        messages = [m for m in body.get("messages", []) if m.get("role") in ("user", "assistant")]
        users = [_text_of(m) for m in messages if m["role"] == "user"]
        answers = [_text_of(m) for m in messages if m["role"] == "assistant"]
        page = re.compile(r"^Current page: (\S*)", re.M)
        steps = []
        for i, answer in enumerate(answers):
            thought = re.search(r"<think>(.*?)</think>", answer, re.S)
            action = re.search(r"<action>(.*?)</action>", answer, re.S)
            url = page.search(users[i])
            error = re.search(r"^Your last action failed: (.*)$", users[i + 1], re.M) if i + 1 < len(users) else None
            steps.append(
                f"Step {i + 1}, on {url.group(1) if url else ''}:\n"
                f"  Thought: {' '.join((thought.group(1) if thought else '').split())}\n"
                f"  Action: {action.group(1).strip() if action else answer.strip()}\n"
                f"  Result: {error.group(1) if error else 'ok'}"
            )
        last = users[-1] if users else ""
        goal, _, rest = last.partition("\n")
        for old, new in self.spoil.items():
            goal = goal.replace(old, new)
        return self.reader.answer(read_prompt("\n".join([goal, "", *steps, "", rest])))


def _text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")
