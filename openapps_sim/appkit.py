"""The one interface through which an app plugs into the engine.

An app is a Python package under ``apps/<name>/`` whose ``__init__`` exposes ``APP``, an :class:`AppSpec`:

* ``name`` — used in URLs (``/<name>/``), state keys, pack keys and task ids;
* ``schema`` — a :class:`~openapps_sim.config.schema.Record` for its configuration section;
* ``content`` — the path of its base content YAML (the ``default`` look and data);
* ``initial_state(config, rng)`` — the app's state, a JSON-serialisable dict, from its config and seed;
* ``routes`` — where the page handlers are (a dotted module path, ``"module:attribute"`` or
  the object): an :class:`AppRoutes` they are registered on (``@routes.get("/")``), or a
  function ``routes(r)`` registering them on the server's; importing the app never imports them;
* ``home`` — the app served at ``/`` (the start page) instead of ``/<name>/``;
* ``icon_svg`` — the app's launcher icon, an SVG path string (``d`` of a 24×24 ``<path>``);
* ``normalise(state)`` — the state as compared by rewards (see docs/tasks.md);
* ``item_keys`` — the natural key of the items of each list in the normalised state, so that
  explanations match items by identity (``{"items": ItemKey("title", "todo")}``);
* ``operations`` — the module of its operations (:func:`operation`, ``fn(ctx, **args)``): each one state
  change (plus its ``ctx.log``) that its pages call and agents call as *app tools* (MCP tools,
  ``todo.add_item(title='milk')`` actions);
* ``showcase(state, config)`` — pages worth a look beyond the first (:class:`Showcase`, for ``openapps gallery``).

Handlers receive an :class:`AppContext` (the app's config, state, strings, a logger of state changes)
and the request parameters, and return page content or a redirect; never another app's state.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openapps_sim.config.appearance import THEME
from openapps_sim.config.catalog import Undrawn
from openapps_sim.config.schema import Partial, Record, Str, overlay
from openapps_sim.errors import ConfigError
from openapps_sim.protocol import MAX_TEXT_CHARS, too_long

if TYPE_CHECKING:
    from starlette.responses import Response

Handler = Callable[["AppContext", dict], Any]
Renderer = Callable[["AppContext", str, tuple], str]

COMMON_FIELDS = {
    "title": Str(doc="the app's name on the start page and in its top bar"),
    "description": Str("", doc="the app's description on the start page"),
    "icon": Str("", doc="name of the icon on the start page (default: the app's own)"),
    "theme": Partial(THEME, doc="theme values for this app's pages only, laid over the global theme"),
}


@dataclass(frozen=True)
class ItemKey:
    """The identity of the items of one list in an app's normalised state: the field(s) that
    name an item (its natural key) and what one item is called, for explanations such as
    ``missing todo 'buy oat milk'``. Several items may share a key (two events with one title)."""

    fields: tuple[str, ...]
    noun: str = ""

    def __init__(self, fields: str | tuple[str, ...], noun: str = ""):
        object.__setattr__(self, "fields", (fields,) if isinstance(fields, str) else tuple(fields))
        object.__setattr__(self, "noun", noun)


@dataclass(frozen=True)
class Showcase:
    """One page of an app worth a look: ``path`` below the app's prefix, reached after running
    the app ``tools`` (``(operation, args)`` pairs) on a fresh world, e.g. to fill a cart."""

    label: str
    path: str
    tools: tuple[tuple[str, dict], ...] = ()


@dataclass
class AppSpec:
    name: str
    schema: Record
    content: Path
    initial_state: Callable[[dict, random.Random], dict]
    routes: str | AppRoutes | Callable[[AppRoutes], None]
    normalise: Callable[[dict], dict] = lambda state: state
    order: int = 50
    icon_svg: str = ""
    css: str = ""
    # list path in the normalised state ('items'; '*' for any mapping key) -> item identity
    item_keys: dict[str, ItemKey] = field(default_factory=dict)
    home: bool = False
    operations: str | None = None  # dotted module path of the app's operations (app tools)
    showcase: Callable[[dict, dict], list[Showcase]] | None = None  # (state, config) -> pages to show
    category: str = ""  # its Google Play category ("Productivity"); see docs/apps/spec.md

    @property
    def url_prefix(self) -> str:
        """Where the app's pages live: ``""`` for the home app, else ``/<name>``."""
        return "" if self.home else f"/{self.name}"

    def register_routes(self, r: AppRoutes) -> None:
        """Import the app's route module (if given by name) and register its handlers on ``r``."""
        routes = self.routes
        if isinstance(routes, str):
            module, _, attr = routes.partition(":")
            routes = getattr(importlib.import_module(module), attr or "routes")
        if isinstance(routes, AppRoutes):
            r.routes.extend(routes.routes)
        else:
            routes(r)

    @classmethod
    def from_package(cls, package: str, **fields: Any) -> AppSpec:
        """The spec of an app laid out the usual way: ``<package>.schema.SCHEMA``,
        ``<package>.model.initial_state`` (and ``normalise`` and ``ITEM_KEYS`` if it has them),
        ``<package>.style.CSS``, ``content.yaml`` next to them and the handlers in
        ``<package>.routes`` (imported only when the server builds its routes). ``fields``
        sets or overrides any other field (``order``, ``icon_svg``, ``home`` ...)."""
        schema = importlib.import_module(f"{package}.schema")
        model = importlib.import_module(f"{package}.model")
        style = importlib.import_module(f"{package}.style")
        folder = Path(importlib.import_module(package).__file__).parent
        spec: dict[str, Any] = {
            "name": package.rsplit(".", 1)[-1],
            "schema": schema.SCHEMA,
            "content": folder / "content.yaml",
            "initial_state": model.initial_state,
            "routes": f"{package}.routes",
            "css": style.CSS,
        }
        if hasattr(model, "normalise"):
            spec["normalise"] = model.normalise
        if hasattr(model, "ITEM_KEYS"):
            spec["item_keys"] = model.ITEM_KEYS
        if hasattr(model, "showcase"):
            spec["showcase"] = model.showcase
        if importlib.util.find_spec(f"{package}.operations") is not None:
            spec["operations"] = f"{package}.operations"
        spec.update(fields)
        return cls(**spec)

    def load_operations(self) -> dict[str, Operation]:
        """The app's operations by name, in the order its module defines them (none without
        an operations module)."""
        if not self.operations:
            return {}
        module = importlib.import_module(self.operations)
        found = [v for v in vars(module).values() if isinstance(v, Operation)]
        return {op.name: op for op in found}

    def full_schema(self) -> Record:
        """The app's schema plus the fields every app has (title, description, icon)."""
        fields = dict(COMMON_FIELDS)
        fields.update(self.schema.fields)
        return Record(fields)


