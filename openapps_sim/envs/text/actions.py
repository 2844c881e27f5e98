"""BrowserGym's high-level actions, run on text tabs.

An action string is parsed by BrowserGym's own parser with the env's action set (so an empty,
multi- or unknown action fails with BrowserGym's words), its arguments are bound to BrowserGym's
function signatures (so wrong arguments fail as they do there), and each call runs here on the
active :class:`~openapps_sim.envs.text.page.TextPage` with a browser's semantics: a click
follows a link, submits a form with its button as the submitter, toggles a box, forwards
through a label; Enter in a field submits its form implicitly; Tab moves the focus. Errors
carry the words Playwright uses for the same fault (``Could not find element``, ``element is
not visible``, ``is not a <select> element``), so invalid-action statistics read alike.

There is no screen: ``mouse_*``, ``scroll_at`` and the other coordinate actions, screenshots
and drag and drop fail with one sentence naming the backend. ``scroll`` and ``hover`` change
nothing a text page shows.
"""

from __future__ import annotations

import copy
import inspect
import re
from functools import lru_cache
from urllib.parse import urljoin

from browsergym.core.action import functions as bgym_functions
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.action.parsers import NamedArgument, highlevel_action_parser

from openapps_sim.envs.callscan import check_calls, find_calls
from openapps_sim.envs.text.dom import Element, option_value
from openapps_sim.envs.text.elements import (
    TEXT_TYPES,
    disabled,
    editable,
    focusable,
    form_of,
    labelled_control,
    reset,
    self_and_ancestors,
    visible,
)
from openapps_sim.envs.text.page import BLANK, Fetch, TextPage, form_controls

NO_SCREEN = (
    "the text backend has no screen: {name} needs pixels; use backend='chromium' for coordinate actions and screenshots"
)
_SUBMIT_TYPES = ("submit", "image")


# one call with one plain quoted argument (``click('12')``): what both of BrowserGym's readings
# of it give, without its grammar (a string literal of these characters is its own text)
_ONE_PLAIN_CALL = re.compile(r"""([A-Za-z_][A-Za-z0-9_]*)\((?:'([A-Za-z0-9_.-]*)'|"([A-Za-z0-9_.-]*)")\)""")


@lru_cache(maxsize=1024)
def _parsed(action: str, strict: bool) -> list:
    """BrowserGym's parse of an action string (the same string is parsed once per process)."""
    plain = _ONE_PLAIN_CALL.fullmatch(action)
    if plain is not None:
        name, single, double = plain.groups()
        return [[name, [single if single is not None else double]]]
    if strict:
        return highlevel_action_parser.parse_string(action, parse_all=True).as_list()
    return find_calls(action)  # BrowserGym's search_string, in linear time


@lru_cache(maxsize=64)
def _signature(name: str) -> inspect.Signature:
    return inspect.signature(getattr(bgym_functions, name))


class ActionTimeout(Exception):
    """Playwright's time-out, with the reason its call log gives."""


def _timeout(ms: int, action: str, bid: str, why: str) -> ActionTimeout:
    return ActionTimeout(
        f'Timeout {ms}ms exceeded.\nCall log:\n  - waiting for get_by_test_id("{bid}")\n  - {why}'
        if why
        else f"Timeout {ms}ms exceeded."
    )


