"""A reviewed game's evaluation graph as SVG: plies across, the result from the first player's view.

The picture has three bands: the first player wins (top; the sooner the
win, the higher), a draw (the middle line) and the first player loses
(bottom; the sooner the loss, the lower).  Each ply is one point on the
solver's scale, after its move, as :class:`GraphPoint` gives it -- a dot
where the score is exact, a bar over the proven interval where it is not --
and the costly moves carry their mark (``?!``, ``?``, ``??``) in a ring.
The line joins neighbouring exact dots only: it stops at a bar, whose
interval is all that is proven there, and goes on after it.  The plies
nobody chose (a match's random opening) lie on a grey ground, their dots
hollow.
This module draws plain data, so it sits beside :mod:`c4engine.svg` below
the searches; :class:`c4engine.search.review.game.Review` hands it its plies.

>>> svg = review_graph_svg([GraphPoint(1, 1), GraphPoint(1, 1), GraphPoint(0, 0, "?")], top_score=21)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), svg.count('class="point exact"')
(True, 3)
>>> svg.count('class="mark mistake"')
1
>>> gapped = review_graph_svg([GraphPoint(1, 1), GraphPoint(-2, 3), GraphPoint(1, 1)], top_score=21)
>>> gapped.count('class="trend"'), gapped.count('class="point bounds"')    # no line across the bar
(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

__all__ = ["GraphPoint", "review_graph_svg"]

_MARK_CLASS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}
_MARK_COLOUR = {"?!": "#ca8a04", "?": "#ea580c", "??": "#dc2626"}
_COLOURS = {
    "win": "#fee2e2",  # the first player's colour is red (c4engine.svg)
    "loss": "#fef9c3",  # the second player's yellow
    "draw": "#e2e8f0",
    "line": "#1e293b",
    "bar": "#64748b",
    "text": "#1e293b",
    "opening": "#94a3b8",
}


@dataclass(frozen=True)
class GraphPoint:
    """One ply after its move: the proven bounds of the score from the first player's view, its mark,
    and whether someone chose the move (not in a random opening)."""

    lower: int
    upper: int
    mark: str = ""
    chosen: bool = True


def review_graph_svg(
    points: Sequence[GraphPoint],
    *,
    top_score: int,
    first_ply: int = 0,
    width: int = 640,
    height: int = 240,
) -> str:
    """The evaluation graph of ``points`` (ply ``first_ply + 1`` onwards); ``top_score`` is the largest
    score of the board (a win with the first stone, :func:`c4engine.search.scale.win_score` of no stones)."""
    top_score = max(top_score, 1)
    margin_left, margin_right, margin_top, margin_bottom = 48.0, 12.0, 12.0, 24.0
    plot_w = width - margin_left - margin_right
    plot_h = height - margin_top - margin_bottom
    draw_h = plot_h * 0.12  # the draw band
    band_h = (plot_h - draw_h) / 2
    mid = margin_top + band_h + draw_h / 2

    def y_of(score: int) -> float:
        if score == 0:
            return mid
        depth = (top_score - abs(score)) / max(top_score - 1, 1)  # 0 for the quickest result
        offset = draw_h / 2 + band_h * (1 - depth)
        return mid - offset if score > 0 else mid + offset

    count = max(len(points), 1)
    step = plot_w / count

    def x_of(index: int) -> float:
        return margin_left + step * (index + 0.5)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img">',
        f"<title>{escape(f'Evaluation graph: {len(points)} plies, the first player view')}</title>",
        _rect("band win", margin_left, margin_top, plot_w, band_h, _COLOURS["win"]),
        _rect("band draw", margin_left, margin_top + band_h, plot_w, draw_h, _COLOURS["draw"]),
        _rect("band loss", margin_left, margin_top + band_h + draw_h, plot_w, band_h, _COLOURS["loss"]),
        _text(4, margin_top + 12, "X wins"),
        _text(4, mid + 4, "draw"),
        _text(4, margin_top + plot_h - 4, "O wins"),
    ]
    opening = next((index for index, point in enumerate(points) if point.chosen), len(points))
    if opening:
        parts.append(
            f'<rect class="opening" x="{margin_left:.1f}" y="{margin_top:.1f}" width="{step * opening:.1f}" '
            f'height="{plot_h:.1f}" fill="{_COLOURS["opening"]}" fill-opacity="0.35"/>'
        )
        parts.append(_text(margin_left + 2, margin_top + plot_h - 4, "opening"))
    for run in _proven_runs(points):
        if len(run) > 1:
            path = " ".join(f"{x_of(i):.1f},{y_of(points[i].lower):.1f}" for i in run)
            parts.append(
                f'<polyline class="trend" points="{path}" fill="none" stroke="{_COLOURS["line"]}" '
                'stroke-width="1.5"/>'
            )
    bar_w = min(step * 0.5, 8.0)
    for index, point in enumerate(points):
        x = x_of(index)
        ply = first_ply + index + 1
        if point.lower == point.upper:
            fill = _COLOURS["line"] if point.chosen else "#ffffff"
            parts.append(
                f'<circle class="point exact" data-ply="{ply}" cx="{x:.1f}" cy="{y_of(point.lower):.1f}" '
                f'r="3" fill="{fill}" stroke="{_COLOURS["line"]}"/>'
            )
        else:
            top, bottom = y_of(point.upper), y_of(point.lower)
            parts.append(
                f'<rect class="point bounds" data-ply="{ply}" x="{x - bar_w / 2:.1f}" y="{top:.1f}" '
                f'width="{bar_w:.1f}" height="{max(bottom - top, 2.0):.1f}" fill="{_COLOURS["bar"]}" '
                f'fill-opacity="0.45" stroke="{_COLOURS["bar"]}"/>'
            )
        if point.mark in _MARK_CLASS:
            y = (
                y_of(point.lower)
                if point.lower == point.upper
                else (y_of(point.lower) + y_of(point.upper)) / 2
            )
            colour = _MARK_COLOUR[point.mark]
            parts.append(
                f'<circle class="mark {_MARK_CLASS[point.mark]}" data-ply="{ply}" cx="{x:.1f}" cy="{y:.1f}" '
                f'r="7" fill="none" stroke="{colour}" stroke-width="2"/>'
            )
            parts.append(_text(x - 6, y - 10, point.mark, colour))
    for index in range(0, len(points), 5 if len(points) > 20 else 1):
        parts.append(_text(x_of(index) - 4, height - 6, str(first_ply + index + 1)))
    parts.append("</svg>")
    return "\n".join(parts)


def _proven_runs(points: Sequence[GraphPoint]) -> list[list[int]]:
    """The runs of neighbouring plies whose scores are exact (their indexes): the line joins each run
    and never crosses a ply that only has bounds.

    >>> _proven_runs([GraphPoint(0, 0), GraphPoint(1, 1), GraphPoint(-1, 1), GraphPoint(2, 2)])
    [[0, 1], [3]]
    """
    runs: list[list[int]] = []
    previous_proven = False
    for index, point in enumerate(points):
        proven = point.lower == point.upper
        if proven and previous_proven:
            runs[-1].append(index)
        elif proven:
            runs.append([index])
        previous_proven = proven
    return runs


def _rect(kind: str, x: float, y: float, w: float, h: float, fill: str) -> str:
    return f'<rect class="{kind}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}"/>'


def _text(x: float, y: float, words: str, colour: str = _COLOURS["text"]) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="11" fill="{colour}">'
        f"{escape(words)}</text>"
    )
