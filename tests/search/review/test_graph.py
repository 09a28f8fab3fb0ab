"""The evaluation graph (search/review/graph.py): exact plies joined, bounds drawn as bounds, openings
apart."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

from c4engine.search.review.graph import GraphPoint, review_graph_svg

SVG = "{http://www.w3.org/2000/svg}"


def _parse(points: list[GraphPoint]) -> ElementTree.Element:
    return ElementTree.fromstring(review_graph_svg(points, top_score=21))


def _of(root: ElementTree.Element, tag: str, kind: str) -> list[ElementTree.Element]:
    return [element for element in root.iter(SVG + tag) if element.get("class") == kind]


def _xs(polyline: ElementTree.Element) -> list[float]:
    return [float(pair.split(",")[0]) for pair in (polyline.get("points") or "").split()]


def test_the_line_stops_at_a_ply_with_bounds_only_and_goes_on_after_it() -> None:
    points = [GraphPoint(1, 1), GraphPoint(1, 1), GraphPoint(-3, 5, "?"), GraphPoint(0, 0), GraphPoint(0, 0)]
    root = _parse(points)
    dots = {
        int(dot.get("data-ply") or 0): float(dot.get("cx") or 0) for dot in _of(root, "circle", "point exact")
    }
    assert sorted(dots) == [1, 2, 4, 5]
    # two pieces of line, 1-2 and 4-5: none reaches across ply 3
    assert [_xs(line) for line in _of(root, "polyline", "trend")] == [[dots[1], dots[2]], [dots[4], dots[5]]]
    (bar,) = _of(root, "rect", "point bounds")
    top, height = float(bar.get("y") or 0), float(bar.get("height") or 0)
    assert bar.get("data-ply") == "3" and height > 10  # an interval, from a win to a loss
    # the mistake's ring sits on its bar, not in the air where a line would have passed
    (ring,) = _of(root, "circle", "mark mistake")
    assert top <= float(ring.get("cy") or 0) <= top + height
    assert abs(float(ring.get("cx") or 0) - float(bar.get("x") or 0) - float(bar.get("width") or 0) / 2) < 0.2


def test_a_lone_exact_ply_between_bounds_is_a_dot_without_a_line() -> None:
    root = _parse([GraphPoint(-2, 2), GraphPoint(1, 1), GraphPoint(-2, 2)])
    assert _of(root, "polyline", "trend") == []
    assert len(_of(root, "circle", "point exact")) == 1 and len(_of(root, "rect", "point bounds")) == 2


def test_the_plies_nobody_chose_lie_on_their_own_ground() -> None:
    points = [
        GraphPoint(1, 1, chosen=False),
        GraphPoint(1, 1, chosen=False),
        GraphPoint(1, 1),
        GraphPoint(2, 2),
    ]
    text = review_graph_svg(points, top_score=21)
    root = ElementTree.fromstring(text)
    (ground,) = _of(root, "rect", "opening")
    dots = _of(root, "circle", "point exact")
    assert [dot.get("fill") for dot in dots] == [
        "#ffffff",
        "#ffffff",
        "#1e293b",
        "#1e293b",
    ]  # hollow, then full
    right = float(ground.get("x") or 0) + float(ground.get("width") or 0)
    assert float(dots[1].get("cx") or 0) < right < float(dots[2].get("cx") or 0)
    assert re.search(r">opening</text>", text)
    assert _of(_parse([GraphPoint(1, 1), GraphPoint(1, 1)]), "rect", "opening") == []
