"""What a pack may change about the look of every app: the ``theme`` and ``shell`` sections and
the fonts they may name. Pure data; the CSS these values become is written by
:mod:`openapps_sim.web.theme`."""

from __future__ import annotations

from openapps_sim.config.schema import Bool, Color, Enum, Float, Int, LanguageTag, Record, Str

# name -> (npm package, CSS family, generic fallback)
WEB_FONTS: dict[str, tuple[str, str, str]] = {
    "roboto": ("@fontsource/roboto", "Roboto", "sans-serif"),
    "open_sans": ("@fontsource/open-sans", "Open Sans", "sans-serif"),
    "lato": ("@fontsource/lato", "Lato", "sans-serif"),
    "merriweather": ("@fontsource/merriweather", "Merriweather", "serif"),
    "dancing_script": ("@fontsource/dancing-script", "Dancing Script", "cursive"),
    "inter": ("@fontsource/inter", "Inter", "sans-serif"),
}
GENERIC_FONTS = {
    "system": "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', 'WenQuanYi Zen Hei', sans-serif",
    "serif": "Georgia, 'DejaVu Serif', 'WenQuanYi Zen Hei', serif",
    "mono": "'DejaVu Sans Mono', 'Liberation Mono', monospace",
}
FONT_CHOICES = list(GENERIC_FONTS) + list(WEB_FONTS)
# The fonts generated packs draw from: the choices there were when generation was defined, so
# that a ``random-<seed>`` pack keeps its look when a font is added (``inter`` came later).
SAMPLED_FONTS = [f for f in FONT_CHOICES if f != "inter"]

COLORS = Record(
    background=Color("#f4f5f7", doc="page background"),
    surface=Color("#ffffff", doc="cards, panels and inputs"),
    text=Color("#1d2330", doc="body text"),
    muted=Color("#5d6677", doc="secondary text"),
    primary=Color("#2f6fde", doc="buttons, links and highlights"),
    on_primary=Color("#ffffff", doc="text on primary-coloured buttons"),
    border=Color("#d9dde5", doc="lines around cards and inputs"),
    accent=Color("#f2a93b", doc="badges, pins and highlights"),
    on_accent=Color("#1d2330", doc="text on accent-coloured badges and avatars"),
    danger=Color("#d64545", doc="delete buttons"),
    success=Color("#2e9d5b", doc="done marks and confirmations"),
)

THEME = Record(
    colors=COLORS,
    font=Enum(FONT_CHOICES, "system", doc="body font; fonts other than the generic ones are served locally"),
    heading_font=Enum(["same"] + FONT_CHOICES, "same", doc="font of titles"),
    font_size=Int(15, lo=9, hi=40, doc="base text size in CSS pixels"),
    line_height=Float(1.45, lo=1.0, hi=2.5),
    letter_spacing=Float(0.0, lo=-0.1, hi=0.5, doc="in em"),
    radius=Int(8, lo=0, hi=30, doc="corner radius in CSS pixels"),
    spacing=Float(1.0, lo=0.3, hi=3.0, doc="multiplier of every padding and gap"),
    border_width=Int(1, lo=0, hi=6),
    layout=Enum(["desktop", "mobile"], "desktop", doc="mobile: a phone-width column"),
    content_width=Int(960, lo=320, hi=2400, doc="maximum width of the page content in CSS pixels"),
    nav_position=Enum(["top", "bottom"], "top", doc="where the bar with the Home link sits"),
    uppercase_buttons=Bool(False),
    shadows=Bool(True),
)

SHELL = Record(
    lang=LanguageTag("en", doc="the HTML lang attribute (a BCP 47 tag) and the language tasks phrase goals in"),
    content_lang=LanguageTag(
        "",
        doc="the language of the content (items, and what tasks bring in) when it is not 'lang': "
        "a pack that translates only the interface sets 'en'",
    ),
    dir=Enum(["ltr", "rtl"], "ltr", doc="text direction of every page: left-to-right or right-to-left"),
    home_label=Str("Home", doc="the link back to the start page"),
    brand=Str("OpenApps", doc="the name in the top bar"),
)

# The independent factors of the look. An appearance pack changes the keys of one factor only,
# so that any two packs of different factors compose without one undoing the other
# (``palette_nord+mobile`` is the Nord palette in the phone layout).
THEME_FACTORS: dict[str, frozenset[str]] = {
    "palette": frozenset({"colors", "radius", "border_width", "shadows", "uppercase_buttons"}),
    "font": frozenset({"font", "heading_font", "letter_spacing"}),
    "text_size": frozenset({"font_size", "line_height", "spacing"}),
    "layout": frozenset({"layout", "nav_position", "content_width"}),
}
