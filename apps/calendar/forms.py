"""Calendar's event form: reading and checking it, and the new / edit / duplicate page."""

from __future__ import annotations

from openapps_sim.apps.calendar.datefmt import format_date, read_date, read_time
from openapps_sim.apps.calendar.model import FIELDS, split_invitees

from openapps_sim.appkit import AppContext
from openapps_sim.web.components import field, link_button
from openapps_sim.web.tags import (
    H1,
    Button,
    Div,
    Form,
    Input,
    P,
    Textarea,
)


def form_values(ev: dict) -> dict:
    out = {f: ev.get(f, "") for f in FIELDS}
    out["invitees"] = ", ".join(ev.get("invitees", []))
    return out


def values_to_raw(values: dict) -> dict:
    raw = dict(values)
    raw["invitees"] = split_invitees(values.get("invitees", ""))
    return raw


def read_form(ctx: AppContext, params: dict) -> tuple[dict, str | None]:
    def text(key: str) -> str:
        value = params.get(key, "")
        if isinstance(value, list):
            value = value[-1] if value else ""
        return str(value)

    values = {f: text(f) for f in FIELDS}
    values["title"] = " ".join(values["title"].split())
    values["date"] = " ".join(values["date"].split())
    values["time"] = " ".join(values["time"].split())
    # the date and time as the language writes them (or ISO), kept as typed when they do not read
    iso = read_date(values["date"], ctx.t("date_format"))
    if iso:
        values["date"] = iso
    hhmm = read_time(values["time"], (ctx.t("am"), ctx.t("pm"))) if values["time"] else ""
    if hhmm:
        values["time"] = hhmm
    if not values["title"]:
        return values, ctx.t("error_title")
    if iso is None:
        return values, ctx.t("error_date")
    if hhmm is None:
        return values, ctx.t("error_time")
    return values, None


def _field(ctx: AppContext, name: str, control, hint: str | None = None):
    return field(
        ctx.t(f"field_{name}"),
        f"cal-{name}",
        control,
        P(hint, cls="hint", id=f"cal-{name}-hint") if hint else None,
        cls="field",
    )


def _text_input(values: dict, name: str, **kw):
    kw.setdefault("value", values.get(name, ""))
    return Input(
        type="text",
        name=name,
        id=f"cal-{name}",
        autocomplete="off",
        data_testid=f"calendar-field-{name}",
        **kw,
    )


def _date_and_time(ctx: AppContext, values: dict):
    """The date (in the calendar's date format) and time fields, side by side."""
    return Div(
        _field(
            ctx,
            "date",
            _text_input(
                values,
                "date",
                value=format_date(values.get("date", ""), ctx.t("date_format")),
                placeholder=ctx.t("date_placeholder"),
                required=True,
                data_format=ctx.t("date_format"),
            ),
        ),
        _field(
            ctx,
            "time",
            _text_input(values, "time", placeholder=ctx.t("time_placeholder"), aria_describedby="cal-time-hint"),
            ctx.t("time_hint"),
        ),
        cls="pair",
    )


def form_page(ctx: AppContext, heading: str, values: dict, action: str, cancel: str, error: str | None):
    return ctx.page(
        Div(
            H1(heading, data_testid="calendar-form-heading"),
            P(error, cls="error", role="alert", data_testid="calendar-form-error") if error else None,
            Form(
                _field(ctx, "title", _text_input(values, "title", required=True)),
                _date_and_time(ctx, values),
                _field(ctx, "location", _text_input(values, "location")),
                _field(
                    ctx,
                    "invitees",
                    _text_input(values, "invitees", aria_describedby="cal-invitees-hint"),
                    ctx.t("invitees_hint"),
                ),
                _field(ctx, "url", _text_input(values, "url", placeholder=ctx.t("url_placeholder"), inputmode="url")),
                _field(
                    ctx,
                    "description",
                    Textarea(
                        values.get("description", ""),
                        name="description",
                        id="cal-description",
                        rows="4",
                        data_testid="calendar-field-description",
                    ),
                ),
                Div(
                    Button(ctx.t("save"), type="submit", data_testid="calendar-save"),
                    link_button(ctx.t("cancel"), ctx.url(cancel), "calendar-cancel", cls="button secondary"),
                    cls="cal-actions",
                ),
                method="post",
                action=action,
                cls="cal-form",
            ),
            cls="card cal-form-card",
        ),
        title=f"{heading} · {ctx.config['title']}",
    )
