"""Small line charts as SVG (the tuning curve), written without a plotting library.

>>> svg = line_chart_svg([("best", [(0, 0.2), (10, 0.6)])], title="fitness", x_label="games")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and svg.count("<polyline") == 1
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

__all__ = ["PALETTE", "line_chart_svg", "nice_ticks"]

PALETTE = ("#1d4ed8", "#dc2626", "#16a34a", "#9333ea", "#ea580c")

Series = tuple[str, Sequence[tuple[float, float]]]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``low .. high`` (about ``count`` of them).

    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(3.0, 3.0)
    [2.0, 2.5, 3.0, 3.5, 4.0]
    """
    if high <= low:
        low, high = low - 1.0, high + 1.0
    raw = (high - low) / max(count, 1)
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1.0, 2.0, 2.5, 5.0, 10.0) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(round(value, 10))
    return ticks


def line_chart_svg(
    series: Sequence[Series],
    *,
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    width: int = 640,
    height: int = 360,
    y_range: tuple[float, float] | None = None,
) -> str:
    """An SVG chart with one polyline (and dots) per ``(name, points)`` series, axes, ticks and a legend."""
    points = [point for _name, data in series for point in data]
    xs = [x for x, _y in points] or [0.0, 1.0]
    ys = [y for _x, y in points] or [0.0, 1.0]
    x_ticks = nice_ticks(min(xs), max(xs))
    y_ticks = nice_ticks(*(y_range if y_range is not None else (min(ys), max(ys))))
    left, right, top, bottom = 64, 16, 36, 48
    plot_w, plot_h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + (x - x_ticks[0]) / (x_ticks[-1] - x_ticks[0]) * plot_w

    def sy(y: float) -> float:
        return top + plot_h - (y - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>',
    ]
    for y in y_ticks:
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" stroke="#e5e7eb"/>'
            f'<text x="{left - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:g}</text>'
        )
    for x in x_ticks:
        parts.append(
            f'<line x1="{sx(x):.1f}" x2="{sx(x):.1f}" y1="{top}" y2="{top + plot_h}" stroke="#f3f4f6"/>'
            f'<text x="{sx(x):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{x:g}</text>'
        )
    parts.append(
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#6b7280"/>'
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 10}" text-anchor="middle">{escape(x_label)}</text>'
        f'<text x="16" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 16 {top + plot_h / 2:.1f})">{escape(y_label)}</text>'
    )
    for number, (name, data) in enumerate(series):
        colour = PALETTE[number % len(PALETTE)]
        coordinates = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in data)
        parts.append(
            f'<polyline class="series" fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{coordinates}"/>'
        )
        parts.extend(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.5" fill="{colour}"/>' for x, y in data)
        legend_y = top + 14 + 16 * number
        parts.append(
            f'<line x1="{left + 10}" x2="{left + 30}" y1="{legend_y - 4}" y2="{legend_y - 4}" '
            f'stroke="{colour}" stroke-width="2"/><text x="{left + 36}" y="{legend_y}">{escape(name)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
