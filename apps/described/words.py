"""The texts of a described app's pages in the world's language (``shell.lang``): the app's own
(its ``strings.<lang>``, English inline as the fallback) and the engine's (``strings.yaml``,
translated in ``lang/<lang>.yaml``, in the app's configuration so that a pack's
``<app>.strings.<key>`` wins)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from openapps_sim.apps.described.model import FieldError

from openapps_sim.appkit import AppContext, OperationError
from openapps_sim.config.packs import read_yaml

LANG_DIR = Path(__file__).with_name("lang")


@lru_cache(maxsize=32)
def engine_texts(lang: str) -> dict:
    """The engine's texts translated into ``lang`` (a BCP 47 tag; its language subtag counts)."""
    for tag in (lang, lang.split("-")[0].lower()):
        path = LANG_DIR / f"{tag}.yaml"
        if path.is_file():
            return dict(read_yaml(path) or {})
    return {}


def lang(ctx: AppContext) -> str:
    return ctx.world.config["shell"]["lang"]


def ui(ctx: AppContext, key: str, **fmt: object) -> str:
    """One of the engine's texts, from the app's configuration: English, translated for the
    world's language by the app's ``localise``, a pack's own over both."""
    return ctx.t(key, **fmt)


def own_table(desc: dict, tag: str) -> dict:
    """The app's own texts in language ``tag`` (its language subtag counts)."""
    tables = desc["strings"]
    return tables.get(tag) or tables.get(tag.split("-")[0].lower()) or {}


def own(ctx: AppContext, key: str, english: str) -> str:
    """One of the app's own texts (docs/apps/spec.md, "Languages")."""
    return own_table(ctx.app.desc, lang(ctx)).get(key, english)


def label_of(name: str, spec: dict) -> str:
    """A field's English label: its ``label``, else its name made readable."""
    return spec.get("label") or name.replace("_", " ").capitalize()


def coll_label(ctx: AppContext, name: str) -> str:
    return own(ctx, name, ctx.app.desc["collections"][name]["label"])


def field_label(ctx: AppContext, coll: str, field: str) -> str:
    spec = ctx.app.desc["collections"][coll]["fields"][field]
    return own(ctx, f"{coll}.{field}", label_of(field, spec))


def choice_label(ctx: AppContext, coll: str, field: str, choice: str) -> str:
    return own(ctx, f"{coll}.{field}.{choice}", str(choice).replace("_", " ").capitalize())


def app_title(ctx: AppContext) -> str:
    """The app's title (in the world's language: ``localise``)."""
    return ctx.config.get("title", "")


def form_error(ctx: AppContext, coll: str, err: OperationError) -> str:
    """What a form of collection ``coll`` shows for ``err``: a :class:`FieldError` of one of its
    fields in the world's language, the field by its label; any other as its field and problem."""
    fields = ctx.app.desc["collections"][coll]["fields"]
    if not isinstance(err, FieldError) or err.path not in fields:
        return f"{err.path}: {err.problem}" if err.problem else ""
    fmt = dict(err.fmt)
    if "collection" in fmt:
        fmt["collection"] = coll_label(ctx, str(fmt["collection"]))
    return ui(ctx, f"error_{err.key}", field=field_label(ctx, coll, err.path), **fmt)