class TextBrowser:
    """The tabs of one episode and the actions on them."""

    def __init__(self, origin: str, viewport: dict, timeout_ms: int = 3000, fetch: Fetch | None = None) -> None:
        self.origin = origin
        self.viewport = dict(viewport)
        self.timeout_ms = timeout_ms
        self.fetch = fetch  # how every tab loads a page (TextPage.fetch)
        self.pages: list[TextPage] = [self._new_page()]
        self.active = 0
        self.send_message = None
        self.report_infeasible = None

    @property
    def page(self) -> TextPage:
        return self.pages[self.active]

    def _new_page(self) -> TextPage:
        return TextPage(self.origin, self.viewport, self.fetch)

    def close(self) -> None:
        for p in self.pages:
            p.close()

    # -- running an action string --------------------------------------------------------------
    def run(self, action: str, action_set: HighLevelActionSet) -> None:
        """Run one action string (raises what BrowserGym's ``execute_python_code`` would)."""
        calls = copy.deepcopy(_parsed(action, action_set.strict))
        check_calls(action_set, calls)
        for name, args in calls:
            positional = [a for a in args if not isinstance(a, NamedArgument)]
            named = {a.name: a.value for a in args if isinstance(a, NamedArgument)}
            bound = _signature(name).bind(*positional, **named)  # TypeError as in Python
            bound.apply_defaults()
            handler = getattr(self, f"do_{name}", None)
            if handler is None:
                raise NotImplementedError(NO_SCREEN.format(name=f"{name}()"))
            handler(**bound.arguments)

    # -- elements ------------------------------------------------------------------------------
    def element(self, bid) -> Element:
        if not isinstance(bid, str):
            raise ValueError(f"expected a string, got {bid!r}")
        el = self.page.doc.by_bid.get(bid)
        if el is None:
            raise ValueError(f'Could not find element with bid "{bid}"')
        return el

    def _actionable(self, el: Element, action: str, enabled: bool = True) -> None:
        if not visible(el):
            raise _timeout(self.timeout_ms, action, el.bid, "element is not visible")
        if enabled and disabled(el):
            raise _timeout(self.timeout_ms, action, el.bid, "element is not enabled")
        if any(node.has("inert") for node in self_and_ancestors(el)):
            raise _timeout(self.timeout_ms, action, el.bid, "another element intercepts pointer events")

    def _focus(self, el: Element | None) -> None:
        target = next((e for e in self_and_ancestors(el) if focusable(e)), None) if el is not None else None
        doc = self.page.doc
        if doc.focused is not target:
            doc.focused = target
            self.page.restyle()

    # -- the actions ---------------------------------------------------------------------------
    def do_noop(self, wait_ms: float = 1000) -> None:
        return None

    def do_send_msg_to_user(self, text: str) -> None:
        self.send_message(text)

    def do_report_infeasible(self, reason: str) -> None:
        self.report_infeasible(reason)

    def do_scroll(self, delta_x: float, delta_y: float) -> None:
        return None

    def do_hover(self, bid: str) -> None:
        self._actionable(self.element(bid), "hover", enabled=False)

    def do_focus(self, bid: str) -> None:
        el = self.element(bid)
        if focusable(el):
            self._focus(el)

    def do_click(self, bid: str, button: str = "left", modifiers: list | None = None) -> None:
        el = self.element(bid)
        self._actionable(el, "click")
        if button != "left":
            self._focus(el)
            return
        self.activate(el)

    def do_dblclick(self, bid: str, button: str = "left", modifiers: list | None = None) -> None:
        self.do_click(bid, button, modifiers)

    def activate(self, el: Element) -> None:
        """What a click on ``el`` does: the activation behaviour of it or its nearest ancestor."""
        self._focus(el)
        for node in self_and_ancestors(el):
            if node.tag == "a" and node.has("href"):
                self._follow(node)
                return
            if node.tag == "button" or (node.tag == "input" and node.input_type in ("submit", "image", "reset")):
                if disabled(node):
                    return
                kind = (node.get("type") or "submit").lower() if node.tag == "button" else node.input_type
                form = form_of(self.page, node)
                if form is not None and kind in _SUBMIT_TYPES:
                    self.page.submit(form, node)
                elif form is not None and kind == "reset":
                    reset(self.page, form)
                return
            if node.tag == "input" and node.input_type in ("checkbox", "radio"):
                self._toggle(node)
                return
            if node.tag == "label":
                control = labelled_control(self.page, node)
                if control is not None and control is not el:
                    self.activate(control)
                return
            if node.tag == "summary" and node.parent is not None and node.parent.tag == "details":
                details = node.parent
                if details.has("open"):
                    del details.attrs["open"]
                else:
                    details.attrs["open"] = ""
                self.page.restyle(focus_only=False)
                return

    def _follow(self, link: Element) -> None:
        href = link.get("href") or ""
        target = urljoin(self.page.url, href)
        if (link.get("target") or "_self") not in ("_self", ""):
            self.do_new_tab()
        if target.split("#")[0] == self.page.url.split("#")[0] and "#" in target:
            self.page.doc.url = target  # a jump within the page: no request
            self.page._push(target)
            return
        self.page.goto(target)

    def _toggle(self, box: Element) -> None:
        if disabled(box):
            return
        if box.input_type == "radio":
            name = box.get("name")
            if name:
                for other in self.page.doc.elements:
                    if other.tag == "input" and other.input_type == "radio" and other.get("name") == name:
                        other.checked = False
            box.checked = True
        else:
            box.checked = not box.checked
        # no restyle: a selector's [checked] reads the attribute, which a click does not change

    def do_fill(self, bid: str, value: str, enable_autocomplete_menu: bool = False) -> None:
        el = self.element(bid)
        self._fill(el, value, "fill")

    def do_clear(self, bid: str) -> None:
        self._fill(self.element(bid), "", "clear")

    def _fill(self, el: Element, value: str, action: str) -> None:
        self._actionable(el, action)
        if el.tag == "input" and el.input_type not in TEXT_TYPES:
            raise RuntimeError(f'Error: Input of type "{el.input_type}" cannot be filled')
        if el.tag not in ("input", "textarea"):
            raise RuntimeError("Error: Element is not an <input>, <textarea> or [contenteditable] element")
        if el.has("readonly"):
            raise _timeout(self.timeout_ms, action, el.bid, "element is not editable")
        kind = el.input_type
        if (
            kind == "number"
            and value.strip()
            and not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", value.strip())
        ):
            raise RuntimeError("Error: Cannot type text into input[type=number]")
        if kind == "date" and value and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise RuntimeError("Error: Malformed value")
        if kind == "time" and value and not re.fullmatch(r"\d{2}:\d{2}(:\d{2}(\.\d+)?)?", value):
            raise RuntimeError("Error: Malformed value")
        if el.tag == "input":
            value = value.replace("\r", "").replace("\n", "")
        self._focus(el)
        el.value = value

    def do_select_option(self, bid: str, options) -> None:
        el = self.element(bid)
        self._actionable(el, "select_option")
        if el.tag != "select":
            raise RuntimeError("Error: Element is not a <select> element")
        wanted = [options] if isinstance(options, str) else list(options)
        all_options = [o for o in el.iter() if o.tag == "option"]
        chosen = []
        for want in wanted:
            match = next(
                (o for o in all_options if option_value(o) == want or " ".join(o.text_content().split()) == want), None
            )
            if match is None:
                raise _timeout(self.timeout_ms, "select_option", bid, "did not find some options")
            chosen.append(match)
        if not el.has("multiple"):
            chosen = chosen[:1]
        for o in all_options:
            o.selected = o in chosen

    def do_press(self, bid: str, key_comb: str) -> None:
        el = self.element(bid)
        self._actionable(el, "press", enabled=False)
        self._focus(el)
        self._key(el, key_comb)

    def do_keyboard_press(self, key: str) -> None:
        focused = self.page.doc.focused
        if focused is not None:
            self._key(focused, key)

    def do_keyboard_type(self, text: str) -> None:
        focused = self.page.doc.focused
        if focused is not None and editable(focused):
            focused.value = (focused.value or "") + text

    do_keyboard_insert_text = do_keyboard_type

    def _key(self, el: Element, key_comb: str) -> None:
        key = key_comb.split("+")[-1] if "+" in key_comb and len(key_comb) > 1 else key_comb
        mods = set(key_comb.split("+")[:-1]) if "+" in key_comb and len(key_comb) > 1 else set()
        if key == "Tab":
            self._tab(el, backwards="Shift" in mods)
            return
        if mods - {"Shift"}:
            return  # shortcuts (Control+A, Meta+C ...) change nothing a page's state holds
        if key == "Enter":
            if el.tag == "textarea":
                el.value = (el.value or "") + "\n"
            elif el.tag == "input" and el.input_type in TEXT_TYPES:
                self._implicit_submit(el)
            elif el.tag in ("a", "button") or (el.tag == "input" and el.input_type in ("submit", "image", "reset")):
                self.activate(el)
            return
        if key in (" ", "Space") and not editable(el):
            if el.tag == "button" or el.tag == "input":
                self.activate(el)
            return
        if editable(el):
            if key == "Backspace":
                el.value = (el.value or "")[:-1]
            elif key in (" ", "Space"):
                el.value = (el.value or "") + " "
            elif len(key) == 1:
                el.value = (el.value or "") + key

    def _implicit_submit(self, field: Element) -> None:
        form = form_of(self.page, field)
        if form is None:
            return
        controls = form_controls(self.page.doc, form)
        default = next(
            (
                c
                for c in controls
                if (c.tag == "button" and (c.get("type") or "submit").lower() == "submit")
                or (c.tag == "input" and c.input_type in _SUBMIT_TYPES)
            ),
            None,
        )
        if default is not None:
            if not disabled(default):
                self.activate(default)
            return
        blocking = [c for c in controls if c.tag == "input" and c.input_type in TEXT_TYPES]
        if len(blocking) == 1:
            self.page.submit(form, None)

    def _tab(self, el: Element, backwards: bool) -> None:
        order = [e for e in self.page.doc.elements if focusable(e) and visible(e) and e.get("tabindex") != "-1"]
        if not order:
            return
        i = order.index(el) if el in order else -1
        j = (i - 1) if backwards else (i + 1)
        if 0 <= j < len(order):
            self._focus(order[j])
        else:
            self._focus(None)

    def do_goto(self, url: str) -> None:
        self.page.goto(url)

    def do_go_back(self) -> None:
        self.page.go_back()

    def do_go_forward(self) -> None:
        self.page.go_forward()

    def do_new_tab(self) -> None:
        self.pages.append(self._new_page())
        self.active = len(self.pages) - 1
        self.page.goto(BLANK)

    def do_tab_close(self) -> None:
        self.page.close()
        del self.pages[self.active]
        if not self.pages:
            self.pages.append(self._new_page())
        self.active = len(self.pages) - 1

    def do_tab_focus(self, index: int) -> None:
        if not 0 <= index < len(self.pages):
            raise IndexError("list index out of range")
        self.active = index

    def do_upload_file(self, bid: str, file) -> None:
        raise NotImplementedError("the text backend uploads no files: use backend='chromium'")

    def do_drag_and_drop(self, from_bid: str, to_bid: str) -> None:
        raise NotImplementedError("the text backend has no pointer to drag with: use backend='chromium'")
