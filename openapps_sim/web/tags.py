"""FastHTML's HTML tags (``Div``, ``A``, ``Input``, ...), built faster, as the very same trees.

A page render spent about half of its time in FastHTML's tag functions (``ft_hx`` ->
``ft_html`` -> ``ft``): signature-wrapping helpers, ``typing`` instance checks, attribute-name
mapping per call and an ``FT.__setattr__`` hook on every field. The functions here do exactly
what those do for the arguments our apps pass — the same children, the same attributes in the
same order, the same ``FT`` objects — so :func:`fasthtml.common.to_xml` writes the same bytes
(and so does :func:`to_xml`, re-exported from :mod:`openapps_sim.web.serialize`; tests/test_tags.py compares every tag function against FastHTML's own). Calls with the
htmx-only arguments (``hx_vals``, ``hx_target``, ``target_id``) or an ``FT`` as ``id`` go to
FastHTML itself.

Apps import their tags from here instead of ``fasthtml.common``.
"""

from __future__ import annotations

import types
from collections.abc import Generator, Mapping
from functools import partial
from typing import Any

from fastcore import xml as _xml
from fastcore.foundation import L
from fastcore.xml import FT, voids
from fasthtml import components as _fh
from fasthtml import xtend as _xtend
from fasthtml.common import Html, NotStr  # noqa: F401 - re-exported for the apps

from openapps_sim.web.serialize import to_xml  # noqa: F401 - fastcore's, faster; re-exported for the apps

_LISTY = (tuple, list, L, slice, Generator, set, frozenset)
_EXPANDED = (types.GeneratorType, map, filter)
_FASTHTML_ONLY = ("hx_vals", "hx_target", "target_id", "ft_cls", "attrmap", "valmap")
_names: dict[str, str] = {}  # keyword -> attribute name (of it lower-cased), FastHTML's attrmap_x
_plain_names: dict[str, str] = {}  # the same, fastcore's attrmap (``ft``)


def _attr_name(key: str) -> str:
    name = _names.get(key)
    if name is None:
        name = _names[key] = _fh.attrmap_x(key.lower())
    return name


def _plain_name(key: str) -> str:
    name = _plain_names.get(key)
    if name is None:
        name = _plain_names[key] = _xml.attrmap(key)
    return name


def _value(v: Any) -> Any:
    """FastHTML's ``valmap``."""
    if type(v) is str:  # most values: none of the cases below
        return v
    if isinstance(v, _LISTY):
        return " ".join(map(str, v)) if v else None
    if isinstance(v, dict):
        return "; ".join(f"{k}:{x}" for k, x in v.items()) if v else None
    return v


def _new_ft(tag: str, children: tuple, attrs: dict, void: bool) -> FT:
    node = FT.__new__(FT)  # FT.__init__ sets its fields through a __setattr__ hook
    node.__dict__.update(tag=tag, children=children, attrs=attrs, void_=void, listeners_=[])
    return node


def _children(c: tuple) -> tuple:
    """fastcore's ``_preproc`` of the children: a lone generator expanded, tuples flattened once."""
    if len(c) == 1 and isinstance(c[0], _EXPANDED):
        c = tuple(c[0])
    if not any(isinstance(x, tuple) for x in c):
        return c
    flat: list = []
    for x in c:
        if isinstance(x, tuple):
            flat.extend(x)
        else:
            flat.append(x)
    return tuple(flat)


def ft(tag: str, *c: Any, void_: bool = False, **kw: Any) -> FT:
    """What ``fastcore.xml.ft(tag, *c, void_=void_, **kw)`` returns."""
    attrs = {_plain_name(k.lower()): _value(v) for k, v in kw.items() if v is not None}
    return _new_ft(tag.lower(), _children(c), attrs, void_)


def _build(
    tag: str, c: tuple, id: Any = None, cls: Any = None, title: Any = None, style: Any = None, **kwargs: Any
) -> FT:
    """FastHTML's ``ft_html`` (with its configuration: no auto id, auto name)."""
    if any(isinstance(x, Mapping) for x in c):  # dicts among the children are attributes
        for d in [x for x in c if isinstance(x, Mapping)]:
            kwargs = {**kwargs, **d}
        c = tuple(x for x in c if not isinstance(x, Mapping))
    kwargs["id"] = id
    kwargs["cls"], kwargs["title"], kwargs["style"] = cls, title, style
    tag = tag.lower()
    names = _names
    attrs = {
        (names[k] if k in names else _attr_name(k)): (v if type(v) is str else _value(v))
        for k, v in kwargs.items()
        if v is not None
    }
    if id and tag in _fh.named and "name" not in attrs:
        attrs["name"] = attrs["id"]
    return _new_ft(tag, _children(c), attrs, tag in voids)


def _unusual(kwargs: dict, keys: tuple) -> bool:
    return isinstance(kwargs.get("id"), (FT, bool)) or any(kwargs.get(k) is not None for k in keys)


def ft_tag(tag: str, *c: Any, **kwargs: Any) -> FT:
    """What ``fasthtml.components.ft_hx(tag, *c, **kwargs)`` returns."""
    if _unusual(kwargs, _FASTHTML_ONLY):
        return _fh.ft_hx(tag, *c, **kwargs)
    return _build(tag, c, **kwargs)


def ft_html(tag: str, *c: Any, **kwargs: Any) -> FT:
    """What ``fasthtml.components.ft_html(tag, *c, **kwargs)`` returns."""
    if _unusual(kwargs, ("ft_cls", "attrmap", "valmap")):
        return _fh.ft_html(tag, *c, **kwargs)
    return _build(tag, c, **kwargs)


def rebind(fn: Any, module: types.ModuleType) -> Any:
    """A copy of ``module``'s function ``fn`` (its own code) that calls :func:`ft_tag` for
    ``ft_hx`` and :func:`ft_html` for ``ft_html``."""
    scope = _scopes.get(module.__name__)
    if scope is None:
        scope = _scopes[module.__name__] = {**vars(module), "ft_hx": ft_tag, "ft_html": ft_html}
    copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    scope[fn.__name__] = copy
    return copy


_scopes: dict[str, dict] = {}
for _name in _fh._all_:
    globals()[_name] = partial(ft_tag, _name.lower())

for _name in ("A", "Form", "Script", "Style"):  # fasthtml.xtend's own versions of these
    globals()[_name] = rebind(getattr(_xtend, _name), _xtend)
