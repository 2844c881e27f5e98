"""Page pieces several apps share: the search form, a one-button POST form, a link drawn as a
button, flash messages, labelled form fields and the not-found page. Each renders exactly what the apps wrote before
they shared it; ``data-testid``s are passed in by the app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openapps_sim.web.tags import A, Button, Div, Form, Input, Label, P

if TYPE_CHECKING:
    from openapps_sim.appkit import AppContext


def search_form(
    action: str,
    value: str,
    placeholder: str,
    testid: str,
    button: str,
    *,
    label: str | None = None,
    cls: str | None = None,
    button_cls: str | None = None,
    hidden: dict[str, str] | None = None,
    after: tuple[Any, ...] = (),
) -> Any:
    """A GET form with one search box (``q``) and a submit button ``<testid>-submit``."""
    return Form(
        *[Input(type="hidden", name=k, value=v) for k, v in (hidden or {}).items()],
        Input(
            type="search",
            name="q",
            value=value,
            placeholder=placeholder,
            aria_label=label or placeholder,
            autocomplete="off",
            data_testid=testid,
        ),
        Button(button, type="submit", cls=button_cls, data_testid=f"{testid}-submit"),
        *after,
        method="get",
        action=action,
        cls=cls,
        role="search",
    )


def app_search(ctx: AppContext, value: str, word: str = "search", action: str = "/", **options: Any) -> Any:
    """The search box of ``ctx``'s app: a :func:`search_form` to ``action`` below the app, with the
    strings ``<word>_placeholder`` and ``<word>_button`` and the test id ``<app>-<word>``."""
    placeholder, button = ctx.t(f"{word}_placeholder"), ctx.t(f"{word}_button")
    return search_form(ctx.url(action), value, placeholder, f"{ctx.app.name}-{word}", button, **options)


def post_button(
    label: Any,
    action: str,
    testid: str,
    *,
    form_cls: str | None = None,
    hidden: dict[str, str] | None = None,
    about: str | None = None,
    **button: Any,
) -> Any:
    """A form holding one submit button that POSTs to ``action`` (extra keywords go to the
    button), after hidden fields ``hidden``; ``about`` names what it acts on (see :func:`_named`)."""
    return Form(
        *[Input(type="hidden", name=k, value=v) for k, v in (hidden or {}).items()],
        Button(label, type="submit", **button, **_named(label, about), data_testid=testid),
        method="post",
        action=action,
        cls=form_cls,
    )


def link_button(label: Any, href: str, testid: str, cls: str = "button", about: str | None = None, **attrs: Any) -> Any:
    """A link drawn as a button (``cls="button secondary"`` for a lesser action); ``about`` names
    what it acts on (see :func:`_named`); extra keywords (``title`` ...) go to the link."""
    return A(label, href=href, cls=cls, **attrs, **_named(label, about), data_testid=testid)


def _named(label: Any, about: str | None) -> dict:
    """The accessible name of an action on one thing of many (a row's Delete): ``<label>: <about>``."""
    return {} if about is None else {"aria_label": f"{label}: {about}"}


def flash(message: Any, testid: str, cls: str = "flash", role: str | None = "status") -> Any:
    """A short confirmation shown after a change."""
    return Div(message, cls=cls, role=role, data_testid=testid)


def field(label: Any, control_id: str, control: Any, *after: Any, cls: str | None = None) -> Any:
    """A form field: its label (for the control with id ``control_id``), the control, then ``after``
    (a hint, swatches ...)."""
    return Div(Label(label, fr=control_id), control, *after, cls=cls)


def not_found_card(
    message: Any,
    testid: str,
    back: str,
    href: str,
    back_testid: str,
    *,
    card_cls: str = "card",
    back_cls: str | None = "button secondary",
) -> Any:
    """The body of a not-found page: the message and a link back."""
    return Div(
        P(message, data_testid=testid),
        A(back, href=href, cls=back_cls, data_testid=back_testid),
        cls=card_cls,
    )


def not_found_page(ctx: AppContext, message: Any, *before: Any, title: str | None = None) -> Any:
    """A 404 page of ``ctx``'s app: ``before`` (e.g. a heading) then the not-found card, which
    links back to the app's first page with the test ids ``<app>-not-found`` and ``<app>-back``."""
    name = ctx.app.name
    return ctx.page(
        *before,
        not_found_card(
            message,
            f"{name}-not-found",
            ctx.t("back"),
            ctx.url("/"),
            f"{name}-back",
            card_cls="card stack" if before else "card",
        ),
        title=title,
        status=404,
    )


def too_long_page(ctx: AppContext, key: str, length: int, limit: int) -> Any:
    """The answer to a request with a field longer than ``limit`` characters: nothing changed,
    and why (test id ``input-too-long``), with a link back to the app's first page."""
    message = f"{key!r} is {length} characters long; at most {limit} are accepted. Nothing was changed."
    name = ctx.app.name
    card = not_found_card(message, "input-too-long", ctx.t("back"), ctx.url("/"), f"{name}-back")
    return ctx.page(card, status=413)
