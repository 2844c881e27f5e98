"""The routes an in-memory call looks up (:meth:`~openapps_sim.web.server.AppServer.call`),
found as Starlette's router finds them, without trying the regex of every route of every app.

A route whose path starts with a literal segment (``/todo/...``, ``/_static/...``, ``/``) can
only match a path whose first segment is that literal: its regex is ``^/todo`` (escaped)
followed by ``/`` or the end. A request is matched against the routes of its first segment and
the routes whose first segment holds a parameter, in the order they were added, which is the
order Starlette tries them in: the first route that matches is the same route.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.routing import compile_path

# (method, path regex, convertors, endpoint), as Starlette's router keeps them
Route = tuple[str, Any, dict, Callable]


class RouteTable:
    """Routes in the order they were added, indexed by the literal first segment of their path."""

    def __init__(self) -> None:
        self.routes: list[Route] = []
        self._literal: list[str | None] = []  # each route's literal first segment (None: a parameter)
        self._index: dict[str, list[Route]] | None = None  # first segment -> the routes to try
        self._wild: list[Route] = []  # the routes to try for a segment no route names

    def add(self, method: str, path: str, endpoint: Callable) -> None:
        regex, _, convertors = compile_path(path)
        first = path.split("/", 2)[1] if path.startswith("/") else None
        self.routes.append((method, regex, convertors, endpoint))
        self._literal.append(None if first is None or "{" in first else first)
        self._index = None

    def candidates(self, path: str) -> list[Route]:
        """The routes that may match ``path``, in the order they were added."""
        if not path.startswith("/"):
            return self.routes
        if self._index is None:
            self._build_index()
        first = path.split("/", 2)[1]
        found = self._index.get(first)
        return self._wild if found is None else found

    def _build_index(self) -> None:
        index: dict[str, list[Route]] = {}
        for name in {n for n in self._literal if n is not None}:
            index[name] = [r for r, n in zip(self.routes, self._literal, strict=True) if n is None or n == name]
        self._wild = [r for r, n in zip(self.routes, self._literal, strict=True) if n is None]
        self._index = index

    def find(self, method: str, path: str) -> tuple[Callable, dict] | str | int | None:
        """The endpoint and path parameters of ``method path``; else, as Starlette's router: the
        path to redirect to when only the same path with(out) a trailing slash has a route, 405
        when only another method has one, or None."""
        other_method = False
        for route_method, regex, convertors, endpoint in self.candidates(path):
            m = regex.match(path)
            if m is not None and route_method == method:
                return endpoint, {k: convertors[k].convert(v) for k, v in m.groupdict().items()}
            other_method = other_method or m is not None
        if other_method:
            return 405
        other = path[:-1] if path.endswith("/") else path + "/"
        if other and any(regex.match(other) for _, regex, _, _ in self.candidates(other)):
            return other
        return None
