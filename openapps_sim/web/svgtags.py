"""FastHTML's SVG tags (``fasthtml.svg``), running FastHTML's own code with the faster
:func:`openapps_sim.web.tags.ft_tag` in place of ``ft_hx``: the same trees, built faster."""

from __future__ import annotations

from functools import partial

from fasthtml import svg as _svg

from openapps_sim.web.tags import Title, ft_tag, rebind  # noqa: F401 - fasthtml.svg's Title is the HTML one

for _name in ("ft_svg", "Svg", "Rect", "Circle", "Ellipse", "Line", "Polyline", "Polygon", "Text", "Path"):
    globals()[_name] = rebind(getattr(_svg, _name), _svg)
for _name in _svg._all_:  # the plain ones: partials of ft_hx there
    globals()[_name] = partial(ft_tag, _name[0].lower() + _name[1:])
