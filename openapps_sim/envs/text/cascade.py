"""The cascade: each element's computed :class:`~openapps_sim.envs.text.css.Style`, from the rules
of the page's style sheet that match it, its inline style and its parent's style.

Most elements of a page are alike (the rows of a list, the cells of a grid): the same tag, id and
classes under a parent with the same style. So the work is kept per style sheet and viewport
width, across pages and tabs, and every shortcut gives exactly what the full cascade gives:

* the rules an element may match, sorted by specificity and order, per (tag, id, classes);
* which of the *local* rules match (one compound, no pseudo-class: they read only the element's
  own tag, id, classes and the attributes they name), per those and the named attributes'
  values; the other rules (combinators, ``:first-child``, ``:focus`` ...) are matched every time,
  except that a rule of descendant and child combinators whose ancestors' tags, ids and classes
  are not all among the element's ancestors' is known not to match without walking them;
* the computed style (shared, never changed once made) per parent style, custom properties in
  scope, matching rules, inline style and the element's own facts the cascade reads.
"""

from __future__ import annotations

import re
from functools import lru_cache

from openapps_sim.envs.text.css import (
    BLOCKIFIED,
    FLEX_OR_GRID,
    INHERITED,
    UA_DEFAULTS,
    UA_DISPLAY,
    Style,
    declarations,
    matches,
    matches_compound,
    stylesheet,
)
from openapps_sim.envs.text.dom import Element

_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^)]*))?\)")
_NO_VARS: dict = {}  # the custom properties in scope at the root (never changed)
_MAX_STYLES = 50_000  # kept computed styles per sheet and width; past it the memo starts again


class Cascade:
    """The rules of one style sheet at one viewport width, and what was computed with them."""

    def __init__(self, css: str, width: int) -> None:
        self.index, self.universal = stylesheet(css).active(width)
        self._candidates: dict[tuple, tuple] = {}
        self._local: dict[tuple, tuple] = {}
        self._styles: dict[tuple, tuple] = {}

    def candidates(self, el: Element) -> tuple[tuple, list, list, tuple, list]:
        """``(key, local rules, other rules, attribute names the local rules read, the other
        rules an element with a parent may match)``."""
        key = (el.tag, el.attrs.get("id"), el.attrs.get("class", ""))
        hit = self._candidates.get(key)
        if hit is None:
            found = list(self.universal) + list(self.index.get(("t", el.tag), ()))
            if key[1] is not None:
                found += self.index.get(("#", key[1]), ())
            for cls in key[2].split():
                found += self.index.get((".", cls), ())
            found.sort(key=lambda r: (r.specificity, r.order))
            local = [r for r in found if len(r.parts) == 1 and not r.parts[0][1].pseudos]
            other = [(r, _needs(r)) for r in found if not (len(r.parts) == 1 and not r.parts[0][1].pseudos)]
            names = tuple(sorted({name for r in local for name, _, _ in r.parts[0][1].attrs}))
            # a rule whose rightmost compound has ``:root`` matches only an element without a
            # parent: the others never try it
            below_root = [(r, needs) for r, needs in other if not any(n == "root" for n, _ in r.parts[-1][1].pseudos)]
            hit = self._candidates[key] = (key, local, other, names, below_root)
        return hit

    def matching(self, el: Element, focused: Element | None, above: frozenset) -> tuple:
        """The rules that match ``el`` (``above``: its ancestors' :func:`keys`), in cascade order."""
        key, local, other, names, below_root = self.candidates(el)
        if el.parent is not None:
            other = below_root
        local_key = (key, tuple(el.attrs.get(n) for n in names))
        found = self._local.get(local_key)
        if found is None:
            found = self._local[local_key] = tuple(r for r in local if matches_compound(el, r.parts[0][1], None))
        if not other:
            return found
        more = [r for r, needs in other if (needs is None or needs <= above) and matches(el, r.parts, focused)]
        if not more:
            return found
        return tuple(sorted(found + tuple(more), key=lambda r: (r.specificity, r.order)))

    def style(self, el: Element, parent: Style | None, parent_vars: dict, focused: Element | None, above: frozenset):
        """``(style, custom properties in scope)`` of ``el``."""
        rules = self.matching(el, focused, above)
        inline = el.attrs.get("style")
        input_hidden = el.tag == "input" and el.input_type == "hidden"
        key = (
            id(parent),
            id(parent_vars),
            el.tag,
            tuple(r.order for r in rules),
            inline,
            el.has("hidden"),
            input_hidden,
        )
        hit = self._styles.get(key)
        if hit is not None and hit[2] is parent and hit[3] is parent_vars:
            return hit[0], hit[1]
        declared: dict = {}
        for rule in rules:
            declared.update(rule.decls)
        if inline:
            declared.update(declarations(inline))
        made = _computed(el.tag, declared, parent, parent_vars, key[5], input_hidden)
        if len(self._styles) >= _MAX_STYLES:
            self._styles.clear()
        self._styles[key] = (*made, parent, parent_vars)  # holds parent and scope: their ids stay theirs
        return made


