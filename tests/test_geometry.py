"""A board's size and bit layout (c4engine.geometry): masks, mirror, the 64-bit predicate, and whether
the exact solver holds a board and its refusal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4engine.errors import BoardSizeError, UnsupportedBoardError
from c4engine.geometry import (
    MAX_SIZE,
    SOLVER_BITS,
    Geometry,
    center_order,
    require_solver_holds,
    solver_holds,
)


def test_the_masks_of_the_standard_board() -> None:
    geometry = Geometry.of(7, 6, 4)
    assert geometry.bottom_of(3) == 1 << 21 and geometry.top_of(3) == 1 << 26
    assert geometry.column_mask(0) == 0b111111
    assert geometry.full.bit_count() == 42 and geometry.bottom.bit_count() == 7
    assert not geometry.full & sum(1 << (column * 7 + 6) for column in range(7))  # the sentinels stay 0


def test_one_geometry_a_size() -> None:
    assert Geometry.of(7, 6, 4) is Geometry.of(7, 6, 4)
    with pytest.raises(BoardSizeError):
        Geometry.of(MAX_SIZE + 1, 6, 4)


@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_mirror_reflects_each_cell_and_twice_is_the_identity(
    width: int, height: int, data: st.DataObject
) -> None:
    geometry = Geometry(width, height, 2)
    cells = data.draw(st.sets(st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))))
    bits = sum(geometry.bit(column, row) for column, row in cells)
    mirrored = geometry.mirror(bits)
    assert set(geometry.cells_of(mirrored)) == {(width - 1 - column, row) for column, row in cells}
    assert geometry.mirror(mirrored) == bits


def test_center_order_starts_in_the_middle_and_takes_every_column_once() -> None:
    for width in range(1, MAX_SIZE + 1):
        order = center_order(width)
        assert sorted(order) == list(range(width))
        assert abs(order[0] - (width - 1) / 2) <= 0.5


def test_the_refusal_agrees_with_the_predicate() -> None:
    for width in range(1, 33):
        for height in range(1, 33):
            if solver_holds(width, height):
                require_solver_holds(width, height)
            else:
                with pytest.raises(UnsupportedBoardError, match=f"{width}x{height} needs"):
                    require_solver_holds(width, height, "perfect play")


def test_the_solver_holds_every_board_up_to_128_bits_and_refuses_the_rest_by_name() -> None:
    assert SOLVER_BITS == 128
    held = {(w, h) for w in range(1, 33) for h in range(1, 33) if solver_holds(w, h)}
    assert {(7, 6), (8, 7), (8, 8), (9, 7), (10, 6), (7, 9), (11, 9), (8, 15), (4, 31)} <= held
    assert not held & {(11, 11), (12, 10), (9, 14), (8, 16), (16, 8), (32, 4)}
    for width in range(1, 33):
        for height in range(1, 33):
            assert solver_holds(width, height) == (width * (height + 1) <= 128)
            assert Geometry(width, height, 2).solver_holds == solver_holds(width, height)
    # every size the message names as the largest of its height is held, and one row more is not
    with pytest.raises(UnsupportedBoardError, match=r"<= 128: up to .*; 9x14 needs 135") as refused:
        require_solver_holds(9, 14)
    named = str(refused.value).split("up to ")[1].split(";")[0].split(", ")
    for size in named:
        width, height = map(int, size.split("x"))
        assert solver_holds(width, height) and not solver_holds(width + 1, height), size