@dataclass
class Route:
    method: str
    path: str
    handler: Handler


@dataclass
class AppRoutes:
    routes: list[Route] = field(default_factory=list)

    def get(self, path: str) -> Callable[[Handler], Handler]:
        return self._add("GET", path)

    def post(self, path: str) -> Callable[[Handler], Handler]:
        return self._add("POST", path)

    def _add(self, method: str, path: str) -> Callable[[Handler], Handler]:
        def deco(fn: Handler) -> Handler:
            self.routes.append(Route(method, path, fn))
            return fn

        return deco


class WorldView:
    """The world an app sees (every app's config and state, the seed, the apps, the event log): a
    plan runs on a bare one; the web layer's ``World`` adds reset, pages, interruptions."""

    def __init__(self, config: dict | None = None, state: dict | None = None, seed: int = 0) -> None:
        self.apps: dict[str, AppSpec] = {}
        self.config, self.state, self.seed = config or {}, state if state is not None else {}, seed
        self.events: list[dict] = []

    def app_state(self, app: str) -> dict:
        """App ``app``'s state, drawn first if the world has not read it yet (``catalog.Undrawn``)."""
        value = self.state[app]
        if type(value) is Undrawn:
            value = self.state[app] = value.draw()
        return value

    def log(self, app: str, op: str, args: dict, by: str = "agent") -> None:  # by="world": made by the world
        extra = {} if by == "agent" else {"by": by}
        self.events.append({"i": len(self.events), "app": app, "op": op, "args": args, **extra})


