"""The report's charts as SVG components (``fasthtml.svg``): grouped bars and pass^k curves.
Each function returns one ``Svg`` component; nothing is built as a string."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
from fasthtml.svg import Circle, Line, Polyline, Rect, Svg, Text, Title

from openapps_sim.analysis.doc.fmt import is_nan


def _nice_ticks(vmax: float, count: int = 5) -> list[float]:
    if vmax <= 0 or is_nan(vmax):
        return [0.0, 1.0]
    raw = vmax / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw)
    n = math.ceil(vmax / step - 1e-9)
    return [round(i * step, 10) for i in range(n + 1)]


def _text_width(s: str, size: float = 12) -> float:
    return 0.58 * size * len(s)


def _r(v: float) -> str:
    return f"{v:.1f}"


def _svg(parts: list[Any], width: float, height: float, aria: str) -> Any:
    return Svg(
        *parts,
        viewBox=f"0 0 {width:.0f} {height:.0f}",
        width=f"{width:.0f}",
        height=f"{height:.0f}",
        role="img",
        aria_label=aria,
        cls="chart",
        style="max-width:100%;height:auto",
    )


def _bar(
    title: str,
    colour: str,
    val: float,
    bx: float,
    bar_w: float,
    y: Callable[[float], float],
    percent: bool,
    n: int | None,
    err: tuple[float, float] | None,
    show_values: bool,
) -> list[Any]:
    """One bar at ``bx`` with its hover title (``title``, value, n and interval), its interval
    whisker and its value label."""
    out: list[Any] = []
    by = y(val)
    shown = f"{100 * val:.1f}%" if percent else f"{val:.3g}"
    title = f"{title}: {shown}" + (f" (n={n})" if n is not None else "")
    if err and not is_nan(err[0]):
        title += (
            f", 95% CI {100 * err[0]:.1f}–{100 * err[1]:.1f}%" if percent else f", interval {err[0]:.3g}–{err[1]:.3g}"
        )
    out.append(Rect(_r(bar_w - 2), _r(max(0.0, y(0) - by)), x=_r(bx + 1), y=_r(by), fill=colour)(Title(title)))
    if err and not is_nan(err[0]) and err[1] > err[0]:
        cx = bx + bar_w / 2
        y1, y2 = y(err[0]), y(err[1])
        out.append(Line(_r(cx), _r(y1), _r(cx), _r(y2), cls="whisker"))
        for yy in (y1, y2):
            out.append(Line(_r(cx - 3), _r(yy), _r(cx + 3), _r(yy), cls="whisker"))
    if show_values:
        ly = (min(by, y(err[1])) if err and not is_nan(err[1]) else by) - 4
        label = f"{100 * val:.0f}%" if percent else f"{val:.2f}"
        out.append(Text(label, x=_r(bx + bar_w / 2), y=_r(ly), cls="value", text_anchor="middle"))
    return out


def _legend(series: Sequence[tuple[str, str, Sequence[float]]], left: float) -> list[Any]:
    parts: list[Any] = []
    lx = left
    for name, colour, _ in series:
        parts.append(Rect(12, 12, x=lx, y=8, rx=2, fill=colour))
        parts.append(Text(name, x=lx + 17, y=18, cls="legend"))
        lx += 17 + _text_width(name) + 18
    return parts


def _category_label(cat: str, cx: float, ly: float, rotate: bool) -> Any:
    if rotate:
        return Text(cat, transform=f"translate({cx:.1f},{ly - 4:.1f}) rotate(-35)", cls="cat", text_anchor="end")
    return Text(cat, x=_r(cx), y=_r(ly), cls="cat", text_anchor="middle")


def _group_layout(categories: Sequence[str], n_cat: int, n_ser: int) -> tuple[float, float, float, bool]:
    """Bar width, group width, widest category label and whether the labels are tilted."""
    # Bars fill about 760 px when there are few groups; never thinner than 9 px or wider than 30.
    bar_w = max(9.0, min(30.0, (760.0 / n_cat - 18) / n_ser))
    group_w = n_ser * bar_w + 18
    label_w = max((_text_width(c) for c in categories), default=0)
    if label_w + 10 > group_w and n_cat * (label_w + 10) <= 900:
        group_w = label_w + 10  # widen the groups rather than tilt short labels
    return bar_w, group_w, label_w, label_w + 4 > group_w


def _bar_ticks(series: Sequence, errors: Sequence | None, percent: bool, y_max: float | None) -> list[float]:
    vals = [v for _, _, vs in series for v in vs if not is_nan(v)]
    if errors:
        vals += [e[1] for es in errors for e in es if e and not is_nan(e[1])]
    top = y_max if y_max is not None else (1.0 if percent else max(vals, default=1.0) or 1.0)
    return [0, 0.25, 0.5, 0.75, 1.0] if percent and top == 1.0 else _nice_ticks(top)


def svg_grouped_bars(
    categories: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[float]]],
    y_label: str,
    x_label: str = "",
    percent: bool = True,
    y_max: float | None = None,
    errors: Sequence[Sequence[tuple[float, float] | None]] | None = None,
    counts: Sequence[Sequence[int | None]] | None = None,
    value_labels: bool | None = None,
    aria: str = "",
) -> Any:
    """A grouped bar chart: one group per category, one bar per series (name, colour, values).

    ``errors[s][c]`` draws an interval whisker, ``counts[s][c]`` goes into the hover title.
    """
    n_cat, n_ser = max(1, len(categories)), max(1, len(series))
    bar_w, group_w, label_w, rotate = _group_layout(categories, n_cat, n_ser)
    ticks = _bar_ticks(series, errors, percent, y_max)
    top = ticks[-1]
    left, right, head = 62, 14, 46
    bottom = 12 + (label_w * 0.5 + 14 if rotate else 14) + (22 if x_label else 0)
    plot_h = 230
    legend_w = left + sum(35 + _text_width(name) for name, _, _ in series)
    width = max(left + n_cat * group_w + right, legend_w, 420)
    group_w = (width - left - right) / n_cat  # spread the groups over the whole plot
    height = head + plot_h + bottom
    y = lambda v: head + plot_h - plot_h * (max(0.0, min(float(v), top)) / top)  # noqa: E731
    parts: list[Any] = _legend(series, left)
    for t in ticks:
        ty = _r(y(t))
        label = f"{100 * t:.0f}%" if percent else f"{t:g}"
        parts.append(Line(left, ty, width - right, ty, cls="grid"))
        parts.append(Text(label, x=left - 6, y=_r(y(t) + 4), cls="tick", text_anchor="end"))
    parts.append(
        Text(y_label, transform=f"translate(15,{head + plot_h / 2:.0f}) rotate(-90)", cls="axis", text_anchor="middle")
    )
    parts.append(Line(left, _r(y(0)), width - right, _r(y(0)), cls="base"))
    show_values = value_labels if value_labels is not None else n_cat * n_ser <= 16
    for ci, cat in enumerate(categories):
        gx = left + ci * group_w + (group_w - n_ser * bar_w) / 2
        for si, (name, colour, values) in enumerate(series):
            val = values[ci] if ci < len(values) else float("nan")
            bx = gx + si * bar_w
            if is_nan(val):
                parts.append(Text("–", x=_r(bx + bar_w / 2), y=_r(y(0) - 4), cls="na", text_anchor="middle"))
                continue
            n = counts[si][ci] if counts and si < len(counts) and ci < len(counts[si]) else None
            err = errors[si][ci] if errors and si < len(errors) and ci < len(errors[si]) else None
            title = f"{name} · {cat}"
            parts += _bar(title, colour, val, bx, bar_w, y, percent, n, err, show_values)
        parts.append(_category_label(cat, gx + (n_ser * bar_w) / 2, head + plot_h + 16, rotate))
    if x_label:
        middle = f"{left + (width - left - right) / 2:.0f}"
        parts.append(Text(x_label, x=middle, y=f"{height - 6:.0f}", cls="axis", text_anchor="middle"))
    return _svg(parts, width, height, aria or y_label)


def svg_pass_k(pass_k: pd.DataFrame, agents: Sequence[str], colours: dict[str, str]) -> Any:
    """pass^k (solid) and pass@k (dashed) against k, one colour per agent."""
    k_max = int(pass_k["k"].max())
    legend_w = 62 + sum(35 + _text_width(ag) for ag in agents) + 170
    left, right, head, bottom, plot_h = 62, 16, 34, 46, 220
    plot_w = max(300, 110 * (k_max - 1), legend_w - left)
    width, height = left + plot_w + right, head + plot_h + bottom
    x = lambda k: left + (plot_w * (k - 1) / (k_max - 1) if k_max > 1 else plot_w / 2)  # noqa: E731
    y = lambda v: head + plot_h - plot_h * float(v)  # noqa: E731
    parts: list[Any] = []
    lx = left
    for ag in agents:
        parts.append(Line(lx, 14, lx + 14, 14, stroke=colours[ag], stroke_width=3))
        parts.append(Text(ag, x=lx + 19, y=18, cls="legend"))
        lx += 19 + _text_width(ag) + 16
    parts += [Line(lx, 14, lx + 18, 14, cls="key"), Text("pass^k", x=lx + 22, y=18, cls="legend")]
    lx += 22 + _text_width("pass^k") + 14
    parts += [
        Line(lx, 14, lx + 18, 14, cls="key", stroke_dasharray="4 3"),
        Text("pass@k", x=lx + 22, y=18, cls="legend"),
    ]
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(Line(left, _r(y(t)), left + plot_w, _r(y(t)), cls="grid"))
        parts.append(Text(f"{100 * t:.0f}%", x=left - 6, y=_r(y(t) + 4), cls="tick", text_anchor="end"))
    for k in range(1, k_max + 1):
        parts.append(Text(str(k), x=_r(x(k)), y=head + plot_h + 18, cls="tick", text_anchor="middle"))
    parts.append(
        Text(
            "k (episodes of the same task and version)",
            x=f"{left + plot_w / 2:.0f}",
            y=height - 6,
            cls="axis",
            text_anchor="middle",
        )
    )
    parts.append(
        Text(
            "probability",
            transform=f"translate(15,{head + plot_h / 2:.0f}) rotate(-90)",
            cls="axis",
            text_anchor="middle",
        )
    )
    for ag in agents:
        g = pass_k[pass_k["agent"] == ag].sort_values("k")
        for col, dash in (("pass_hat_k", None), ("pass_at_k", "5 4")):
            pts = " ".join(f"{x(int(k)):.1f},{y(v):.1f}" for k, v in zip(g["k"], g[col], strict=True))
            parts.append(Polyline(points=pts, fill="none", stroke=colours[ag], stroke_width=2.2, stroke_dasharray=dash))
            for k, v in zip(g["k"], g[col], strict=True):
                fill = colours[ag] if col == "pass_hat_k" else "#fff"
                label = "pass^" if col == "pass_hat_k" else "pass@"
                parts.append(
                    Circle(3.6, cx=_r(x(int(k))), cy=_r(y(v)), fill=fill, stroke=colours[ag], stroke_width=1.8)(
                        Title(f"{ag} · {label}{int(k)} = {100 * v:.1f}%")
                    )
                )
    return _svg(parts, width, height, "pass^k and pass@k against k")
