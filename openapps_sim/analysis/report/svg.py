"""The report's charts as inline SVG: grouped bars and pass^k curves."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from openapps_sim.analysis.report.fmt import _e, _nan


def _nice_ticks(vmax: float, count: int = 5) -> list[float]:
    if vmax <= 0 or _nan(vmax):
        return [0.0, 1.0]
    raw = vmax / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw)
    n = math.ceil(vmax / step - 1e-9)
    return [round(i * step, 10) for i in range(n + 1)]


def _text_width(s: str, size: float = 12) -> float:
    return 0.58 * size * len(s)


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
) -> str:
    """A grouped bar chart: one group per category, one bar per series (name, colour, values).

    ``errors[s][c]`` draws an interval whisker, ``counts[s][c]`` goes into the hover title.
    """
    n_cat, n_ser = max(1, len(categories)), max(1, len(series))
    # Bars fill about 760 px when there are few groups; never thinner than 9 px or wider than 30.
    bar_w = max(9.0, min(30.0, (760.0 / n_cat - 18) / n_ser))
    group_w = n_ser * bar_w + 18
    label_w = max((_text_width(c) for c in categories), default=0)
    if label_w + 10 > group_w and n_cat * (label_w + 10) <= 900:
        group_w = label_w + 10  # widen the groups rather than tilt short labels
    rotate = label_w + 4 > group_w
    vals = [v for _, _, vs in series for v in vs if not _nan(v)]
    if errors:
        vals += [e[1] for es in errors for e in es if e and not _nan(e[1])]
    top = y_max if y_max is not None else (1.0 if percent else max(vals, default=1.0) or 1.0)
    ticks = [0, 0.25, 0.5, 0.75, 1.0] if percent and top == 1.0 else _nice_ticks(top)
    top = ticks[-1]
    left, right, head = 62, 14, 46
    bottom = 12 + (label_w * 0.5 + 14 if rotate else 14) + (22 if x_label else 0)
    plot_h = 230
    legend_w = left + sum(35 + _text_width(name) for name, _, _ in series)
    width = max(left + n_cat * group_w + right, legend_w, 420)
    group_w = (width - left - right) / n_cat  # spread the groups over the whole plot
    height = head + plot_h + bottom
    y = lambda v: head + plot_h - plot_h * (max(0.0, min(float(v), top)) / top)  # noqa: E731
    parts = [
        f'<svg class="chart" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'role="img" aria-label="{_e(aria or y_label)}" style="max-width:100%;height:auto">'
    ]
    # Legend.
    lx = left
    for name, colour, _ in series:
        parts.append(f'<rect x="{lx}" y="8" width="12" height="12" rx="2" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 17}" y="18" class="legend">{_e(name)}</text>')
        lx += 17 + _text_width(name) + 18
    # Grid and y axis.
    for t in ticks:
        ty = y(t)
        label = f"{100 * t:.0f}%" if percent else (f"{t:g}")
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" class="tick" text-anchor="end">{label}</text>')
    parts.append(
        f'<text transform="translate(15,{head + plot_h / 2:.0f}) rotate(-90)" class="axis" text-anchor="middle">{_e(y_label)}</text>'
    )
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="base"/>')
    show_values = value_labels if value_labels is not None else n_cat * n_ser <= 16
    for ci, cat in enumerate(categories):
        gx = left + ci * group_w + (group_w - n_ser * bar_w) / 2
        for si, (name, colour, values) in enumerate(series):
            val = values[ci] if ci < len(values) else float("nan")
            bx = gx + si * bar_w
            if _nan(val):
                parts.append(
                    f'<text x="{bx + bar_w / 2:.1f}" y="{y(0) - 4:.1f}" class="na" text-anchor="middle">–</text>'
                )
                continue
            by = y(val)
            n = counts[si][ci] if counts and si < len(counts) and ci < len(counts[si]) else None
            shown = f"{100 * val:.1f}%" if percent else f"{val:.3g}"
            title = f"{name} · {cat}: {shown}" + (f" (n={n})" if n is not None else "")
            err = errors[si][ci] if errors and si < len(errors) and ci < len(errors[si]) else None
            if err and not _nan(err[0]):
                title += (
                    f", 95% CI {100 * err[0]:.1f}–{100 * err[1]:.1f}%"
                    if percent
                    else f", interval {err[0]:.3g}–{err[1]:.3g}"
                )
            parts.append(
                f'<rect x="{bx + 1:.1f}" y="{by:.1f}" width="{bar_w - 2:.1f}" height="{max(0.0, y(0) - by):.1f}" '
                f'fill="{colour}"><title>{_e(title)}</title></rect>'
            )
            if err and not _nan(err[0]) and err[1] > err[0]:
                cx = bx + bar_w / 2
                y1, y2 = y(err[0]), y(err[1])
                parts.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y1:.1f}" y2="{y2:.1f}" class="whisker"/>')
                for yy in (y1, y2):
                    parts.append(
                        f'<line x1="{cx - 3:.1f}" x2="{cx + 3:.1f}" y1="{yy:.1f}" y2="{yy:.1f}" class="whisker"/>'
                    )
            if show_values:
                ly = (min(by, y(err[1])) if err and not _nan(err[1]) else by) - 4
                label = f"{100 * val:.0f}%" if percent else f"{val:.2f}"
                parts.append(
                    f'<text x="{bx + bar_w / 2:.1f}" y="{ly:.1f}" class="value" text-anchor="middle">{label}</text>'
                )
        cx = gx + (n_ser * bar_w) / 2
        ly = head + plot_h + 16
        if rotate:
            parts.append(
                f'<text transform="translate({cx:.1f},{ly - 4:.1f}) rotate(-35)" class="cat" text-anchor="end">{_e(cat)}</text>'
            )
        else:
            parts.append(f'<text x="{cx:.1f}" y="{ly:.1f}" class="cat" text-anchor="middle">{_e(cat)}</text>')
    if x_label:
        parts.append(
            f'<text x="{left + (width - left - right) / 2:.0f}" y="{height - 6:.0f}" class="axis" text-anchor="middle">{_e(x_label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def svg_pass_k(pass_k: pd.DataFrame, agents: Sequence[str], colours: dict[str, str]) -> str:
    """pass^k (solid) and pass@k (dashed) against k, one colour per agent."""
    k_max = int(pass_k["k"].max())
    legend_w = 62 + sum(35 + _text_width(ag) for ag in agents) + 170
    left, right, head, bottom, plot_h = 62, 16, 34, 46, 220
    plot_w = max(300, 110 * (k_max - 1), legend_w - left)
    width, height = left + plot_w + right, head + plot_h + bottom
    x = lambda k: left + (plot_w * (k - 1) / (k_max - 1) if k_max > 1 else plot_w / 2)  # noqa: E731
    y = lambda v: head + plot_h - plot_h * float(v)  # noqa: E731
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="pass^k and pass@k against k" style="max-width:100%;height:auto">'
    ]
    lx = left
    for ag in agents:
        parts.append(f'<line x1="{lx}" x2="{lx + 14}" y1="14" y2="14" stroke="{colours[ag]}" stroke-width="3"/>')
        parts.append(f'<text x="{lx + 19}" y="18" class="legend">{_e(ag)}</text>')
        lx += 19 + _text_width(ag) + 16
    parts.append(
        f'<line x1="{lx}" x2="{lx + 18}" y1="14" y2="14" class="key"/><text x="{lx + 22}" y="18" class="legend">pass^k</text>'
    )
    lx += 22 + _text_width("pass^k") + 14
    parts.append(
        f'<line x1="{lx}" x2="{lx + 18}" y1="14" y2="14" class="key" stroke-dasharray="4 3"/>'
        f'<text x="{lx + 22}" y="18" class="legend">pass@k</text>'
    )
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" class="tick" text-anchor="end">{100 * t:.0f}%</text>')
    for k in range(1, k_max + 1):
        parts.append(f'<text x="{x(k):.1f}" y="{head + plot_h + 18}" class="tick" text-anchor="middle">{k}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2:.0f}" y="{height - 6}" class="axis" text-anchor="middle">k (episodes of the same task and version)</text>'
    )
    parts.append(
        f'<text transform="translate(15,{head + plot_h / 2:.0f}) rotate(-90)" class="axis" text-anchor="middle">probability</text>'
    )
    for ag in agents:
        g = pass_k[pass_k["agent"] == ag].sort_values("k")
        for col, dash in (("pass_hat_k", ""), ("pass_at_k", ' stroke-dasharray="5 4"')):
            pts = " ".join(f"{x(int(k)):.1f},{y(v):.1f}" for k, v in zip(g["k"], g[col], strict=True))
            parts.append(f'<polyline points="{pts}" fill="none" stroke="{colours[ag]}" stroke-width="2.2"{dash}/>')
            for k, v in zip(g["k"], g[col], strict=True):
                fill = colours[ag] if col == "pass_hat_k" else "#fff"
                label = "pass^" if col == "pass_hat_k" else "pass@"
                parts.append(
                    f'<circle cx="{x(int(k)):.1f}" cy="{y(v):.1f}" r="3.6" fill="{fill}" stroke="{colours[ag]}" stroke-width="1.8">'
                    f"<title>{_e(ag)} · {label}{int(k)} = {100 * v:.1f}%</title></circle>"
                )
    parts.append("</svg>")
    return "".join(parts)
