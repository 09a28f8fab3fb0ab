"""benchmarks/word_layout.py: both layouts rank every position as the solver's order_moves does.

The benchmark checks each position's ranking against
:func:`c4engine.kernels.moves.order_moves` before it times anything; here a few positions of each
size go through that check, and a board written out of the one-word layout by hand pins the
conversion it relies on.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from c4engine.board import Board

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


word_layout = _load("word_layout")


def test_the_one_word_layout_drops_each_columns_sentinel() -> None:
    board = Board.from_moves("1122", width=8, height=8)  # columns 1 and 2 hold two stones each
    assert word_layout._one_word(board.mask_bits, 8, 8) == 0b11 | 0b11 << 8


@pytest.mark.parametrize("size", ["7x6", "8x8", "10x6"])
def test_both_layouts_rank_as_the_solver_does(size: str, capsys: pytest.CaptureFixture[str]) -> None:
    width, height = (int(part) for part in size.split("x"))
    word_layout.measure(width, height, count=200, rounds=1)  # raises SystemExit on any difference
    assert capsys.readouterr().out.startswith(f"{size} (today ")