class AppContext:
    """What a handler sees of the world: its own app's config and state, nothing more.

    ``render`` wraps page content in the page shell; the server passes it in, so this contract
    imports nothing from the web layer."""

    def __init__(self, world: WorldView, app: AppSpec, request: Any, render: Renderer | None = None):
        self.world = world
        self.app = app
        self.request = request
        self._render = render  # the page shell, given by the web layer that serves the app
        self.operation = ""  # the operation running on this context (set by :class:`Operation`)

    @property
    def config(self) -> dict:
        return self.world.config[self.app.name]

    @property
    def state(self) -> dict:
        return self.world.app_state(self.app.name)

    @property
    def theme(self) -> dict:
        """The theme of this app's pages: the global theme with the app's own ``theme`` over it."""
        return overlay(self.world.config["theme"], self.config.get("theme") or {})

    @property
    def strings(self) -> dict:
        return self.config.get("strings", {})

    def t(self, key: str, **fmt: Any) -> str:
        """A UI string from the config (``strings.<key>``), formatted with ``fmt``."""
        text = self.strings.get(key, key)
        return text.format(**fmt) if fmt else text

    @property
    def seed(self) -> int:
        return self.world.seed

    def log(self, /, **args: Any) -> None:  # any argument name, self too
        """Record the state change of the running operation in the world's event log: the entry
        is named after the operation (``todo.add_item`` logs ``add_item``), so a task's plan and
        the log speak one vocabulary. Only an operation may log."""
        if not self.operation:
            raise RuntimeError(f"{self.app.name}: ctx.log outside an operation (state changes are operations)")
        self.world.log(self.app.name, self.operation, args)

    def url(self, path: str = "/") -> str:
        return self.app.url_prefix + path

    def redirect(self, path: str = "/") -> Response:
        # the contract loads no web framework until a page is answered (tasks import the apps)
        from starlette.responses import RedirectResponse

        return RedirectResponse(self.url(path), status_code=303)

    def page(self, *children: Any, title: str | None = None, status: int = 200) -> Response:
        from starlette.responses import HTMLResponse  # as in redirect()

        if self._render is None:
            raise RuntimeError("this context has no page renderer: it was not made by the web server")
        html = self._render(self, title or self.config.get("title", self.app.name), children)
        return HTMLResponse(html, status_code=status)


# -- operations (app tools) --------------------------------------------------------------------

PARAM_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "list[str]": list}
READ_OPERATION = "read"  # every app's built-in tool: its state, as the reward sees it before normalising


class OperationError(ConfigError):
    """An app tool called with an argument the app refuses (a missing item, an empty title)."""


def by_id(items: list[dict], item_id: object) -> dict | None:
    """The item of ``items`` whose ``id`` is ``item_id`` (None when there is none)."""
    return next((i for i in items if i["id"] == item_id), None)


def known_item(ctx: AppContext, key: str, item_id: str, noun: str, none: str = "") -> dict:
    """The item with ``item_id`` in the list ``ctx.state[key]``, or an :class:`OperationError`
    listing the ids there are (``none`` when the list is empty)."""
    item = by_id(ctx.state[key], item_id)
    if item is None:
        ids = ", ".join(i["id"] for i in ctx.state[key]) or none
        raise OperationError(ctx.app.name, "id", f"no {noun} {item_id!r}", ids)
    return item


def remove_known(ctx: AppContext, key: str, item_id: str, noun: str, logged: tuple[str, ...], none: str = "") -> dict:
    """Remove the :func:`known_item` ``item_id`` from ``ctx.state[key]`` and log its id and its
    ``logged`` fields (the running operation's one log entry); returns it."""
    item = known_item(ctx, key, item_id, noun, none)
    ctx.state[key].remove(item)
    ctx.log(id=item["id"], **{f: item[f] for f in logged})
    return item


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # a key of PARAM_TYPES
    required: bool
    default: Any = None


