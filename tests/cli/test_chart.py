"""Line charts as SVG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from c4engine.cli.chart import line_chart_svg, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def test_ticks_cover_the_range_with_round_steps() -> None:
    assert nice_ticks(0, 12000) == [0, 2500, 5000, 7500, 10000, 12500]
    ticks = nice_ticks(0.31, 0.68)
    assert ticks[0] <= 0.31 and ticks[-1] >= 0.68
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1


def test_chart_is_valid_svg_with_one_polyline_per_series() -> None:
    svg = line_chart_svg(
        [("best", [(0, 0.1), (100, 0.5), (200, 0.7)]), ("mean <&>", [(0, 0.05), (200, 0.4)])],
        title="fitness & more",
        x_label="games",
        y_label="score",
        y_range=(0, 1),
    )
    root = ET.fromstring(svg)
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2
    assert len(lines[0].get("points", "").split()) == 3
    assert len(root.findall(f"{SVG}circle")) == 5
    texts = [element.text for element in root.iter(f"{SVG}text")]
    assert "fitness & more" in texts and "mean <&>" in texts
    # higher scores are drawn higher (smaller y)
    ys = [float(point.split(",")[1]) for point in lines[0].get("points", "").split()]
    assert ys[0] > ys[1] > ys[2]


def test_an_empty_chart_still_draws() -> None:
    root = ET.fromstring(line_chart_svg([]))
    assert root.findall(f"{SVG}polyline") == []