@lru_cache(maxsize=16)
def cascade(css: str, width: int) -> Cascade:
    return Cascade(css, width)


def compute_styles(root: Element, css: str, width: int, focused: Element | None = None) -> None:
    """Set ``el.style`` on every element under ``root``."""
    rules = cascade(css, width)
    stack: list[tuple[Element, Style | None, dict, frozenset]] = [(root, None, _NO_VARS, frozenset())]
    while stack:
        el, parent, parent_vars, above = stack.pop()
        style, vars_ = rules.style(el, parent, parent_vars, focused, above)
        el.style = style
        if el.children:
            own = keys(el.tag, el.attrs.get("id"), el.attrs.get("class", ""))
            below = above if own <= above else above | own
            stack.extend((c, style, vars_, below) for c in reversed(el.children) if isinstance(c, Element))


@lru_cache(maxsize=4096)
def keys(tag: str | None, id_: str | None, classes: str) -> frozenset:
    """What a compound selector may ask of an element: its tag, id and classes."""
    out = {("t", tag)} if tag else set()
    if id_ is not None:
        out.add(("#", id_))
    out.update((".", c) for c in classes.split())
    return frozenset(out)


def _needs(rule) -> frozenset | None:
    """The :func:`keys` the ancestors of an element must have among them for a rule of only
    descendant and child combinators to match it (None: the rule has a sibling combinator)."""
    if any(comb not in ("", " ", ">") for comb, _ in rule.parts):
        return None
    out: set = set()
    for _, comp in rule.parts[:-1]:
        out |= keys(comp.tag, comp.ids[0] if comp.ids else None, " ".join(comp.classes))
        out.update(("#", i) for i in comp.ids[1:])
    return frozenset(out)


def _computed(tag: str, declared: dict, parent: Style | None, parent_vars: dict, hidden: bool, input_hidden: bool):
    vars_ = parent_vars
    custom = {k: v for k, v in declared.items() if k.startswith("--")}
    if custom:
        vars_ = {**parent_vars, **custom}
    style = Style()
    display = _value(declared.get("display"), vars_) or UA_DISPLAY.get(tag, "inline")
    if hidden and "display" not in declared or input_hidden:
        display = "none"
    if parent is not None and parent.display in FLEX_OR_GRID:
        display = BLOCKIFIED.get(display, display)
    style.display = display
    for prop in INHERITED:
        attr = prop.replace("-", "_")
        value = _value(declared.get(prop), vars_)
        if value in (None, "inherit", "unset"):
            value = getattr(parent, attr) if parent else UA_DEFAULTS[prop]
        elif value == "initial":
            value = UA_DEFAULTS[prop]
        setattr(style, attr, value)
    return style, vars_


def _value(value: str | None, vars_: dict) -> str | None:
    if value is None or "var(" not in value:
        return value
    for _ in range(5):
        new = _VAR.sub(lambda m: vars_.get(m.group(1), m.group(2) or ""), value)
        if new == value:
            break
        value = new
    return value.strip() or None
