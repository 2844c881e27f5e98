"""The text formats configuration values are checked against: CSS colours and BCP 47 language
tags (used by :class:`~openapps_sim.config.schema.Color` and ``LanguageTag``)."""

from __future__ import annotations

import re

# The CSS named colours (CSS Color Module Level 4) plus the two keywords a theme may use.
CSS_COLOR_NAMES = frozenset(
    """aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
    burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
    darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred
    darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink
    deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold
    goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush
    lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey
    lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime
    limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
    mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin
    navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise
    palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue
    saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow
    springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen
    transparent currentcolor""".split()
)
_NUM = r"[+-]?(?:\d+\.?\d*|\.\d+)"
_PCT = rf"{_NUM}%"
_ALPHA = rf"(?:{_NUM}%?)"
_HUE = rf"{_NUM}(?:deg|turn|rad|grad)?"
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_RGB = re.compile(
    rf"^rgba?\(\s*(?:{_NUM}%?\s*,\s*{_NUM}%?\s*,\s*{_NUM}%?(?:\s*,\s*{_ALPHA})?"
    rf"|{_NUM}%?\s+{_NUM}%?\s+{_NUM}%?(?:\s*/\s*{_ALPHA})?)\s*\)$",
    re.I,
)
_HSL = re.compile(
    rf"^hsla?\(\s*(?:{_HUE}\s*,\s*{_PCT}\s*,\s*{_PCT}(?:\s*,\s*{_ALPHA})?"
    rf"|{_HUE}\s+{_PCT}\s+{_PCT}(?:\s*/\s*{_ALPHA})?)\s*\)$",
    re.I,
)


def is_css_color(text: str) -> bool:
    """Whether ``text`` is a CSS colour: a named colour, ``#rgb``/``#rrggbb`` (with optional
    alpha), ``rgb()``/``rgba()`` or ``hsl()``/``hsla()``."""
    text = text.strip()
    return text.lower() in CSS_COLOR_NAMES or bool(_HEX.match(text) or _RGB.match(text) or _HSL.match(text))


# BCP 47 language tags as used in HTML ``lang``: a 2-3 letter language (ISO 639), then an
# optional script (Latn, Hans), region (DE, 419) and variants; private-use tags start with x-.
_LANG = re.compile(
    r"^(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?"
    r"(?:-(?:[a-z0-9]{5,8}|\d[a-z0-9]{3}))*(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?"
    r"|x(?:-[a-z0-9]{1,8})+)$",
    re.I,
)


def is_language_tag(text: str) -> bool:
    """Whether ``text`` is a BCP 47 language tag (``en``, ``pt-BR``, ``zh-Hans``, ``ar``)."""
    return bool(_LANG.match(text.strip()))