@dataclass(frozen=True)
class Operation:
    """One state change of an app: ``fn(ctx, **args)`` changes ``ctx.state`` through the model
    and logs it with ``ctx.log`` (so the event log is the same whoever calls it); returns a
    JSON-serialisable result (the item made, the order placed ...)."""

    app: str
    name: str
    fn: Callable[..., Any]
    doc: str
    params: tuple[Param, ...]

    def __call__(self, ctx: AppContext, /, *args: Any, **kwargs: Any) -> Any:  # any argument name, ctx too
        long = too_long({**dict(zip((p.name for p in self.params), args, strict=False)), **kwargs})
        if long:  # whoever calls it: a page's handler, an agent's tool, a task's setup
            raise OperationError(self.tool_name, long[0], f"is {long[1]} characters long", f"{MAX_TEXT_CHARS} at most")
        outer, ctx.operation = ctx.operation, self.name
        try:
            return self.fn(ctx, *args, **kwargs)
        finally:
            ctx.operation = outer

    @property
    def tool_name(self) -> str:
        return f"{self.app}.{self.name}"

    def check_args(self, args: dict) -> dict:
        """``args`` checked against the parameters: unknown, missing or mistyped ones are one
        :class:`OperationError` naming the tool, the argument and what is allowed."""
        names = {p.name: p for p in self.params}
        allowed = ", ".join(f"{p.name}: {p.type}" for p in self.params) or "(no arguments)"
        for key in args:
            if key not in names:
                raise OperationError(self.tool_name, key, "unknown argument", allowed)
        out = {}
        for p in self.params:
            if p.name not in args:
                if p.required:
                    raise OperationError(self.tool_name, p.name, "missing argument", allowed)
                continue
            value = args[p.name]
            want = PARAM_TYPES[p.type]
            ok = isinstance(value, want) and not (isinstance(value, bool) and want is not bool)
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                ok, value = True, float(value)
            if want is list:
                ok = ok and all(isinstance(v, str) for v in value)
            if not ok:
                raise OperationError(self.tool_name, p.name, f"expected {p.type}, got {value!r}")
            out[p.name] = value
        return out


_HINTS = {str: "str", int: "int", float: "float", bool: "bool", list[str]: "list[str]"}


def _param_type(name: str, hint: Any, fn: Callable) -> str:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if type(None) in typing.get_args(hint) and len(args) == 1:
        hint = args[0]  # ``str | None = None``: optional, None meaning "leave as it is"
    for known, key in _HINTS.items():
        if hint == known:
            return key
    raise TypeError(
        f"{fn.__module__}.{fn.__name__}: parameter {name!r} has type {hint!r}; allowed: {list(PARAM_TYPES)}"
    )


def operation(fn: Callable[..., Any]) -> Operation:
    """Mark ``fn(ctx, **args)`` in an app's ``operations`` module as one of its operations. Its
    parameters (after ``ctx``) must be typed ``str``, ``int``, ``float``, ``bool`` or
    ``list[str]``; its docstring is the tool's description."""
    hints = typing.get_type_hints(fn)
    params = []
    for p in list(inspect.signature(fn).parameters.values())[1:]:
        required = p.default is inspect.Parameter.empty
        params.append(
            Param(p.name, _param_type(p.name, hints.get(p.name), fn), required, None if required else p.default)
        )
    app = fn.__module__.split(".")[-2]
    return Operation(app, fn.__name__, fn, inspect.cleandoc(fn.__doc__ or ""), tuple(params))


def call_operation(ctx: AppContext, op: Operation, args: dict) -> Any:
    """Run ``op`` on ``ctx``'s world with ``args`` checked (an app-tool call: ``World.call_tool``)."""
    return op(ctx, **op.check_args(args))
