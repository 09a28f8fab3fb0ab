"""benchmarks/word_layout.py: both layouts rank every position as the solver's order_moves does.

The benchmark checks each position's ranking against
:func:`c4engine.kernels.moves.order_moves` before it times anything; here a few positions of each
size go through that check, and a board written out of the one-word layout by hand pins the
conversion it relies on.
"""

from __future__ import annotations

import pytest
from tests.benchmark_scripts import load_benchmark

from c4engine.board import Board

word_layout = load_benchmark("word_layout")


def test_the_one_word_layout_drops_each_columns_sentinel() -> None:
    board = Board.from_moves("1122", width=8, height=8)  # columns 1 and 2 hold two stones each
    assert word_layout._one_word(board.mask_bits, 8, 8) == 0b11 | 0b11 << 8


@pytest.mark.parametrize("size", ["7x6", "8x8", "10x6"])
def test_both_layouts_rank_as_the_solver_does(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    width, height = (int(part) for part in size.split("x"))
    word_layout.measure(width, height, count=200, rounds=1)  # raises SystemExit on any difference
    assert capsys.readouterr().out.startswith(f"{size} (today ")
