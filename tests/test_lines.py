"""Lines of N found by shifts (c4engine.lines) against a walk over the cells."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from c4engine.geometry import Geometry
from c4engine.lines import has_line, line_cells

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def naive_line_cells(cells: set[tuple[int, int]], length: int) -> set[tuple[int, int]]:
    """Every cell of ``cells`` in a run of ``length`` or more of them, by walking each direction."""
    found = set()
    for column, row in cells:
        for dc, dr in DIRECTIONS:
            run = {(column + dc * step, row + dr * step) for step in range(length)}
            if run <= cells:
                found |= run
    return found


@st.composite
def stones(draw: st.DrawFn) -> tuple[Geometry, set[tuple[int, int]], int]:
    """Any set of cells (not a position: lines alone, not gravity) on a random size, and a line length."""
    width, height = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    length = draw(st.integers(2, max(2, width, height)))
    cells = draw(st.sets(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))))
    return Geometry(width, height, length), cells, length


@settings(max_examples=400, deadline=None)
@given(stones())
def test_the_shifts_find_the_cells_a_walk_finds(case: tuple[Geometry, set[tuple[int, int]], int]) -> None:
    geometry, cells, length = case
    bits = sum(geometry.bit(column, row) for column, row in cells)
    expected = naive_line_cells(cells, length)
    assert set(geometry.cells_of(line_cells(bits, geometry.height, length))) == expected
    assert has_line(bits, geometry.height, length) is bool(expected)


def test_a_line_never_runs_from_the_top_of_one_column_into_the_next() -> None:
    geometry = Geometry(7, 6, 4)
    top_and_bottom = geometry.bit(0, 4) | geometry.bit(0, 5) | geometry.bit(1, 0) | geometry.bit(1, 1)
    assert not has_line(top_and_bottom, 6, 4)  # consecutive bits but for the sentinel between them
