"""Facts about elements that actions need: visible, enabled, focusable, editable, their form,
the control a label is for."""

from __future__ import annotations

from openapps_sim.envs.text.dom import Element
from openapps_sim.envs.text.page import TextPage, form_controls
from openapps_sim.envs.text.roles import is_focusable

TEXT_TYPES = {
    "text",
    "search",
    "email",
    "url",
    "tel",
    "password",
    "number",
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
}


def self_and_ancestors(el: Element):
    node: Element | None = el
    while node is not None:
        yield node
        node = node.parent


def visible(el: Element) -> bool:
    for node in self_and_ancestors(el):
        style = node.style
        if style is None or style.display == "none":
            return False
    return el.style.visibility not in ("hidden", "collapse")


def disabled(el: Element) -> bool:
    if el.tag not in ("button", "input", "select", "textarea", "option"):
        return False
    if el.has("disabled"):
        return True
    return any(a.tag == "fieldset" and a.has("disabled") for a in el.ancestors())


def focusable(el: Element) -> bool:
    """Whether ``el`` can take the focus (never under an inert modal background)."""
    return is_focusable(el, "") and not any(node.has("inert") for node in self_and_ancestors(el))


def editable(el: Element) -> bool:
    return (el.tag == "textarea" or (el.tag == "input" and el.input_type in TEXT_TYPES)) and not el.has("readonly")


def form_of(page: TextPage, el: Element) -> Element | None:
    owner = el.get("form")
    if owner is not None:
        form = page.doc.by_id.get(owner)
        return form if form is not None and form.tag == "form" else None
    return el.closest("form")


def labelled_control(page: TextPage, label: Element) -> Element | None:
    target = label.get("for")
    if target is not None:
        return page.doc.by_id.get(target)
    return next(
        (e for e in label.iter() if e.tag in ("input", "select", "textarea", "button") and e is not label), None
    )


def reset(page: TextPage, form: Element) -> None:
    from openapps_sim.envs.text.dom import init_control

    for control in form_controls(page.doc, form):
        init_control(control)
